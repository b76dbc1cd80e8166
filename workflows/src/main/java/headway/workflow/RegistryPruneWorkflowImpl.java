package headway.workflow;

import headway.activity.RegistryActivities;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/** Runs one prune. */
public final class RegistryPruneWorkflowImpl implements RegistryPruneWorkflow {

    /*
     * The prune is one delete statement and idempotent. A few quick attempts cover a database
     * blip; a longer outage only leaves dead rows (already ignored by peers, which filter on the
     * TTL) until the next scheduled run.
     */
    private final RegistryActivities registry = Workflow.newActivityStub(
            RegistryActivities.class,
            ActivityOptions.newBuilder()
                    .setStartToCloseTimeout(Duration.ofSeconds(30))
                    .setRetryOptions(RetryOptions.newBuilder()
                            .setInitialInterval(Duration.ofSeconds(2))
                            .setBackoffCoefficient(2)
                            .setMaximumAttempts(3)
                            .build())
                    .build());

    @Override
    public int prune() {
        return registry.prune();
    }
}
