package headway.activity;

import headway.coordination.NodeRegistry;
import headway.store.StoreException;
import java.time.Duration;
import java.util.Objects;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * This worker's share of the groups: min(HEADWAY_MAX_GROUPS, ceil(active groups / live nodes) +
 * slack), the live nodes being this one and its peers from the registry. So groups spread over
 * the workers instead of filling the first, and a worker that joins takes its share from the
 * next takes on. The peer list is cached for the node TTL and stale on a database error, so the
 * share holds steady through a short outage. The group count is read again when it is older than
 * {@link #GROUPS_FRESH} (and kept on a database error): groups an operator starts raise the share
 * within a second, where a count kept for the node TTL held a worker at its old share for up to
 * 15 s and let the new groups in one per room check. The slack (one group) lets the fleet absorb
 * a node that leaves before the others see it. A failure before the first successful read is an
 * error (StoreException), not a share of everything.
 */
public final class FleetShare implements IntSupplier {

    /** Groups a worker may hold beyond an even share. */
    public static final int SLACK = 1;

    /** How long a count of the active groups is used before it is read again. */
    public static final Duration GROUPS_FRESH = Duration.ofSeconds(1);

    private final NodeRegistry registry;
    private final int maxGroups;
    private final int slack;
    private final LongSupplier nanoTime;
    private int activeGroups = -1;
    private long groupsReadAt;

    public FleetShare(NodeRegistry registry, int maxGroups, int slack) {
        this(registry, maxGroups, slack, System::nanoTime);
    }

    /** As above, reading the time from {@code nanoTime} (tests). */
    FleetShare(NodeRegistry registry, int maxGroups, int slack, LongSupplier nanoTime) {
        this.registry = Objects.requireNonNull(registry, "registry");
        if (maxGroups < 1 || slack < 0) {
            throw new IllegalArgumentException(
                    "maxGroups must be >= 1 and slack >= 0, were " + maxGroups + ", " + slack);
        }
        this.maxGroups = maxGroups;
        this.slack = slack;
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /** The share now; StoreException when the registry or the groups could never be read. */
    @Override
    public synchronized int getAsInt() {
        int live = 1 + registry.peers().size();
        return share(maxGroups, activeGroups(), live, slack);
    }

    /** min(max, ceil(groups / live) + slack), at least 1. */
    static int share(int maxGroups, int activeGroups, int liveNodes, int slack) {
        int even = (activeGroups + liveNodes - 1) / liveNodes;
        return Math.max(1, Math.min(maxGroups, even + slack));
    }

    private int activeGroups() {
        long now = nanoTime.getAsLong();
        if (activeGroups >= 0 && now - groupsReadAt < GROUPS_FRESH.toNanos()) {
            return activeGroups;
        }
        try {
            activeGroups = registry.activeGroups();
            groupsReadAt = now;
        } catch (StoreException e) {
            if (activeGroups < 0) {
                throw e;
            }
        }
        return activeGroups;
    }
}
