package headway.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.activity.RegistryActivities;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RegistryPruneWorkflowTest {

    private static final String QUEUE = "headway-test";

    private TestWorkflowEnvironment env;
    private Worker worker;

    @BeforeEach
    void start() {
        env = TestWorkflowEnvironment.newInstance();
        worker = env.newWorker(QUEUE);
        worker.registerWorkflowImplementationTypes(RegistryPruneWorkflowImpl.class);
    }

    @AfterEach
    void stop() {
        env.close();
    }

    @Test
    void pruneReturnsTheRowsDeleted() {
        worker.registerActivitiesImplementations(new FakeRegistry(3, 0));
        env.start();

        assertThat(workflow().prune()).isEqualTo(3);
    }

    @Test
    void aDatabaseOutageLongerThanTheRetriesFailsTheRunForTheNextScheduleToRedo() {
        FakeRegistry fake = new FakeRegistry(3, Integer.MAX_VALUE);
        worker.registerActivitiesImplementations(fake);
        env.start();

        assertThatThrownBy(() -> workflow().prune()).isInstanceOf(WorkflowFailedException.class);
        assertThat(fake.calls).hasValue(3);
    }

    private RegistryPruneWorkflow workflow() {
        return env.getWorkflowClient()
                .newWorkflowStub(
                        RegistryPruneWorkflow.class,
                        WorkflowOptions.newBuilder()
                                .setTaskQueue(QUEUE)
                                .setWorkflowId("registry-prune")
                                .build());
    }

    static final class FakeRegistry implements RegistryActivities {
        final AtomicInteger calls = new AtomicInteger();
        private final int pruned;
        private final int failures;

        FakeRegistry(int pruned, int failures) {
            this.pruned = pruned;
            this.failures = failures;
        }

        @Override
        public int prune() {
            if (calls.incrementAndGet() <= failures) {
                throw new IllegalStateException("database is down");
            }
            return pruned;
        }
    }
}
