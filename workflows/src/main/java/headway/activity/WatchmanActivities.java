package headway.activity;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** The watchman's one step: a scan of the coordination tables. */
@ActivityInterface
public interface WatchmanActivities {

    /** Scans once (stateless, so a retry or a restart is harmless) and summarizes what changed. */
    @ActivityMethod
    WatchmanSummary scan();
}
