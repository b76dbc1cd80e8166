package headway.workflow;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** Plans every group once per run, then wakes the group workflows that got new ranges. */
@WorkflowInterface
public interface PlannerWorkflow {

    /** Plans and signals "planned" to each {@code group/<name>} that got new ranges. */
    @WorkflowMethod
    PlannerOutcome plan();
}
