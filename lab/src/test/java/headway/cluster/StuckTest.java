package headway.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import headway.simulator.NewsSimulator;
import headway.worker.Schedules;
import headway.workflow.SearchAttributes;
import headway.workflow.TaskQueues;
import io.temporal.common.SearchAttributeKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The watchman across real processes. The holder of a group is frozen with SIGSTOP; the watchman
 * (scheduled every second, run by the other worker) reports the range stuck within the bound plus
 * one interval, and the group workflow's HeadwayStuck becomes true.
 *
 * <p>What "moved" means is asserted for both ways a stuck range moves again:
 * <ol>
 *   <li>thawed (SIGCONT) before its lease expires: the same holder, at the same epoch, moves the
 *       same range's cursor on; the record is closed as {@code cursor moved} (or {@code range done}
 *       when the thawed holder finished the range before the next scan).</li>
 *   <li>left frozen: after the lease TTL the other worker takes the group over and the range is
 *       re-planned and leased by the other worker; the record is closed as {@code range released},
 *       {@code range leased again} or {@code range done} (whichever state the next scan sees), no
 *       earlier than the takeover.</li>
 * </ol>
 * Either way the record stays (moved_at set, never deleted) and HeadwayStuck goes back to false.
 */
@Isolated("its assertions measure time: it runs alone, not beside another test class")
class StuckTest {

    private static final String GROUP = "alt.binaries.stuck";
    /** Long enough that a thaw within a few seconds keeps the lease (the index heartbeat timeout is half of it). */
    private static final Duration TTL = Duration.ofSeconds(20);

    private static final Duration STUCK_RANGE = Duration.ofSeconds(2);
    private static final Duration WATCH_EVERY = Duration.ofSeconds(1);
    /**
     * A scheduled scan's own latency (schedule, workflow task, activity, commit: ~0.5 s on a shared
     * 2-core machine) plus the runs lost to the frozen worker, which swallows a task on each poll it
     * had open when frozen (up to 5 workflow and 5 activity polls). Measured: detection 0.7-2.1 s
     * later than bound + interval on a quiet machine, 4.4 s later while a build ran beside it.
     */
    private static final Duration SLACK = Duration.ofSeconds(6);
    /**
     * How long HeadwayStuck may follow the stuck record while the holder stays frozen. The watchman
     * signals the group within a second, but a signal's workflow task goes to the group's sticky
     * queue, on the worker that ran its last workflow task. When that is the frozen holder, its open
     * sticky poll takes the task (started within milliseconds) and the server hands it to the other
     * worker only when the workflow task timeout (Temporal's default, 10 s) expires. Measured in the
     * group's history, 6 runs out of 6: started by the frozen worker, timed out 10.0 s later, run by
     * the other; HeadwayStuck 10.2-10.4 s after the record. Plus 5 s for a loaded machine.
     */
    private static final Duration FLAGGED_AFTER_RECORD = Duration.ofSeconds(15);
    /** HeadwayStuck once no worker is frozen: the watchman's next run and one workflow task. */
    private static final Duration FLAG_CLEARED = Duration.ofSeconds(15);

    /**
     * How long the takeover of a group whose holder stays frozen may take. Each long poll the frozen
     * worker had open on the shared task queue takes one task that it never runs: in a clean-clone
     * CI run (2026-12-06; another that day failed the same way, no takeover within 75 s) the
     * takeover's Outlook activity was still pending at its attempt 5 after 75 s, its last attempt
     * started by the frozen worker and timed out after its 10 s start-to-close. Five such polls at most (the SDK's activity pollers), with the retry
     * backoff of 1, 2, 4, 8 and 16 s between them, hold the takeover back up to 81 s; plus the
     * take, the range's lease and the watchman's next scan, and room for a loaded machine. In the
     * runs where fewer polls were open it took 32 s.
     */
    private static final Duration TAKEOVER_AFTER_FREEZE = Duration.ofSeconds(130);

    private static final String OPEN_RANGE_RECORD = """
            select id, subject, since, detected_at, moved_at, moved_how from stuck_moves
            where kind = 'range' and group_name = ? and id > ? order by id limit 1
            """;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void frozenHolderIsReportedStuckAndMarkedMovedWhenItMovesAgain() {
        try (Cluster cluster = Cluster.start("stuck", List.of(NewsSimulator.GroupSpec.of(GROUP, 13, 250_000)))) {
            cluster.workerEnv("HEADWAY_BATCH", "250")
                    .workerEnv("HEADWAY_LEASE_TTL", TTL.toSeconds() + "s")
                    .workerEnv("HEADWAY_STUCK_RANGE", STUCK_RANGE.toSeconds() + "s");
            Schedules.install(
                    cluster.client(),
                    "headway",
                    new Schedules.Intervals(Duration.ofHours(1), Duration.ofHours(1), WATCH_EVERY));
            cluster.startWorker("w1");
            cluster.startWorker("w2");
            cluster.addAndPlan(GROUP, 10_000);
            cluster.startGroup(GROUP, 1, Duration.ofMinutes(10), TTL);

            // 1. frozen, then thawed before the lease expires: the same holder moves the cursor on
            String holder = awaitMidRange(cluster);
            long epoch = cluster.queryLong("select epoch from group_leases where group_name = ?", GROUP);
            long lastId = cluster.queryLong("select coalesce(max(id), 0) from stuck_moves");
            cluster.freeze(holder);
            long frozenAt = System.nanoTime();
            Map<String, Object> stuck = awaitRecord(cluster, lastId, Duration.ofSeconds(15));
            double detectedAfter = (System.nanoTime() - frozenAt) / 1e9;
            long rangeId = Long.parseLong((String) stuck.get("subject"));
            long cursorWhenStuck = cluster.queryLong("select next_article from ranges where id = ?", rangeId);
            assertThat(cluster.queryString("select node_id from ranges where id = ?", rangeId))
                    .isEqualTo(holder);
            assertDetectedInTime(stuck, detectedAfter);
            cluster.thaw(holder);
            long thawedAt = System.nanoTime();
            Map<String, Object> moved = awaitMoved(cluster, (Long) stuck.get("id"), Duration.ofSeconds(75), null);
            double movedAfter = (System.nanoTime() - thawedAt) / 1e9;
            System.out.printf(
                    "stuck: frozen %s range %d stuck_after=%.1fs; thawed, moved_after=%.1fs how=%s%n",
                    holder, rangeId, detectedAfter, movedAfter, moved.get("moved_how"));
            // the next scan sees the cursor moved, or the range already finished by the thawed holder
            assertThat(moved.get("moved_how")).isIn("cursor moved", "range done");
            assertThat(cluster.queryString("select node_id from ranges where id = ?", rangeId))
                    .as("moved by the same holder")
                    .isEqualTo(holder);
            assertThat(cluster.queryLong("select epoch from group_leases where group_name = ?", GROUP))
                    .as("no takeover: the thawed holder kept its lease")
                    .isEqualTo(epoch);
            assertThat(cluster.queryString("select holder_node from group_leases where group_name = ?", GROUP))
                    .isEqualTo(holder);
            assertThat(cluster.queryLong("select next_article from ranges where id = ?", rangeId))
                    .isGreaterThan(cursorWhenStuck);
            // unset until the watchman's first verdict; false is the verdict of the scan that saw the
            // cursor move, whichever order the overlapping runs' signals arrived in
            awaitStuckAttribute(cluster, false, FLAG_CLEARED);

            // 2. frozen and left frozen: the other worker takes the group over once the frozen node's
            // row has expired and the workflow has given up on its index activity
            holder = awaitMidRange(cluster);
            assertThat(stuckAttribute(cluster))
                    .as("HeadwayStuck still false: no late signal from an older scan set it again")
                    .isFalse();
            String other = holder.equals("w1") ? "w2" : "w1";
            epoch = cluster.queryLong("select epoch from group_leases where group_name = ?", GROUP);
            lastId = cluster.queryLong("select coalesce(max(id), 0) from stuck_moves");
            cluster.freeze(holder);
            frozenAt = System.nanoTime();
            stuck = awaitRecord(cluster, lastId, Duration.ofSeconds(15));
            detectedAfter = (System.nanoTime() - frozenAt) / 1e9;
            awaitStuckAttribute(cluster, true, FLAGGED_AFTER_RECORD);
            double flaggedAfter = (System.nanoTime() - frozenAt) / 1e9;
            moved = awaitMoved(cluster, (Long) stuck.get("id"), TAKEOVER_AFTER_FREEZE, holder);
            movedAfter = (System.nanoTime() - frozenAt) / 1e9;
            Map<String, Object> takeover = cluster.row("""
                    select node_id, at from lease_events where group_name = ? and kind = 'takeover' and epoch > ? order by id limit 1
                    """, GROUP, epoch);
            System.out.printf(
                    "stuck: frozen %s stuck_after=%.1fs HeadwayStuck_after=%.1fs (%.1fs after the record); left frozen, moved_after=%.1fs how=%s takeover=%s%n",
                    holder,
                    detectedAfter,
                    flaggedAfter,
                    flaggedAfter - detectedAfter,
                    movedAfter,
                    moved.get("moved_how"),
                    takeover);
            assertDetectedInTime(stuck, detectedAfter);
            assertThat(takeover.get("node_id"))
                    .as("the other worker took the group over")
                    .isEqualTo(other);
            // the scan that sees it move may come while re-planned, leased by the other worker, or already done by it
            assertThat(moved.get("moved_how")).isIn("range released", "range leased again", "range done");
            long stuckRange = Long.parseLong((String) stuck.get("subject"));
            Cluster.await(
                    Duration.ofSeconds(30),
                    Duration.ofMillis(100),
                    "range " + stuckRange + " leased by " + other,
                    () -> other.equals(cluster.queryString("select node_id from ranges where id = ?", stuckRange)));
            assertThat(instant(moved.get("moved_at")))
                    .as("moved no earlier than the takeover")
                    .isAfterOrEqualTo(instant(takeover.get("at")));
            // the frozen holder's node row expires after the node TTL and its lease with it (V24), so the
            // take comes once the workflow stops waiting for the frozen index activity: its heartbeat
            // timeout, half the lease TTL; not before it, and no longer the whole lease TTL
            assertThat(movedAfter)
                    .as("moved after the index activity's heartbeat timeout")
                    .isGreaterThanOrEqualTo(TTL.toSeconds() / 2.0 - 1.0);
            awaitStuckAttribute(cluster, false, FLAG_CLEARED);
            cluster.thaw(holder);

            assertThat(cluster.queryLong(
                            "select count(*) from stuck_moves where kind = 'range' and group_name = ? and moved_at is not null",
                            GROUP))
                    .as("both records kept, closed")
                    .isGreaterThanOrEqualTo(2);
        }
    }

    /**
     * Reported within the bound + one watchman interval of the last move (database times), plus
     * {@link #SLACK}; and of the freeze, which comes a batch after the last move, plus another second.
     */
    private static void assertDetectedInTime(Map<String, Object> stuck, double detectedAfterFreeze) {
        Instant since = instant(stuck.get("since"));
        Instant detected = instant(stuck.get("detected_at"));
        double sinceLastMove = Duration.between(since, detected).toMillis() / 1e3;
        double limit = STUCK_RANGE.plus(WATCH_EVERY).toMillis() / 1e3 + SLACK.toMillis() / 1e3;
        System.out.printf(
                "stuck: detected %.1fs after the last move, %.1fs after the freeze (limit %.1fs)%n",
                sinceLastMove, detectedAfterFreeze, limit);
        assertThat(sinceLastMove)
                .as("stuck within bound + one watchman interval + slack of the last move")
                .isBetween(STUCK_RANGE.toMillis() / 1e3, limit);
        assertThat(detectedAfterFreeze)
                .as("stuck within bound + one watchman interval + slack of the freeze")
                .isLessThanOrEqualTo(limit + 1.0);
    }

    private static Instant instant(Object timestamp) {
        return ((java.sql.Timestamp) timestamp).toInstant();
    }

    /** The current holder, once its leased range is well inside (so it keeps moving until frozen). */
    private static String awaitMidRange(Cluster cluster) {
        Cluster.await(
                Duration.ofSeconds(60),
                Duration.ofMillis(50),
                "the holder mid-range",
                () -> cluster.queryLong("""
                select count(*) from group_leases l join ranges r on r.group_name = l.group_name
                 and r.status = 'leased' and r.node_id = l.holder_node
                where l.group_name = ? and r.next_article >= r.start_article + 1000 and r.next_article <= r.end_article - 4000
                """, GROUP) == 1);
        return cluster.queryString("select holder_node from group_leases where group_name = ?", GROUP);
    }

    private static Map<String, Object> awaitRecord(Cluster cluster, long afterId, Duration limit) {
        try {
            Cluster.await(
                    limit,
                    Duration.ofMillis(100),
                    "a stuck range record",
                    () -> !cluster.row(OPEN_RANGE_RECORD, GROUP, afterId).isEmpty());
        } catch (AssertionError e) {
            for (var info : cluster.temporal()
                    .serviceStubs()
                    .blockingStub()
                    .listWorkflowExecutions(
                            io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest.newBuilder()
                                    .setNamespace("default")
                                    .setQuery("WorkflowType = 'WatchmanWorkflow'")
                                    .build())
                    .getExecutionsList()) {
                System.out.println("watchman run " + info.getExecution().getWorkflowId() + " " + info.getStatus()
                        + " started " + info.getStartTime() + " closed " + info.getCloseTime());
            }
            throw e;
        }
        Map<String, Object> record = cluster.row(OPEN_RANGE_RECORD, GROUP, afterId);
        assertThat(record.get("moved_at")).isNull();
        return record;
    }

    private static Map<String, Object> awaitMoved(Cluster cluster, long id, Duration within, String frozen) {
        String sql = "select id, moved_at, moved_how from stuck_moves where id = ?";
        try {
            Cluster.await(
                    within,
                    Duration.ofMillis(100),
                    "stuck record " + id + " marked moved",
                    () -> cluster.row(sql, id).get("moved_at") != null);
        } catch (AssertionError e) {
            try {
                printWhyNotMoved(cluster, frozen);
            } catch (RuntimeException diagnostics) {
                System.out.println("no diagnostics: " + diagnostics);
            }
            throw e;
        }
        return cluster.row(sql, id);
    }

    /**
     * Why a move did not come, for the test's output: the group workflow's pending activities, the
     * lease events, who last polled the shared and lease activity queues, the live workers' threads
     * and PostgreSQL's busy sessions. In two of seventeen local runs with a 3 s outlook
     * start-to-close (tried on 2026-12-07, not kept) the live worker had not polled the shared queue
     * for two minutes, and the takeover's outlook sat scheduled, unstarted.
     */
    private static void printWhyNotMoved(Cluster cluster, String frozen) {
        var stub = cluster.temporal().serviceStubs().blockingStub();
        var d = stub.describeWorkflowExecution(
                io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest.newBuilder()
                        .setNamespace("default")
                        .setExecution(io.temporal.api.common.v1.WorkflowExecution.newBuilder()
                                .setWorkflowId(TaskQueues.workflowId(GROUP)))
                        .build());
        System.out.println(
                "group workflow pending: " + d.getPendingActivitiesList() + " wft: " + d.getPendingWorkflowTask());
        System.out.println("lease events: " + cluster.rows("select * from lease_events order by id"));
        for (String queue : List.of("headway", TaskQueues.leaseQueue("headway"))) {
            var pollers = stub.describeTaskQueue(
                            io.temporal.api.workflowservice.v1.DescribeTaskQueueRequest.newBuilder()
                                    .setNamespace("default")
                                    .setTaskQueue(io.temporal.api.taskqueue.v1.TaskQueue.newBuilder()
                                            .setName(queue))
                                    .setTaskQueueType(io.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY)
                                    .build())
                    .getPollersList();
            System.out.println("activity pollers of " + queue + " (identity, last poll): "
                    + pollers.stream()
                            .map(p -> p.getIdentity() + " "
                                    + Instant.ofEpochSecond(
                                            p.getLastAccessTime().getSeconds()))
                            .toList());
        }
        for (String w : List.of("w1", "w2")) {
            if (!w.equals(frozen)) {
                System.out.println("thread dump of " + w + ":\n" + cluster.threadDump(w));
            }
        }
        System.out.println("postgres sessions: " + cluster.rows("""
                select pid, application_name, state, wait_event_type, wait_event, xact_start, state_change,
                       pg_blocking_pids(pid) as blocked_by, left(query, 160) as query
                from pg_stat_activity where datname = current_database() and state <> 'idle'
                """));
    }

    private static void awaitStuckAttribute(Cluster cluster, boolean stuck, Duration limit) {
        Cluster.await(
                limit,
                Duration.ofMillis(200),
                "HeadwayStuck=" + stuck,
                () -> Boolean.valueOf(stuck).equals(stuckAttribute(cluster)));
    }

    /** The group workflow's HeadwayStuck; null while unset. */
    private static Boolean stuckAttribute(Cluster cluster) {
        SearchAttributeKey<Boolean> key = SearchAttributes.STUCK;
        io.temporal.common.SearchAttributes attributes = cluster.client()
                .newUntypedWorkflowStub(TaskQueues.workflowId(GROUP))
                .describe()
                .getTypedSearchAttributes();
        return attributes.containsKey(key) ? attributes.get(key) : null;
    }
}
