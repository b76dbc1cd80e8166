package headway.activity;

import headway.catalog.AvailabilityStore;
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

    /** Releases one run checks again at most: about 20 STATs each, pipelined, well inside the activity's time. */
    static final int RECHECK_ROUND = 200;

    /** With retention off, releases older than this are checked again ... */
    static final Duration RECHECK_AGE_OFF = Duration.ofDays(90);

    /** ... each at most once in this long. */
    static final Duration RECHECK_EVERY_OFF = Duration.ofDays(30);

    private final CatalogRetention retention;
    private final int days;
    private final long windowMaxAge;
    private final AvailabilityStore availability;
    private final AvailabilityChecker checker;

    /** {@code days} 0 turns retention off; a node that checks no availability re-checks nothing. */
    public RetentionActivitiesImpl(CatalogRetention retention, int days, long windowMaxAge) {
        this(retention, days, windowMaxAge, null, null);
    }

    /**
     * {@code days} 0 turns retention off; {@code checker} (null: this node checks no availability)
     * checks again what {@code availability} finds due near the horizon.
     */
    public RetentionActivitiesImpl(
            CatalogRetention retention,
            int days,
            long windowMaxAge,
            AvailabilityStore availability,
            AvailabilityChecker checker) {
        if ((availability == null) != (checker == null)) {
            throw new IllegalArgumentException("the availability store and checker come together");
        }
        this.availability = availability;
        this.checker = checker;
        this.retention = Objects.requireNonNull(retention, "retention");
        if (days < 0 || windowMaxAge < 1) {
            throw new IllegalArgumentException("retention days must be 0 (off) or more and the window's max age"
                    + " positive, were " + days + " and " + windowMaxAge);
        }
        this.days = days;
        this.windowMaxAge = windowMaxAge;
    }

    /**
     * Releases nearing the horizon: with retention on, those in the last quarter of their days in
     * the catalog whose last check is older than a quarter of those days (each is so checked again
     * once before it is purged, and a takedown in its last weeks shows); with retention off, those
     * older than {@link #RECHECK_AGE_OFF}, each every {@link #RECHECK_EVERY_OFF}, because providers'
     * own retention and takedowns keep removing articles.
     */
    @Override
    public int recheckAvailability() {
        if (checker == null) {
            return 0;
        }
        Duration postedBefore = days == 0
                ? RECHECK_AGE_OFF
                : Duration.ofDays(days).multipliedBy(3).dividedBy(4);
        Duration checkedBefore =
                days == 0 ? RECHECK_EVERY_OFF : Duration.ofDays(days).dividedBy(4);
        return checker.checkAgain(availability.dueAgain(postedBefore, checkedBefore, RECHECK_ROUND));
    }

    @Override
    public RetentionSummary purge() {
        if (days == 0) {
            return RetentionSummary.off();
        }
        long deadline = System.nanoTime() + BUDGET.toNanos();
        CatalogRetention.Purged p = retention.purge(days, windowMaxAge, BATCH, () -> System.nanoTime() - deadline < 0);
        return new RetentionSummary(
                p.horizon(), p.releases(), p.binaries(), p.missingRuns(), p.rejected(), p.busy(), p.finished());
    }
}
