package headway.workflow;

import headway.activity.Failures;
import headway.activity.GroupActivities;
import headway.activity.GroupOutlook;
import headway.activity.HolderToken;
import headway.activity.IndexProgress;
import headway.activity.LeaseActivities;
import headway.activity.LeaseGrant;
import headway.activity.NextRange;
import headway.activity.RangeLease;
import headway.activity.RangeResult;
import headway.activity.SnapshotInfo;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.failure.ApplicationFailure;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One group's ranges, cursor and lease epoch in memory, with the store's semantics: a lease bumps
 * the epoch and hands leased ranges back at their cursor, nextRange returns the leased range or
 * the lowest planned one, a stale epoch is refused with LeaseLost, and indexRange moves the cursor
 * article by article, heartbeating its progress and resuming from the last heartbeat on retry.
 * Every tenth article is missing on the "server". Hooks make calls fail or wait.
 */
final class FakeGroupStore {

    /** A worker that may be granted the lease: its node id and its own task queue. */
    record Node(String id, String taskQueue) {}

    /** One indexRange attempt: the cursor it started from, and the heartbeat cursor it found (null on a first attempt). */
    record Attempt(long rangeId, long epoch, int attempt, long startedFrom, Long heartbeatCursor) {}

    private static final class Range {
        final long id;
        final long start;
        final long end;
        long next;
        String status = "planned";
        long epoch;

        Range(long id, long start, long end) {
            this.id = id;
            this.start = start;
            this.end = end;
            this.next = start;
        }

        long remaining() {
            return Math.max(0, end - next + 1);
        }
    }

    final String group;
    private final List<Range> ranges = new ArrayList<>();
    private final List<Node> nodes;
    private long epoch;
    private String holder;
    private Long snapshotNext;
    private int refusals;

    private final List<String> calls = new ArrayList<>();
    private final List<Long> indexed = new ArrayList<>();
    private final List<Attempt> attempts = new ArrayList<>();
    private final List<Long> grantedEpochs = new ArrayList<>();

    private final Map<Long, Long> failOnceAt = new HashMap<>();
    private final Map<Long, Long> stealAt = new HashMap<>();
    private final Set<Long> fired = new HashSet<>();
    private volatile boolean failEveryIndex;
    private volatile boolean newsServerFailsEveryIndex;
    private final Map<Long, CountDownLatch> gates = new HashMap<>();
    private final Map<Long, CountDownLatch> entered = new HashMap<>();

    FakeGroupStore(String group, Node... nodes) {
        this.group = group;
        this.nodes = new ArrayList<>(List.of(nodes));
    }

    /** Plans {@code count} ranges of {@code size} articles from {@code first}. */
    synchronized FakeGroupStore plan(long first, int count, long size) {
        for (int i = 0; i < count; i++) {
            long start = first + i * size;
            ranges.add(new Range(ranges.size() + 1, start, start + size - 1));
        }
        return this;
    }

    synchronized void refuseNextLeases(int count) {
        refusals = count;
    }

    synchronized void failOnceAt(long rangeId, long article) {
        failOnceAt.put(rangeId, article);
    }

    synchronized void stealLeaseAt(long rangeId, long article) {
        stealAt.put(rangeId, article);
    }

    void failEveryIndex(boolean fail) {
        failEveryIndex = fail;
    }

    /** Every indexRange fails as the real one does when the news server breaks a reply bound. */
    void newsServerFailsEveryIndex(boolean fail) {
        newsServerFailsEveryIndex = fail;
    }

    /** indexRange of this range waits until {@link #open(long)}. */
    synchronized void gate(long rangeId) {
        gates.put(rangeId, new CountDownLatch(1));
        entered.put(rangeId, new CountDownLatch(1));
    }

    void awaitEntered(long rangeId) throws InterruptedException {
        CountDownLatch latch;
        synchronized (this) {
            latch = entered.get(rangeId);
        }
        if (!latch.await(30, TimeUnit.SECONDS)) {
            throw new AssertionError("range " + rangeId + " was never indexed");
        }
    }

    void open(long rangeId) {
        CountDownLatch latch;
        synchronized (this) {
            latch = gates.get(rangeId);
        }
        latch.countDown();
    }

    synchronized List<String> calls() {
        return List.copyOf(calls);
    }

    synchronized List<Long> indexed() {
        return List.copyOf(indexed);
    }

    synchronized List<Attempt> attempts() {
        return List.copyOf(attempts);
    }

    synchronized List<Long> grantedEpochs() {
        return List.copyOf(grantedEpochs);
    }

    synchronized long doneRanges() {
        return ranges.stream().filter(r -> r.status.equals("done")).count();
    }

    synchronized long articles() {
        return ranges.stream().mapToLong(r -> r.end - r.start + 1).sum();
    }

    synchronized String holder() {
        return holder;
    }

    synchronized long epoch() {
        return epoch;
    }

    synchronized long callCount(String prefix) {
        return calls.stream().filter(c -> c.startsWith(prefix)).count();
    }

    LeaseActivities leaseActivities() {
        return new LeaseActivities() {
            @Override
            public GroupOutlook outlook(String name) {
                return FakeGroupStore.this.outlook(name);
            }

            @Override
            public LeaseGrant lease(String name, java.time.Duration ttl) {
                return FakeGroupStore.this.lease(name);
            }
        };
    }

    GroupActivities groupActivities() {
        return new GroupActivities() {
            @Override
            public NextRange nextRange(HolderToken token) {
                return FakeGroupStore.this.nextRange(token);
            }

            @Override
            public RangeResult indexRange(HolderToken token, RangeLease range, boolean snapshotAfter) {
                return FakeGroupStore.this.indexRange(token, range, snapshotAfter);
            }

            @Override
            public SnapshotInfo putSnapshot(HolderToken token) {
                return FakeGroupStore.this.putSnapshot(token);
            }

            @Override
            public void release(HolderToken token) {
                FakeGroupStore.this.release(token);
            }
        };
    }

    /** The urgency the outlook reports for planned work: -1 (tail) unless a test says history. */
    private int urgency = -1;

    /** Reports planned work as history (urgency 1) or tail (-1) from now on. */
    synchronized FakeGroupStore history(boolean history) {
        urgency = history ? 1 : -1;
        return this;
    }

    private synchronized GroupOutlook outlook(String name) {
        checkGroup(name);
        int planned =
                (int) ranges.stream().filter(r -> !r.status.equals("done")).count();
        calls.add("outlook " + planned);
        return new GroupOutlook(
                group, true, planned, lag(), planned == 0 ? null : urgency, planned == 0 ? 0 : urgency < 0 ? 1 : 3);
    }

    private synchronized LeaseGrant lease(String name) {
        checkGroup(name);
        if (refusals > 0) {
            refusals--;
            calls.add("lease refused");
            return LeaseGrant.refused("node-elsewhere");
        }
        Node node = nodes.size() > 1 ? nodes.remove(0) : nodes.get(0);
        long replanned = 0;
        for (Range r : ranges) {
            if (r.status.equals("leased")) {
                r.status = "planned";
                replanned++;
            }
        }
        String previous = holder;
        epoch++;
        holder = node.id();
        grantedEpochs.add(epoch);
        calls.add("lease " + epoch + " " + node.id());
        return new LeaseGrant(
                true,
                new HolderToken(group, node.id(), epoch, node.taskQueue()),
                null,
                previous != null,
                previous,
                snapshotNext,
                replanned,
                null);
    }

    private synchronized NextRange nextRange(HolderToken token) {
        fence(token);
        Range range = ranges.stream()
                .filter(r -> r.status.equals("leased") && r.epoch == token.epoch())
                .findFirst()
                .orElseGet(() -> ranges.stream()
                        .filter(r -> r.status.equals("planned"))
                        .min(Comparator.comparingLong(r -> r.start))
                        .orElse(null));
        if (range == null) {
            calls.add("next none");
            return new NextRange(null, 0);
        }
        range.status = "leased";
        range.epoch = token.epoch();
        calls.add("next " + range.id);
        return new NextRange(new RangeLease(range.id, group, range.start, range.end, range.next, -1, 1), lag());
    }

    private RangeResult indexRange(HolderToken token, RangeLease lease, boolean snapshotAfter) {
        ActivityExecutionContext context = Activity.getExecutionContext();
        Optional<IndexProgress> details = context.getHeartbeatDetails(IndexProgress.class);
        long from = details.map(IndexProgress::cursor).orElse(lease.next());
        long headers = details.map(IndexProgress::headers).orElse(0L);
        long missed = details.map(IndexProgress::missing).orElse(0L);
        CountDownLatch gate;
        synchronized (this) {
            fence(token);
            attempts.add(new Attempt(
                    lease.id(),
                    token.epoch(),
                    context.getInfo().getAttempt(),
                    from,
                    details.map(IndexProgress::cursor).orElse(null)));
            calls.add("index " + lease.id() + " from " + from);
            gate = gates.get(lease.id());
            CountDownLatch in = entered.get(lease.id());
            if (in != null) {
                in.countDown();
            }
        }
        if (gate != null) {
            await(gate);
        }
        if (failEveryIndex) {
            throw new IllegalStateException("injected: the news server refuses every fetch");
        }
        if (newsServerFailsEveryIndex) {
            throw ApplicationFailure.newFailure(
                    "injected: nntp://news.test:119 broke the line count bound on OVER " + from + "-" + lease.end(),
                    Failures.NEWS_SERVER);
        }
        for (long article = from; article <= lease.end(); article++) {
            synchronized (this) {
                Long steal = stealAt.get(lease.id());
                if (steal != null && steal == article && fired.add(-lease.id())) {
                    epoch++;
                    holder = "node-thief";
                    calls.add("stolen " + epoch);
                }
                fence(token);
                Long fail = failOnceAt.get(lease.id());
                if (fail != null && fail == article && fired.add(lease.id())) {
                    throw new IllegalStateException("injected: connection reset at article " + article);
                }
                if (article % 10 == 0) {
                    missed++;
                } else {
                    headers++;
                }
                indexed.add(article);
                range(lease.id()).next = article + 1;
            }
            context.heartbeat(new IndexProgress(lease.id(), article + 1, headers, missed, 0));
        }
        synchronized (this) {
            range(lease.id()).status = "done";
            calls.add("done " + lease.id());
        }
        SnapshotInfo snapshot = snapshotAfter ? putSnapshot(token) : null;
        NextRange next = nextRange(token);
        return new RangeResult(lease.id(), lease.end() + 1, headers, missed, 0, 0, snapshot, next.range(), next.lag());
    }

    private synchronized SnapshotInfo putSnapshot(HolderToken token) {
        fence(token);
        long next = indexed.isEmpty() ? 0 : indexed.get(indexed.size() - 1) + 1;
        snapshotNext = next;
        calls.add("snapshot " + next);
        return new SnapshotInfo(next, 1024, "2026-01-01T00:00:00Z");
    }

    private synchronized void release(HolderToken token) {
        fence(token);
        for (Range r : ranges) {
            if (r.status.equals("leased")) {
                r.status = "planned";
            }
        }
        holder = null;
        calls.add("release " + token.epoch());
    }

    private void fence(HolderToken token) {
        if (token.epoch() != epoch) {
            calls.add("lease lost " + token.epoch());
            throw ApplicationFailure.newNonRetryableFailure(
                    "epoch " + token.epoch() + " is stale; " + holder + " holds " + group + " at epoch " + epoch,
                    Failures.LEASE_LOST);
        }
    }

    private void checkGroup(String name) {
        if (!group.equals(name)) {
            throw ApplicationFailure.newNonRetryableFailure(
                    "unknown group " + name + ": add it first", Failures.BAD_INPUT);
        }
    }

    private Range range(long id) {
        return ranges.stream().filter(r -> r.id == id).findFirst().orElseThrow();
    }

    private long lag() {
        return ranges.stream()
                .filter(r -> !r.status.equals("done"))
                .mapToLong(Range::remaining)
                .sum();
    }

    private static void await(CountDownLatch gate) {
        try {
            if (!gate.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("gate never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
