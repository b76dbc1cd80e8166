package headway.activity;

/**
 * Tells a group's workflow of a claim conflict (the worker signals it), so that besides the stale
 * claimant, which gets LeaseLost, the side that holds the group hears of it too. Telling is best
 * effort: a failure is the reporter's to log, never the caller's, because the conflict is already
 * recorded in lease_events.
 */
@FunctionalInterface
public interface ConflictReporter {

    /** Reports nothing: for tests and tools that run without Temporal. */
    ConflictReporter NONE = (group, conflict) -> {};

    void tell(String group, ClaimConflict conflict);
}
