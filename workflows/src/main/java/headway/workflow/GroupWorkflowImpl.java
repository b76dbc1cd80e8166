package headway.workflow;

import headway.activity.ClaimConflict;
import headway.activity.Failures;
import headway.activity.GroupActivities;
import headway.activity.GroupOutlook;
import headway.activity.HolderToken;
import headway.activity.LeaseActivities;
import headway.activity.LeaseGrant;
import headway.activity.NextRange;
import headway.activity.RangeLease;
import headway.activity.RangeResult;
import headway.activity.SnapshotInfo;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.InitialVersioningBehavior;
import io.temporal.common.SearchAttributeKey;
import io.temporal.common.SearchAttributeUpdate;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TimeoutFailure;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.ContinueAsNewOptions;
import io.temporal.workflow.Promise;
import io.temporal.workflow.TimerOptions;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInfo;
import io.temporal.workflow.WorkflowInit;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * The group loop: outlook, lease, then next-range and index until caught up, snapshotting every
 * N ranges and when caught up, release, then idle until {@code planned} or the idle timer.
 * Invariant: the workflow releases, pauses, parks or continues as new only between ranges, never
 * while an index activity runs, so a range is always finished or handed back at its cursor; the
 * cost is that pause and drain wait for the range in flight. A holding cycle that ends in a lost
 * lease, a lost window, a timeout or exhausted retries goes back to leasing; {@code maxFailedCycles}
 * such cycles in a row without a finished range park the group until {@code resume}. A cycle that
 * ends because the news server failed (NewsServer: unreachable, or breaking a reply bound, after
 * the index activity's own retries) is not one of them: the group hands its lease back, waits a
 * lease TTL, doubling with each such cycle in a row up to {@link #SERVER_BACKOFF_MAX}, and leases
 * again, so a bad server never parks a group and the group resumes by itself once the server
 * behaves; a finished range resets the pause. The watchman reports a group that stops moving.
 */
public class GroupWorkflowImpl implements GroupWorkflow {

    private static final Logger log = Workflow.getLogger(GroupWorkflowImpl.class);
    private static final String MEMO_CONFIG = "config";
    private static final String MEMO_CONFLICTS = "conflicts";
    private static final String MEMO_LAST_CONFLICT = "lastConflict";
    /** Added to a refused lease's remaining time, because the database clock and the timer's clock differ a little. */
    private static final Duration ASK_AGAIN_MARGIN = Duration.ofMillis(500);
    /** The longest pause after news server failures, so a server that comes back is used again within minutes. */
    static final Duration SERVER_BACKOFF_MAX = Duration.ofMinutes(10);

    /**
     * How often a finished range may upsert {@code HeadwayCursor} and {@code HeadwayLag}. Every
     * upsert is a history event and a visibility write, and a range finishes every half second at
     * full speed: upserting per range was a third of Temporal's time between ranges
     * ({@code bench overhead}: 25-29 ms a range with it, 16-20 without). State changes (caught up,
     * holder, paused, ...) still publish at once, with the cursor and lag as they are then.
     */
    static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

    /** The change id of leasing history on its own lease queue (worker roles); histories without it lease on one queue. */
    static final String LEASE_BANDS = "lease-bands";

    /** The change id of publishing progress at most every {@link #PROGRESS_EVERY}; histories without it upsert every range. */
    static final String PROGRESS_THROTTLE = "progress-every-5s";

    private enum CycleEnd {
        CAUGHT_UP,
        STOPPED,
        LOST,
        FAILED,
        SERVER_FAILED
    }

    private final GroupConfig config;
    private long rangesDone;
    private long headers;
    private long missing;
    private long malformed;
    private SnapshotInfo lastSnapshot;
    private Long cursor;
    private long lag;
    private long epoch;
    private int failedCycles;
    /** Holding cycles in a row that ended in a news server failure; not carried, so a new run starts its pause afresh. */
    private int serverFailures;

    private boolean parked;
    private boolean paused;
    private boolean planned;
    private boolean drain;

    private Boolean stuck;
    /** The database time of the watchman view behind {@link #stuck}, so a late signal from an older view cannot undo it. */
    private Instant stuckAsOf;

    /** Claim conflicts this run was told of (not carried across continue-as-new), and the last one. */
    private int conflicts;

    private String lastConflict;

    private GroupState state = GroupState.LEASING;
    private String holder;
    /** Workflow time (epoch ms) of the last upsert of search attributes; 0 before the first (not carried: a new run publishes afresh). */
    private long publishedAt;

    private boolean workedThisRun;

    /** Restores the carried state before any signal handler runs, because signals may arrive in the run's first task. */
    @WorkflowInit
    public GroupWorkflowImpl(GroupRun run) {
        GroupRun.Carry carry = run.carry();
        config = run.config();
        rangesDone = carry.rangesDone();
        headers = carry.headers();
        missing = carry.missing();
        malformed = carry.malformed();
        lastSnapshot = carry.lastSnapshot();
        cursor = carry.cursor();
        lag = carry.lag();
        epoch = carry.epoch();
        failedCycles = carry.failedCycles();
        parked = carry.parked();
        paused = carry.paused();
        planned = carry.planned();
        drain = carry.drain();
    }

    @Override
    public void run(GroupRun run) {
        publishMemo();
        while (true) {
            if (drain) {
                become(GroupState.DRAINED, null);
                return;
            }
            if (parked) {
                become(GroupState.PARKED, null);
                Workflow.await(() -> !parked || drain);
                continue;
            }
            if (paused) {
                become(GroupState.PAUSED, null);
                Workflow.await(() -> !paused || drain);
                continue;
            }
            if (continueAsNewDue()) {
                continueAsNew();
                return;
            }
            planned = false;
            GroupOutlook outlook =
                    leaseActivities(ActivityPolicies.outlook(config)).outlook(config.group());
            lag = outlook.lag();
            if (!outlook.hasWork()) {
                idle();
                continue;
            }
            become(GroupState.LEASING, null);
            boolean history = leasesByBand() && outlook.urgency() != null && outlook.urgency() >= 0;
            LeaseGrant grant;
            try {
                grant = leaseActivities(ActivityPolicies.lease(config, outlook.temporalPriority(), history))
                        .lease(config.group(), config.leaseTtl());
            } catch (ActivityFailure failure) {
                if (history && isScheduleToStartTimeout(failure)) {
                    log.info(
                            "group {}: no worker took its history lease within {}; looking at its work again",
                            config.group(),
                            ActivityPolicies.historyLeaseWait(config));
                    workedThisRun = true;
                    continue;
                }
                throw failure;
            }
            if (!grant.granted()) {
                become(GroupState.WAITING, grant.heldBy());
                Duration again = askAgainIn(grant);
                waitFor(again, "held by " + grant.heldBy() + ": ask again in " + again, () -> paused || drain);
                workedThisRun = true;
                continue;
            }
            CycleEnd end = hold(grant);
            if (end == CycleEnd.CAUGHT_UP) {
                failedCycles = 0;
            }
            if (end == CycleEnd.SERVER_FAILED) {
                backOff();
                continue;
            }
            if (end == CycleEnd.FAILED && ++failedCycles >= config.maxFailedCycles()) {
                log.warn("group {} parked after {} failed holding cycles in a row", config.group(), failedCycles);
                parked = true;
            }
            // with roles a holder is caught up with its band only (a tail worker leaves the history
            // behind, a history worker hands back to the tail): with articles left the outlook decides
            if (end == CycleEnd.CAUGHT_UP && !planned && (lag == 0 || !leasesByBand())) {
                idle();
            }
        }
    }

    /**
     * Whether this run leases a group whose most urgent work is history on the history lease
     * queue (worker roles); a run that began before roles keeps the one lease queue.
     */
    private boolean leasesByBand() {
        return Workflow.getVersion(LEASE_BANDS, Workflow.DEFAULT_VERSION, 1) >= 1;
    }

    private static boolean isScheduleToStartTimeout(ActivityFailure failure) {
        return failure.getCause() instanceof TimeoutFailure timeout
                && timeout.getTimeoutType() == io.temporal.api.enums.v1.TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_START;
    }

    /**
     * When to ask again for a group held elsewhere: just after the holder's lease expires (unless it
     * renews it), at most a lease TTL, because waiting a whole TTL after a dead holder's activity
     * timed out would add a TTL to every takeover.
     */
    private Duration askAgainIn(LeaseGrant grant) {
        if (grant.freeIn() == null) {
            return config.leaseTtl();
        }
        Duration again = grant.freeIn().plus(ASK_AGAIN_MARGIN);
        return again.compareTo(config.leaseTtl()) > 0 ? config.leaseTtl() : again;
    }

    /**
     * One holding cycle on the holder's task queue: the first range from nextRange, every later
     * one from the previous indexRange's result. Ends caught up, stopped by a signal or the
     * history budget, or by a failure. A lease that re-planned ranges (a takeover behind the
     * previous holder's cursor) snapshots after its first range whatever the cadence, so that
     * each takeover moves the snapshot forward: a holder killed again before the cadence's
     * snapshot would otherwise make the next one redo the same ranges, for ever in a crash loop.
     */
    private CycleEnd hold(LeaseGrant grant) {
        HolderToken token = grant.token();
        epoch = token.epoch();
        become(GroupState.INDEXING, token.node());
        boolean finishedRange = false;
        int sinceSnapshot = 0;
        boolean redoing = grant.replannedRanges() > 0;
        try {
            NextRange first = groupActivities(ActivityPolicies.holderCall(
                            config,
                            token.taskQueue(),
                            "next range of " + config.group() + " (epoch " + token.epoch() + ")"))
                    .nextRange(token);
            lag = first.lag();
            RangeLease range = first.range();
            while (true) {
                if (range == null) {
                    handBack(token, sinceSnapshot);
                    return CycleEnd.CAUGHT_UP;
                }
                if (drain || paused || (finishedRange && continueAsNewDue())) {
                    handBack(token, sinceSnapshot);
                    return CycleEnd.STOPPED;
                }
                RangeResult result = index(token, range, redoing || sinceSnapshot + 1 >= config.snapshotEvery());
                redoing = false;
                finishedRange = true;
                workedThisRun = true;
                failedCycles = 0;
                serverFailures = 0;
                if (result.snapshot() != null) {
                    lastSnapshot = result.snapshot();
                    sinceSnapshot = 0;
                } else {
                    sinceSnapshot++;
                }
                range = result.next();
            }
        } catch (ActivityFailure failure) {
            if (failure.getCause() instanceof CanceledFailure) {
                throw failure;
            }
            log.warn(
                    "group {} holding cycle of {} (epoch {}) ended: {}",
                    config.group(),
                    token.node(),
                    token.epoch(),
                    reason(failure));
            holder = null;
            if (isNewsServerFailure(failure)) {
                releaseAfterServerFailure(token);
                return CycleEnd.SERVER_FAILED;
            }
            return finishedRange ? CycleEnd.LOST : CycleEnd.FAILED;
        }
    }

    /**
     * Hands the lease back after a news server failure, at the ranges' cursors (no snapshot, because
     * the window may hold part of the batch that failed), so the worker's slot is free during the
     * pause; if even that fails the lease simply expires after its TTL.
     */
    private void releaseAfterServerFailure(HolderToken token) {
        try {
            groupActivities(ActivityPolicies.holderCall(
                            config,
                            token.taskQueue(),
                            "release " + config.group() + " (epoch " + token.epoch() + ") after a news server failure"))
                    .release(token);
        } catch (ActivityFailure failure) {
            if (failure.getCause() instanceof CanceledFailure) {
                throw failure;
            }
            log.warn(
                    "group {}: release after a news server failure failed ({}); the lease expires after its TTL",
                    config.group(),
                    reason(failure));
        }
    }

    /** Waits after a news server failure, a lease TTL doubled per such cycle in a row (at most SERVER_BACKOFF_MAX), woken early by pause or drain. */
    private void backOff() {
        serverFailures++;
        Duration pause = serverBackoff(config.leaseTtl(), serverFailures);
        become(GroupState.BACKING_OFF, null);
        waitFor(
                pause,
                "news server failed " + serverFailures + " cycle(s) in a row: lease again in " + pause,
                () -> paused || drain);
        workedThisRun = true;
    }

    static Duration serverBackoff(Duration leaseTtl, int failures) {
        Duration pause = leaseTtl;
        for (int i = 1; i < failures && pause.compareTo(SERVER_BACKOFF_MAX) < 0; i++) {
            pause = pause.multipliedBy(2);
        }
        return pause.compareTo(SERVER_BACKOFF_MAX) > 0 ? SERVER_BACKOFF_MAX : pause;
    }

    private static boolean isNewsServerFailure(ActivityFailure failure) {
        return failure.getCause() instanceof ApplicationFailure app && Failures.NEWS_SERVER.equals(app.getType());
    }

    private RangeResult index(HolderToken token, RangeLease range, boolean snapshotAfter) {
        String summary = "index " + config.group() + " [" + range.start() + ".." + range.end() + "] from "
                + range.next() + (snapshotAfter ? ", then snapshot" : "");
        RangeResult result = groupActivities(ActivityPolicies.indexRange(config, token.taskQueue(), summary))
                .indexRange(token, range, snapshotAfter);
        rangesDone++;
        headers += result.headers();
        missing += result.missing();
        malformed += result.malformed();
        cursor = result.cursor();
        lag = result.lag();
        publishProgress();
        return result;
    }

    /** Snapshots (when a range was indexed since the last snapshot, because otherwise the stored one is current) and releases. */
    private void handBack(HolderToken token, int sinceSnapshot) {
        if (sinceSnapshot > 0) {
            snapshot(token);
        }
        groupActivities(ActivityPolicies.holderCall(
                        config, token.taskQueue(), "release " + config.group() + " (epoch " + token.epoch() + ")"))
                .release(token);
        holder = null;
    }

    private void snapshot(HolderToken token) {
        lastSnapshot = groupActivities(ActivityPolicies.putSnapshot(
                        config, token.taskQueue(), "snapshot " + config.group() + " at " + cursor))
                .putSnapshot(token);
    }

    private void idle() {
        become(GroupState.IDLE, null);
        waitFor(
                config.idleWait(),
                "idle: wait up to " + config.idleWait() + " for planned ranges",
                () -> planned || paused || drain);
        workedThisRun = true;
    }

    /** Waits for {@code wake} or a timer whose summary the Web UI shows; a woken wait cancels its timer and reads the cancellation, because an unread failed promise is logged as a warning. */
    private void waitFor(Duration timeout, String summary, Supplier<Boolean> wake) {
        List<Promise<Void>> timer = new ArrayList<>(1);
        CancellationScope scope = Workflow.newCancellationScope(() -> timer.add(Workflow.newTimer(
                timeout, TimerOptions.newBuilder().setSummary(summary).build())));
        scope.run();
        Workflow.await(() -> timer.get(0).isCompleted() || wake.get());
        scope.cancel();
        timer.get(0).getFailure();
    }

    /**
     * Due once this run did some work (so a tiny budget cannot loop on continue-as-new) and the
     * server suggests it or the budget is spent; or at once when a new build became the Worker
     * Deployment's current version, because this run is pinned to its build and only its next run
     * can move (docs/deploy.md).
     */
    private boolean continueAsNewDue() {
        WorkflowInfo info = Workflow.getInfo();
        return (workedThisRun
                        && (info.isContinueAsNewSuggested() || info.getHistoryLength() >= config.historyEventBudget()))
                || info.isTargetWorkerDeploymentVersionChanged();
    }

    /**
     * Waits for signal handlers first, because a signal taken after the carry is built would be
     * lost. The next run starts on the Worker Deployment's current build (AUTO_UPGRADE for its
     * first task), then stays pinned to it; unversioned workers ignore that.
     */
    private void continueAsNew() {
        Workflow.await(Workflow::isEveryHandlerFinished);
        log.info(
                "group {} continues as new at {} events",
                config.group(),
                Workflow.getInfo().getHistoryLength());
        Workflow.continueAsNew(
                ContinueAsNewOptions.newBuilder()
                        .setInitialVersioningBehavior(InitialVersioningBehavior.AUTO_UPGRADE)
                        .build(),
                new GroupRun(
                        config,
                        new GroupRun.Carry(
                                rangesDone,
                                headers,
                                missing,
                                malformed,
                                lastSnapshot,
                                cursor,
                                lag,
                                epoch,
                                failedCycles,
                                parked,
                                paused,
                                planned,
                                drain)));
    }

    private void become(GroupState next, String nextHolder) {
        state = next;
        holder = nextHolder;
        Workflow.setCurrentDetails(state + (holder == null ? "" : " (" + holder + ")"));
        publish();
    }

    /**
     * After a finished range: {@link #publish} at most every {@link #PROGRESS_EVERY} of workflow
     * time (deterministic), or every range for a history written before that change.
     */
    private void publishProgress() {
        if (Workflow.getVersion(PROGRESS_THROTTLE, Workflow.DEFAULT_VERSION, 1) == Workflow.DEFAULT_VERSION
                || Workflow.currentTimeMillis() - publishedAt >= PROGRESS_EVERY.toMillis()) {
            publish();
        }
    }

    /** Upserts the search attributes whose value changed, because every upsert is a history event. */
    private void publish() {
        io.temporal.common.SearchAttributes current = Workflow.getTypedSearchAttributes();
        List<SearchAttributeUpdate<?>> updates = new ArrayList<>(5);
        changed(current, updates, SearchAttributes.GROUP, config.group());
        changed(current, updates, SearchAttributes.STATE, state.name());
        changed(current, updates, SearchAttributes.HOLDER, holder);
        changed(current, updates, SearchAttributes.LAG, lag);
        changed(current, updates, SearchAttributes.CURSOR, cursor);
        changed(current, updates, SearchAttributes.STUCK, stuck);
        if (!updates.isEmpty()) {
            Workflow.upsertTypedSearchAttributes(updates.toArray(SearchAttributeUpdate<?>[]::new));
            publishedAt = Workflow.currentTimeMillis();
        }
    }

    private static <T> void changed(
            io.temporal.common.SearchAttributes current,
            List<SearchAttributeUpdate<?>> updates,
            SearchAttributeKey<T> key,
            T value) {
        T was = current.containsKey(key) ? current.get(key) : null;
        if (Objects.equals(was, value)) {
            return;
        }
        updates.add(value == null ? key.valueUnset() : key.valueSet(value));
    }

    /** Sets the config memo when the starter did not, or set another one, because the Web UI shows it on the execution. */
    private void publishMemo() {
        GroupConfig shown = Workflow.getMemo(MEMO_CONFIG, GroupConfig.class, GroupConfig.class);
        if (!config.equals(shown)) {
            Workflow.upsertMemo(Map.of(MEMO_CONFIG, config));
        }
    }

    private static String reason(ActivityFailure failure) {
        Throwable cause = failure.getCause();
        if (cause instanceof ApplicationFailure app) {
            return switch (app.getType()) {
                case Failures.LEASE_LOST -> "lease lost: " + app.getOriginalMessage();
                case Failures.WINDOW_LOST -> "window lost: " + app.getOriginalMessage();
                case Failures.NEWS_SERVER -> "news server: " + app.getOriginalMessage();
                default -> app.getType() + ": " + app.getOriginalMessage();
            };
        }
        if (cause instanceof TimeoutFailure timeout) {
            return "holder silent (" + timeout.getTimeoutType() + ")";
        }
        return String.valueOf(cause);
    }

    private static LeaseActivities leaseActivities(ActivityOptions options) {
        return Workflow.newActivityStub(LeaseActivities.class, options);
    }

    private static GroupActivities groupActivities(ActivityOptions options) {
        return Workflow.newActivityStub(GroupActivities.class, options);
    }

    @Override
    public void planned() {
        planned = true;
    }

    @Override
    public void pause() {
        paused = true;
    }

    @Override
    public void resume() {
        paused = false;
        if (parked) {
            parked = false;
            failedCycles = 0;
        }
    }

    @Override
    public void drain() {
        drain = true;
    }

    @Override
    public void stuck(boolean stuck, Instant asOf) {
        if (asOf != null && stuckAsOf != null && asOf.isBefore(stuckAsOf)) {
            log.info(
                    "group {} ignored the watchman's stuck={} as of {}: older than stuck={} as of {}",
                    config.group(),
                    stuck,
                    asOf,
                    this.stuck,
                    stuckAsOf);
            return;
        }
        this.stuck = stuck;
        if (asOf != null) {
            stuckAsOf = asOf;
        }
        publish();
    }

    @Override
    public void conflict(ClaimConflict conflict) {
        conflicts++;
        lastConflict = conflict.describe();
        log.warn("group {}: claim conflict: {}", config.group(), lastConflict);
        Workflow.upsertMemo(Map.of(MEMO_CONFLICTS, conflicts, MEMO_LAST_CONFLICT, lastConflict));
    }

    @Override
    public GroupProgress progress() {
        return new GroupProgress(
                config.group(),
                state,
                holder,
                epoch,
                cursor,
                lag,
                rangesDone,
                headers,
                missing,
                malformed,
                lastSnapshot == null ? null : lastSnapshot.next(),
                lastSnapshot == null ? null : lastSnapshot.takenAt(),
                failedCycles,
                parked,
                Boolean.TRUE.equals(stuck),
                conflicts,
                lastConflict);
    }
}
