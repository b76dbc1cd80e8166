package headway.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.store.Holder;
import headway.store.LeaseLostException;
import headway.store.TestDatabase;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * 8 threads as 4 nodes lease, take over, heartbeat and finish the ranges of 20 groups with a TTL
 * short enough that slow holders are taken over. Every fenced write logs its epoch with a number
 * from the same sequence that numbers takes, so a write that landed after a newer take (a stale
 * write) shows up as a write numbered after a take of a higher epoch.
 */
class LeaseConcurrencyTest {

    private static final Duration TTL = Duration.ofMillis(250);
    private static final int GROUPS = 20;
    private static final int RANGES_PER_GROUP = 6;

    private static HikariDataSource ds;

    @BeforeAll
    static void database() {
        ds = TestDatabase.migrated("concurrency");
        TestDatabase.execute(
                ds, "create table test_writes (group_name text, epoch bigint, seq bigint, range_id bigint)");
    }

    @AfterAll
    static void close() {
        ds.close();
    }

    @Test
    void everyRangeIsDoneExactlyOnceAndNoStaleWriteLands() throws Exception {
        GroupStore groups = new GroupStore(ds);
        LeaseStore leases = new LeaseStore(ds, 0);
        RangeStore ranges = new RangeStore(ds, 0);
        for (int g = 0; g < GROUPS; g++) {
            groups.add("alt.binaries.c" + g, g % 3);
            groups.plan("alt.binaries.c" + g, 1, RANGES_PER_GROUP * 50L, 50, g % 2 == 0 ? -1 : 1);
        }
        Map<Long, AtomicInteger> finishes = new ConcurrentHashMap<>();
        AtomicInteger leaseLost = new AtomicInteger();
        AtomicInteger takeovers = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> threads = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        for (int t = 0; t < 8; t++) {
            String node = "node" + (t % 4);
            long seed = t;
            threads.add(pool.submit(() -> {
                Random random = new Random(seed);
                while (System.nanoTime() < deadline) {
                    Optional<LeaseOutcome> outcome = leases.leaseNext(node, TTL);
                    if (outcome.isEmpty()) {
                        if (allDone(groups)) {
                            return null;
                        }
                        Thread.sleep(20);
                        continue;
                    }
                    if (!outcome.get().granted()) {
                        continue;
                    }
                    if (outcome.get().takeover()) {
                        takeovers.incrementAndGet();
                    }
                    Holder holder = outcome.get().holder();
                    try {
                        work(leases, ranges, holder, random, finishes);
                        leases.release(holder);
                    } catch (LeaseLostException e) {
                        leaseLost.incrementAndGet();
                    }
                }
                throw new AssertionError("not all ranges were done within 90 s");
            }));
        }
        for (Future<?> f : threads) {
            f.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();

        assertThat(groups.list())
                .allSatisfy(g -> assertThat(groups.ranges(g.name()))
                        .allSatisfy(r -> assertThat(r.status()).isEqualTo("done")));
        assertThat(finishes).hasSize(GROUPS * RANGES_PER_GROUP);
        assertThat(finishes.values())
                .allSatisfy(n -> assertThat(n.get()).as("finished exactly once").isEqualTo(1));
        long staleWrites = TestDatabase.queryLong(ds, """
                select count(*) from test_writes w
                where exists (select 1 from lease_events e
                              where e.group_name = w.group_name and e.kind in ('take', 'takeover')
                                and e.epoch > w.epoch and e.id < w.seq)
                """);
        assertThat(staleWrites).isZero();
        assertThat(TestDatabase.queryLong(ds, "select count(*) from test_writes"))
                .isGreaterThan(GROUPS * RANGES_PER_GROUP);
        System.out.printf(
                "concurrency: takeovers=%d lease_lost=%d refused_writes=%d%n",
                takeovers.get(),
                leaseLost.get(),
                TestDatabase.queryLong(ds, "select count(*) from lease_events where kind = 'lease_lost'"));
        assertThat(takeovers.get() + leaseLost.get())
                .as("the run exercised takeovers")
                .isPositive();
    }

    /** Works through the group's ranges in a few fenced steps each, pausing past the TTL now and then. */
    private static void work(
            LeaseStore leases, RangeStore ranges, Holder holder, Random random, Map<Long, AtomicInteger> finishes)
            throws InterruptedException {
        for (int taken = 0; taken < 2; taken++) {
            Optional<RangeRow> next = ranges.nextRange(holder, null);
            if (next.isEmpty()) {
                return;
            }
            RangeRow range = next.get();
            for (long cursor = range.next(); cursor <= range.end(); cursor += 20) {
                long to = Math.min(range.end() + 1, cursor + 20);
                leases.fence().run(holder, "test write", c -> {
                    try (PreparedStatement s = c.prepareStatement(
                            "insert into test_writes values (?, ?, nextval('lease_events_id_seq'), ?)")) {
                        s.setString(1, holder.group());
                        s.setLong(2, holder.epoch());
                        s.setLong(3, range.id());
                        s.executeUpdate();
                    }
                    ranges.advance(c, holder, range.id(), to);
                    return null;
                });
                if (random.nextInt(12) == 0) {
                    Thread.sleep(TTL.toMillis() + 50);
                }
            }
            if (ranges.rangeDone(holder, range.id(), range.end() - range.start() + 1)) {
                finishes.computeIfAbsent(range.id(), id -> new AtomicInteger()).incrementAndGet();
            }
        }
    }

    private static boolean allDone(GroupStore groups) {
        return groups.list().stream()
                .allMatch(g -> groups.ranges(g.name()).stream()
                        .allMatch(r -> r.status().equals("done")));
    }
}
