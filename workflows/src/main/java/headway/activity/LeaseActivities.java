package headway.activity;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import java.time.Duration;

/** Activities on the shared task queue: any worker with spare capacity may run them. */
@ActivityInterface
public interface LeaseActivities {

    /** The group's planned work, read without taking anything: the workflow skips leasing when there is none. */
    @ActivityMethod
    GroupOutlook outlook(String group);

    /**
     * Takes the group for the worker that runs this activity: free, or its holder quiet past the
     * lease TTL. Loads the group's snapshot into that worker's memory. Fails with the retryable
     * type {@code AtCapacity} when the worker already holds its maximum number of groups. The
     * {@code ttl} is the group workflow's lease TTL: the database lease is taken, judged and
     * renewed with it, so the workflow's timeouts and the lease cannot disagree (null, from a
     * workflow that predates it, means the worker's HEADWAY_LEASE_TTL).
     */
    @ActivityMethod
    LeaseGrant lease(String group, Duration ttl);
}
