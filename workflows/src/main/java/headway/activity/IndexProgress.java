package headway.activity;

/** Heartbeat details of {@code indexRange}: a retry resumes from {@code cursor}. */
public record IndexProgress(long rangeId, long cursor, long headers, long missing, long malformed) {}
