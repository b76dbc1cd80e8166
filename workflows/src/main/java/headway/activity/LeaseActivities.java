package headway.activity;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** Activities on the shared task queue: any worker with spare capacity may run them. */
@ActivityInterface
public interface LeaseActivities {

    /** The group's planned work, read without taking anything: the workflow skips leasing when there is none. */
    @ActivityMethod
    GroupOutlook outlook(String group);

    /**
     * Takes the group for the worker that runs this activity: free, or its holder quiet past the
     * lease TTL. Loads the group's snapshot into that worker's memory. Fails with the retryable
     * type {@code AtCapacity} when the worker already holds its maximum number of groups.
     */
    @ActivityMethod
    LeaseGrant lease(String group);
}
