package headway.activity;

import java.time.Duration;

/**
 * The outcome of a lease. When {@code granted}, {@code token} names the holder, its epoch and its
 * task queue. When not, {@code heldBy} is the live holder and {@code freeIn} how long until its
 * lease expires unless renewed (null: unknown); the workflow waits that long and asks again.
 */
public record LeaseGrant(
        boolean granted,
        HolderToken token,
        String heldBy,
        boolean takeover,
        String previousHolder,
        Long snapshotNext,
        long replannedRanges,
        Duration freeIn) {

    public static LeaseGrant refused(String heldBy) {
        return refused(heldBy, null);
    }

    public static LeaseGrant refused(String heldBy, Duration freeIn) {
        return new LeaseGrant(false, null, heldBy, false, null, null, 0, freeIn);
    }
}
