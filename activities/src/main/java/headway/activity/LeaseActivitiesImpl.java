package headway.activity;

import headway.coordination.Band;
import headway.coordination.LeaseOutcome;
import headway.coordination.LeaseStore;
import headway.coordination.Outlook;
import headway.coordination.SnapshotStore;
import headway.index.BadSnapshotException;
import headway.index.RuleSet;
import headway.index.Window;
import headway.store.UnknownGroupException;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease activities on the shared task queue. Taking a group loads its snapshot into this
 * worker's memory and answers with this worker's own task queue, where the group's window
 * activities then run. Lease tasks come from the lease queue, which a full worker stops polling;
 * one that arrives anyway waits a little for room, then refuses with the retryable AtCapacity so
 * that another worker takes the group. A worker with room takes the group only in its turn in the
 * leasing order ({@link LeaseStore#leaseInTurn}); out of turn the workflow is told to ask again
 * shortly, so the slot goes to the group the order puts first.
 */
public final class LeaseActivitiesImpl implements LeaseActivities {

    private static final Logger log = LoggerFactory.getLogger(LeaseActivitiesImpl.class);

    /**
     * A lease task that reached a full worker (its poll was in flight when the worker stopped
     * polling) waits this long for a group to be handed back, rather than failing at once, because
     * it was the most urgent task when it was dispatched and a retry would lose that place.
     */
    private static final java.time.Duration ROOM_WAIT = java.time.Duration.ofSeconds(5);

    private final LeaseStore leases;
    private final SnapshotStore snapshots;
    private final Holdings holdings;
    private final Supplier<RuleSet> rules;
    private final String node;
    private final String ownTaskQueue;
    /** The worker's HEADWAY_LEASE_TTL, for a lease call that names no TTL (a workflow started before it carried one). */
    private final Duration ttl;

    private final long windowMaxAge;
    private final IndexMetrics metrics;
    private final ConflictReporter conflicts;
    private final Band band;

    /**
     * The activities of {@code node}; every takeover is told to the group's workflow through {@code conflicts}
     * ({@link ConflictReporter#NONE} where nothing listens), and a worker of {@code band} (HEADWAY_WORKER_ROLE)
     * counts its turn among that band's waiting groups ({@link Band#ALL} for a worker of every role).
     */
    public LeaseActivitiesImpl(
            LeaseStore leases,
            SnapshotStore snapshots,
            Holdings holdings,
            Supplier<RuleSet> rules,
            String node,
            String ownTaskQueue,
            Duration ttl,
            long windowMaxAge,
            IndexMetrics metrics,
            ConflictReporter conflicts,
            Band band) {
        this.band = Objects.requireNonNull(band, "band");
        this.conflicts = Objects.requireNonNull(conflicts, "conflicts");
        this.leases = Objects.requireNonNull(leases, "leases");
        this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
        this.holdings = Objects.requireNonNull(holdings, "holdings");
        this.rules = Objects.requireNonNull(rules, "rules");
        this.node = Objects.requireNonNull(node, "node");
        this.ownTaskQueue = Objects.requireNonNull(ownTaskQueue, "ownTaskQueue");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        this.windowMaxAge = windowMaxAge;
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public GroupOutlook outlook(String group) {
        try {
            Outlook o = leases.outlook(group);
            GroupOutlook outlook = new GroupOutlook(
                    group, o.active(), o.plannedRanges(), o.lag(), o.urgency(), temporalPriority(o.urgency()));
            if (outlook.hasWork()) {
                leases.want(group);
            }
            return outlook;
        } catch (UnknownGroupException e) {
            throw ApplicationFailure.newNonRetryableFailure(e.getMessage(), Failures.BAD_INPUT);
        }
    }

    /** Takes the group with this worker's HEADWAY_LEASE_TTL, as a lease call that names no TTL does. */
    public LeaseGrant lease(String group) {
        return lease(group, null);
    }

    @Override
    public LeaseGrant lease(String group, Duration groupTtl) {
        Duration ttl = groupTtl != null ? groupTtl : this.ttl;
        boolean room;
        try {
            room = holdings.awaitRoomFor(group, ROOM_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApplicationFailure.newFailure("interrupted waiting for room on " + node, Failures.AT_CAPACITY);
        }
        if (!room) {
            throw ApplicationFailure.newFailure(
                    "worker " + node + " holds " + holdings.size() + " of its share of " + holdings.limit()
                            + " groups; another worker should take " + group,
                    Failures.AT_CAPACITY);
        }
        LeaseOutcome outcome;
        try {
            outcome = leases.leaseInTurn(group, node, ttl, band);
        } catch (UnknownGroupException e) {
            throw ApplicationFailure.newNonRetryableFailure(e.getMessage(), Failures.BAD_INPUT);
        }
        if (!outcome.granted()) {
            return LeaseGrant.refused(outcome.heldBy(), outcome.freeIn());
        }
        metrics.leaseTakes.increment();
        if (outcome.takeover()) {
            metrics.takeovers.increment();
            conflicts.tell(
                    group,
                    new ClaimConflict(
                            "takeover",
                            outcome.previousHolder(),
                            outcome.holder().epoch() - 1,
                            node,
                            outcome.holder().epoch(),
                            "taken from a holder quiet past the lease TTL"));
        }
        RuleSet ruleSet = rules.get();
        Window window = new Window(group, windowMaxAge);
        long cursor = -1;
        Optional<SnapshotStore.Loaded<Window>> loaded = snapshots.get(group, in -> {
            try {
                return Window.readFrom(in);
            } catch (BadSnapshotException e) {
                throw new java.io.IOException(e.getMessage(), e);
            }
        });
        if (loaded.isPresent()
                && outcome.snapshotNext() != null
                && loaded.get().meta().next() == outcome.snapshotNext()) {
            window = loaded.get().value();
            cursor = loaded.get().meta().next();
        } else if (outcome.snapshotNext() != null) {
            long from = Math.max(0, outcome.snapshotNext() - 1 - windowMaxAge);
            int replanned = leases.replanToRebuildWindow(outcome.holder(), from, band);
            log.warn(
                    "group {}: snapshot at {} is missing or unreadable; re-indexing {} ranges from article {} to rebuild the window",
                    group,
                    outcome.snapshotNext(),
                    replanned,
                    from);
        } else {
            // No snapshot yet (or one of another band, V26), but a previous holder may have indexed
            // (and committed cursors) with binaries still open in its window: starting empty at its
            // cursor would lose their earlier parts (seen in chaos: a holder frozen mid-range in its
            // first ranges).
            Long indexedTo = leases.indexedTo(group, band);
            if (indexedTo != null && indexedTo > 1) {
                long from = Math.max(0, indexedTo - 1 - windowMaxAge);
                int replanned = leases.replanToRebuildWindow(outcome.holder(), from, band);
                log.info(
                        "group {}: no snapshot yet; re-indexing {} ranges from article {} to rebuild the window",
                        group,
                        replanned,
                        from);
            }
        }
        window.catalogHoldsUpTo(leases.catalogedTo(group));
        holdings.put(outcome.holder(), window, ruleSet, cursor, ttl);
        log.info(
                "node {} took {} at epoch {}{}; window from {} ({} binaries), {} ranges re-planned",
                node,
                group,
                outcome.holder().epoch(),
                outcome.takeover() ? " from " + outcome.previousHolder() : "",
                cursor < 0 ? "scratch" : "snapshot " + cursor,
                window.stats().binaries(),
                outcome.replannedRanges());
        HolderToken token = new HolderToken(group, node, outcome.holder().epoch(), ownTaskQueue);
        return new LeaseGrant(
                true,
                token,
                null,
                outcome.takeover(),
                outcome.previousHolder(),
                outcome.snapshotNext(),
                outcome.replannedRanges(),
                null);
    }

    /** Tail work is scheduled before history: priority key 1 for tail ranges, 3 for history (Temporal's default). */
    static int temporalPriority(Integer urgency) {
        if (urgency == null) {
            return 5;
        }
        return urgency < 0 ? 1 : 3;
    }
}
