package headway.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.api.enums.v1.EventType;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A workflow task held by the JVM for longer than the SDK's default second (class loading, a CPU
 * given to other work) is not failed as a deadlock by the worker's options; the detector still
 * stands, at {@link HeadwayWorker#DEADLOCK_DETECTION}.
 */
class DeadlockDetectionTest {

    private static final String QUEUE = "deadlock-detection";

    @WorkflowInterface
    public interface Held {
        @WorkflowMethod
        String run();
    }

    /** Holds its first task for 2 s without yielding, as a task loading classes on a loaded machine did. */
    public static final class HeldImpl implements Held {
        @Override
        public String run() {
            try {
                Thread.sleep(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "done";
        }
    }

    @Test
    void aTaskHeldTwoSecondsByTheJvmIsNotFailedAsADeadlock() throws Exception {
        try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
            Worker worker =
                    env.newWorker(QUEUE, HeadwayWorker.workflowWorkerOptions().build());
            worker.registerWorkflowImplementationTypes(HeldImpl.class);
            env.start();
            WorkflowClient client = env.getWorkflowClient();
            Held held = client.newWorkflowStub(
                    Held.class,
                    WorkflowOptions.newBuilder()
                            .setTaskQueue(QUEUE)
                            .setWorkflowId("held")
                            .build());
            WorkflowClient.start(held::run);
            // a task failed as a deadlock is retried and held again: without the option it never completes
            assertThat(WorkflowStub.fromTyped(held).getResult(30, TimeUnit.SECONDS, String.class))
                    .isEqualTo("done");
            assertThat(client.fetchHistory("held").getEvents())
                    .as("no workflow task failed")
                    .noneMatch(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED);
        }
        assertThat(HeadwayWorker.DEADLOCK_DETECTION)
                .as("still below the workflow task timeout, so a real deadlock is still caught")
                .isLessThan(java.time.Duration.ofSeconds(10));
    }
}
