package headway.workflow;

import headway.activity.SnapshotInfo;
import java.util.Objects;

/**
 * The argument of a group workflow run: its configuration and what the previous run carried over
 * by continue-as-new (counters, last snapshot, cursor, lag, epoch, flags and the signals received
 * but not yet acted on), so a new run resumes exactly where the last one stopped.
 */
public record GroupRun(GroupConfig config, Carry carry) {

    public GroupRun {
        Objects.requireNonNull(config, "config");
        carry = carry == null ? Carry.FRESH : carry;
    }

    /** The first run of a group. */
    public static GroupRun start(GroupConfig config) {
        return new GroupRun(config, Carry.FRESH);
    }

    /**
     * State that survives continue-as-new.
     *
     * @param cursor       the next article to index in the last range indexed; null before the first range
     * @param lastSnapshot null before the first snapshot
     * @param planned      a {@code planned} signal arrived and was not yet acted on
     * @param drain        a {@code drain} signal arrived and was not yet acted on
     */
    public record Carry(
            long rangesDone,
            long headers,
            long missing,
            long malformed,
            SnapshotInfo lastSnapshot,
            Long cursor,
            long lag,
            long epoch,
            int failedCycles,
            boolean parked,
            boolean paused,
            boolean planned,
            boolean drain) {

        public static final Carry FRESH = new Carry(0, 0, 0, 0, null, null, 0, 0, 0, false, false, false, false);
    }
}
