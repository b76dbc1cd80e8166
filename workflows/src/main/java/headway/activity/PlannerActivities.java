package headway.activity;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import java.util.List;

/** The planner step: reads each group's high-water mark and plans new tail and history ranges. */
@ActivityInterface
public interface PlannerActivities {

    /** Plans every active group (idempotent on group and start article); returns the groups that got new ranges. */
    @ActivityMethod
    List<String> planAll();
}
