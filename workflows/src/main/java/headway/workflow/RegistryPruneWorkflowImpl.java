package headway.workflow;

import headway.activity.RegistryActivities;
import io.temporal.workflow.Workflow;

/** Runs one prune. */
public final class RegistryPruneWorkflowImpl implements RegistryPruneWorkflow {

    /** Timeouts and retries: see {@link SchedulePolicies#registryPrune}. */
    private final RegistryActivities registry =
            Workflow.newActivityStub(RegistryActivities.class, SchedulePolicies.registryPrune());

    @Override
    public int prune() {
        return registry.prune();
    }
}
