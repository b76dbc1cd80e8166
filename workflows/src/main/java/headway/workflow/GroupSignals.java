package headway.workflow;

import io.temporal.api.enums.v1.SignalExternalWorkflowExecutionFailedCause;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;

/** Signals from the scheduled workflows to group workflows, tolerating groups that have no running workflow. */
final class GroupSignals {

    /** The failure type of a signal to a workflow that is not running (the SDK reports it as an ApplicationFailure). */
    private static final String NOT_RUNNING =
            SignalExternalWorkflowExecutionFailedCause
                    .SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED_CAUSE_EXTERNAL_WORKFLOW_EXECUTION_NOT_FOUND
                    .name();

    private GroupSignals() {}

    /** Sends {@code signal} to {@code group/<group>}; false when that workflow is not running. */
    static boolean signal(String group, String signal, Object... args) {
        try {
            Workflow.newUntypedExternalWorkflowStub(TaskQueues.workflowId(group))
                    .signal(signal, args);
            return true;
        } catch (ApplicationFailure e) {
            if (!NOT_RUNNING.equals(e.getType())) {
                throw e;
            }
            return false;
        }
    }
}
