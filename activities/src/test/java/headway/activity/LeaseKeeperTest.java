package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import headway.catalog.CatalogStore;
import headway.coordination.Band;
import headway.coordination.GroupStore;
import headway.coordination.LeaseOutcome;
import headway.coordination.LeaseStore;
import headway.coordination.PostgresSnapshotStore;
import headway.coordination.RangeRow;
import headway.coordination.RangeStore;
import headway.index.RuleSet;
import headway.nntp.GroupInfo;
import headway.nntp.OverviewSink;
import headway.overview.OverviewLine;
import headway.store.LeaseLostException;
import headway.store.TestDatabase;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A holder's database lease lives while it works, on a real PostgreSQL: a fetch that takes three
 * TTLs keeps the lease (another node's take is refused) and beats its heartbeat, and a renewal
 * refused after a takeover stops a slow fetch within one renewal period, writing nothing.
 */
class LeaseKeeperTest {

    private static final String GROUP = "alt.binaries.keeper";
    private static final Duration TTL = Duration.ofSeconds(1);

    private static HikariDataSource ds;
    private static LeaseStore leases;
    private static RangeStore ranges;
    private static GroupStore groups;

    @BeforeAll
    static void database() {
        ds = TestDatabase.migrated("keeper");
        leases = new LeaseStore(ds, 0);
        ranges = new RangeStore(ds, 0);
        groups = new GroupStore(ds);
    }

    @AfterAll
    static void close() {
        ds.close();
    }

    @BeforeEach
    void oneGroup() {
        TestDatabase.execute(ds, "truncate groups, nodes, lease_events, clock_skew cascade");
        groups.add(GROUP, 0);
        groups.plan(GROUP, 1, 100, 100, -1);
    }

    @Test
    void renewsEveryThirdOfTheTtl() {
        assertThat(LeaseKeeper.period(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(10));
        assertThat(LeaseKeeper.period(Duration.ofMillis(150))).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void beatsThreeTimesWithinAHeartbeatTimeoutShorterThanTheTtl() {
        assertThat(LeaseKeeper.period(Duration.ofSeconds(30), Duration.ofMillis(7_500)))
                .as("a heartbeat timeout that follows a 15 s node TTL")
                .isEqualTo(Duration.ofMillis(2_500));
        assertThat(LeaseKeeper.period(Duration.ofSeconds(30), Duration.ofSeconds(15)))
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(LeaseKeeper.period(Duration.ofSeconds(30), Duration.ofMinutes(1)))
                .isEqualTo(Duration.ofSeconds(10));
        assertThat(LeaseKeeper.period(Duration.ofSeconds(30), Duration.ZERO))
                .as("no heartbeat timeout")
                .isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void aRenewalThatBlocksDelaysNoOtherGroupsRenewals() throws Exception {
        groups.add("alt.binaries.stuck", 0);
        groups.plan("alt.binaries.stuck", 1, 100, 100, -1);
        Holdings.Held stuck = take("n1", "alt.binaries.stuck");
        Holdings.Held free = take("n1");
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        AtomicInteger stuckCalls = new AtomicInteger();
        AtomicInteger freeBeats = new AtomicInteger();
        LeaseKeeper keeper = new LeaseKeeper(holder -> {
            if (holder.group().equals("alt.binaries.stuck")) {
                stuckCalls.incrementAndGet();
                try {
                    release.await(); // a renewal waiting on a lock that is not released
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        try (LeaseKeeper.Renewal a = keeper.keep(stuck, () -> {});
                LeaseKeeper.Renewal b = keeper.keep(free, freeBeats::incrementAndGet)) {
            Thread.sleep(LeaseKeeper.period(TTL).toMillis() * 6);
            assertThat(freeBeats.get()).as("the other group renews on time").isGreaterThanOrEqualTo(4);
            assertThat(stuckCalls.get())
                    .as("the blocked group's ticks do not queue up")
                    .isEqualTo(1);
        } finally {
            release.countDown();
        }
    }

    @Test
    void aFetchLongerThanTheTtlKeepsItsLease() throws Exception {
        Holdings.Held held = take("n1");
        AtomicReference<LeaseOutcome> rival = new AtomicReference<>();
        SlowSource source = new SlowSource(Duration.ofMillis(150), article -> {
            if (article == 20) {
                rival.set(leases.lease(GROUP, "n2", TTL));
            }
        });
        AtomicInteger beats = new AtomicInteger();
        RangeRow range = ranges.nextRange(held.holder(), 0).orElseThrow();
        RangeRow first20 = new RangeRow(range.id(), GROUP, 1, 20, 1, "leased", -1, "n1", 1, 0);

        RangeIndexer.Outcome outcome;
        try (LeaseKeeper.Renewal renewal = new LeaseKeeper(leases).keep(held, beats::incrementAndGet)) {
            outcome = indexer(source).index(held, first20, 1, 0, 0, 0, (c, h, m, x) -> {});
        }

        assertThat(rival.get().granted())
                .as("a take 3 s into a 1 s lease is refused")
                .isFalse();
        assertThat(rival.get().heldBy()).isEqualTo("n1");
        assertThat(outcome.cursor()).isEqualTo(21);
        assertThat(beats.get()).as("heartbeats during the fetch").isGreaterThanOrEqualTo(6);
    }

    @Test
    void aRefusedRenewalStopsASlowFetchWithinOneHeartbeat() throws Exception {
        Holdings.Held held = take("n1");
        RangeRow range = ranges.nextRange(held.holder(), 0).orElseThrow();
        AtomicReference<Long> takenAt = new AtomicReference<>();
        SlowSource source = new SlowSource(Duration.ofMillis(50), article -> {
            if (article == 5) {
                TestDatabase.setClockSkew(ds, TTL.plusSeconds(1));
                assertThat(leases.lease(GROUP, "n2", TTL).granted()).isTrue();
                TestDatabase.setClockSkew(ds, Duration.ZERO);
                takenAt.set(System.nanoTime());
            }
        });

        try (LeaseKeeper.Renewal renewal = new LeaseKeeper(leases).keep(held, () -> {})) {
            assertThatThrownBy(() -> indexer(source).index(held, range, 1, 0, 0, 0, (c, h, m, x) -> {}))
                    .isInstanceOf(LeaseLostException.class)
                    .hasMessageContaining("current holder n2");
        }
        Duration stoppedAfter = Duration.ofNanos(System.nanoTime() - takenAt.get());

        assertThat(stoppedAfter)
                .as("stopped within one renewal period (333 ms) and one article")
                .isLessThan(LeaseKeeper.period(TTL).plusMillis(250));
        assertThat(source.served.get())
                .as("the fetch of 100 articles stopped early")
                .isLessThan(30);
        assertThat(ranges.cursor(range.id())).as("nothing committed").isEqualTo(1);
        assertThat(TestDatabase.queryLong(
                        ds, "select count(*) from lease_events where kind = 'lease_lost' and node_id = 'n1'"))
                .as("the refused renewal is recorded")
                .isEqualTo(1);
    }

    private static Holdings.Held take(String node) {
        return take(node, GROUP);
    }

    private static Holdings.Held take(String node, String group) {
        Holdings holdings = new Holdings(1);
        LeaseActivitiesImpl activities = new LeaseActivitiesImpl(
                leases,
                new PostgresSnapshotStore(ds, leases),
                holdings,
                () -> RuleSet.defaults(0),
                node,
                "own/" + node,
                Duration.ofSeconds(30),
                1000,
                IndexMetrics.discard(holdings),
                ConflictReporter.NONE,
                Band.ALL);
        LeaseGrant grant = activities.lease(group, TTL);
        assertThat(grant.granted()).isTrue();
        Holdings.Held held = holdings.get(group, grant.token().epoch()).orElseThrow();
        assertThat(held.ttl()).as("the workflow's TTL, not the worker's").isEqualTo(TTL);
        return held;
    }

    private static RangeIndexer indexer(HeaderSource source) {
        return new RangeIndexer(
                source, leases.fence(), ranges, new CatalogStore(), 100, IndexMetrics.discard(new Holdings(1)));
    }

    /** Serves one header per {@code delay}, as a slow news server does, calling {@code before} before each. */
    private static final class SlowSource implements HeaderSource {
        interface Hook {
            void before(long article);
        }

        private final Duration delay;
        private final Hook before;
        final AtomicInteger served = new AtomicInteger();

        SlowSource(Duration delay, Hook before) {
            this.delay = delay;
            this.before = before;
        }

        @Override
        public void fetch(String group, long from, long to, OverviewSink sink) throws IOException {
            for (long a = from; a <= to; a++) {
                before.before(a);
                try {
                    Thread.sleep(delay.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
                served.incrementAndGet();
                sink.header(new OverviewLine(
                        a,
                        "post [1/1] - \"f" + a + ".bin\" yEnc (1/1)",
                        "p@x",
                        "Wed, 02 Dec 2026 17:17:02 +0000",
                        "<" + a + "@x>",
                        "",
                        1000,
                        10,
                        ""));
            }
        }

        @Override
        public GroupInfo group(String group) {
            throw new UnsupportedOperationException();
        }
    }
}
