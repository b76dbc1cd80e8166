package headway.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import headway.simulator.NewsSimulator;
import headway.worker.Schedules;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The node registry across real processes: a worker stopped by SIGTERM hands its group back
 * (snapshot at its cursor, holder cleared) and deletes its row at once, so the next worker takes
 * the group as a plain take and redoes nothing; a worker killed with SIGKILL leaves its row, which
 * the registry-prune schedule deletes once its heartbeat is 3x the node TTL old, not before.
 */
@Isolated("its assertions measure time: it runs alone, not beside another test class")
class MembershipTest {

    private static final String GROUP = "alt.binaries.membership";

    @Test
    @Timeout(value = 170, unit = TimeUnit.SECONDS)
    void sigtermHandsBackAndLeavesAtOnceAndSigkillLeavesARowThatIsPrunedAfterThreeTtls() {
        try (Cluster cluster = Cluster.start("membership", List.of(NewsSimulator.GroupSpec.of(GROUP, 11, 150_000)))) {
            cluster.workerEnv("HEADWAY_BATCH", "250");
            Schedules.install(
                    cluster.client(),
                    "headway",
                    new Schedules.Intervals(Duration.ofSeconds(1), Duration.ofHours(1), Duration.ofHours(1)));
            cluster.startWorker("w1");
            cluster.addAndPlan(GROUP, 10_000);
            cluster.startGroup(GROUP, 1, Duration.ofMinutes(10));

            // SIGTERM while holding mid-range, with no other worker to take the group
            Cluster.await(
                    Duration.ofSeconds(60),
                    Duration.ofMillis(50),
                    "w1 holds the group mid-range",
                    () -> cluster.queryLong("""
                            select count(*) from ranges where group_name = ? and status = 'leased' and node_id = 'w1'
                              and next_article > start_article + 1000 and next_article < end_article - 3000
                            """, GROUP) == 1);
            long epoch = cluster.queryLong("select epoch from group_leases where group_name = ?", GROUP);
            long signalled = System.nanoTime();
            cluster.worker("w1").process().destroy();
            double[] rowGoneAfter = {-1};
            Cluster.await(Duration.ofSeconds(20), Duration.ofMillis(20), "w1's row deleted", () -> {
                boolean gone = cluster.queryLong("select count(*) from nodes where id = 'w1'") == 0;
                if (gone) {
                    rowGoneAfter[0] = (System.nanoTime() - signalled) / 1e9;
                }
                return gone;
            });
            int exit = cluster.stop("w1");
            double exitedAfter = (System.nanoTime() - signalled) / 1e9;
            Map<String, Object> lease =
                    cluster.row("select holder_node, snapshot_next from group_leases where group_name = ?", GROUP);
            long frontier = cluster.queryLong(
                    "select min(next_article) from ranges where group_name = ? and status <> 'done'", GROUP);
            Long snapshotEpoch = cluster.queryLong("select epoch from snapshots where group_name = ?", GROUP);
            System.out.printf(
                    "membership: sigterm row_gone_after=%.2fs exited_after=%.2fs exit=%d snapshot_next=%s cursor=%d%n",
                    rowGoneAfter[0], exitedAfter, exit, lease.get("snapshot_next"), frontier);
            assertThat(cluster.log("w1")).contains("worker w1 handed back " + GROUP);
            assertThat(lease.get("holder_node"))
                    .as("holder cleared by the hand-back")
                    .isNull();
            assertThat(snapshotEpoch)
                    .as("the snapshot was written by w1 at hand-back")
                    .isEqualTo(epoch);
            assertThat(((Number) lease.get("snapshot_next")).longValue())
                    .as("the snapshot covers w1's cursor")
                    .isEqualTo(frontier);
            assertThat(cluster.queryLong(
                            "select count(*) from ranges where group_name = ? and status = 'leased'", GROUP))
                    .as("no range left leased")
                    .isZero();
            assertThat(rowGoneAfter[0])
                    .as("row deleted by the worker itself, before it exited")
                    .isLessThanOrEqualTo(exitedAfter);
            assertThat(rowGoneAfter[0])
                    .as("row deleted within the shutdown's wait for work in flight (one lease TTL) + 2 s")
                    .isLessThanOrEqualTo(Cluster.LEASE_TTL.toSeconds() + 2.0);

            // the next worker takes the group as a plain take, from that snapshot: nothing redone
            cluster.startWorker("w2");
            cluster.startWorker("w3");
            Cluster.await(
                    Duration.ofSeconds(30),
                    Duration.ofMillis(100),
                    "the group taken again",
                    () -> cluster.queryLong(
                                    "select count(*) from lease_events where group_name = ? and epoch > ?",
                                    GROUP,
                                    epoch)
                            > 0);
            Map<String, Object> take = cluster.row("""
                    select kind, node_id, detail from lease_events where group_name = ? and epoch > ? order by id limit 1
                    """, GROUP, epoch);
            System.out.printf("membership: next take %s%n", take);
            assertThat(take.get("kind")).isEqualTo("take");
            assertThat((String) take.get("detail")).endsWith("from snapshot " + frontier);

            // SIGKILL: the row stays until the prune schedule finds it 3x the node TTL old
            String holder = cluster.queryString("select holder_node from group_leases where group_name = ?", GROUP);
            String victim = "w2".equals(holder) ? "w3" : "w2";
            cluster.kill9(victim);
            long killed = System.nanoTime();
            double threeTtls = Cluster.NODE_TTL.multipliedBy(3).toMillis() / 1e3;
            double[] lastSeenAge = {-1};
            Cluster.await(Duration.ofSeconds(30), Duration.ofMillis(100), victim + "'s row pruned", () -> {
                Long ageMillis = cluster.queryLong(
                        "select (extract(epoch from hw_now() - heartbeat_at) * 1000)::bigint from nodes where id = ?",
                        victim);
                if (ageMillis != null) {
                    lastSeenAge[0] = ageMillis / 1e3;
                }
                return ageMillis == null;
            });
            double prunedAfter = (System.nanoTime() - killed) / 1e9;
            System.out.printf(
                    "membership: sigkill row_pruned_after_kill=%.1fs last_seen_heartbeat_age=%.1fs (3x node TTL = %.0fs)%n",
                    prunedAfter, lastSeenAge[0], threeTtls);
            assertThat(lastSeenAge[0])
                    .as("the dead row is kept until 3x the node TTL")
                    .isGreaterThanOrEqualTo(threeTtls - 0.5);
            assertThat(prunedAfter)
                    .as("pruned within 3x TTL + the prune interval + slack")
                    .isLessThanOrEqualTo(threeTtls + 1 + 3);
            assertThat(cluster.queryLong("select count(*) from nodes where id = ?", holder))
                    .as("the live node stays")
                    .isEqualTo(1);
        }
    }
}
