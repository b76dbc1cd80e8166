package headway.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pins the timeouts and retries of the scheduled workflows' activities, as docs/design.md states them. */
class SchedulePoliciesTest {

    @Test
    void plannerGetsTenMinutesAndFiveAttemptsUpToAMinuteApart() {
        ActivityOptions planner = SchedulePolicies.planner();
        assertThat(planner.getStartToCloseTimeout()).isEqualTo(Duration.ofMinutes(10));
        RetryOptions retry = planner.getRetryOptions();
        assertThat(retry.getInitialInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(retry.getMaximumInterval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(retry.getMaximumAttempts()).isEqualTo(5);
    }

    @Test
    void watchmanScanGetsTenSecondsAndThreeQuickAttempts() {
        ActivityOptions scan = SchedulePolicies.watchmanScan();
        assertThat(scan.getStartToCloseTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(scan.getRetryOptions().getInitialInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(scan.getRetryOptions().getMaximumAttempts()).isEqualTo(3);
    }

    @Test
    void registryPruneGetsThirtySecondsAndThreeQuickAttempts() {
        ActivityOptions prune = SchedulePolicies.registryPrune();
        assertThat(prune.getStartToCloseTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(prune.getRetryOptions().getInitialInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(prune.getRetryOptions().getMaximumAttempts()).isEqualTo(3);
    }

    @Test
    void retentionGetsFifteenMinutesAndThreeAttemptsHalfAMinuteApart() {
        ActivityOptions purge = SchedulePolicies.retention();
        assertThat(purge.getStartToCloseTimeout()).isEqualTo(Duration.ofMinutes(15));
        assertThat(purge.getRetryOptions().getInitialInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(purge.getRetryOptions().getMaximumAttempts()).isEqualTo(3);
    }

    @Test
    void inspectionClaimsQuicklyAndReadsEachReleaseOnTheInspectQueueWithinTwoMinutes() {
        ActivityOptions claim = SchedulePolicies.inspectClaim();
        assertThat(claim.getStartToCloseTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(claim.getRetryOptions().getMaximumAttempts()).isEqualTo(3);
        assertThat(claim.getTaskQueue()).isNull();
        ActivityOptions one = SchedulePolicies.inspectRelease("headway-inspect", "inspect x");
        assertThat(one.getStartToCloseTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(one.getRetryOptions().getInitialInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(one.getRetryOptions().getBackoffCoefficient()).isEqualTo(2.0);
        assertThat(one.getRetryOptions().getMaximumAttempts()).isEqualTo(3);
        assertThat(one.getTaskQueue()).isEqualTo("headway-inspect");
        assertThat(one.getSummary()).isEqualTo("inspect x");
    }

    /** The one policy: a few doubling retries, then the next scheduled run; on the workflow's own (shared) queue. */
    @Test
    void everyScheduledActivityGivesUpAndLeavesTheRestToTheNextRun() {
        for (ActivityOptions options : List.of(
                SchedulePolicies.planner(),
                SchedulePolicies.watchmanScan(),
                SchedulePolicies.registryPrune(),
                SchedulePolicies.retention())) {
            assertThat(options.getRetryOptions().getBackoffCoefficient()).isEqualTo(2.0);
            assertThat(options.getRetryOptions().getMaximumAttempts()).isBetween(1, 5);
            assertThat(options.getRetryOptions().getDoNotRetry()).isNullOrEmpty();
            assertThat(options.getTaskQueue()).isNull();
            assertThat(options.getScheduleToCloseTimeout()).isNull();
        }
    }
}
