package headway.workflow;

/**
 * A group's progress as the {@code progress} query returns it.
 *
 * @param holder             the node holding the group (when indexing) or the live node it waits for (when waiting); null otherwise
 * @param cursor             the next article to index in the last range indexed; null before the first range
 * @param lastSnapshotNext   the cursor the last snapshot covers up to (exclusive); null before the first snapshot
 * @param stuck              the watchman reported the group stuck and has not seen it move since
 * @param lastSnapshotAt     when the last snapshot was taken (ISO-8601, from the activity); null before the first snapshot
 * @param conflicts          claim conflicts this run was told of (a refused stale write, a takeover); also in the memo
 * @param lastConflict       the last of them, described; null when none
 */
public record GroupProgress(
        String group,
        GroupState state,
        String holder,
        long epoch,
        Long cursor,
        long lag,
        long rangesDone,
        long headers,
        long missing,
        long malformed,
        Long lastSnapshotNext,
        String lastSnapshotAt,
        int failedCycles,
        boolean parked,
        boolean stuck,
        int conflicts,
        String lastConflict) {}
