package headway.workflow;

/** Names shared by workers and the starter: the shared task queue and the id of a group's workflow. */
public final class TaskQueues {
    /** The shared task queue: group workflows, and the activities any worker with spare capacity may run. */
    public static final String SHARED = "headway";

    private static final String GROUP_PREFIX = "group/";

    /**
     * The lease queue beside a shared queue. Each worker polls it with one poller that it stops
     * while it holds as many groups as it may, so pending lease tasks wait on the server, where
     * their Temporal priority orders them (tail before history), instead of being retried in an
     * arbitrary order by workers that are full.
     */
    public static String leaseQueue(String sharedTaskQueue) {
        return sharedTaskQueue + "-lease";
    }

    /**
     * The lease queue of groups whose most urgent work is history (the backfill), beside a shared
     * queue. Workers of role {@code history} and {@code all} poll it; tail workers poll only
     * {@link #leaseQueue}, which carries the lease tasks of groups with tail work (and, from runs
     * that began before roles, every lease task), so that tail and history workers scale apart.
     */
    public static String historyLeaseQueue(String sharedTaskQueue) {
        return sharedTaskQueue + "-lease-history";
    }

    /**
     * The inspect queue beside a shared queue: the deep index's reads of article bodies run there,
     * in activity slots of their own, so they never take a slot header indexing needs.
     */
    public static String inspectQueue(String sharedTaskQueue) {
        return sharedTaskQueue + "-inspect";
    }

    private TaskQueues() {}

    /** The workflow id of a group, {@code group/<name>}: one workflow per group, readable in the Web UI. */
    public static String workflowId(String group) {
        return GROUP_PREFIX + group;
    }
}
