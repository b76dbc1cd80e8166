package headway.activity;

/**
 * The outcome of a lease. When {@code granted}, {@code token} names the holder, its epoch and its
 * task queue. When not, {@code heldBy} is the live holder and the workflow waits and asks again.
 */
public record LeaseGrant(
        boolean granted,
        HolderToken token,
        String heldBy,
        boolean takeover,
        String previousHolder,
        Long snapshotNext,
        long replannedRanges) {

    public static LeaseGrant refused(String heldBy) {
        return new LeaseGrant(false, null, heldBy, false, null, null, 0);
    }
}
