package headway.workflow;

import java.time.Duration;
import java.util.Objects;

/**
 * How a group workflow runs, set by the starter and carried unchanged across continue-as-new.
 * Validated in the constructor, so a bad value fails at the starter, naming the setting and its limit.
 *
 * @param group             the newsgroup name
 * @param leaseTtl          how long a silent holder keeps the group; also the schedule-to-start timeout of holder activities (the index heartbeat timeout is half of it)
 * @param snapshotEvery     ranges indexed between two snapshots (a snapshot is also taken when caught up)
 * @param idleWait          how long a caught-up group waits for a {@code planned} signal before it looks again
 * @param maxFailedCycles   holding cycles in a row that may fail without finishing a range before the group is parked
 * @param historyEventBudget history length at which the workflow continues as new at its next safe point
 * @param sharedTaskQueue   the task queue of the lease activities
 */
public record GroupConfig(
        String group,
        Duration leaseTtl,
        int snapshotEvery,
        Duration idleWait,
        int maxFailedCycles,
        long historyEventBudget,
        String sharedTaskQueue) {

    /** Temporal refuses histories past 51,200 events and warns from 10,240; this stays well below both. */
    public static final long DEFAULT_HISTORY_EVENT_BUDGET = 8_000;

    public GroupConfig {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(leaseTtl, "leaseTtl");
        Objects.requireNonNull(idleWait, "idleWait");
        Objects.requireNonNull(sharedTaskQueue, "sharedTaskQueue");
        require(!group.isBlank(), "group must not be blank");
        require(leaseTtl.compareTo(Duration.ofSeconds(1)) >= 0, "leaseTtl must be at least 1s, was " + leaseTtl);
        require(snapshotEvery >= 1, "snapshotEvery must be at least 1, was " + snapshotEvery);
        require(idleWait.compareTo(Duration.ofSeconds(1)) >= 0, "idleWait must be at least 1s, was " + idleWait);
        require(maxFailedCycles >= 1, "maxFailedCycles must be at least 1, was " + maxFailedCycles);
        require(
                historyEventBudget >= 1 && historyEventBudget <= 50_000,
                "historyEventBudget must be in [1, 50000] (Temporal's hard limit is 51200), was " + historyEventBudget);
        require(!sharedTaskQueue.isBlank(), "sharedTaskQueue must not be blank");
    }

    /** Defaults for a group: 30 s lease TTL, a snapshot every 10 ranges, 5 min idle wait, parked after 5 failed cycles. */
    public static GroupConfig defaults(String group) {
        return new GroupConfig(
                group,
                Duration.ofSeconds(30),
                10,
                Duration.ofMinutes(5),
                5,
                DEFAULT_HISTORY_EVENT_BUDGET,
                TaskQueues.SHARED);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException("GroupConfig: " + message);
        }
    }
}
