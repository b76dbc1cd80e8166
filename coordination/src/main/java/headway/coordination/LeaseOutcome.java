package headway.coordination;

import headway.store.Holder;

/**
 * What a lease call did. Granted: the holder with its new epoch, whether it took the group from a
 * quiet holder, the snapshot cursor ranges were re-planned from (null: no snapshot, the resume
 * point fallback) and how many ranges were re-planned. Refused: the live holder, and how long
 * until its lease expires unless it renews it ({@code freeIn}, database time); or, when it is not
 * the group's turn in the leasing order, {@code heldBy} names the place and the group first in the
 * order, and {@code freeIn} when to ask again.
 */
public record LeaseOutcome(
        boolean granted,
        Holder holder,
        String heldBy,
        boolean takeover,
        String previousHolder,
        Long snapshotNext,
        int replannedRanges,
        java.time.Duration freeIn) {

    static LeaseOutcome refused(String heldBy, java.time.Duration freeIn) {
        return new LeaseOutcome(false, null, heldBy, false, null, null, 0, freeIn);
    }

    static LeaseOutcome notYourTurn(String first, long place, java.time.Duration askAgainIn) {
        return new LeaseOutcome(
                false, null, "lease order: place " + place + ", first " + first, false, null, null, 0, askAgainIn);
    }

    /** Whether the refusal is the leasing order's (a turn to wait for), not a live holder's. */
    public boolean waitingForTurn() {
        return !granted && heldBy != null && heldBy.startsWith("lease order: ");
    }
}
