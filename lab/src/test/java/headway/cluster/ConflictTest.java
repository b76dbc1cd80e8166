package headway.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import headway.activity.WatchmanSummary;
import headway.simulator.NewsSimulator;
import headway.workflow.GroupProgress;
import headway.workflow.GroupWorkflow;
import headway.workflow.TaskQueues;
import headway.workflow.WatchmanWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Claim conflicts told end to end, across real processes: the holder of a group is frozen with
 * SIGSTOP, the other worker takes the group over once the frozen node's row has expired, and its
 * lease activity signals {@code conflict} (a takeover) to the group's workflow; then the frozen
 * holder is thawed, its next write is refused by the fence, and its worker signals a
 * {@code lease_lost} conflict. Both reach the one workflow that directs the current holder: its
 * {@code progress} query and its memo count them and show the last. Then watchman runs, started
 * three at a time on the shared queue and run by the workers, count every conflict recorded in
 * {@code lease_events} exactly once between them (V23's counted flag), however they overlap.
 *
 * <p>No watchman Schedule runs here: a run whose scan a frozen worker ran late would count events
 * in a result nobody reads, so the runs are started by the test after the thaw and their results
 * summed.
 */
@Isolated("its assertions measure time: it runs alone, not beside another test class")
class ConflictTest {

    private static final String GROUP = "alt.binaries.conflict";
    /** Long, so the take comes from the frozen node's expired row (node TTL 3 s), not its lease. */
    private static final Duration TTL = Duration.ofSeconds(20);
    /** As StuckTest's: the frozen worker may swallow up to five activity tasks of the takeover, each for 10 s with backoff. */
    private static final Duration TAKEOVER_AFTER_FREEZE = Duration.ofSeconds(130);

    private static final String CONFLICT_EVENTS =
            "select count(*) from lease_events where kind in ('takeover', 'lease_lost') and group_name = ?";

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aTakeoverAndARefusedZombieWriteReachTheHoldersWorkflowAndAreCountedOnce() throws Exception {
        try (Cluster cluster = Cluster.start("conflict", List.of(NewsSimulator.GroupSpec.of(GROUP, 17, 250_000)))) {
            cluster.workerEnv("HEADWAY_BATCH", "250").workerEnv("HEADWAY_LEASE_TTL", TTL.toSeconds() + "s");
            cluster.startWorker("w1");
            cluster.startWorker("w2");
            cluster.addAndPlan(GROUP, 10_000);
            cluster.startGroup(GROUP, 1, Duration.ofMinutes(10), TTL);
            GroupWorkflow group = cluster.client().newWorkflowStub(GroupWorkflow.class, TaskQueues.workflowId(GROUP));

            String zombie = awaitMidRange(cluster);
            String heir = zombie.equals("w1") ? "w2" : "w1";
            long epoch = cluster.queryLong("select epoch from group_leases where group_name = ?", GROUP);
            assertThat(group.progress().conflicts())
                    .as("no conflict before the freeze")
                    .isZero();
            cluster.freeze(zombie);
            long frozenAt = System.nanoTime();

            // the takeover: recorded, and told to the group's workflow by the heir's lease activity
            Cluster.await(
                    TAKEOVER_AFTER_FREEZE,
                    Duration.ofMillis(100),
                    "a takeover by " + heir,
                    () -> cluster.queryLong(
                                    "select count(*) from lease_events where group_name = ? and kind = 'takeover' and node_id = ? and epoch > ?",
                                    GROUP,
                                    heir,
                                    epoch)
                            > 0);
            double takenAfter = (System.nanoTime() - frozenAt) / 1e9;
            Cluster.await(
                    Duration.ofSeconds(30),
                    Duration.ofMillis(200),
                    "the takeover in the workflow's progress",
                    () -> group.progress().conflicts() >= 1);
            GroupProgress told = group.progress();
            assertThat(told.lastConflict())
                    .as("the takeover, naming the frozen holder as the stale claimant and the heir as current")
                    .startsWith("takeover: " + zombie + " (epoch " + epoch + ") against " + heir);

            // the zombie wakes: its next write is refused by the fence, and its worker tells the workflow
            int beforeThaw = told.conflicts();
            cluster.thaw(zombie);
            Cluster.await(
                    Duration.ofSeconds(60),
                    Duration.ofMillis(100),
                    "a refused write of " + zombie,
                    () -> cluster.queryLong(
                                    "select count(*) from lease_events where group_name = ? and kind = 'lease_lost' and node_id = ?",
                                    GROUP,
                                    zombie)
                            > 0);
            Cluster.await(
                    Duration.ofSeconds(30),
                    Duration.ofMillis(200),
                    "the refused write in the workflow's progress",
                    () -> group.progress().lastConflict() != null
                            && group.progress().lastConflict().startsWith("lease_lost: " + zombie));
            GroupProgress after = group.progress();
            assertThat(after.conflicts()).isGreaterThan(beforeThaw);
            assertThat(after.lastConflict()).contains("(epoch " + epoch + ") against " + heir);
            var memo = cluster.client()
                    .newUntypedWorkflowStub(TaskQueues.workflowId(GROUP))
                    .describe();
            assertThat(memo.getMemo("conflicts", Integer.class))
                    .as("the memo counts what the query counts")
                    .isEqualTo(after.conflicts());
            assertThat(memo.getMemo("lastConflict", String.class)).isEqualTo(after.lastConflict());

            // the watchman: overlapping runs on the workers count every recorded conflict exactly once
            long counted = 0;
            int round = 0;
            long recorded;
            do {
                counted += scanThreeAtOnce(cluster.client(), round++);
                recorded = cluster.queryLong(CONFLICT_EVENTS, GROUP);
            } while (round < 10
                    && (counted != recorded
                            || cluster.queryLong(
                                            "select count(*) from lease_events where not counted and kind in ('takeover', 'lease_lost')")
                                    > 0));
            System.out.printf(
                    "conflict: frozen %s, taken over by %s after %.1fs; workflow told %d; recorded %d, the watchman counted %d in %d rounds of 3 runs%n",
                    zombie, heir, takenAfter, after.conflicts(), recorded, counted, round);
            assertThat(recorded).as("a takeover and at least one refused write").isGreaterThanOrEqualTo(2);
            assertThat(counted)
                    .as("each recorded conflict counted by exactly one run")
                    .isEqualTo(recorded);
            assertThat(scanThreeAtOnce(cluster.client(), round))
                    .as("nothing counted twice")
                    .isZero();
        }
    }

    /** Starts three watchman runs at once on the shared queue and sums the conflicts they counted. */
    private static long scanThreeAtOnce(WorkflowClient client, int round) throws Exception {
        List<CompletableFuture<WatchmanSummary>> runs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            WatchmanWorkflow run = client.newWorkflowStub(
                    WatchmanWorkflow.class,
                    WorkflowOptions.newBuilder()
                            .setWorkflowId("conflict-test-watchman-" + round + "-" + i)
                            .setTaskQueue(TaskQueues.SHARED)
                            .build());
            runs.add(WorkflowClient.execute(run::scan));
        }
        long sum = 0;
        for (CompletableFuture<WatchmanSummary> run : runs) {
            sum += run.get(60, TimeUnit.SECONDS).conflicts();
        }
        return sum;
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
}
