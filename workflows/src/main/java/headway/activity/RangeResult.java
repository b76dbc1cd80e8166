package headway.activity;

/**
 * What indexing a range did: headers indexed, articles missing on the server, malformed overview
 * lines skipped; the snapshot taken after it (null when none was asked for); and the group's next
 * range, already leased to the holder (null when caught up), with the lag left, so the workflow
 * needs no separate call between ranges.
 */
public record RangeResult(
        long rangeId,
        long cursor,
        long headers,
        long missing,
        long malformed,
        long windowBinaries,
        SnapshotInfo snapshot,
        RangeLease next,
        long lag) {}
