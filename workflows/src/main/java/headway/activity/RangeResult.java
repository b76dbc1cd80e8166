package headway.activity;

/** What indexing a range did: headers indexed, articles missing on the server, malformed overview lines skipped. */
public record RangeResult(long rangeId, long cursor, long headers, long missing, long malformed, long windowBinaries) {
}
