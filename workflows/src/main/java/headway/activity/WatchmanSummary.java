package headway.activity;

import java.time.Instant;
import java.util.List;

/**
 * What one watchman scan saw: how many stuck records it opened and closed and how many are open,
 * the groups with an open record ({@code stuckGroups}), those that got one in this scan and still
 * have it ({@code newlyStuckGroups}), those whose records were all closed in this scan
 * ({@code unstuckGroups}), the pulses still alive, the presence changes, the failed writes and the
 * claim conflicts (takeovers, refused stale writes) recorded since the previous scan. The
 * group lists hold at database time {@code at}, read with the open records after the scan's writes.
 */
public record WatchmanSummary(
        Instant at,
        int opened,
        int closed,
        int open,
        List<String> stuckGroups,
        List<String> newlyStuckGroups,
        List<String> unstuckGroups,
        int livePulses,
        int presenceChanges,
        int writeFailures,
        int conflicts) {
    public WatchmanSummary {
        stuckGroups = List.copyOf(stuckGroups);
        newlyStuckGroups = List.copyOf(newlyStuckGroups);
        unstuckGroups = List.copyOf(unstuckGroups);
    }
}
