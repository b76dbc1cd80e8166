package headway.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.coordination.Band;
import headway.settings.Settings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** HEADWAY_WORKER_ROLE: read and checked with the deployment settings, and the lease queues each role polls. */
class WorkerRoleTest {

    @Test
    void aWorkerIsOfEveryBandUnlessToldOtherwise() {
        assertThat(WorkerConfig.deploymentFromEnv(new Settings(Map.of())).role())
                .isEqualTo(Band.ALL);
        assertThat(WorkerConfig.Deployment.unversioned().role()).isEqualTo(Band.ALL);
        assertThat(WorkerConfig.deploymentFromEnv(new Settings(Map.of("HEADWAY_WORKER_ROLE", "history")))
                        .role())
                .isEqualTo(Band.HISTORY);
    }

    @Test
    void aRoleThatIsNotOneOfTheThreeIsNamedWithTheChoices() {
        assertThatThrownBy(
                        () -> WorkerConfig.deploymentFromEnv(new Settings(Map.of("HEADWAY_WORKER_ROLE", "backfill"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("HEADWAY_WORKER_ROLE=backfill is not one of tail, history, all");
    }

    @Test
    void aTailWorkerPollsTheLeaseQueueAHistoryWorkerTheHistoryLeaseQueueAndAnAllWorkerBoth() {
        assertThat(HeadwayWorker.leaseQueues("q", Band.TAIL)).containsExactly("q-lease");
        assertThat(HeadwayWorker.leaseQueues("q", Band.HISTORY)).containsExactly("q-lease-history");
        assertThat(HeadwayWorker.leaseQueues("q", Band.ALL)).containsExactly("q-lease", "q-lease-history");
    }
}
