package headway.workflow;

import java.util.List;

/**
 * What a planner run did: the groups that got new ranges, those whose group workflow was
 * signalled, and those without a running group workflow (they pick the ranges up when started).
 */
public record PlannerOutcome(List<String> planned, List<String> signalled, List<String> notRunning) {
    public PlannerOutcome {
        planned = List.copyOf(planned);
        signalled = List.copyOf(signalled);
        notRunning = List.copyOf(notRunning);
    }
}
