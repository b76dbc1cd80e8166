package headway.workflow;

import headway.activity.Failures;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.Priority;
import io.temporal.common.RetryOptions;
import java.time.Duration;

/**
 * Every timeout and retry policy of the group workflow, in one place. The lease TTL is the one
 * number that matters: a holder activity that is not picked up (schedule-to-start) or that stops
 * heartbeating within a TTL belongs to a dead worker, and the group is leased again. The cost of
 * that choice is that a worker busy for longer than a TTL before it polls loses its groups. The
 * TTL is the group's ({@link GroupConfig#leaseTtl}), which the lease activity also uses for the
 * database lease, so the two cannot disagree; ActivityPoliciesTest pins every number here.
 */
final class ActivityPolicies {

    /**
     * The same store calls on the shared queue. Shorter, because a worker frozen by SIGSTOP or a
     * long GC pause still holds the long polls it had open, and a task handed to one is only
     * retried elsewhere after this timeout (measured: a frozen holder's group was not leased again
     * for over a minute, its lease task swallowed twice); ten seconds still cover a slow database.
     */
    private static final Duration SHARED_STORE_CALL = Duration.ofSeconds(10);
    /** Indexing a range can take long (a large range on a slow server); the heartbeat timeout catches a dead worker long before this. */
    private static final Duration INDEX_RANGE = Duration.ofHours(2);
    /** A large window is streamed to storage; this bounds a stuck write, not a normal one. */
    private static final Duration PUT_SNAPSHOT = Duration.ofMinutes(30);

    /** The first retry comes soon because most failures are a dropped connection. */
    private static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    /** A holder activity gives up after this many attempts, and the cycle counts as failed, because retrying forever would hide a broken group. */
    private static final int HOLDER_ATTEMPTS = 5;
    /** The server's non-retryable type for a heartbeat timeout ("TemporalTimeout:" + the timeout type's short name). */
    static final String HEARTBEAT_TIMEOUT = "TemporalTimeout:Heartbeat";

    private ActivityPolicies() {}

    /** Outlook on the shared queue: retried without end (backoff to a minute), because it only reads and any worker may serve it; BadInput (an unknown group) is not retried. */
    static ActivityOptions outlook(GroupConfig config) {
        return ActivityOptions.newBuilder()
                .setTaskQueue(config.sharedTaskQueue())
                .setStartToCloseTimeout(SHARED_STORE_CALL)
                .setRetryOptions(RetryOptions.newBuilder()
                        .setInitialInterval(FIRST_RETRY)
                        .setBackoffCoefficient(2)
                        .setMaximumInterval(Duration.ofMinutes(1))
                        .setDoNotRetry(Failures.BAD_INPUT)
                        .build())
                .setSummary("outlook " + config.group())
                .build();
    }

    /**
     * Lease on the lease queue with the group's Temporal priority, so that with more groups than
     * capacity tail work is served before history (workers stop polling that queue while full). AtCapacity is retried without end, backing off
     * to the lease TTL, because a full cluster is a normal state and another worker may take the
     * group; the typed failures that say the request is wrong are not retried.
     */
    static ActivityOptions lease(GroupConfig config, int priorityKey) {
        return lease(config, priorityKey, false);
    }

    /**
     * How long a history lease waits for a worker that serves history: two lease TTLs. Then it
     * times out and the workflow looks at its outlook again, because tail work planned meanwhile
     * goes to the tail's lease queue, and a fleet without history workers must not hold a group's
     * tail back behind a history lease nobody takes.
     */
    static Duration historyLeaseWait(GroupConfig config) {
        return config.leaseTtl().multipliedBy(2);
    }

    /**
     * The lease of a group whose most urgent work is history ({@code history}) goes to the history
     * lease queue with a schedule-to-start timeout of {@link #historyLeaseWait}; any other to the
     * lease queue, as before roles.
     */
    static ActivityOptions lease(GroupConfig config, int priorityKey, boolean history) {
        ActivityOptions.Builder options = ActivityOptions.newBuilder()
                .setTaskQueue(
                        history
                                ? TaskQueues.historyLeaseQueue(config.sharedTaskQueue())
                                : TaskQueues.leaseQueue(config.sharedTaskQueue()))
                .setStartToCloseTimeout(SHARED_STORE_CALL)
                .setRetryOptions(RetryOptions.newBuilder()
                        .setInitialInterval(FIRST_RETRY)
                        .setBackoffCoefficient(2)
                        .setMaximumInterval(config.leaseTtl())
                        .setDoNotRetry(Failures.BAD_INPUT, Failures.LEASE_LOST, Failures.WINDOW_LOST)
                        .build())
                .setSummary("lease " + config.group() + " (priority " + priorityKey + ")");
        if (history) {
            options.setScheduleToStartTimeout(historyLeaseWait(config));
        }
        if (priorityKey > 0) {
            options.setPriority(
                    Priority.newBuilder().setPriorityKey(priorityKey).build());
        }
        return options.build();
    }

    /**
     * A holder activity on the holder's own queue. Schedule-to-start equals the lease TTL (it is
     * never retried, so a dead holder's queue fails the call after one TTL); LeaseLost, WindowLost
     * and BadInput are not retried because another attempt on this holder cannot succeed.
     */
    static ActivityOptions holder(GroupConfig config, String taskQueue, Duration startToClose, String summary) {
        return ActivityOptions.newBuilder()
                .setTaskQueue(taskQueue)
                .setScheduleToStartTimeout(config.leaseTtl())
                .setStartToCloseTimeout(startToClose)
                .setRetryOptions(RetryOptions.newBuilder()
                        .setInitialInterval(FIRST_RETRY)
                        .setBackoffCoefficient(2)
                        .setMaximumInterval(config.leaseTtl())
                        .setMaximumAttempts(HOLDER_ATTEMPTS)
                        .setDoNotRetry(Failures.LEASE_LOST, Failures.WINDOW_LOST, Failures.BAD_INPUT)
                        .build())
                .setSummary(summary)
                .build();
    }

    /**
     * nextRange and release: quick store calls on the holder's queue, given one lease TTL to run,
     * because a holder call that takes longer has lost its database lease anyway, and a holder
     * killed or frozen inside one (no heartbeat tells) then keeps its group one TTL, not a minute.
     */
    static ActivityOptions holderCall(GroupConfig config, String taskQueue, String summary) {
        return holder(config, taskQueue, config.leaseTtl(), summary);
    }

    /**
     * indexRange: heartbeats every few seconds, so a heartbeat timeout finds a dead or stuck worker.
     * It is half a TTL (the shorter of the lease and node TTLs: {@link #heartbeatTimeout}) because the server checks heartbeat timeouts lazily (measured on the
     * dev server: a killed worker's timeout fired 10 s after the kill with a 5 s timeout), so a
     * dead holder is found within one TTL; the database lease still expires only after a full TTL.
     * That timeout is not retried, because the retry would go to the same holder's queue and, its
     * worker being dead, wait another TTL for its schedule-to-start timeout; the workflow leases
     * again at once instead, and a live holder simply takes its group again. Other failures (a
     * dropped NNTP connection) are retried from the last heartbeat.
     */
    static ActivityOptions indexRange(GroupConfig config, String taskQueue, String summary) {
        return heartbeating(holder(config, taskQueue, INDEX_RANGE, summary), config);
    }

    /**
     * putSnapshot: may stream a large window, so it heartbeats like indexRange (the worker beats
     * while it renews the database lease), and a dead worker's snapshot is found within one TTL
     * rather than after its 30 minutes.
     */
    static ActivityOptions putSnapshot(GroupConfig config, String taskQueue, String summary) {
        return heartbeating(holder(config, taskQueue, PUT_SNAPSHOT, summary), config);
    }

    /**
     * The heartbeat timeout of a holder activity that works long: half the shorter of the lease TTL
     * and the node TTL, at least 1 s (see indexRange). The node TTL, because a holder's leases end
     * with its node row (V24): a frozen or killed holder's group is free once its row has expired,
     * so the workflow should have given up on its activity by then, not a lease TTL later.
     */
    static Duration heartbeatTimeout(GroupConfig config) {
        Duration shorter = config.nodeTtl().compareTo(config.leaseTtl()) < 0 ? config.nodeTtl() : config.leaseTtl();
        Duration half = shorter.dividedBy(2);
        return half.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : half;
    }

    private static ActivityOptions heartbeating(ActivityOptions holder, GroupConfig config) {
        return holder.toBuilder()
                .setHeartbeatTimeout(heartbeatTimeout(config))
                .setRetryOptions(holder.getRetryOptions().toBuilder()
                        .setDoNotRetry(Failures.LEASE_LOST, Failures.WINDOW_LOST, Failures.BAD_INPUT, HEARTBEAT_TIMEOUT)
                        .build())
                .build();
    }
}
