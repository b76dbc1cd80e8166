package headway.activity;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** The registry prune step, run by exactly one actor: its Temporal Schedule. */
@ActivityInterface
public interface RegistryActivities {

    /** Deletes node rows whose heartbeat is older than 3x the node TTL; returns how many. */
    @ActivityMethod
    int prune();
}
