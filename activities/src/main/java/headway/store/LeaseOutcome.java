package headway.store;

/**
 * What a lease call did. Granted: the holder with its new epoch, whether it took the group from a
 * quiet holder, the snapshot cursor ranges were re-planned from (null: no snapshot, the resume
 * point fallback) and how many ranges were re-planned. Refused: the live holder.
 */
public record LeaseOutcome(boolean granted, Holder holder, String heldBy, boolean takeover, String previousHolder,
                           Long snapshotNext, int replannedRanges) {

    static LeaseOutcome refused(String heldBy) {
        return new LeaseOutcome(false, null, heldBy, false, null, null, 0);
    }
}
