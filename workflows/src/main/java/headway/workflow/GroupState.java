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
    /** Paused by a signal: released, waits for {@code resume}. */
    PAUSED,
    /** Too many holding cycles failed in a row: waits for {@code resume}. */
    PARKED,
    /** Drained by a signal: snapshot taken, lease released, workflow complete. */
    DRAINED
}
