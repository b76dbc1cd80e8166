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
 * Worker roles on the dev server: one worker of role {@code tail} and one of role {@code history}
 * share a group planned with a tail range and history ranges below it, and new articles are posted
 * and planned as tail while the history is indexed. Every tail range is indexed by the tail worker
 * and every history range by the history worker (the holder of each band's lease task polls that
 * band's lease queue, and a holder takes only its band's ranges); the group is handed from one to
 * the other several times, and its catalog is exactly what the server served, nothing lost or
 * twice across the band switches (a take in the other band rebuilds its own window, V26).
 */
@Isolated("its assertions measure time: it runs alone, not beside another test class")
class RolesTest {

    private static final String GROUP = "alt.binaries.roles";

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aTailWorkerIndexesOnlyTheTailAndAHistoryWorkerOnlyTheBackfill() {
        try (Cluster cluster = Cluster.start("roles", List.of(NewsSimulator.GroupSpec.of(GROUP, 29, 120_000)))) {
            cluster.workerEnv("HEADWAY_BATCH", "2000");
            cluster.startWorker("tail", Map.of("HEADWAY_WORKER_ROLE", "tail"));
            cluster.startWorker("history", Map.of("HEADWAY_WORKER_ROLE", "history"));
            cluster.addAndPlan(GROUP, 20_000); // the newest 20,000 as tail, the rest as history below it
            assertThat(cluster.queryLong("select count(*) from ranges where group_name = ? and priority < 0", GROUP))
                    .isEqualTo(1);
            cluster.startGroup(GROUP, 1, Duration.ofSeconds(2));

            // while the history is indexed, the tail grows: the history holder hands back between ranges
            Cluster.await(
                    Duration.ofSeconds(90),
                    Duration.ofMillis(100),
                    "a history range done",
                    () -> cluster.queryLong(
                                    "select count(*) from ranges where group_name = ? and priority > 0 and status = 'done'",
                                    GROUP)
                            > 0);
            for (int round = 0; round < 2; round++) {
                cluster.simulator().post(GROUP, 20_000);
                cluster.plan(GROUP, 20_000);
                Cluster.sleep(1_500);
            }
            Cluster.await(
                    Duration.ofSeconds(150),
                    Duration.ofMillis(250),
                    "every range done",
                    () -> cluster.queryLong(
                                    "select count(*) from ranges where group_name = ? and status <> 'done'", GROUP)
                            == 0);

            List<Map<String, Object>> byBand = cluster.rows("""
                    select priority < 0 as tail, node_id, count(*) as n from ranges where group_name = ?
                    group by 1, 2 order by 1, 2
                    """, GROUP);
            List<Map<String, Object>> takes = cluster.rows("""
                    select node_id, count(*) as n from lease_events where group_name = ? and kind in ('take', 'takeover')
                    group by 1 order by 1
                    """, GROUP);
            System.out.printf("roles: ranges by band and node %s; takes %s%n", byBand, takes);
            assertThat(byBand)
                    .as("tail ranges by the tail worker, history ranges by the history worker, nothing else")
                    .allSatisfy(row ->
                            assertThat(row.get("node_id")).isEqualTo((Boolean) row.get("tail") ? "tail" : "history"));
            assertThat(byBand).extracting(row -> row.get("tail")).contains(true, false);
            assertThat(cluster.queryLong("select count(*) from ranges where group_name = ? and priority < 0", GROUP))
                    .as("the posted articles were planned as tail")
                    .isGreaterThanOrEqualTo(3);
            assertThat(cluster.queryLong(
                            "select count(*) from lease_events where group_name = ? and kind in ('take', 'takeover')"
                                    + " and node_id = 'tail'",
                            GROUP))
                    .as("the tail worker took the group again after the history worker had it")
                    .isGreaterThanOrEqualTo(2);
            ServedCatalog.assertCatalogIsWhatWasServed(cluster, GROUP);
        }
    }
}
