package headway.activity;

/** A stored snapshot: the cursor it covers up to (exclusive), its size, and when it was taken (ISO-8601). */
public record SnapshotInfo(long next, long bytes, String takenAt) {}
