package headway.worker;

import headway.coordination.NodeRegistry;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Renews this node's registry row on a background thread; a failed beat is logged and the next one tried. */
public final class NodeHeartbeat implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NodeHeartbeat.class);

    private final NodeRegistry registry;
    private final ScheduledExecutorService timer;
    private final ScheduledFuture<?> beats;

    private NodeHeartbeat(NodeRegistry registry, ScheduledExecutorService timer, ScheduledFuture<?> beats) {
        this.registry = registry;
        this.timer = timer;
        this.beats = beats;
    }

    /** Registers the node (explicitly, before anything else runs) and beats every {@code interval}. */
    public static NodeHeartbeat start(NodeRegistry registry, Duration interval) {
        return start(registry, interval, () -> {});
    }

    /** As {@link #start(NodeRegistry, Duration)}, running {@code afterBeat} after every beat (the worker rechecks its share of the fleet). */
    public static NodeHeartbeat start(NodeRegistry registry, Duration interval, Runnable afterBeat) {
        registry.register();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "node-heartbeat");
            t.setDaemon(true);
            return t;
        });
        ScheduledFuture<?> beats = timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        registry.heartbeat();
                        afterBeat.run();
                    } catch (RuntimeException e) {
                        log.warn(
                                "node {}: heartbeat failed, trying again in {}: {}",
                                registry.nodeId(),
                                interval,
                                e.getMessage());
                    }
                },
                interval.toMillis(),
                interval.toMillis(),
                TimeUnit.MILLISECONDS);
        return new NodeHeartbeat(registry, timer, beats);
    }

    /**
     * Stops beating and deletes the row, so peers see the node leave at once. Waits for a beat in
     * flight first, because its upsert committing after the delete would put the row back (seen
     * once in MembershipTest: the row outlived the worker).
     */
    @Override
    public void close() {
        beats.cancel(false);
        timer.shutdownNow();
        try {
            if (!timer.awaitTermination(5, TimeUnit.SECONDS)) {
                log.warn("node {}: a heartbeat is still running; deregistering anyway", registry.nodeId());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            registry.deregister();
            log.info("node {} left the registry", registry.nodeId());
        } catch (RuntimeException e) {
            log.warn(
                    "node {}: deregistering failed; the row expires after the TTL: {}",
                    registry.nodeId(),
                    e.getMessage());
        }
    }
}
