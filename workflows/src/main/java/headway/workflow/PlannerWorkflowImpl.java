package headway.workflow;

import headway.activity.PlannerActivities;
import io.temporal.workflow.Workflow;
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

    /** Timeouts and retries: see {@link SchedulePolicies#planner}. */
    private final PlannerActivities planner =
            Workflow.newActivityStub(PlannerActivities.class, SchedulePolicies.planner());

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
