package headway.activity;

import headway.index.RuleSet;
import headway.index.Window;
import headway.store.Holder;
import headway.store.LeaseLostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The groups this worker holds, with their windows in memory, bounded by the worker's capacity.
 * The bound is the smaller of the capacity and the worker's share of the live fleet, when one is
 * set. A held group is keyed by its lease epoch: an activity that names another epoch finds no window
 * (WindowLost), so two leases of one group never share a window.
 */
public final class Holdings {

    /**
     * One held group: its lease, the lease's TTL, its window and the cursor the window has seen up
     * to (exclusive; -1 before the first range). A refused lease renewal is noted here, so the work
     * in flight (a fetch feeding the window) stops at its next header instead of at its next write.
     */
    public static final class Held {
        final Holder holder;
        final Window window;
        final RuleSet rules;
        final Duration ttl;
        volatile long cursor;
        private volatile LeaseLostException lost;
        /** When an activity last asked for this window or its lease was last renewed (System.nanoTime). */
        private volatile long touchedAt = System.nanoTime();

        Held(Holder holder, Window window, RuleSet rules, long cursor, Duration ttl) {
            this.holder = holder;
            this.window = window;
            this.rules = rules;
            this.cursor = cursor;
            this.ttl = ttl;
        }

        /** The lease TTL the group was taken with: the database lease and the workflow's timeouts both use it. */
        public Duration ttl() {
            return ttl;
        }

        /** Notes that the group is being worked on: an activity asked for the window, or the lease was renewed. */
        void touch() {
            touchedAt = System.nanoTime();
        }

        /**
         * Whether no activity has asked for the window, and the lease has not been renewed, for
         * longer than the lease TTL: the database lease has expired, and the workflow has left this
         * epoch (its holder calls wait at most one TTL to start), so the window only holds a slot.
         */
        boolean abandoned(long now) {
            return now - touchedAt > ttl.toNanos();
        }

        /** Notes that a renewal was refused: the lease is lost and no more work may be done for it. */
        void lost(LeaseLostException e) {
            lost = e;
        }

        /** Throws the refused renewal's LeaseLost, if there was one. */
        void checkLease() {
            LeaseLostException e = lost;
            if (e != null) {
                throw e;
            }
        }

        public Holder holder() {
            return holder;
        }

        public Window window() {
            return window;
        }

        public long cursor() {
            return cursor;
        }
    }

    /** The lease TTL of a group put without one (tools and tests): HEADWAY_LEASE_TTL's default. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

    private final int capacity;
    private final Map<String, Held> held = new ConcurrentHashMap<>();
    private volatile java.util.function.IntConsumer onChange = size -> {};
    private volatile java.util.function.IntSupplier share = () -> Integer.MAX_VALUE;
    private volatile java.util.function.Consumer<Held> onAbandoned = h -> {};

    public Holdings(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, was " + capacity);
        }
        this.capacity = capacity;
    }

    public int capacity() {
        return capacity;
    }

    public int size() {
        return held.size();
    }

    /** Calls {@code listener} with the number of held groups now and after every change (the worker pauses leasing when full). */
    public void onChange(java.util.function.IntConsumer listener) {
        this.onChange = listener;
        listener.accept(held.size());
    }

    /**
     * Bounds this worker's groups by {@code share} as well as its capacity (the worker's share of
     * the live fleet, {@link FleetShare}); the share may throw when it cannot be known.
     */
    public void sharedBy(java.util.function.IntSupplier share) {
        this.share = java.util.Objects.requireNonNull(share, "share");
    }

    /** How many groups this worker may hold now: its capacity, or its share of the fleet when that is less. */
    public int limit() {
        return Math.min(capacity, share.getAsInt());
    }

    /** Calls the change listener again, because the limit may have moved (the fleet changed) without a held group changing. */
    public void recheck() {
        dropAbandoned();
        onChange.accept(held.size());
    }

    public boolean full() {
        dropAbandoned();
        return held.size() >= limit();
    }

    /**
     * Drops the windows no activity has asked for, and whose lease has not been renewed, for
     * longer than their lease TTL (see {@link Held#abandoned}): a holding cycle that ended without
     * a release (its attempts ran out, its calls timed out) would otherwise keep a slot for good.
     * Run on every room check and on the node heartbeat's recheck, so a worker that stopped
     * leasing because it was full starts again.
     */
    private synchronized void dropAbandoned() {
        long now = System.nanoTime();
        List<Held> dropped = new ArrayList<>();
        held.values().removeIf(h -> {
            boolean abandoned = h.abandoned(now);
            if (abandoned) {
                dropped.add(h);
            }
            return abandoned;
        });
        if (!dropped.isEmpty()) {
            dropped.forEach(onAbandoned);
            onChange.accept(held.size());
            notifyAll();
        }
    }

    /**
     * Calls {@code listener} with every window dropped as abandoned, under this object's lock: it
     * must only hand the work on (GroupActivitiesImpl hands the group back through the fence on a
     * thread of its own).
     */
    public void onAbandoned(java.util.function.Consumer<Held> listener) {
        this.onAbandoned = java.util.Objects.requireNonNull(listener, "listener");
    }

    /**
     * Waits up to {@code limit} until this worker may take {@code group}; false when it is still
     * full. Looks again when a group is let go and at least every {@link #ROOM_RECHECK}, because
     * the share moves without a held group changing (groups started, peers gone).
     */
    public synchronized boolean awaitRoomFor(String group, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!hasRoomFor(group)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, ROOM_RECHECK.toNanos()));
        }
        return true;
    }

    /** How often a wait for room looks at the limit again when nothing was let go. */
    static final Duration ROOM_RECHECK = Duration.ofMillis(250);

    /** Whether this worker may take {@code group}: it holds it already, or has room for one more. */
    public synchronized boolean hasRoomFor(String group) {
        dropAbandoned();
        return held.containsKey(group) || held.size() < limit();
    }

    /** Keeps the window of a newly taken group; a window of an older lease of it is dropped. */
    public void put(Holder holder, Window window, RuleSet rules, long cursor) {
        put(holder, window, rules, cursor, DEFAULT_TTL);
    }

    /** Keeps the window of a newly taken group, taken with a lease of {@code ttl}; a window of an older lease of it is dropped. */
    public synchronized void put(Holder holder, Window window, RuleSet rules, long cursor, Duration ttl) {
        held.put(holder.group(), new Held(holder, window, rules, cursor, ttl));
        onChange.accept(held.size());
    }

    /** The group's window if this worker holds it at exactly that epoch; asking for it counts as work on it. */
    public Optional<Held> get(String group, long epoch) {
        Held h = held.get(group);
        if (h == null || h.holder.epoch() != epoch) {
            return Optional.empty();
        }
        h.touch();
        return Optional.of(h);
    }

    /** Drops the group's window if it is of that epoch. */
    public synchronized void remove(String group, long epoch) {
        held.computeIfPresent(group, (g, h) -> h.holder.epoch() == epoch ? null : h);
        onChange.accept(held.size());
        notifyAll();
    }

    public List<Held> all() {
        return List.copyOf(held.values());
    }
}
