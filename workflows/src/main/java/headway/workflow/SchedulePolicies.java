package headway.workflow;

import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import java.time.Duration;

/**
 * The timeouts and the one retry policy of the scheduled workflows (planner, watchman, registry
 * prune, retention), in one place as {@link ActivityPolicies} is for the group workflow. Each runs one
 * idempotent activity on the shared queue, and its schedule runs it again soon: so each retries a
 * few times, the wait doubling, to ride out a blip, and leaves a longer outage to the next
 * scheduled run rather than retrying without end, because runs of a schedule would pile up
 * behind it. SchedulePoliciesTest pins every number here.
 */
final class SchedulePolicies {

    /** Each retry waits twice as long as the one before. */
    private static final double BACKOFF = 2;

    private SchedulePolicies() {}

    /**
     * Planning asks the news server for every group's high-water mark, so one slow server can take
     * minutes: ten minutes to close. Planning is idempotent on (group, start article), so a retry
     * never plans a range twice; five attempts up to a minute apart ride out a server restart.
     */
    static ActivityOptions planner() {
        return scheduled(
                Duration.ofMinutes(10), retries(Duration.ofSeconds(10), 5).setMaximumInterval(Duration.ofMinutes(1)));
    }

    /**
     * A scan reads a few tables and writes a handful of rows, so ten seconds are generous; not a
     * minute, because a scan task swallowed by a frozen worker is only retried after this timeout
     * and overlapping runs pile up meanwhile. Three quick attempts cover a database blip; the next
     * run rebuilds the same view from the tables (the scan keeps no state), so nothing is lost.
     */
    static ActivityOptions watchmanScan() {
        return scheduled(Duration.ofSeconds(10), retries(Duration.ofSeconds(2), 3));
    }

    /**
     * The prune is one delete statement. Three quick attempts cover a database blip; a longer
     * outage only leaves dead rows (already ignored by peers, which filter on the TTL) until the
     * next run.
     */
    static ActivityOptions registryPrune() {
        return scheduled(Duration.ofSeconds(30), retries(Duration.ofSeconds(2), 3));
    }

    /**
     * A purge works group by group in short transactions and stops at its own budget (ten minutes,
     * {@code RetentionActivitiesImpl.BUDGET}), so fifteen minutes to close leave it room to finish
     * its last batch; three attempts half a minute apart ride out a database blip, and what a failed
     * run left is removed by the next (the purge is idempotent, and retention is counted in days).
     */
    static ActivityOptions retention() {
        return scheduled(Duration.ofMinutes(15), retries(Duration.ofSeconds(30), 3));
    }

    /**
     * The inspect run's claim is one statement: ten seconds, three quick attempts; a longer outage
     * leaves the releases to the next run.
     */
    static ActivityOptions inspectClaim() {
        return scheduled(Duration.ofSeconds(10), retries(Duration.ofSeconds(2), 3));
    }

    /**
     * One release's inspection fetches at most the article budget (three bodies by default, each
     * bounded in bytes and time by the fetcher), so two minutes are ample; three attempts with
     * backoff ride out a dropped connection, and the claim's attempt count decides when the catalog
     * records that it gave up. It runs on the inspect queue, summarized for the Web UI.
     */
    static ActivityOptions inspectRelease(String taskQueue, String summary) {
        return scheduled(Duration.ofMinutes(2), retries(Duration.ofSeconds(5), 3)).toBuilder()
                .setTaskQueue(taskQueue)
                .setSummary(summary)
                .build();
    }

    /** The retry policy of every scheduled activity: {@code attempts} in all, the first retry after {@code first}. */
    private static RetryOptions.Builder retries(Duration first, int attempts) {
        return RetryOptions.newBuilder()
                .setInitialInterval(first)
                .setBackoffCoefficient(BACKOFF)
                .setMaximumAttempts(attempts);
    }

    private static ActivityOptions scheduled(Duration startToClose, RetryOptions.Builder retries) {
        return ActivityOptions.newBuilder()
                .setStartToCloseTimeout(startToClose)
                .setRetryOptions(retries.build())
                .build();
    }
}
