package headway.workflow;

/** What a group workflow is doing, as shown by its query and the {@code HeadwayState} search attribute. */
public enum GroupState {
    /** Caught up: waits for a {@code planned} signal or the idle timer. */
    IDLE,
    /** Asking for the lease on the shared task queue. */
    LEASING,
    /** Held by a live node elsewhere: waits about a lease TTL and asks again. */
    WAITING,
    /** Held: indexing ranges on the holder's task queue. */
    INDEXING,
    /**
     * The news server failed the group's range (unreachable, or broke a reply bound) after the
     * index activity's retries: the lease is handed back and the group waits, longer with each such
     * cycle in a row, then leases again. Never parks.
     */
    BACKING_OFF,
    /** Paused by a signal: released, waits for {@code resume}. */
    PAUSED,
    /** Too many holding cycles failed in a row: waits for {@code resume}. */
    PARKED,
    /** Drained by a signal: snapshot taken, lease released, workflow complete. */
    DRAINED
}
