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
 * @param nodeTtl           the workers' node TTL (HEADWAY_NODE_TTL): a holder's leases end with its node row, so a
 *                          silent holder activity is given up on within it (the index heartbeat timeout is half of
 *                          the shorter of the two TTLs); a config from before it was carried has none, and the lease
 *                          TTL stands in
 */
public record GroupConfig(
        String group,
        Duration leaseTtl,
        int snapshotEvery,
        Duration idleWait,
        int maxFailedCycles,
        long historyEventBudget,
        String sharedTaskQueue,
        Duration nodeTtl) {

    /** Temporal refuses histories past 51,200 events and warns from 10,240; this stays well below both. */
    public static final long DEFAULT_HISTORY_EVENT_BUDGET = 8_000;

    /** A crash loop parks its group after this many failed holding cycles in a row. */
    public static final int DEFAULT_MAX_FAILED_CYCLES = 5;

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
        if (nodeTtl == null) {
            nodeTtl = leaseTtl;
        }
        require(nodeTtl.compareTo(Duration.ofSeconds(1)) >= 0, "nodeTtl must be at least 1s, was " + nodeTtl);
    }

    /**
     * A group's config with the default failed-cycle limit and history budget, and the lease TTL
     * as its node TTL until {@link #withNodeTtl} says otherwise. The other values' defaults are
     * settings (HEADWAY_LEASE_TTL, HEADWAY_SNAPSHOT_EVERY, HEADWAY_IDLE_WAIT, HEADWAY_TASK_QUEUE,
     * HEADWAY_NODE_TTL) that the starter reads.
     */
    public static GroupConfig of(
            String group, Duration leaseTtl, int snapshotEvery, Duration idleWait, String sharedTaskQueue) {
        return new GroupConfig(
                group,
                leaseTtl,
                snapshotEvery,
                idleWait,
                DEFAULT_MAX_FAILED_CYCLES,
                DEFAULT_HISTORY_EVENT_BUDGET,
                sharedTaskQueue,
                leaseTtl);
    }

    /** This config with the workers' node TTL. */
    public GroupConfig withNodeTtl(Duration ttl) {
        return new GroupConfig(
                group, leaseTtl, snapshotEvery, idleWait, maxFailedCycles, historyEventBudget, sharedTaskQueue, ttl);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException("GroupConfig: " + message);
        }
    }
}
