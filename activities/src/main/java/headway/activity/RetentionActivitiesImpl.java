package headway.activity;

import headway.catalog.CatalogRetention;
import java.time.Duration;
import java.util.Objects;

/** Purges the catalog with the deployment's retention and window age, within {@link #BUDGET} a run. */
public final class RetentionActivitiesImpl implements RetentionActivities {

    /**
     * How long one run purges before it stops at the next batch: under the activity's fifteen
     * minutes to close, so a first run over years of catalog ends cleanly and the next goes on.
     */
    static final Duration BUDGET = Duration.ofMinutes(10);

    /** Releases per transaction: each holds one group's writers off for about that many deletes. */
    static final int BATCH = 500;

    private final CatalogRetention retention;
    private final int days;
    private final long windowMaxAge;

    /** {@code days} 0 turns retention off. */
    public RetentionActivitiesImpl(CatalogRetention retention, int days, long windowMaxAge) {
        this.retention = Objects.requireNonNull(retention, "retention");
        if (days < 0 || windowMaxAge < 1) {
            throw new IllegalArgumentException("retention days must be 0 (off) or more and the window's max age"
                    + " positive, were " + days + " and " + windowMaxAge);
        }
        this.days = days;
        this.windowMaxAge = windowMaxAge;
    }

    /** Makes the catalog's monthly partitions ahead (and back to the horizon), then purges; with retention off only the former. */
    @Override
    public RetentionSummary purge() {
        if (days == 0) {
            retention.prepareMonths();
            return RetentionSummary.off();
        }
        long deadline = System.nanoTime() + BUDGET.toNanos();
        CatalogRetention.Purged p = retention.purge(days, windowMaxAge, BATCH, () -> System.nanoTime() - deadline < 0);
        return new RetentionSummary(
                p.horizon(), p.releases(), p.binaries(), p.missingRuns(), p.rejected(), p.busy(), p.finished());
    }
}
