package headway.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import headway.activity.ClaimConflict;
import headway.activity.SnapshotInfo;
import headway.workflow.FakeGroupStore.Attempt;
import headway.workflow.FakeGroupStore.Node;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.TimeoutType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributeKey;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The group workflow against an in-memory store on the time-skipping test server. After each
 * test, every run of the workflow is replayed from its history, so a nondeterministic change
 * fails here too. {@code -Dheadway.recordHistories=DIR} writes those histories as JSON.
 */
class GroupWorkflowTest {

    private static final String GROUP = "alt.binaries.test";
    private static final String ID = TaskQueues.workflowId(GROUP);
    private static final Node A = new Node("node-a", "holder-a");
    private static final Node B = new Node("node-b", "holder-b");
    private static final Node DEAD = new Node("node-dead", "holder-dead");
    private static final Duration TTL = Duration.ofSeconds(10);

    private TestWorkflowEnvironment env;
    private WorkflowClient client;
    private final List<WorkflowExecution> started = new ArrayList<>();

    private static GroupConfig config(int snapshotEvery, long historyEventBudget) {
        return new GroupConfig(
                GROUP, TTL, snapshotEvery, Duration.ofDays(7), 3, historyEventBudget, TaskQueues.SHARED, null);
    }

    private static GroupConfig config() {
        return config(2, GroupConfig.DEFAULT_HISTORY_EVENT_BUDGET);
    }

    private void startEnv(FakeGroupStore store, Node... holders) {
        env = TestWorkflowEnvironment.newInstance();
        for (SearchAttributeKey<?> key : SearchAttributes.ALL) {
            env.registerSearchAttribute(key.getName(), key.getValueType());
        }
        Worker shared = env.newWorker(TaskQueues.SHARED);
        shared.registerWorkflowImplementationTypes(GroupWorkflowImpl.class);
        shared.registerActivitiesImplementations(store.leaseActivities());
        env.newWorker(TaskQueues.leaseQueue(TaskQueues.SHARED))
                .registerActivitiesImplementations(store.leaseActivities());
        for (Node holder : holders) {
            env.newWorker(holder.taskQueue()).registerActivitiesImplementations(store.groupActivities());
        }
        env.start();
        client = env.getWorkflowClient();
    }

    private void start(GroupRun run) {
        GroupWorkflow workflow = client.newWorkflowStub(
                GroupWorkflow.class,
                WorkflowOptions.newBuilder()
                        .setWorkflowId(ID)
                        .setTaskQueue(TaskQueues.SHARED)
                        .build());
        started.add(WorkflowClient.start(workflow::run, run));
    }

    /** A stub on the latest run, because a stub bound to the first run would query it after continue-as-new. */
    private GroupWorkflow group() {
        return client.newWorkflowStub(GroupWorkflow.class, ID);
    }

    private GroupProgress awaitProgress(String what, Predicate<GroupProgress> condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        GroupProgress progress = group().progress();
        while (!condition.test(progress)) {
            if (System.nanoTime() > deadline) {
                fail("never " + what + "; last progress: " + progress);
            }
            env.sleep(Duration.ofMillis(200));
            progress = group().progress();
        }
        return progress;
    }

    /**
     * Waits, in real time and without moving the test server's clock, until {@code store} has seen
     * {@code count} calls of {@code what} (60 s at most: then the assertion after it tells).
     */
    private static void awaitCalls(FakeGroupStore store, String what, int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (store.callCount(what) < count && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private GroupProgress awaitIdleAfter(long ranges) {
        return awaitProgress(
                "idle after " + ranges + " ranges", p -> p.state() == GroupState.IDLE && p.rangesDone() == ranges);
    }

    private static List<Long> articles(long first, long last) {
        return LongStream.rangeClosed(first, last).boxed().toList();
    }

    @AfterEach
    void replayEveryRun(TestInfo test) throws Exception {
        if (env == null) {
            return;
        }
        try {
            String record = System.getProperty("headway.recordHistories");
            for (WorkflowExecution execution : started) {
                String runId = execution.getRunId();
                for (int run = 1; runId != null; run++) {
                    WorkflowExecutionHistory history = client.fetchHistory(execution.getWorkflowId(), runId);
                    WorkflowReplayer.replayWorkflowExecution(history, GroupWorkflowImpl.class);
                    if (record != null) {
                        write(
                                Path.of(
                                        record,
                                        test.getTestMethod().orElseThrow().getName() + "-run" + run + ".json"),
                                history);
                    }
                    HistoryEvent last = history.getLastEvent();
                    runId = last.hasWorkflowExecutionContinuedAsNewEventAttributes()
                            ? last.getWorkflowExecutionContinuedAsNewEventAttributes()
                                    .getNewExecutionRunId()
                            : null;
                }
            }
        } finally {
            env.close();
        }
    }

    private static void write(Path file, WorkflowExecutionHistory history) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, history.toJson(true));
    }

    @Test
    void indexesTheGroupInArticleOrderToTheEnd() {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 5, 100);
        startEnv(store, A);
        start(GroupRun.start(config()));

        GroupProgress progress = awaitIdleAfter(5);

        assertThat(store.indexed()).containsExactlyElementsOf(articles(1, 500));
        assertThat(progress.headers()).isEqualTo(450);
        assertThat(progress.missing()).isEqualTo(50);
        assertThat(progress.cursor()).isEqualTo(501);
        assertThat(progress.lag()).isZero();
        assertThat(progress.holder()).isNull();
        assertThat(progress.epoch()).isEqualTo(1);
        WorkflowExecutionDescription description =
                client.newUntypedWorkflowStub(ID).describe();
        io.temporal.common.SearchAttributes attributes = description.getTypedSearchAttributes();
        assertThat(attributes.get(SearchAttributes.GROUP)).isEqualTo(GROUP);
        assertThat(attributes.get(SearchAttributes.STATE)).isEqualTo("IDLE");
        assertThat(attributes.get(SearchAttributes.CURSOR)).isEqualTo(501L);
        assertThat(attributes.get(SearchAttributes.LAG)).isZero();
        assertThat(attributes.containsKey(SearchAttributes.HOLDER)).isFalse();
        assertThat(description.getMemo("config", GroupConfig.class, GroupConfig.class))
                .isEqualTo(config());
    }

    @Test
    void rangesFinishedWithinSecondsLeaveTheCursorToTheNextStateChange() {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 5, 100);
        startEnv(store, A);
        start(GroupRun.start(config()));

        awaitIdleAfter(5);

        WorkflowExecutionHistory history =
                client.fetchHistory(ID, started.get(0).getRunId());
        List<Long> cursors = history.getEvents().stream()
                .filter(HistoryEvent::hasUpsertWorkflowSearchAttributesEventAttributes)
                .map(e -> e.getUpsertWorkflowSearchAttributesEventAttributes()
                        .getSearchAttributes()
                        .getIndexedFieldsMap()
                        .get(SearchAttributes.CURSOR.getName()))
                .filter(java.util.Objects::nonNull)
                .map(p -> Long.parseLong(p.getData().toStringUtf8()))
                .toList();
        assertThat(cursors)
                .as("five ranges within seconds of the INDEXING state's upsert: only the cursor the IDLE state"
                        + " carries, not one upsert a range")
                .containsExactly(501L);
        assertThat(history.getEvents())
                .filteredOn(e -> e.hasMarkerRecordedEventAttributes())
                .extracting(e -> e.getMarkerRecordedEventAttributes().getMarkerName())
                .as("the progress throttle's and the lease bands' change ids")
                .containsExactly("Version", "Version");
    }

    @Test
    void snapshotsEveryNRangesAndWhenCaughtUp() {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 5, 100);
        startEnv(store, A);
        start(GroupRun.start(config(2, GroupConfig.DEFAULT_HISTORY_EVENT_BUDGET)));

        GroupProgress progress = awaitIdleAfter(5);

        assertThat(store.calls())
                .filteredOn(c -> c.startsWith("snapshot"))
                .containsExactly("snapshot 201", "snapshot 401", "snapshot 501");
        assertThat(store.calls()).endsWith("next none", "snapshot 501", "release 1");
        assertThat(progress.lastSnapshotNext()).isEqualTo(501);
        assertThat(progress.lastSnapshotAt()).isEqualTo("2026-01-01T00:00:00Z");
    }

    @Test
    void aHistoryLeaseNoWorkerTakesIsGivenUpAfterTwoTtlsAndTheOutlookReadAgain() {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 2, 100).history(true);
        startEnv(store, A); // its lease worker polls the tail's lease queue only, as a tail worker does
        start(GroupRun.start(config()));
        env.sleep(TTL.multipliedBy(2).plusSeconds(1));
        // the timer has fired; the workflow task that asks for the outlook again runs on its own thread
        awaitCalls(store, "outlook", 2);
        assertThat(store.callCount("outlook"))
                .as("the history lease waited two TTLs on its own queue, then the outlook was read again")
                .isEqualTo(2);
        assertThat(store.indexed()).isEmpty();

        store.history(false); // the planner found new tail articles
        awaitIdleAfter(2);
        assertThat(store.indexed()).containsExactlyElementsOf(articles(1, 200));
    }

    @Test
    void caughtUpReleasesAndIdlesUntilPlanned() {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 2, 100);
        startEnv(store, A);
        start(GroupRun.start(config()));
        awaitIdleAfter(2);
        assertThat(store.holder()).isNull();
        assertThat(store.calls()).contains("release 1");

        store.plan(201, 2, 100);
        env.sleep(Duration.ofMinutes(10));
        assertThat(group().progress().rangesDone()).isEqualTo(2);
        assertThat(store.callCount("outlook")).isEqualTo(1);

        group().planned();
        GroupProgress progress = awaitIdleAfter(4);

        assertThat(store.indexed()).containsExactlyElementsOf(articles(1, 400));
        assertThat(progress.epoch()).isEqualTo(2);
        assertThat(progress.cursor()).isEqualTo(401);
    }

    @Test
    void continueAsNewKeepsCountersAndState() {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 6, 100);
        startEnv(store, A);
        start(GroupRun.start(config(2, 1)));

        GroupProgress progress = awaitIdleAfter(6);

        assertThat(store.indexed()).containsExactlyElementsOf(articles(1, 600));
        assertThat(progress.headers()).isEqualTo(540);
        assertThat(progress.missing()).isEqualTo(60);
        assertThat(progress.cursor()).isEqualTo(601);
        assertThat(progress.lastSnapshotNext()).isEqualTo(601);
        assertThat(progress.epoch()).isEqualTo(store.epoch()).isGreaterThan(1);
        WorkflowExecutionHistory first = client.fetchHistory(ID, started.get(0).getRunId());
        assertThat(first.getLastEvent().getEventType())
                .isEqualTo(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW);
        assertThat(first.getEvents())
                .filteredOn(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
                .extracting(e -> e.getActivityTaskScheduledEventAttributes()
                        .getActivityType()
                        .getName())
                .containsExactly("Outlook", "Lease", "NextRange", "IndexRange", "PutSnapshot", "Release");
        WorkflowExecutionDescription latest = client.newUntypedWorkflowStub(ID).describe();
        assertThat(latest.getExecution().getRunId()).isNotEqualTo(started.get(0).getRunId());
        assertThat(latest.getTypedSearchAttributes().get(SearchAttributes.CURSOR))
                .isEqualTo(601L);
        assertThat(latest.getMemo("config", GroupConfig.class, GroupConfig.class))
                .isEqualTo(config(2, 1));
    }

    @Test
    void carriedStateAndSignalsResumeInTheNextRun() {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 2, 100);
        startEnv(store, A);
        SnapshotInfo snapshot = new SnapshotInfo(1, 10, "2025-12-31T00:00:00Z");
        start(new GroupRun(
                config(), new GroupRun.Carry(7, 70, 7, 1, snapshot, 1L, 200, 4, 0, false, true, true, false)));

        GroupProgress paused = awaitProgress("paused", p -> p.state() == GroupState.PAUSED);
        assertThat(paused.rangesDone()).isEqualTo(7);
        assertThat(paused.lastSnapshotNext()).isEqualTo(1);
        assertThat(store.calls()).isEmpty();

        group().resume();
        GroupProgress progress = awaitIdleAfter(9);

        assertThat(progress.headers()).isEqualTo(70 + 180);
        assertThat(progress.missing()).isEqualTo(7 + 20);
        assertThat(progress.malformed()).isEqualTo(1);
    }

    @Test
    void pauseReleasesAfterTheCurrentRangeAndResumeContinues() throws InterruptedException {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 4, 100);
        store.gate(2);
        startEnv(store, A);
        start(GroupRun.start(config(3, GroupConfig.DEFAULT_HISTORY_EVENT_BUDGET)));
        store.awaitEntered(2);

        group().pause();
        store.open(2);
        GroupProgress paused = awaitProgress("paused", p -> p.state() == GroupState.PAUSED);

        assertThat(paused.rangesDone()).isEqualTo(2);
        assertThat(store.calls()).endsWith("done 2", "next 3", "snapshot 201", "release 1");
        assertThat(store.holder()).isNull();
        env.sleep(Duration.ofHours(2));
        assertThat(store.doneRanges()).isEqualTo(2);
        assertThat(group().progress().state()).isEqualTo(GroupState.PAUSED);

        group().resume();
        GroupProgress progress = awaitIdleAfter(4);
        assertThat(store.indexed()).containsExactlyElementsOf(articles(1, 400));
        assertThat(progress.epoch()).isEqualTo(2);
    }

    @Test
    void drainCompletesTheWorkflowAfterSnapshotAndRelease() throws InterruptedException {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 4, 100);
        store.gate(2);
        startEnv(store, A);
        start(GroupRun.start(config(3, GroupConfig.DEFAULT_HISTORY_EVENT_BUDGET)));
        store.awaitEntered(2);

        group().drain();
        store.open(2);
        client.newUntypedWorkflowStub(ID).getResult(Void.class);

        assertThat(store.calls()).endsWith("done 2", "next 3", "snapshot 201", "release 1");
        assertThat(store.doneRanges()).isEqualTo(2);
        GroupProgress progress = group().progress();
        assertThat(progress.state()).isEqualTo(GroupState.DRAINED);
        assertThat(progress.lastSnapshotNext()).isEqualTo(201);
        assertThat(client.newUntypedWorkflowStub(ID)
                        .describe()
                        .getTypedSearchAttributes()
                        .get(SearchAttributes.STATE))
                .isEqualTo("DRAINED");
    }

    @Test
    void failedIndexAttemptIsRetriedFromItsHeartbeat() {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 2, 100);
        store.failOnceAt(1, 60);
        startEnv(store, A);
        start(GroupRun.start(config()));

        GroupProgress progress = awaitIdleAfter(2);

        List<Attempt> attempts =
                store.attempts().stream().filter(a -> a.rangeId() == 1).toList();
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(0).startedFrom()).isEqualTo(1);
        assertThat(attempts.get(0).heartbeatCursor()).isNull();
        Attempt retry = attempts.get(1);
        assertThat(retry.attempt()).isEqualTo(2);
        assertThat(retry.heartbeatCursor()).isNotNull().isBetween(2L, 60L);
        assertThat(retry.startedFrom()).isEqualTo(retry.heartbeatCursor());
        assertThat(store.indexed()).containsAll(articles(1, 200)).isSorted();
        assertThat(progress.headers()).isEqualTo(180);
        assertThat(progress.missing()).isEqualTo(20);
        assertThat(progress.epoch()).isEqualTo(1);
        assertThat(progress.failedCycles()).isZero();
    }

    @Test
    void leaseLostStopsTheAttemptAndTheGroupIsLeasedWithANewEpoch() {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 3, 100);
        store.stealLeaseAt(2, 150);
        startEnv(store, A);
        start(GroupRun.start(config()));

        GroupProgress progress = awaitIdleAfter(3);

        assertThat(store.grantedEpochs()).containsExactly(1L, 3L);
        assertThat(store.attempts())
                .filteredOn(a -> a.rangeId() == 2)
                .extracting(Attempt::epoch, Attempt::startedFrom)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1L, 101L), org.assertj.core.groups.Tuple.tuple(3L, 150L));
        assertThat(store.calls()).contains("lease lost 1").doesNotContain("release 1");
        assertThat(store.indexed()).containsExactlyElementsOf(articles(1, 300));
        assertThat(progress.epoch()).isEqualTo(3);
        assertThat(progress.failedCycles()).isZero();
        assertThat(progress.rangesDone()).isEqualTo(3);
    }

    @Test
    void aLeaseThatRedoesRangesSnapshotsAfterItsFirstRange() {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 4, 100);
        store.stealLeaseAt(2, 150);
        startEnv(store, A);
        start(GroupRun.start(config(3, GroupConfig.DEFAULT_HISTORY_EVENT_BUDGET)));

        awaitIdleAfter(4);

        assertThat(store.grantedEpochs()).containsExactly(1L, 3L);
        assertThat(store.calls())
                .filteredOn(c -> c.startsWith("snapshot"))
                .as("the lease of epoch 3 re-planned range 2, so it snapshots after it despite the cadence of 3")
                .containsExactly("snapshot 201", "snapshot 401");
        assertThat(store.indexed()).containsExactlyElementsOf(articles(1, 400));
    }

    @Test
    void groupWhoseEveryAttemptFailsIsParkedAndResumeUnparksIt() {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 2, 100);
        store.failEveryIndex(true);
        startEnv(store, A);
        start(GroupRun.start(config()));

        GroupProgress parked = awaitProgress("parked", p -> p.state() == GroupState.PARKED);

        assertThat(parked.parked()).isTrue();
        assertThat(parked.failedCycles()).isEqualTo(3);
        assertThat(store.attempts()).hasSize(3 * 5);
        assertThat(store.grantedEpochs()).containsExactly(1L, 2L, 3L);
        assertThat(client.newUntypedWorkflowStub(ID)
                        .describe()
                        .getTypedSearchAttributes()
                        .get(SearchAttributes.STATE))
                .isEqualTo("PARKED");
        env.sleep(Duration.ofDays(1));
        assertThat(store.attempts()).hasSize(3 * 5);

        store.failEveryIndex(false);
        group().resume();
        GroupProgress progress = awaitIdleAfter(2);
        assertThat(progress.parked()).isFalse();
        assertThat(progress.failedCycles()).isZero();
        assertThat(store.indexed()).containsExactlyElementsOf(articles(1, 200));
    }

    @Test
    void newsServerFailuresBackOffWithoutParkingAndTheGroupGoesOnWhenTheServerBehaves() {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 2, 100);
        store.newsServerFailsEveryIndex(true);
        startEnv(store, A);
        start(GroupRun.start(config()));

        env.sleep(Duration.ofMinutes(30));
        GroupProgress failing = group().progress();

        int cycles = store.grantedEpochs().size();
        assertThat(cycles)
                .as("more cycles than the 3 that park a failing group")
                .isGreaterThan(3);
        assertThat(failing.parked()).isFalse();
        assertThat(failing.failedCycles()).isZero();
        assertThat(failing.state()).isIn(GroupState.BACKING_OFF, GroupState.LEASING, GroupState.INDEXING);
        assertThat(store.attempts())
                .as("each cycle retries the fetch 5 times with the activity's backoff")
                .hasSize(5 * cycles);
        assertThat(store.calls()).filteredOn(c -> c.startsWith("release")).hasSizeGreaterThanOrEqualTo(cycles - 1);
        List<Duration> pauses = client.fetchHistory(ID).getEvents().stream()
                .filter(e -> e.getEventType() == EventType.EVENT_TYPE_TIMER_STARTED)
                .map(e -> Duration.ofSeconds(e.getTimerStartedEventAttributes()
                        .getStartToFireTimeout()
                        .getSeconds()))
                .toList();
        assertThat(pauses)
                .as("a lease TTL, doubled per failed cycle in a row, at most 10 minutes")
                .startsWith(TTL, TTL.multipliedBy(2), TTL.multipliedBy(4), TTL.multipliedBy(8))
                .allSatisfy(d -> assertThat(d).isLessThanOrEqualTo(Duration.ofMinutes(10)));

        store.newsServerFailsEveryIndex(false);
        env.sleep(Duration.ofMinutes(11));
        GroupProgress progress = awaitIdleAfter(2);
        assertThat(progress.parked()).isFalse();
        assertThat(progress.failedCycles()).isZero();
        assertThat(store.indexed()).containsExactlyElementsOf(articles(1, 200));
    }

    @Test
    void serverBackoffDoublesFromTheLeaseTtlUpToTenMinutes() {
        assertThat(GroupWorkflowImpl.serverBackoff(TTL, 1)).isEqualTo(TTL);
        assertThat(GroupWorkflowImpl.serverBackoff(TTL, 3)).isEqualTo(Duration.ofSeconds(40));
        assertThat(GroupWorkflowImpl.serverBackoff(TTL, 7)).isEqualTo(Duration.ofMinutes(10));
        assertThat(GroupWorkflowImpl.serverBackoff(TTL, Integer.MAX_VALUE)).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void deadHolderTimesOutAndTheGroupIsLeasedAgain() {
        FakeGroupStore store = new FakeGroupStore(GROUP, DEAD, B).plan(1, 2, 100);
        startEnv(store, B);
        start(GroupRun.start(config()));

        GroupProgress progress = awaitIdleAfter(2);

        assertThat(store.grantedEpochs()).containsExactly(1L, 2L);
        assertThat(store.attempts()).extracting(Attempt::epoch).containsOnly(2L);
        assertThat(store.indexed()).containsExactlyElementsOf(articles(1, 200));
        assertThat(progress.epoch()).isEqualTo(2);
        assertThat(progress.failedCycles()).isZero();
        List<HistoryEvent> timeouts = client.fetchHistory(ID).getEvents().stream()
                .filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT)
                .toList();
        assertThat(timeouts).hasSize(1);
        assertThat(timeouts.get(0)
                        .getActivityTaskTimedOutEventAttributes()
                        .getFailure()
                        .getTimeoutFailureInfo()
                        .getTimeoutType())
                .isEqualTo(TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_START);
    }

    @Test
    void groupHeldElsewhereWaitsAndAsksAgain() {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 1, 100);
        store.refuseNextLeases(1);
        startEnv(store, A);
        start(GroupRun.start(config()));

        GroupProgress waiting = awaitProgress("waiting", p -> p.state() == GroupState.WAITING);
        assertThat(waiting.holder()).isEqualTo("node-elsewhere");

        awaitIdleAfter(1);
        assertThat(store.grantedEpochs()).containsExactly(1L);
        assertThat(store.calls()).startsWith("outlook 1", "lease refused", "outlook 1", "lease 1 node-a");
    }

    /**
     * Overlapping watchman runs signal in any order: a stuck verdict from an older scan that
     * arrives after the un-stuck one from a newer scan must not leave the group flagged (measured
     * in StuckTest: a frozen worker delayed one run's signal past the next run's).
     */
    @Test
    void aStuckVerdictOlderThanTheOneShownIsIgnored() {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 1, 100);
        startEnv(store, A);
        start(GroupRun.start(config()));
        awaitIdleAfter(1);
        Instant opened = Instant.parse("2026-01-02T03:04:05.100Z");
        Instant closed = opened.plusMillis(80);

        group().stuck(false, closed);
        group().stuck(true, opened);
        assertThat(group().progress().stuck()).isFalse();
        assertThat(stuckAttribute()).isFalse();

        group().stuck(true, closed.plusSeconds(1));
        assertThat(group().progress().stuck()).isTrue();
        assertThat(stuckAttribute()).isTrue();

        // a signal sent before verdicts carried a time (one argument) is applied as before
        client.newUntypedWorkflowStub(ID).signal("stuck", false);
        assertThat(group().progress().stuck()).isFalse();
        assertThat(stuckAttribute()).isFalse();
    }

    /** A claim conflict told by a worker (the side that holds the group hears of it) shows in the progress query and the memo. */
    @Test
    void aClaimConflictIsRecordedInTheProgressAndTheMemo() {
        FakeGroupStore store = new FakeGroupStore(GROUP, A).plan(1, 1, 100);
        startEnv(store, A);
        start(GroupRun.start(config()));
        awaitIdleAfter(1);
        assertThat(group().progress().conflicts()).isZero();

        client.newUntypedWorkflowStub(ID)
                .signal("conflict", new ClaimConflict("lease_lost", "node-a", 1, "node-b", 2, "stale write refused"));

        GroupProgress p = group().progress();
        assertThat(p.conflicts()).isEqualTo(1);
        assertThat(p.lastConflict())
                .isEqualTo("lease_lost: node-a (epoch 1) against node-b (epoch 2): stale write refused");
        WorkflowExecutionDescription d = client.newUntypedWorkflowStub(ID).describe();
        assertThat(d.getMemo("conflicts", Integer.class)).isEqualTo(1);
        assertThat(d.getMemo("lastConflict", String.class)).isEqualTo(p.lastConflict());
    }

    private boolean stuckAttribute() {
        return client.newUntypedWorkflowStub(ID)
                .describe()
                .getTypedSearchAttributes()
                .get(SearchAttributes.STUCK);
    }
}
