package headway.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.zaxxer.hikari.HikariDataSource;
import headway.activity.NntpHeaderSource;
import headway.activity.Planner;
import headway.coordination.GroupStore;
import headway.coordination.RangeRow;
import headway.nntp.NntpPool;
import headway.nntp.Simulators;
import headway.simulator.NewsSimulator;
import headway.store.Database;
import headway.store.TestDatabase;
import headway.workflow.GroupConfig;
import headway.workflow.GroupProgress;
import headway.workflow.GroupRun;
import headway.workflow.GroupState;
import headway.workflow.GroupWorkflow;
import headway.workflow.SearchAttributes;
import headway.workflow.TaskQueues;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributeKey;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link HeadwayWorker#start} itself, on the test server's client: the production wiring (task
 * queues, activities, node heartbeat) indexes a simulated group to the end and hands back cleanly.
 */
class HeadwayWorkerTestServerTest {

    private static final String GROUP = "alt.binaries.it.wired";
    private static final long ARTICLES = 2000;

    @Test
    void startedWorkerIndexesAGroupToTheEndAndLeavesTheRegistryOnClose() throws Exception {
        try (HikariDataSource ds = TestDatabase.migrated("worker_start");
                NewsSimulator sim = NewsSimulator.start(
                        NewsSimulator.Options.defaults(),
                        List.of(new NewsSimulator.GroupSpec(GROUP, 3, ARTICLES, 5, 15, 4, 0.02, 0.02, 0.01)));
                NntpPool pool = new NntpPool(
                        NntpPool.Config.defaults(Simulators.server(sim)).withMaxConnections(1));
                TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
            for (SearchAttributeKey<?> key : SearchAttributes.ALL) {
                env.registerSearchAttribute(key.getName(), key.getValueType());
            }
            env.start();
            GroupStore groups = new GroupStore(ds);
            groups.add(GROUP, 0);
            int ranges = new Planner(
                            groups, new NntpHeaderSource(pool), new Planner.Settings(500, 1_000_000, Long.MAX_VALUE))
                    .plan(GROUP)
                    .total();
            assertThat(ranges).isEqualTo(4);

            WorkerConfig config = new WorkerConfig(
                    "127.0.0.1:7233",
                    "default",
                    TaskQueues.SHARED,
                    "node-wired",
                    "test:0",
                    new Database.Settings(ds.getJdbcUrl(), "postgres", null, 4, Duration.ofSeconds(10)),
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(15),
                    Duration.ofSeconds(1),
                    2,
                    4,
                    0,
                    "127.0.0.1",
                    new WorkerConfig.NntpServer("127.0.0.1", sim.port(), false, null, null, 2, Duration.ofSeconds(10)),
                    null,
                    0,
                    100,
                    1000,
                    500,
                    1_000_000,
                    100_000_000,
                    Duration.ofMinutes(5),
                    Duration.ofMinutes(15),
                    WorkerConfig.Deployment.unversioned(),
                    0,
                    java.util.List.of(),
                    0,
                    20,
                    WorkerConfig.Inspection.defaults(2),
                    WorkerConfig.Workflows.defaults());
            WorkflowClient client = env.getWorkflowClient();
            HeadwayWorker worker = HeadwayWorker.start(config, client, ds, HeadwayWorker.newRegistry());
            try {
                GroupWorkflow workflow = client.newWorkflowStub(
                        GroupWorkflow.class,
                        WorkflowOptions.newBuilder()
                                .setWorkflowId(TaskQueues.workflowId(GROUP))
                                .setTaskQueue(TaskQueues.SHARED)
                                .build());
                WorkflowClient.start(
                        workflow::run,
                        GroupRun.start(new GroupConfig(
                                GROUP,
                                config.leaseTtl(),
                                2,
                                Duration.ofDays(7),
                                3,
                                GroupConfig.DEFAULT_HISTORY_EVENT_BUDGET,
                                TaskQueues.SHARED,
                                null)));
                GroupProgress p = awaitIdle(client, ranges);

                assertThat(p.headers()).isEqualTo(sim.truth(GROUP, 1, ARTICLES).valid());
                assertThat(p.cursor()).isEqualTo(ARTICLES + 1);
                assertThat(groups.ranges(GROUP)).extracting(RangeRow::status).containsOnly("done");
                assertThat(TestDatabase.queryLong(ds, "select count(*) from nodes where id = 'node-wired'"))
                        .isEqualTo(1);
                assertThat(TestDatabase.queryLong(ds, "select count(*) from binaries"))
                        .isPositive();
            } finally {
                worker.close();
            }
            assertThat(TestDatabase.queryLong(ds, "select count(*) from nodes where id = 'node-wired'"))
                    .isZero();
            assertThat(worker.holdings().size()).isZero();
        }
    }

    private static GroupProgress awaitIdle(WorkflowClient client, long ranges) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        GroupWorkflow group = client.newWorkflowStub(GroupWorkflow.class, TaskQueues.workflowId(GROUP));
        GroupProgress p = group.progress();
        while (p.state() != GroupState.IDLE || p.rangesDone() != ranges) {
            if (System.nanoTime() > deadline) {
                fail("never idle after " + ranges + " ranges; last progress: " + p);
            }
            Thread.sleep(50);
            p = group.progress();
        }
        return p;
    }
}
