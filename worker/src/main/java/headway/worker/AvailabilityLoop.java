package headway.worker;

import headway.activity.AvailabilityChecker;
import headway.coordination.NodeRegistry;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks new releases' availability in the background, on one node of the fleet at a time: the
 * live node with the smallest id, because every node would otherwise STAT the same releases (a
 * check is an upsert, so two nodes that both believe they lead for a TTL only repeat work). A round
 * that fails is logged and the next one tries again.
 */
final class AvailabilityLoop implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AvailabilityLoop.class);

    /** Releases one round checks. */
    static final int ROUND = 50;

    private final ScheduledExecutorService timer;
    private final ScheduledFuture<?> rounds;

    private AvailabilityLoop(ScheduledExecutorService timer, ScheduledFuture<?> rounds) {
        this.timer = timer;
        this.rounds = rounds;
    }

    static AvailabilityLoop start(AvailabilityChecker checker, NodeRegistry registry, Duration every) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "headway-availability");
            t.setDaemon(true);
            return t;
        });
        ScheduledFuture<?> rounds = timer.scheduleWithFixedDelay(
                () -> round(checker, registry), every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
        return new AvailabilityLoop(timer, rounds);
    }

    private static void round(AvailabilityChecker checker, NodeRegistry registry) {
        try {
            boolean leads = registry.peers().stream().noneMatch(n -> n.id().compareTo(registry.nodeId()) < 0);
            if (leads) {
                int n = checker.checkDue(ROUND);
                if (n > 0) {
                    log.info("checked the availability of {} releases", n);
                }
            }
        } catch (RuntimeException e) {
            log.warn("availability round failed, trying again next round: {}", e.toString());
        }
    }

    @Override
    public void close() {
        rounds.cancel(true);
        timer.shutdownNow();
    }
}
