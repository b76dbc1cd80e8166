package headway.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.activity.GroupActivities;
import headway.activity.GroupActivitiesImpl;
import headway.activity.Holdings;
import headway.activity.IndexMetrics;
import headway.activity.LeaseActivitiesImpl;
import headway.activity.LeaseGrant;
import headway.activity.NntpHeaderSource;
import headway.activity.RangeIndexer;
import headway.activity.RangeLease;
import headway.index.RuleSet;
import headway.nntp.NntpPool;
import headway.nntp.Simulators;
import headway.simulator.NewsSimulator;
import headway.store.CatalogStore;
import headway.store.GroupStore;
import headway.store.LeaseStore;
import headway.store.PostgresSnapshotStore;
import headway.store.RangeStore;
import headway.store.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.activity.ActivityOptions;
import io.temporal.testing.TestActivityEnvironment;
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
 */
class AbandonedAttemptTest {

    private static final String GROUP = "alt.binaries.abandoned";
    private static final Duration TTL = Duration.ofSeconds(30);

    private static HikariDataSource ds;
    private static NewsSimulator sim;
    private static NntpPool pool;

    @BeforeAll
    static void start() throws Exception {
        ds = TestDatabase.migrated("abandoned");
        sim = NewsSimulator.start(
                NewsSimulator.Options.defaults().withOverLatency(Duration.ofMillis(40)),
                List.of(NewsSimulator.GroupSpec.of(GROUP, 5, 20_000)));
        pool = new NntpPool(NntpPool.Config.defaults(Simulators.server(sim)).withMaxConnections(2));
    }

    @AfterAll
    static void stop() {
        pool.close();
        sim.close();
        ds.close();
    }

    @Test
    void aCancelledAttemptHandsTheGroupBackAtItsCursor() throws Exception {
        GroupStore groups = new GroupStore(ds);
        LeaseStore leases = new LeaseStore(ds, 0);
        RangeStore ranges = new RangeStore(ds, 0);
        groups.add(GROUP, 0);
        groups.plan(GROUP, 1, 20_000, 20_000, -1);
        Holdings holdings = new Holdings(2);
        IndexMetrics metrics = new IndexMetrics(new SimpleMeterRegistry(), holdings);
        PostgresSnapshotStore snapshots = new PostgresSnapshotStore(ds, leases);
        LeaseGrant grant = new LeaseActivitiesImpl(
                        leases, snapshots, holdings, () -> RuleSet.defaults(0), "n1", "own/n1", TTL, 5_000, metrics)
                .lease(GROUP, TTL);
        RangeIndexer indexer = new RangeIndexer(
                new NntpHeaderSource(pool), leases.fence(), ranges, new CatalogStore(), 100, 2, metrics);
        TestActivityEnvironment env = TestActivityEnvironment.newInstance();
        env.registerActivitiesImplementations(
                new GroupActivitiesImpl(leases, ranges, snapshots, holdings, indexer, metrics));
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
        assertThat(TestDatabase.queryLong(ds, "select count(*) from lease_events where kind = 'lease_lost'"))
                .isZero();
        assertThat(holdings.size()).as("the window no longer holds a slot").isZero();
        assertThat(new LeaseStore(ds, 0).lease(GROUP, "n2", TTL).granted())
                .as("another node takes the group at once")
                .isTrue();
        env.close();
    }
}
