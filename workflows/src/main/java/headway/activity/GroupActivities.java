package headway.activity;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * Activities of a held group, on the holder's own task queue. Each fails with the non-retryable
 * type {@code LeaseLost} when the token's epoch is no longer current, and with {@code WindowLost}
 * when this worker no longer has the group's window in memory.
 */
@ActivityInterface
public interface GroupActivities {

    /** The range this holder leases, else the lowest planned range by start, leased to it; {@link NextRange#range()} is null when caught up. */
    @ActivityMethod
    NextRange nextRange(HolderToken token);

    /**
     * Indexes the range from its cursor to its end, heartbeating progress, and resumes from the
     * committed cursor on retry; with {@code snapshotAfter}, then stores the window as
     * {@link #putSnapshot} does; then leases the group's next range and returns it with the
     * result. Both ride on this call because a separate activity between ranges costs a dispatch
     * and a workflow task each.
     */
    @ActivityMethod
    RangeResult indexRange(HolderToken token, RangeLease range, boolean snapshotAfter);

    /** Stores the window at its cursor, whole, before it replaces the previous snapshot. */
    @ActivityMethod
    SnapshotInfo putSnapshot(HolderToken token);

    /** Puts the holder's leased ranges back to planned at their cursor, clears the holder and drops the window. */
    @ActivityMethod
    void release(HolderToken token);
}
