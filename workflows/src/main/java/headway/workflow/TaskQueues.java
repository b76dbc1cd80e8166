package headway.workflow;

/** Names shared by workers and the starter: the shared task queue and the id of a group's workflow. */
public final class TaskQueues {
    /** The shared task queue: group workflows, and the activities any worker with spare capacity may run. */
    public static final String SHARED = "headway";

    private static final String GROUP_PREFIX = "group/";

    private TaskQueues() {
    }

    /** The workflow id of a group, {@code group/<name>}: one workflow per group, readable in the Web UI. */
    public static String workflowId(String group) {
        return GROUP_PREFIX + group;
    }
}
