package headway.activity;

import headway.catalog.CatalogStore;
import headway.coordination.Band;
import headway.coordination.LeaseStore;
import headway.coordination.RangeRow;
import headway.coordination.RangeStore;
import headway.coordination.SnapshotStore;
import headway.store.Holder;
import headway.store.LeaseLostException;
import headway.store.StoreException;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.client.ActivityCompletionException;
import io.temporal.client.ActivityWorkerShutdownException;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The window activities of the groups this worker holds, on its own task queue. Each first
 * finds the group's window at the token's epoch (WindowLost when this worker has none), and maps
 * a stale epoch to the non-retryable LeaseLost so the workflow leases again at once. A failed
 * fetch (the news server unreachable, or breaking a reply bound) is the retryable NewsServer,
 * which the workflow backs off from without counting it toward parking the group. While a range
 * is indexed or a snapshot written, a {@link LeaseKeeper} renews the database lease and beats the
 * Temporal heartbeat every third of the lease TTL, so slow work keeps a live lease; an attempt
 * that fails for another reason checks its lease once through the fence, so a stale holder hears
 * LeaseLost rather than the database error its frozen transaction ended in. An index
 * attempt the workflow abandoned (its heartbeat timed out, say after a long pause of this JVM)
 * hands the group back, or is refused when another node has taken it, and drops the window.
 */
public final class GroupActivitiesImpl implements GroupActivities {

    private static final Logger log = LoggerFactory.getLogger(GroupActivitiesImpl.class);

    private final LeaseStore leases;
    private final RangeStore ranges;
    private final Holdings holdings;
    private final RangeIndexer indexer;
    private final WindowSnapshots windowSnapshots;
    private final IndexMetrics metrics;
    private final LeaseKeeper keeper;
    private final ConflictReporter conflicts;
    private final Band band;
    private final ExecutorService handBacks = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "hand-back");
        t.setDaemon(true);
        return t;
    });

    public GroupActivitiesImpl(
            LeaseStore leases,
            RangeStore ranges,
            SnapshotStore snapshots,
            Holdings holdings,
            RangeIndexer indexer,
            IndexMetrics metrics) {
        this(leases, ranges, snapshots, holdings, indexer, metrics, ConflictReporter.NONE);
    }

    /** As above, telling the group's workflow of every refused stale write through {@code conflicts}. */
    public GroupActivitiesImpl(
            LeaseStore leases,
            RangeStore ranges,
            SnapshotStore snapshots,
            Holdings holdings,
            RangeIndexer indexer,
            IndexMetrics metrics,
            ConflictReporter conflicts) {
        this(leases, ranges, snapshots, holdings, indexer, metrics, conflicts, Band.ALL);
    }

    /** As above, for a worker of {@code band} (HEADWAY_WORKER_ROLE): its holders take only that band's ranges. */
    public GroupActivitiesImpl(
            LeaseStore leases,
            RangeStore ranges,
            SnapshotStore snapshots,
            Holdings holdings,
            RangeIndexer indexer,
            IndexMetrics metrics,
            ConflictReporter conflicts,
            Band band) {
        this.band = Objects.requireNonNull(band, "band");
        this.leases = Objects.requireNonNull(leases, "leases");
        this.ranges = Objects.requireNonNull(ranges, "ranges");
        this.windowSnapshots = new WindowSnapshots(leases.fence(), snapshots, new CatalogStore(), metrics);
        this.holdings = Objects.requireNonNull(holdings, "holdings");
        this.indexer = Objects.requireNonNull(indexer, "indexer");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.keeper = new LeaseKeeper(leases);
        this.conflicts = Objects.requireNonNull(conflicts, "conflicts");
    }

    @Override
    public NextRange nextRange(HolderToken token) {
        Holdings.Held held = held(token);
        return fenced(token, () -> {
            Optional<RangeRow> range = ranges.nextRange(held.holder(), held.rules.version(), band);
            long lag = ranges.lag(token.group());
            return new NextRange(range.map(GroupActivitiesImpl::lease).orElse(null), lag);
        });
    }

    @Override
    public RangeResult indexRange(HolderToken token, RangeLease range, boolean snapshotAfter) {
        Holdings.Held held = held(token);
        ActivityExecutionContext context = Activity.getExecutionContext();
        Optional<IndexProgress> resumed =
                context.getHeartbeatDetails(IndexProgress.class).filter(p -> p.rangeId() == range.id());
        long from = Math.max(
                ranges.cursor(range.id()), resumed.map(IndexProgress::cursor).orElse(range.next()));
        RangeRow row = new RangeRow(
                range.id(),
                range.group(),
                range.start(),
                range.end(),
                range.next(),
                "leased",
                range.priority(),
                token.node(),
                0,
                range.ruleVersion());
        AtomicReference<IndexProgress> latest = new AtomicReference<>(resumed.orElse(null));
        try {
            return indexFenced(token, held, range, row, from, resumed, latest, context, snapshotAfter);
        } catch (ActivityCompletionException e) {
            if (!(e instanceof ActivityWorkerShutdownException)) {
                handBackAbandoned(token, e);
            }
            throw e;
        }
    }

    /**
     * Hands back, through the fence and on a thread of its own, a group whose window
     * {@link Holdings} dropped because nothing asked for it or renewed it for a TTL (the workflow
     * gave up on this worker, say while it was paused between two attempts): the window is gone,
     * so the lease is only a claim this worker cannot honour. Refused and recorded when another
     * node took the group meanwhile, so a worker that wakes from a pause meets the fence even when
     * it had nothing in flight; else the group's ranges go back to planned at their cursors.
     */
    public void handBackDropped(Holdings.Held dropped) {
        Holder holder = dropped.holder();
        handBacks.execute(() -> {
            try {
                leases.release(holder);
                log.info(
                        "{} (epoch {}) handed back by {}: its window was left for a TTL",
                        holder.group(),
                        holder.epoch(),
                        holder.node());
            } catch (LeaseLostException e) {
                refused(holder, e);
                log.info(
                        "{} (epoch {}) not handed back by {}: {}",
                        holder.group(),
                        holder.epoch(),
                        holder.node(),
                        e.getMessage());
            } catch (RuntimeException e) {
                log.warn(
                        "{} (epoch {}) not handed back by {}, its lease runs out instead: {}",
                        holder.group(),
                        holder.epoch(),
                        holder.node(),
                        e.getMessage());
            }
        });
    }

    /**
     * Hands the group back after an attempt the workflow no longer waits for (its heartbeat timed
     * out, or it was cancelled), because the workflow leases again and this window would only hold
     * a slot: at the ranges' cursors, where RangeIndexer stopped with the window whole, as after a
     * news server failure. Refused, and recorded, when another node took the group meanwhile (a
     * worker that woke from a pause is the zombie the fence is for); the window is dropped either way.
     */
    private void handBackAbandoned(HolderToken token, ActivityCompletionException abandoned) {
        try {
            release(token);
            log.info(
                    "{} (epoch {}) handed back by {}: its attempt was abandoned ({})",
                    token.group(),
                    token.epoch(),
                    token.node(),
                    abandoned.toString());
        } catch (RuntimeException e) {
            holdings.remove(token.group(), token.epoch());
            abandoned.addSuppressed(e);
            log.info(
                    "{} (epoch {}) not handed back by {} after its attempt was abandoned: {}",
                    token.group(),
                    token.epoch(),
                    token.node(),
                    e.getMessage());
        }
    }

    private RangeResult indexFenced(
            HolderToken token,
            Holdings.Held held,
            RangeLease range,
            RangeRow row,
            long from,
            Optional<IndexProgress> resumed,
            AtomicReference<IndexProgress> latest,
            ActivityExecutionContext context,
            boolean snapshotAfter) {
        return fenced(token, () -> {
            try (LeaseKeeper.Renewal renewal =
                    keeper.keep(held, context.getInfo().getHeartbeatTimeout(), () -> context.heartbeat(latest.get()))) {
                RangeIndexer.Outcome outcome = indexer.index(
                        held,
                        row,
                        from,
                        resumed.map(IndexProgress::headers).orElse(0L),
                        resumed.map(IndexProgress::missing).orElse(0L),
                        resumed.map(IndexProgress::malformed).orElse(0L),
                        (cursor, headers, missing, malformed) -> {
                            latest.set(new IndexProgress(range.id(), cursor, headers, missing, malformed));
                            context.heartbeat(latest.get());
                        });
                SnapshotInfo snapshot = snapshotAfter ? snapshot(held) : null;
                Optional<RangeRow> next = ranges.nextRange(held.holder(), held.rules.version(), band);
                return new RangeResult(
                        range.id(),
                        outcome.cursor(),
                        outcome.headers(),
                        outcome.missing(),
                        outcome.malformed(),
                        held.window().stats().binaries(),
                        snapshot,
                        next.map(GroupActivitiesImpl::lease).orElse(null),
                        ranges.lag(token.group()));
            } catch (IOException e) {
                confirmLease(held, e);
                throw ApplicationFailure.newFailureWithCause(
                        "reading " + range.group() + " articles from " + from + ": " + e.getMessage(),
                        Failures.NEWS_SERVER,
                        e);
            } catch (RuntimeException e) {
                confirmLease(held, e);
                throw e;
            }
        });
    }

    /**
     * After an attempt failed for another reason, checks the lease once through the fence (a
     * renewal), so that a worker that woke from a pause learns at once that its group was taken:
     * the database ended its open transaction while it was frozen, so its commit fails as a broken
     * connection, not as a refused epoch, and without this check nothing would tell it (or record
     * the refused write) until its renewal timer happened to fire first. Throws the refusal as
     * LeaseLost with {@code failure} suppressed in it; when the database cannot answer either, the
     * original failure stands. A LeaseLost or an abandoned attempt needs no check: the first is
     * the answer, the second hands the group back through the fence itself.
     */
    private void confirmLease(Holdings.Held held, Exception failure) {
        if (failure instanceof LeaseLostException || failure instanceof ActivityCompletionException) {
            return;
        }
        try {
            leases.renew(held.holder());
        } catch (LeaseLostException lost) {
            held.lost(lost);
            lost.addSuppressed(failure);
            throw lost;
        } catch (RuntimeException unanswered) {
            failure.addSuppressed(unanswered);
        }
    }

    @Override
    public SnapshotInfo putSnapshot(HolderToken token) {
        Holdings.Held held = held(token);
        ActivityExecutionContext context = Activity.getExecutionContext();
        return fenced(token, () -> {
            try (LeaseKeeper.Renewal renewal =
                    keeper.keep(held, context.getInfo().getHeartbeatTimeout(), () -> context.heartbeat(null))) {
                return snapshot(held);
            } catch (RuntimeException e) {
                confirmLease(held, e);
                throw e;
            }
        });
    }

    private SnapshotInfo snapshot(Holdings.Held held) {
        SnapshotStore.Meta meta = windowSnapshots.take(held);
        return new SnapshotInfo(meta.next(), meta.bytes(), meta.takenAt().toString());
    }

    @Override
    public void release(HolderToken token) {
        Holder holder = holder(token);
        fenced(token, () -> {
            leases.release(holder);
            return null;
        });
        holdings.remove(token.group(), token.epoch());
    }

    private Holdings.Held held(HolderToken token) {
        return holdings.get(token.group(), token.epoch()).orElseThrow(() -> windowLost(token));
    }

    /**
     * This worker has no window at the token's epoch (it restarted, or dropped the window after
     * nothing touched it for a TTL, as after a long pause): it cannot go on holding the group, so
     * it hands the group back through the fence. Refused, recorded and told as LeaseLost when
     * another node took it meanwhile (a worker that woke to find its window dropped is the stale
     * holder the fence is for); else its ranges go back to planned at their cursors and the
     * workflow, told WindowLost, leases again at once instead of after the lease TTL.
     */
    private ApplicationFailure windowLost(HolderToken token) {
        ApplicationFailure lost = ApplicationFailure.newNonRetryableFailure(
                new WindowLostException(token.group(), token.epoch()).getMessage(), Failures.WINDOW_LOST);
        try {
            fenced(token, () -> {
                leases.release(holder(token));
                return null;
            });
        } catch (StoreException e) {
            lost.addSuppressed(e);
        }
        return lost;
    }

    /** Runs a holder call, turning a stale epoch into LeaseLost and a lost window into WindowLost, dropping the window either way. */
    private <T> T fenced(HolderToken token, java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (LeaseLostException e) {
            holdings.remove(token.group(), token.epoch());
            refused(holder(token), e);
            throw ApplicationFailure.newNonRetryableFailure(
                    e.getMessage(), Failures.LEASE_LOST, e.currentHolder(), e.currentEpoch());
        } catch (WindowLostException e) {
            holdings.remove(token.group(), token.epoch());
            throw ApplicationFailure.newNonRetryableFailure(e.getMessage(), Failures.WINDOW_LOST);
        }
    }

    /** Counts a stale write of {@code stale} the fence refused and tells the group's workflow of the conflict. */
    private void refused(Holder stale, LeaseLostException e) {
        metrics.leaseLost.increment();
        conflicts.tell(
                stale.group(),
                new ClaimConflict(
                        "lease_lost",
                        stale.node(),
                        stale.epoch(),
                        e.currentHolder(),
                        e.currentEpoch(),
                        "stale write refused"));
    }

    private static Holder holder(HolderToken token) {
        return new Holder(token.group(), token.node(), token.epoch());
    }

    private static RangeLease lease(RangeRow r) {
        return new RangeLease(r.id(), r.group(), r.start(), r.end(), r.next(), r.priority(), r.ruleVersion());
    }
}
