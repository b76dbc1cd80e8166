package headway.workflow;

import headway.activity.RetentionSummary;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** Applies the catalog's retention once per run; its Schedule makes it the one actor that purges. */
@WorkflowInterface
public interface RetentionWorkflow {

    /** Returns what the run removed. */
    @WorkflowMethod
    RetentionSummary purge();
}
