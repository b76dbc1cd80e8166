package headway.lab;

import headway.workflow.GroupState;
import headway.workflow.GroupWorkflow;
import headway.workflow.TaskQueues;
import io.temporal.client.WorkflowClient;
import java.util.List;

/** What group workflows say of themselves, for the demo, the benchmarks and chaos runs that wait for them. */
public final class GroupStates {

    private GroupStates() {}

    /** The group workflow's state from its progress query; LEASING while it cannot answer yet. */
    public static GroupState state(WorkflowClient client, String group) {
        try {
            return client.newWorkflowStub(GroupWorkflow.class, TaskQueues.workflowId(group))
                    .progress()
                    .state();
        } catch (RuntimeException e) {
            return GroupState.LEASING;
        }
    }

    /** Caught up: no unfinished range left ({@code openRanges} is their count) and every group's workflow idle. */
    public static boolean caughtUp(WorkflowClient client, long openRanges, List<String> groups) {
        return openRanges == 0 && groups.stream().allMatch(g -> state(client, g) == GroupState.IDLE);
    }
}
