package headway.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import headway.simulator.NewsSimulator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * SIGTERM ends a worker within its bound even while an index activity has far more work to do
 * than the bound allows: after HEADWAY_SHUTDOWN_GRACE the activity is interrupted, stops once its
 * current batch commits, the group is handed back with a snapshot at the committed cursor and the
 * node leaves the registry; the next worker takes the group from there.
 */
@Isolated("its assertions measure time: it runs alone, not beside another test class")
class ShutdownTest {

    private static final String GROUP = "alt.binaries.shutdown";
    private static final Duration GRACE = Duration.ofSeconds(1);
    private static final Duration OVER_LATENCY = Duration.ofMillis(300);

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void sigtermEndsAWorkerMidRangeWithinTheGraceAndHandsTheGroupBack() {
        try (Cluster cluster = Cluster.start(
                "shutdown",
                List.of(NewsSimulator.GroupSpec.of(GROUP, 23, 60_000)),
                NewsSimulator.Options.defaults().withOverLatency(OVER_LATENCY))) {
            cluster.workerEnv("HEADWAY_BATCH", "500");
            cluster.workerEnv("HEADWAY_SHUTDOWN_GRACE", "1s");
            cluster.startWorker("w1");
            cluster.addAndPlan(GROUP, 30_000);
            cluster.startGroup(GROUP, 1000, Duration.ofMinutes(10));
            // one range is 60 batches of 300 ms: about 18 s of work, far past the bound
            Cluster.await(
                    Duration.ofSeconds(60),
                    Duration.ofMillis(50),
                    "w1 indexing a range, a few batches in",
                    () -> cluster.queryLong("""
                            select count(*) from ranges where group_name = ? and status = 'leased' and node_id = 'w1'
                              and next_article > start_article + 1500
                            """, GROUP) == 1);
            long signalled = System.nanoTime();
            cluster.worker("w1").process().destroy();
            int exit = cluster.stop("w1");
            double exitedAfter = (System.nanoTime() - signalled) / 1e9;
            Map<String, Object> range = cluster.row("""
                    select status, next_article, end_article from ranges
                     where group_name = ? and next_article > start_article and status <> 'done'
                     order by start_article limit 1
                    """, GROUP);
            Map<String, Object> lease =
                    cluster.row("select holder_node, snapshot_next from group_leases where group_name = ?", GROUP);
            double bound = GRACE.toMillis() / 1e3 + OVER_LATENCY.toMillis() / 1e3 + 5;
            System.out.printf(
                    "shutdown: exited_after=%.2fs bound=%.1fs exit=%d range=%s lease=%s%n",
                    exitedAfter, bound, exit, range, lease);
            assertThat(exitedAfter)
                    .as("exited within grace + one batch + hand-back")
                    .isLessThanOrEqualTo(bound);
            assertThat(cluster.log("w1")).contains("interrupting them").contains("worker w1 handed back " + GROUP);
            assertThat(range)
                    .as("the range was left mid-way, not finished first")
                    .isNotEmpty();
            assertThat(lease.get("holder_node"))
                    .as("holder cleared by the hand-back")
                    .isNull();
            assertThat(((Number) lease.get("snapshot_next")).longValue())
                    .as("the snapshot is at the committed cursor")
                    .isEqualTo(((Number) range.get("next_article")).longValue());
            assertThat(cluster.queryLong("select count(*) from nodes where id = 'w1'"))
                    .as("w1 left the registry")
                    .isZero();

            cluster.startWorker("w2");
            Cluster.await(
                    Duration.ofSeconds(30),
                    Duration.ofMillis(100),
                    "w2 takes the group from the snapshot",
                    () -> cluster.queryLong("""
                            select count(*) from lease_events where group_name = ? and node_id = 'w2' and kind = 'take'
                               and detail like ?
                            """, GROUP, "%from snapshot " + range.get("next_article")) == 1);
        }
    }
}
