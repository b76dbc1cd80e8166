package headway.workflow;

import headway.activity.PlannerActivities;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * Plans, then signals each group workflow that got new ranges, one after the other; a group
 * without a running workflow is skipped and named in the outcome, because it finds its ranges when
 * it is started.
 */
public final class PlannerWorkflowImpl implements PlannerWorkflow {

    /** The signal a group workflow waits for when it is caught up. */
    public static final String PLANNED_SIGNAL = "planned";

    private static final Logger log = Workflow.getLogger(PlannerWorkflowImpl.class);

    /*
     * Planning asks the news server for every group's high-water mark, so one slow server can take
     * minutes: ten minutes to close. Planning is idempotent on (group, start article), so a retry
     * never plans a range twice; five attempts up to a minute apart ride out a server restart, and
     * a longer outage waits for the next scheduled run.
     */
    private final PlannerActivities planner = Workflow.newActivityStub(
            PlannerActivities.class,
            ActivityOptions.newBuilder()
                    .setStartToCloseTimeout(Duration.ofMinutes(10))
                    .setRetryOptions(RetryOptions.newBuilder()
                            .setInitialInterval(Duration.ofSeconds(10))
                            .setBackoffCoefficient(2)
                            .setMaximumInterval(Duration.ofMinutes(1))
                            .setMaximumAttempts(5)
                            .build())
                    .build());

    @Override
    public PlannerOutcome plan() {
        List<String> planned = planner.planAll();
        List<String> signalled = new ArrayList<>();
        List<String> notRunning = new ArrayList<>();
        for (String group : planned) {
            if (GroupSignals.signal(group, PLANNED_SIGNAL)) {
                signalled.add(group);
            } else {
                log.info("planner: group/{} is not running, it finds its new ranges when started", group);
                notRunning.add(group);
            }
        }
        return new PlannerOutcome(planned, signalled, notRunning);
    }
}
