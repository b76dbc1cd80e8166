package headway.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import headway.activity.WatchmanActivities;
import headway.activity.WatchmanSummary;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WatchmanWorkflowTest {

    private static final String QUEUE = "headway-test";

    private TestWorkflowEnvironment env;
    private Worker worker;

    @BeforeEach
    void start() {
        env = TestWorkflowEnvironment.newInstance();
        worker = env.newWorker(QUEUE);
        worker.registerWorkflowImplementationTypes(WatchmanWorkflowImpl.class, StuckRecorderImpl.class);
    }

    /** Stands in for a group workflow: records the {@code stuck} signals it gets. */
    @io.temporal.workflow.WorkflowInterface
    public interface StuckRecorder {
        @io.temporal.workflow.WorkflowMethod
        List<String> record(int signals);

        @io.temporal.workflow.SignalMethod(name = "stuck")
        void stuck(boolean stuck, Instant asOf);
    }

    public static final class StuckRecorderImpl implements StuckRecorder {
        private final List<String> got = new java.util.ArrayList<>();

        @Override
        public List<String> record(int signals) {
            io.temporal.workflow.Workflow.await(() -> got.size() >= signals);
            return got;
        }

        @Override
        public void stuck(boolean stuck, Instant asOf) {
            got.add(stuck + "@" + asOf);
        }
    }

    @Test
    void newlyStuckAndUnstuckGroupsAreSignalledWithTheScansTimeAndAGroupWithoutAWorkflowIsSkipped() {
        Instant at = Instant.parse("2026-12-07T10:00:00.5Z");
        WatchmanSummary summary = new WatchmanSummary(
                at,
                1,
                1,
                1,
                List.of("alt.binaries.b", "alt.binaries.gone"),
                List.of("alt.binaries.b", "alt.binaries.gone"),
                List.of("alt.binaries.c"),
                0,
                0,
                0,
                0);
        worker.registerActivitiesImplementations(new FakeWatchman(summary, 0));
        env.start();
        WorkflowOptions b = WorkflowOptions.newBuilder()
                .setTaskQueue(QUEUE)
                .setWorkflowId(TaskQueues.workflowId("alt.binaries.b"))
                .build();
        WorkflowOptions c = b.toBuilder()
                .setWorkflowId(TaskQueues.workflowId("alt.binaries.c"))
                .build();
        StuckRecorder stuck = env.getWorkflowClient().newWorkflowStub(StuckRecorder.class, b);
        StuckRecorder unstuck = env.getWorkflowClient().newWorkflowStub(StuckRecorder.class, c);
        io.temporal.client.WorkflowClient.start(stuck::record, 1);
        io.temporal.client.WorkflowClient.start(unstuck::record, 1);

        assertThat(workflow().scan()).isEqualTo(summary);

        assertThat(env.getWorkflowClient()
                        .newUntypedWorkflowStub(TaskQueues.workflowId("alt.binaries.b"))
                        .getResult(List.class))
                .containsExactly("true@" + at);
        assertThat(env.getWorkflowClient()
                        .newUntypedWorkflowStub(TaskQueues.workflowId("alt.binaries.c"))
                        .getResult(List.class))
                .containsExactly("false@" + at);
    }

    @AfterEach
    void stop() {
        env.close();
    }

    @Test
    void oneScanPerRunReturnsTheSummary() {
        WatchmanSummary summary = new WatchmanSummary(
                Instant.parse("2026-01-02T03:04:05.123456Z"),
                1,
                1,
                2,
                List.of("alt.binaries.a", "alt.binaries.b"),
                List.of("alt.binaries.b"),
                List.of("alt.binaries.c"),
                4,
                1,
                0,
                2);
        FakeWatchman fake = new FakeWatchman(summary, 0);
        worker.registerActivitiesImplementations(fake);
        env.start();

        WatchmanSummary result = workflow().scan();

        assertThat(result).isEqualTo(summary);
        assertThat(fake.calls).hasValue(1);
    }

    @Test
    void aFailedScanIsRetriedAFewTimes() {
        WatchmanSummary summary =
                new WatchmanSummary(Instant.EPOCH, 0, 0, 0, List.of(), List.of(), List.of(), 0, 0, 0, 0);
        FakeWatchman fake = new FakeWatchman(summary, 2);
        worker.registerActivitiesImplementations(fake);
        env.start();

        assertThat(workflow().scan()).isEqualTo(summary);
        assertThat(fake.calls).hasValue(3);
    }

    private WatchmanWorkflow workflow() {
        return env.getWorkflowClient()
                .newWorkflowStub(
                        WatchmanWorkflow.class,
                        WorkflowOptions.newBuilder()
                                .setTaskQueue(QUEUE)
                                .setWorkflowId("watchman")
                                .build());
    }

    static final class FakeWatchman implements WatchmanActivities {
        final AtomicInteger calls = new AtomicInteger();
        private final WatchmanSummary summary;
        private final int failures;

        FakeWatchman(WatchmanSummary summary, int failures) {
            this.summary = summary;
            this.failures = failures;
        }

        @Override
        public WatchmanSummary scan() {
            if (calls.incrementAndGet() <= failures) {
                throw new IllegalStateException("database is restarting");
            }
            return summary;
        }
    }
}
