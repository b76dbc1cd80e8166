package headway.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import headway.activity.Failures;
import io.temporal.activity.ActivityOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Pins every timeout of the group workflow's activities to the one lease TTL, as docs/design.md states them. */
class ActivityPoliciesTest {

    private static final Duration TTL = Duration.ofSeconds(30);
    private static final GroupConfig CONFIG = GroupConfig.of("alt.test", TTL, 2, Duration.ofMinutes(5), "headway");

    @Test
    void holderCallsWaitOneTtlToStartAndOneTtlToRun() {
        ActivityOptions call = ActivityPolicies.holderCall(CONFIG, "q/node/n1", "next range");
        assertThat(call.getScheduleToStartTimeout()).isEqualTo(TTL);
        assertThat(call.getStartToCloseTimeout()).isEqualTo(TTL);
        assertThat(call.getHeartbeatTimeout()).isNull();
        assertThat(call.getRetryOptions().getMaximumAttempts()).isEqualTo(5);
        assertThat(call.getRetryOptions().getMaximumInterval()).isEqualTo(TTL);
        assertThat(call.getRetryOptions().getDoNotRetry())
                .containsExactlyInAnyOrder(Failures.LEASE_LOST, Failures.WINDOW_LOST, Failures.BAD_INPUT);
    }

    @Test
    void indexRangeHeartbeatsWithinHalfATtl() {
        ActivityOptions index = ActivityPolicies.indexRange(CONFIG, "q/node/n1", "index");
        assertThat(index.getScheduleToStartTimeout()).isEqualTo(TTL);
        assertThat(index.getHeartbeatTimeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(index.getStartToCloseTimeout()).isEqualTo(Duration.ofHours(2));
        assertThat(index.getRetryOptions().getDoNotRetry()).contains(ActivityPolicies.HEARTBEAT_TIMEOUT);
    }

    @Test
    void putSnapshotHeartbeatsLikeIndexRange() {
        ActivityOptions snapshot = ActivityPolicies.putSnapshot(CONFIG, "q/node/n1", "snapshot");
        assertThat(snapshot.getScheduleToStartTimeout()).isEqualTo(TTL);
        assertThat(snapshot.getHeartbeatTimeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(snapshot.getStartToCloseTimeout()).isEqualTo(Duration.ofMinutes(30));
        assertThat(snapshot.getRetryOptions().getDoNotRetry()).contains(ActivityPolicies.HEARTBEAT_TIMEOUT);
    }

    @Test
    void theHeartbeatTimeoutFollowsTheNodeTtlWhenItIsTheShorter() {
        assertThat(ActivityPolicies.heartbeatTimeout(CONFIG.withNodeTtl(Duration.ofSeconds(15))))
                .isEqualTo(Duration.ofMillis(7_500));
        assertThat(ActivityPolicies.indexRange(CONFIG.withNodeTtl(Duration.ofSeconds(15)), "q/node/n1", "index")
                        .getHeartbeatTimeout())
                .isEqualTo(Duration.ofMillis(7_500));
        assertThat(ActivityPolicies.heartbeatTimeout(CONFIG.withNodeTtl(Duration.ofMinutes(2))))
                .as("a node TTL longer than the lease TTL changes nothing")
                .isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void aHistoryLeaseGoesToTheHistoryLeaseQueueAndWaitsTwoTtlsForAWorker() {
        ActivityOptions history = ActivityPolicies.lease(CONFIG, 3, true);
        assertThat(history.getTaskQueue()).isEqualTo("headway-lease-history");
        assertThat(history.getScheduleToStartTimeout()).isEqualTo(TTL.multipliedBy(2));
        assertThat(history.getPriority().getPriorityKey()).isEqualTo(3);
        ActivityOptions tail = ActivityPolicies.lease(CONFIG, 1, false);
        assertThat(tail.getTaskQueue()).isEqualTo("headway-lease");
        assertThat(tail.getScheduleToStartTimeout())
                .as("a tail lease waits on the server, ordered by priority, as before roles")
                .isNull();
    }

    @Test
    void theHeartbeatTimeoutIsAtLeastOneSecond() {
        GroupConfig shortTtl = GroupConfig.of("alt.test", Duration.ofSeconds(1), 2, Duration.ofMinutes(5), "headway");
        assertThat(ActivityPolicies.heartbeatTimeout(shortTtl)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void sharedQueueCallsAreShortAndLeaseBacksOffToOneTtl() {
        assertThat(ActivityPolicies.outlook(CONFIG).getStartToCloseTimeout()).isEqualTo(Duration.ofSeconds(10));
        ActivityOptions lease = ActivityPolicies.lease(CONFIG, 1);
        assertThat(lease.getTaskQueue()).isEqualTo(TaskQueues.leaseQueue("headway"));
        assertThat(lease.getStartToCloseTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(lease.getRetryOptions().getMaximumInterval()).isEqualTo(TTL);
        assertThat(lease.getPriority().getPriorityKey()).isEqualTo(1);
    }
}
