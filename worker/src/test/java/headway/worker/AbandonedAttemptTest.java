package headway.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import headway.activity.ConflictReporter;
import headway.activity.Failures;
import headway.activity.GroupActivities;
import headway.activity.GroupActivitiesImpl;
import headway.activity.HeaderSource;
import headway.activity.Holdings;
import headway.activity.IndexMetrics;
import headway.activity.LeaseActivitiesImpl;
import headway.activity.LeaseGrant;
import headway.activity.NntpHeaderSource;
import headway.activity.RangeIndexer;
import headway.activity.RangeLease;
import headway.catalog.CatalogStore;
import headway.coordination.Band;
import headway.coordination.GroupStore;
import headway.coordination.LeaseStore;
import headway.coordination.PostgresSnapshotStore;
import headway.coordination.RangeStore;
import headway.index.RuleSet;
import headway.nntp.GroupInfo;
import headway.nntp.NntpPool;
import headway.nntp.OverviewSink;
import headway.nntp.Simulators;
import headway.simulator.NewsSimulator;
import headway.store.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestActivityEnvironment;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An index attempt the workflow abandoned (here: cancelled; in production mostly a heartbeat that
 * timed out while the JVM was paused) stops between batches and hands the group back at its
 * cursor, freeing the worker's slot, so the next take starts at once instead of after the TTL.
 * An attempt that fails after another node took its group (a worker that woke from a pause, its
 * transaction or connection ended meanwhile) ends in a refused, recorded LeaseLost, not in the
 * failure it happened to meet first.
 */
class AbandonedAttemptTest {

    private static final String GROUP = "alt.binaries.abandoned";
    private static final String ZOMBIE = "alt.binaries.abandoned.zombie";
    private static final Duration TTL = Duration.ofSeconds(30);

    private static HikariDataSource ds;
    private static NewsSimulator sim;
    private static NntpPool pool;

    @BeforeAll
    static void start() throws Exception {
        ds = TestDatabase.migrated("abandoned");
        sim = NewsSimulator.start(
                NewsSimulator.Options.defaults().withOverLatency(Duration.ofMillis(40)),
                List.of(NewsSimulator.GroupSpec.of(GROUP, 5, 20_000), NewsSimulator.GroupSpec.of(ZOMBIE, 5, 20_000)));
        pool = new NntpPool(NntpPool.Config.defaults(Simulators.server(sim)).withMaxConnections(2));
    }

    @AfterAll
    static void stop() {
        pool.close();
        sim.close();
        ds.close();
    }

    @Test
    void anAttemptThatFailsAfterATakeoverEndsInARecordedLeaseLost() throws Exception {
        String group = ZOMBIE;
        N1 n1 = new N1(TTL);
        n1.plan(group, 20_000);
        LeaseGrant grant = n1.leasing.lease(group, TTL);
        RangeStore ranges = n1.ranges;
        NntpHeaderSource news = new NntpHeaderSource(pool);
        // the second batch's fetch finds the group taken by n2 (n1 was quiet past the TTL, as a
        // frozen worker is) and then fails, as a connection the pause outlived does
        HeaderSource takenThenBroken = new HeaderSource() {
            @Override
            public void fetch(String g, long from, long to, OverviewSink sink) throws IOException {
                if (from == 1) {
                    news.fetch(g, from, to, sink);
                    return;
                }
                awaitCursor(g, from);
                TestDatabase.execute(
                        ds,
                        "update group_leases set heartbeat_at = heartbeat_at - interval '1 hour' where group_name = '"
                                + g + "'");
                assertThat(new LeaseStore(ds, 0).lease(g, "n2", TTL).takeover()).isTrue();
                throw new IOException("connection reset");
            }

            @Override
            public GroupInfo group(String g) throws IOException {
                return news.group(g);
            }
        };
        TestActivityEnvironment env = TestActivityEnvironment.newInstance();
        env.registerActivitiesImplementations(n1.activities(takenThenBroken, 1));
        GroupActivities activities = oneAttempt(env);
        RangeLease range = activities.nextRange(grant.token()).range();

        assertThatThrownBy(() -> activities.indexRange(grant.token(), range, false))
                .isInstanceOf(ActivityFailure.class)
                .cause()
                .isInstanceOfSatisfying(
                        ApplicationFailure.class, f -> assertThat(f.getType()).isEqualTo(Failures.LEASE_LOST));
        assertThat(TestDatabase.queryLong(
                        ds,
                        "select count(*) from lease_events where kind = 'lease_lost' and node_id = 'n1'"
                                + " and other_node = 'n2' and group_name = '" + group + "'"))
                .as("the stale holder's check was refused and recorded")
                .isEqualTo(1);
        assertThat(n1.holdings.size()).as("the stale window is dropped").isZero();
        assertThat(ranges.cursor(range.id()))
                .as("the first batch stayed committed")
                .isEqualTo(101);
        env.close();
    }

    @Test
    void aCallThatFindsNoWindowHandsTheGroupBackOrIsRefusedWhenItWasTaken() {
        String group = GROUP + ".dropped";
        N1 n1 = new N1(TTL);
        n1.plan(group, 20_000);
        Holdings holdings = n1.holdings;
        LeaseActivitiesImpl leasing = n1.leasing;
        TestActivityEnvironment env = TestActivityEnvironment.newInstance();
        env.registerActivitiesImplementations(n1.activities(new NntpHeaderSource(pool), 1));
        GroupActivities activities = oneAttempt(env);
        String holder = "select coalesce(holder_node, '-') || ' ' || epoch from group_leases where group_name = '"
                + group + "'";

        // the window went (a restart, or dropped after a pause) while the lease is still n1's
        LeaseGrant first = leasing.lease(group, TTL);
        holdings.remove(group, first.token().epoch());
        assertThatThrownBy(() -> activities.nextRange(first.token()))
                .cause()
                .isInstanceOfSatisfying(
                        ApplicationFailure.class, f -> assertThat(f.getType()).isEqualTo(Failures.WINDOW_LOST));
        assertThat(TestDatabase.queryString(ds, holder))
                .as("handed back, so the workflow leases again at once")
                .isEqualTo("- 1");

        // the window went and another node took the group meanwhile: the stale call is refused
        LeaseGrant second = leasing.lease(group, TTL);
        holdings.remove(group, second.token().epoch());
        TestDatabase.execute(
                ds,
                "update group_leases set heartbeat_at = heartbeat_at - interval '1 hour' where group_name = '" + group
                        + "'");
        assertThat(new LeaseStore(ds, 0).lease(group, "n2", TTL).takeover()).isTrue();
        assertThatThrownBy(() -> activities.nextRange(second.token()))
                .cause()
                .isInstanceOfSatisfying(
                        ApplicationFailure.class, f -> assertThat(f.getType()).isEqualTo(Failures.LEASE_LOST));
        assertThat(TestDatabase.queryString(ds, holder)).as("n2 keeps it").isEqualTo("n2 3");
        assertThat(TestDatabase.queryLong(
                        ds,
                        "select count(*) from lease_events where kind = 'lease_lost' and node_id = 'n1' and group_name = '"
                                + group + "'"))
                .isEqualTo(1);
        env.close();
    }

    @Test
    void aWindowLeftPastItsTtlIsHandedBackThroughTheFence() throws Exception {
        Duration ttl = Duration.ofSeconds(1);
        N1 n1 = new N1(ttl);
        Holdings holdings = n1.holdings;
        holdings.onAbandoned(n1.activities(new NntpHeaderSource(pool), 1)::handBackDropped);
        String kept = GROUP + ".left";
        String taken = GROUP + ".left.taken";
        for (String g : List.of(kept, taken)) {
            n1.plan(g, 1_000);
            n1.leasing.lease(g, ttl);
        }
        Thread.sleep(ttl.plusMillis(300).toMillis());
        // while n1 was paused past the TTL, n2 took one of its groups
        assertThat(new LeaseStore(ds, 0).lease(taken, "n2", ttl).takeover()).isTrue();

        holdings.recheck();

        assertThat(holdings.size()).isZero();
        String holderOf = "select coalesce(holder_node, '-') from group_leases where group_name = '";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline
                && (!TestDatabase.queryString(ds, holderOf + kept + "'").equals("-")
                        || TestDatabase.queryLong(
                                        ds,
                                        "select count(*) from lease_events where kind = 'lease_lost' and group_name = '"
                                                + taken + "'")
                                == 0)) {
            Thread.sleep(20);
        }
        assertThat(TestDatabase.queryString(ds, holderOf + kept + "'"))
                .as("the group nobody took is handed back")
                .isEqualTo("-");
        assertThat(TestDatabase.queryString(ds, holderOf + taken + "'")).isEqualTo("n2");
        assertThat(TestDatabase.queryLong(
                        ds,
                        "select count(*) from lease_events where kind = 'lease_lost' and node_id = 'n1' and group_name = '"
                                + taken + "'"))
                .as("the taken group's hand-back was refused and recorded")
                .isEqualTo(1);
    }

    /** A stub whose calls get one attempt each, so a retryable failure shows as it is. */
    private static GroupActivities oneAttempt(TestActivityEnvironment env) {
        return env.newActivityStub(
                GroupActivities.class,
                ActivityOptions.newBuilder()
                        .setStartToCloseTimeout(Duration.ofMinutes(1))
                        .setRetryOptions(
                                RetryOptions.newBuilder().setMaximumAttempts(1).build())
                        .build());
    }

    /** Worker n1: the stores, its holdings and its lease activity, judging leases by {@code ttl}. */
    private static final class N1 {
        final LeaseStore leases = new LeaseStore(ds, 0);
        final RangeStore ranges = new RangeStore(ds, 0);
        final Holdings holdings = new Holdings(2);
        final IndexMetrics metrics = new IndexMetrics(new SimpleMeterRegistry(), holdings);
        final PostgresSnapshotStore snapshots = new PostgresSnapshotStore(ds, leases);
        final LeaseActivitiesImpl leasing;

        N1(Duration ttl) {
            leasing = new LeaseActivitiesImpl(
                    leases,
                    snapshots,
                    holdings,
                    () -> RuleSet.defaults(0),
                    "n1",
                    "own/n1",
                    ttl,
                    5_000,
                    metrics,
                    ConflictReporter.NONE,
                    Band.ALL);
        }

        /** Adds {@code group} with one planned range of {@code articles}. */
        void plan(String group, long articles) {
            GroupStore groups = new GroupStore(ds);
            groups.add(group, 0);
            groups.plan(group, 1, articles, articles, -1);
        }

        /** n1's group activities, indexing from {@code source} in batches of 100. */
        GroupActivitiesImpl activities(HeaderSource source, int readAhead) {
            return new GroupActivitiesImpl(
                    leases,
                    ranges,
                    snapshots,
                    holdings,
                    new RangeIndexer(source, leases.fence(), ranges, new CatalogStore(), 100, readAhead, metrics),
                    metrics);
        }
    }

    /** Waits until the range of {@code group} has committed up to {@code from}, so no commit is in flight. */
    private static void awaitCursor(String group, long from) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (TestDatabase.queryLong(
                                ds,
                                "select coalesce(max(next_article), 0) from ranges where group_name = '" + group + "'")
                        < from
                && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Test
    void aCancelledAttemptHandsTheGroupBackAtItsCursor() throws Exception {
        N1 n1 = new N1(TTL);
        n1.plan(GROUP, 20_000);
        LeaseGrant grant = n1.leasing.lease(GROUP, TTL);
        RangeStore ranges = n1.ranges;
        Holdings holdings = n1.holdings;
        TestActivityEnvironment env = TestActivityEnvironment.newInstance();
        env.registerActivitiesImplementations(n1.activities(new NntpHeaderSource(pool), 2));
        GroupActivities activities = env.newActivityStub(
                GroupActivities.class,
                ActivityOptions.newBuilder()
                        .setStartToCloseTimeout(Duration.ofMinutes(1))
                        .setHeartbeatTimeout(Duration.ofSeconds(1))
                        .build());
        RangeLease range = activities.nextRange(grant.token()).range();

        CompletableFuture<Object> attempt = CompletableFuture.supplyAsync(() -> {
            try {
                return activities.indexRange(grant.token(), range, false);
            } catch (RuntimeException e) {
                return e;
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ranges.cursor(range.id()) < 1_001 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        env.requestCancelActivity();
        Object outcome = attempt.get(60, TimeUnit.SECONDS);

        assertThat(outcome).as("the attempt ended in its cancellation").isInstanceOf(RuntimeException.class);
        long cursor = ranges.cursor(range.id());
        assertThat(cursor).as("stopped mid-range, between batches").isBetween(1_001L, 19_901L);
        assertThat((cursor - 1) % 100).as("at a batch boundary").isZero();
        assertThat(TestDatabase.queryLong(
                        ds,
                        "select count(*) from group_leases where group_name = '" + GROUP + "' and holder_node is null"))
                .as("the lease was handed back, not left to expire")
                .isEqualTo(1);
        assertThat(TestDatabase.queryLong(
                        ds, "select count(*) from ranges where group_name = '" + GROUP + "' and status = 'planned'"))
                .as("the range is planned again at its cursor")
                .isEqualTo(1);
        assertThat(TestDatabase.queryLong(
                        ds,
                        "select count(*) from lease_events where kind = 'lease_lost' and group_name = '" + GROUP + "'"))
                .isZero();
        assertThat(holdings.size()).as("the window no longer holds a slot").isZero();
        assertThat(new LeaseStore(ds, 0).lease(GROUP, "n2", TTL).granted())
                .as("another node takes the group at once")
                .isTrue();
        env.close();
    }
}
