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
}
