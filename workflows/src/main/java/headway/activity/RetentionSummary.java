package headway.activity;

import java.time.Instant;

/**
 * What one retention run did: the horizon it used (null when retention is off), the releases,
 * binaries, missing-run rows and rejected articles it removed, the groups whose holders kept them
 * busy past the lock timeout, and whether it reached the last group within its budget (the next run
 * goes on where a run that did not left off: the purge is idempotent).
 */
public record RetentionSummary(
        Instant horizon, long releases, long binaries, long missingRuns, long rejected, int busy, boolean finished) {

    /** Retention is off (HEADWAY_RETENTION_DAYS=0): nothing was looked at. */
    public static RetentionSummary off() {
        return new RetentionSummary(null, 0, 0, 0, 0, 0, true);
    }
}
