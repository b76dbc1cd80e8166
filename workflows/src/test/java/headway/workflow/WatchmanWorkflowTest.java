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
        worker.registerWorkflowImplementationTypes(WatchmanWorkflowImpl.class);
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
