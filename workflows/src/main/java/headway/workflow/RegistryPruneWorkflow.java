package headway.workflow;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** Prunes the node registry once per run; its Schedule makes it the one actor that prunes. */
@WorkflowInterface
public interface RegistryPruneWorkflow {

    /** Returns the number of node rows deleted. */
    @WorkflowMethod
    int prune();
}
