package headway.activity;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** The retention step, run by one actor: its Temporal Schedule ({@code headway-retention}). */
@ActivityInterface
public interface RetentionActivities {

    /**
     * Removes what was posted before the horizon (HEADWAY_RETENTION_DAYS; nothing when it is 0) for
     * at most the activity's budget, and says what it removed and whether it got to the end.
     */
    @ActivityMethod
    RetentionSummary purge();

    /**
     * Checks the availability (STAT on the check providers) of releases nearing the horizon again:
     * those in the last quarter of HEADWAY_RETENTION_DAYS whose last check is older than a quarter of
     * it, or, with retention off, those older than 90 days whose last check is older than 30; a
     * bounded number a run. Returns how many releases were checked (0 on a node that checks none).
     */
    @ActivityMethod
    int recheckAvailability();
}
