package headway.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import headway.activity.PlannerActivities;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PlannerWorkflowTest {

    private static final String QUEUE = "headway-test";

    private TestWorkflowEnvironment env;
    private Worker worker;

    @BeforeEach
    void start() {
        env = TestWorkflowEnvironment.newInstance();
        worker = env.newWorker(QUEUE);
        worker.registerWorkflowImplementationTypes(PlannerWorkflowImpl.class, RecordingGroupWorkflowImpl.class);
    }

    @AfterEach
    void stop() {
        env.close();
    }

    @Test
    void plannedGroupsAreSignalledAndAGroupWithoutAWorkflowIsSkipped() {
        worker.registerActivitiesImplementations(
                new FakePlanner(List.of("alt.binaries.running", "alt.binaries.stopped")));
        env.start();
        WorkflowClient client = env.getWorkflowClient();
        RecordingGroupWorkflow group = client.newWorkflowStub(
                RecordingGroupWorkflow.class,
                WorkflowOptions.newBuilder()
                        .setTaskQueue(QUEUE)
                        .setWorkflowId("group/alt.binaries.running")
                        .build());
        WorkflowClient.start(group::run);

        PlannerOutcome outcome = client.newWorkflowStub(
                        PlannerWorkflow.class,
                        WorkflowOptions.newBuilder()
                                .setTaskQueue(QUEUE)
                                .setWorkflowId("planner")
                                .build())
                .plan();

        assertThat(outcome.planned()).containsExactly("alt.binaries.running", "alt.binaries.stopped");
        assertThat(outcome.signalled()).containsExactly("alt.binaries.running");
        assertThat(outcome.notRunning()).containsExactly("alt.binaries.stopped");
        assertThat(WorkflowStub.fromTyped(group).getResult(Integer.class)).isEqualTo(1);
    }

    @Test
    void nothingPlannedSignalsNobody() {
        worker.registerActivitiesImplementations(new FakePlanner(List.of()));
        env.start();

        PlannerOutcome outcome = env.getWorkflowClient()
                .newWorkflowStub(
                        PlannerWorkflow.class,
                        WorkflowOptions.newBuilder()
                                .setTaskQueue(QUEUE)
                                .setWorkflowId("planner")
                                .build())
                .plan();

        assertThat(outcome.planned()).isEmpty();
        assertThat(outcome.signalled()).isEmpty();
    }

    /** A stand-in for the group workflow: waits for "planned" and returns how many it received. */
    @WorkflowInterface
    public interface RecordingGroupWorkflow {
        @WorkflowMethod
        int run();

        @SignalMethod(name = PlannerWorkflowImpl.PLANNED_SIGNAL)
        void planned();

        @QueryMethod
        int plannedSignals();
    }

    public static final class RecordingGroupWorkflowImpl implements RecordingGroupWorkflow {
        private int planned;

        @Override
        public int run() {
            Workflow.await(Duration.ofHours(1), () -> planned > 0);
            return planned;
        }

        @Override
        public void planned() {
            planned++;
        }

        @Override
        public int plannedSignals() {
            return planned;
        }
    }

    static final class FakePlanner implements PlannerActivities {
        private final List<String> planned;

        FakePlanner(List<String> planned) {
            this.planned = planned;
        }

        @Override
        public List<String> planAll() {
            return planned;
        }
    }
}
