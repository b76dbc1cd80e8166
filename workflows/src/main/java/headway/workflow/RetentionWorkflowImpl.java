package headway.workflow;

import headway.activity.RetentionActivities;
import headway.activity.RetentionSummary;
import io.temporal.workflow.Workflow;

/** Runs one purge. */
public final class RetentionWorkflowImpl implements RetentionWorkflow {

    /** Timeouts and retries: see {@link SchedulePolicies#retention}. */
    private final RetentionActivities retention =
            Workflow.newActivityStub(RetentionActivities.class, SchedulePolicies.retention());

    @Override
    public RetentionSummary purge() {
        return retention.purge();
    }
}
