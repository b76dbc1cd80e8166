package headway.activity;

import headway.coordination.LeaseStore;
import headway.store.LeaseLostException;
import headway.store.StoreException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a held group's database lease alive while an activity works on it (a fetch, a commit, a
 * snapshot): every third of the lease TTL (or of the activity's heartbeat timeout, when that is
 * shorter) it renews the lease through the fence and beats the
 * activity's Temporal heartbeat, so neither a slow fetch nor a long snapshot loses a live lease.
 * A refused renewal (another node took the group) is noted on the held group, and the work stops
 * at its next header or write with that LeaseLost, within one renewal period of the refusal plus
 * what the fetch in flight takes to drain. A failed renewal for another reason (the database is
 * unreachable) is logged and tried again at the next tick, because the lease outlives it by two
 * periods. One timer thread ticks for every group a worker holds, and each renewal runs on a
 * thread of its own from a pool, so a renewal that blocks (a lock wait, a slow database) delays no
 * other group's; a group whose renewal is still running skips its tick rather than queue a second.
 */
public final class LeaseKeeper {

    private static final Logger log = LoggerFactory.getLogger(LeaseKeeper.class);

    /** Renewals per TTL: three, so two may fail (a database blip) before the lease runs out. */
    static final int RENEWALS_PER_TTL = 3;

    /** Renews one holder's lease through the fence: {@link LeaseStore#renew}. */
    @FunctionalInterface
    interface Renewer {
        void renew(headway.store.Holder holder);
    }

    private final Renewer leases;
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(1, r -> {
        Thread t = new Thread(r, "lease-keeper");
        t.setDaemon(true);
        return t;
    });
    private final ExecutorService renewals = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "lease-renewal");
        t.setDaemon(true);
        return t;
    });

    public LeaseKeeper(LeaseStore leases) {
        this(Objects.requireNonNull(leases, "leases")::renew);
    }

    LeaseKeeper(Renewer renewer) {
        this.leases = Objects.requireNonNull(renewer, "renewer");
    }

    /** How often a lease of {@code ttl} is renewed while its group works: a third of it, at least 100 ms. */
    static Duration period(Duration ttl) {
        Duration third = ttl.dividedBy(RENEWALS_PER_TTL);
        return third.compareTo(Duration.ofMillis(100)) < 0 ? Duration.ofMillis(100) : third;
    }

    /**
     * How often a lease of {@code ttl} is renewed while an activity whose Temporal heartbeat
     * timeout is {@code heartbeatTimeout} works on it: {@link #period(Duration)}, or a third of
     * the heartbeat timeout when that is shorter (it follows the node TTL, which may be shorter
     * than the lease TTL), so the activity beats three times within its timeout. Zero means none.
     */
    static Duration period(Duration ttl, Duration heartbeatTimeout) {
        Duration byTtl = period(ttl);
        if (heartbeatTimeout == null || heartbeatTimeout.isZero()) {
            return byTtl;
        }
        Duration byBeat = period(heartbeatTimeout);
        return byBeat.compareTo(byTtl) < 0 ? byBeat : byTtl;
    }

    /**
     * Starts renewing {@code held}'s lease, and calling {@code beat} (the activity's Temporal
     * heartbeat) after every renewal that succeeded, until the returned handle is closed.
     */
    public Renewal keep(Holdings.Held held, Runnable beat) {
        return keep(held, Duration.ZERO, beat);
    }

    /** As {@link #keep(Holdings.Held, Runnable)}, often enough for an activity heartbeat timeout of {@code heartbeatTimeout}. */
    public Renewal keep(Holdings.Held held, Duration heartbeatTimeout, Runnable beat) {
        Objects.requireNonNull(beat, "beat");
        long every = period(held.ttl(), heartbeatTimeout).toMillis();
        AtomicBoolean running = new AtomicBoolean();
        AtomicBoolean stopped = new AtomicBoolean();
        ScheduledFuture<?> task = timer.scheduleAtFixedRate(
                () -> {
                    if (stopped.get() || !running.compareAndSet(false, true)) {
                        return; // stopped, or this group's last renewal still runs
                    }
                    try {
                        renewals.execute(() -> {
                            try {
                                if (!stopped.get() && !renew(held, beat)) {
                                    stopped.set(true);
                                }
                            } finally {
                                running.set(false);
                            }
                        });
                    } catch (RejectedExecutionException e) {
                        running.set(false);
                    }
                },
                every,
                every,
                TimeUnit.MILLISECONDS);
        return () -> {
            stopped.set(true);
            task.cancel(false);
        };
    }

    /** Renews once; false when the lease was lost, which ends the renewals. */
    private boolean renew(Holdings.Held held, Runnable beat) {
        try {
            leases.renew(held.holder());
            held.touch();
        } catch (LeaseLostException e) {
            log.warn("{}; stopping the work in flight", e.getMessage());
            held.lost(e);
            return false;
        } catch (StoreException e) {
            log.warn("renewing the lease of {} failed, trying again in one period: {}", held.holder(), e.getMessage());
            return true;
        }
        try {
            beat.run();
        } catch (RuntimeException e) {
            log.debug("heartbeat of {} failed: {}", held.holder(), e.toString());
        }
        return true;
    }

    /** A running renewal; closing it stops the renewals (a renewal already running finishes). */
    @FunctionalInterface
    public interface Renewal extends AutoCloseable {
        @Override
        void close();
    }
}
