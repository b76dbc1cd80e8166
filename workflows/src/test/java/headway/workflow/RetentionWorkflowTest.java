package headway.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.activity.RetentionActivities;
import headway.activity.RetentionSummary;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RetentionWorkflowTest {

    private static final String QUEUE = "headway-test";
    private static final RetentionSummary PURGED =
            new RetentionSummary(Instant.parse("2026-09-01T00:00:00Z"), 4, 40, 2, 1, 0, true);

    private TestWorkflowEnvironment env;
    private Worker worker;

    @BeforeEach
    void start() {
        env = TestWorkflowEnvironment.newInstance();
        worker = env.newWorker(QUEUE);
        worker.registerWorkflowImplementationTypes(RetentionWorkflowImpl.class);
    }

    @AfterEach
    void stop() {
        env.close();
    }

    @Test
    void aRunReturnsWhatThePurgeRemoved() {
        worker.registerActivitiesImplementations(new FakeRetention(0));
        env.start();

        assertThat(workflow().purge()).isEqualTo(PURGED);
    }

    @Test
    void aRunChecksReleasesNearTheHorizonAgainAfterThePurge() {
        FakeRetention fake = new FakeRetention(0);
        worker.registerActivitiesImplementations(fake);
        env.start();
        workflow().purge();
        assertThat(fake.rechecks).hasValue(1);
    }

    @Test
    void aFailedRecheckLeavesThePurgesSummary() {
        FakeRetention fake = new FakeRetention(0) {
            @Override
            public int recheckAvailability() {
                rechecks.incrementAndGet();
                throw new IllegalStateException("check providers are down");
            }
        };
        worker.registerActivitiesImplementations(fake);
        env.start();
        assertThat(workflow().purge()).isEqualTo(PURGED);
        assertThat(fake.rechecks).as("three attempts").hasValue(3);
    }

    @Test
    void aBlipIsRetriedAndALongerOutageIsLeftToTheNextRun() {
        FakeRetention blip = new FakeRetention(2);
        worker.registerActivitiesImplementations(blip);
        env.start();
        assertThat(workflow().purge()).isEqualTo(PURGED);
        assertThat(blip.calls).hasValue(3);
    }

    @Test
    void anOutageLongerThanTheRetriesFailsTheRun() {
        FakeRetention down = new FakeRetention(Integer.MAX_VALUE);
        worker.registerActivitiesImplementations(down);
        env.start();

        assertThatThrownBy(() -> workflow().purge()).isInstanceOf(WorkflowFailedException.class);
        assertThat(down.calls).hasValue(3);
    }

    private RetentionWorkflow workflow() {
        return env.getWorkflowClient()
                .newWorkflowStub(
                        RetentionWorkflow.class,
                        WorkflowOptions.newBuilder()
                                .setTaskQueue(QUEUE)
                                .setWorkflowId("retention")
                                .build());
    }

    static class FakeRetention implements RetentionActivities {
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger rechecks = new AtomicInteger();
        private final int failures;

        FakeRetention(int failures) {
            this.failures = failures;
        }

        @Override
        public int recheckAvailability() {
            rechecks.incrementAndGet();
            return 0;
        }

        @Override
        public RetentionSummary purge() {
            if (calls.incrementAndGet() <= failures) {
                throw new IllegalStateException("database is down");
            }
            return PURGED;
        }
    }
}
