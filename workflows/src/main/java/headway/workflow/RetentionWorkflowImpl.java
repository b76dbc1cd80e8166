package headway.workflow;

import headway.activity.RetentionActivities;
import headway.activity.RetentionSummary;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Workflow;
import org.slf4j.Logger;

/**
 * Runs one purge, then checks again the availability of releases nearing the horizon (issue 44:
 * a takedown after a release was written). A re-check that fails is left to the next run and does
 * not fail the purge's run.
 */
public final class RetentionWorkflowImpl implements RetentionWorkflow {
    private static final Logger log = Workflow.getLogger(RetentionWorkflowImpl.class);

    /** Timeouts and retries: see {@link SchedulePolicies#retention}. */
    private final RetentionActivities retention =
            Workflow.newActivityStub(RetentionActivities.class, SchedulePolicies.retention());

    @Override
    public RetentionSummary purge() {
        RetentionSummary purged = retention.purge();
        try {
            retention.recheckAvailability();
        } catch (ActivityFailure e) {
            log.warn("checking releases near the horizon again failed; the next run tries again: {}", e.toString());
        }
        return purged;
    }
}
