package headway.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.zaxxer.hikari.HikariDataSource;
import headway.coordination.GroupStore;
import headway.simulator.NewsSimulator;
import headway.store.Database;
import headway.store.TestDatabase;
import headway.workflow.GroupConfig;
import headway.workflow.GroupRun;
import headway.workflow.GroupWorkflow;
import headway.workflow.SearchAttributes;
import headway.workflow.TaskQueues;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributeKey;
import io.temporal.testing.TestWorkflowEnvironment;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With more groups than capacity, the leasing order decides who gets the worker: 10 groups, 5
 * with tail work and 5 with history only, through one worker that holds 2 at a time. The worker
 * stops polling the lease queue while full, so the waiting lease tasks are ordered by their
 * Temporal priority on the server, and every tail group is taken before any waiting history group.
 */
class LeasePriorityTest {

    private static final int CAPACITY = 2;
    private static final long ARTICLES = 3000;

    @Test
    void tailGroupsGetTheWorkerBeforeHistoryGroups() throws Exception {
        List<NewsSimulator.GroupSpec> specs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            specs.add(NewsSimulator.GroupSpec.of("alt.binaries.prio.history" + i, 10 + i, ARTICLES));
            specs.add(NewsSimulator.GroupSpec.of("alt.binaries.prio.tail" + i, 20 + i, ARTICLES));
        }
        try (HikariDataSource ds = TestDatabase.migrated("priority");
                NewsSimulator sim = NewsSimulator.start(
                        NewsSimulator.Options.defaults().withOverLatency(Duration.ofMillis(40)), specs);
                TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
            for (SearchAttributeKey<?> key : SearchAttributes.ALL) {
                env.registerSearchAttribute(key.getName(), key.getValueType());
            }
            env.start();
            GroupStore groups = new GroupStore(ds);
            for (NewsSimulator.GroupSpec g : specs) {
                groups.add(g.name(), 0);
                groups.plan(g.name(), 1, ARTICLES, 1000, g.name().contains("tail") ? -1 : 1);
            }
            WorkflowClient client = env.getWorkflowClient();
            for (NewsSimulator.GroupSpec g : specs) {
                GroupWorkflow workflow = client.newWorkflowStub(
                        GroupWorkflow.class,
                        WorkflowOptions.newBuilder()
                                .setWorkflowId(TaskQueues.workflowId(g.name()))
                                .setTaskQueue(TaskQueues.SHARED)
                                .build());
                WorkflowClient.start(
                        workflow::run,
                        GroupRun.start(new GroupConfig(
                                g.name(),
                                Duration.ofSeconds(10),
                                2,
                                Duration.ofDays(7),
                                3,
                                GroupConfig.DEFAULT_HISTORY_EVENT_BUDGET,
                                TaskQueues.SHARED,
                                null)));
            }
            WorkerConfig config = new WorkerConfig(
                    "127.0.0.1:7233",
                    "default",
                    TaskQueues.SHARED,
                    "node-prio",
                    "test:0",
                    new Database.Settings(ds.getJdbcUrl(), "postgres", null, 8, Duration.ofSeconds(10)),
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(15),
                    Duration.ofSeconds(1),
                    CAPACITY,
                    8,
                    0,
                    "127.0.0.1",
                    new WorkerConfig.NntpServer("127.0.0.1", sim.port(), false, null, null, 4, Duration.ofSeconds(10)),
                    null,
                    0,
                    250,
                    1000,
                    1000,
                    1_000_000,
                    100_000_000,
                    Duration.ofMinutes(5),
                    Duration.ofMinutes(15),
                    WorkerConfig.Deployment.unversioned(),
                    0,
                    java.util.List.of(),
                    0,
                    20,
                    WorkerConfig.Inspection.defaults(4),
                    WorkerConfig.Workflows.defaults());
            HeadwayWorker worker = HeadwayWorker.start(config, client, ds, HeadwayWorker.newRegistry());
            List<String> takes;
            try {
                takes = awaitTakes(ds, specs.size());
            } finally {
                worker.close();
            }
            System.out.println("priority: groups in the order they were taken: " + takes);
            List<String> waited = takes.subList(CAPACITY, takes.size());
            int lastTail = -1;
            int firstHistory = waited.size();
            for (int i = 0; i < waited.size(); i++) {
                if (waited.get(i).contains("tail")) {
                    lastTail = i;
                } else {
                    firstHistory = Math.min(firstHistory, i);
                }
            }
            assertThat(takes).hasSize(specs.size()).doesNotHaveDuplicates();
            assertThat(lastTail)
                    .as("every tail group that waited was taken before any history group that waited: " + takes)
                    .isLessThan(firstHistory);
        }
    }

    /** The groups in the order of their first take, once every group has been taken and finished. */
    private static List<String> awaitTakes(HikariDataSource ds, int groups) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (true) {
            long open = TestDatabase.queryLong(ds, "select count(*) from ranges where status <> 'done'");
            if (open == 0) {
                List<String> order = new ArrayList<>();
                try (Connection c = ds.getConnection();
                        Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("""
                             select group_name from lease_events where kind in ('take', 'takeover')
                             group by group_name order by min(id)
                             """)) {
                    while (rs.next()) {
                        order.add(rs.getString(1));
                    }
                }
                if (order.size() == groups) {
                    return order;
                }
            }
            if (System.nanoTime() > deadline) {
                fail("the groups were not all indexed within 120 s; " + open + " ranges open");
            }
            Thread.sleep(100);
        }
    }
}
