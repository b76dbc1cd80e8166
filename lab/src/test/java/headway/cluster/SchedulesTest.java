package headway.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import headway.simulator.NewsSimulator;
import headway.worker.Schedules;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * `headway schedules install` run twice creates each schedule once and then updates it; the
 * schedules fire on the real server: the planner plans what the news server got since, and
 * signals the group, which indexes it; the registry prune deletes a long-dead node row; the retention
 * runs (off here: it removes nothing).
 */
class SchedulesTest {

    private static final String GROUP = "alt.binaries.schedules";

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void installingTwiceCreatesEachScheduleOnceAndTheyFire() {
        try (Cluster cluster = Cluster.start("schedules", List.of(NewsSimulator.GroupSpec.of(GROUP, 7, 4_000)))) {
            cluster.startWorker("w1");
            cluster.addAndPlan(GROUP, 2_000);
            cluster.startGroup(GROUP, 1, Duration.ofMinutes(10));
            Cluster.await(
                    Duration.ofSeconds(40), Duration.ofMillis(250), "the group caught up", () -> caughtUp(cluster));
            cluster.rows(
                    "insert into nodes (id, address, heartbeat_at) values ('dead-node', 'x:0', now() - interval '1 hour') returning id");
            long high1 = cluster.simulator().post(GROUP, 3_000);

            long t0 = System.nanoTime();
            Cluster.CliResult first = cli(cluster, "schedules", "install");
            assertThat(first.exit()).as(first.err()).isZero();
            assertThat(first.out().lines().filter(l -> l.startsWith("created ")).count())
                    .as(first.out())
                    .isEqualTo(5);

            // the immediate runs: the planner plans up to the new high and the group indexes it; the prune removes the
            // dead row
            Cluster.await(
                    Duration.ofSeconds(30),
                    Duration.ofMillis(250),
                    "planned up to " + high1,
                    () -> cluster.queryLong("select max(end_article) from ranges where group_name = ?", GROUP)
                            == high1);
            double plannedAfter = (System.nanoTime() - t0) / 1e9;
            Cluster.await(
                    Duration.ofSeconds(30),
                    Duration.ofMillis(250),
                    "the retention's immediate run",
                    () -> completed(cluster, "RetentionWorkflow") >= 1);
            Cluster.await(
                    Duration.ofSeconds(30),
                    Duration.ofMillis(250),
                    "dead-node pruned",
                    () -> cluster.queryLong("select count(*) from nodes where id = 'dead-node'") == 0);
            assertThat(cluster.queryLong("select count(*) from nodes where id = 'w1'"))
                    .as("the live node stays")
                    .isEqualTo(1);
            Cluster.await(
                    Duration.ofSeconds(30),
                    Duration.ofMillis(250),
                    "the group indexed the planned tail",
                    () -> caughtUp(cluster));

            Cluster.CliResult second = cli(
                    cluster,
                    "schedules",
                    "install",
                    "--plan-every",
                    "2s",
                    "--prune-every",
                    "2s",
                    "--watch-every",
                    "2s");
            assertThat(second.exit()).as(second.err()).isZero();
            assertThat(second.out()
                            .lines()
                            .filter(l -> l.startsWith("updated "))
                            .count())
                    .as(second.out())
                    .isEqualTo(5);
            assertThat(second.out()).doesNotContain("created ");

            List<Schedules.Listed> listed = Schedules.list(cluster.client());
            assertThat(listed)
                    .extracting(Schedules.Listed::id)
                    .containsExactly(
                            Schedules.INSPECT,
                            Schedules.PLANNER,
                            Schedules.REGISTRY_PRUNE,
                            Schedules.RETENTION,
                            Schedules.WATCHMAN);
            Cluster.CliResult list = cli(cluster, "schedules", "list");
            assertThat(list.exit()).as(list.err()).isZero();
            assertThat(list.out().lines().filter(l -> l.startsWith("headway-")).count())
                    .as(list.out())
                    .isEqualTo(5);

            // the updated interval: new articles are planned by a scheduled (not an immediate) run
            long high2 = cluster.simulator().post(GROUP, 2_000);
            long t1 = System.nanoTime();
            Cluster.await(
                    Duration.ofSeconds(20),
                    Duration.ofMillis(200),
                    "planned up to " + high2 + " on the 2s interval",
                    () -> cluster.queryLong("select max(end_article) from ranges where group_name = ?", GROUP)
                            == high2);
            double replannedAfter = (System.nanoTime() - t1) / 1e9;
            Cluster.await(
                    Duration.ofSeconds(30),
                    Duration.ofMillis(250),
                    "the group indexed the second tail",
                    () -> caughtUp(cluster));

            // every schedule fired on its own 2s interval, not only its immediate run at install; the
            // second tail can be caught up in under one interval, so wait for the runs (3 intervals + load)
            Cluster.await(
                    Duration.ofSeconds(15),
                    Duration.ofMillis(250),
                    "two completed runs of each schedule",
                    () -> completed(cluster, "PlannerWorkflow") >= 2
                            && completed(cluster, "RegistryPruneWorkflow") >= 2
                            && completed(cluster, "WatchmanWorkflow") >= 2);
            int plannerRuns = completed(cluster, "PlannerWorkflow");
            int pruneRuns = completed(cluster, "RegistryPruneWorkflow");
            int watchmanRuns = completed(cluster, "WatchmanWorkflow");
            System.out.printf(
                    "schedules: planned_after_install=%.1fs planned_after_post=%.1fs runs planner=%d prune=%d watchman=%d%n",
                    plannedAfter, replannedAfter, plannerRuns, pruneRuns, watchmanRuns);
            assertThat(plannerRuns).isGreaterThanOrEqualTo(2);
            assertThat(pruneRuns).isGreaterThanOrEqualTo(2);
            assertThat(watchmanRuns).isGreaterThanOrEqualTo(2);
            assertThat(cluster.queryLong("""
                    select count(*) from (select start_article from ranges where group_name = ? group by start_article having count(*) > 1) d
                    """, GROUP))
                    .as("no range planned twice")
                    .isZero();
        }
    }

    private static boolean caughtUp(Cluster cluster) {
        return cluster.queryLong("select count(*) from ranges where group_name = ? and status <> 'done'", GROUP) == 0
                && cluster.queryString("select holder_node from group_leases where group_name = ?", GROUP) == null;
    }

    /** Completed runs of a workflow type, from the server's visibility store. */
    private static int completed(Cluster cluster, String type) {
        List<WorkflowExecutionInfo> runs = new ArrayList<>(cluster.temporal()
                .serviceStubs()
                .blockingStub()
                .listWorkflowExecutions(ListWorkflowExecutionsRequest.newBuilder()
                        .setNamespace("default")
                        .setQuery("WorkflowType = '" + type + "' AND ExecutionStatus = 'Completed'")
                        .build())
                .getExecutionsList());
        return runs.size();
    }

    private static Cluster.CliResult cli(Cluster cluster, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(cluster.connectionFlags());
        return cluster.cli(all.toArray(String[]::new));
    }
}
