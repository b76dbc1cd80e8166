package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import headway.coordination.Band;
import headway.coordination.GroupStore;
import headway.coordination.LeaseStore;
import headway.coordination.NodeRegistry;
import headway.coordination.PostgresSnapshotStore;
import headway.index.RuleSet;
import headway.store.StoreException;
import headway.store.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A worker's share of the groups follows the live fleet it reads from the registry: three
 * workers that may each hold 8 share 9 groups, no more than ceil(9 / 3) + 1 each, even when one
 * worker gets every lease task first (as the fastest poller would).
 */
class FleetShareTest {

    private static final Duration TTL = Duration.ofSeconds(30);
    private static final Duration NODE_TTL = Duration.ofSeconds(15);

    private static HikariDataSource ds;
    private static LeaseStore leases;

    @BeforeAll
    static void database() {
        ds = TestDatabase.migrated("share");
        leases = new LeaseStore(ds, 0);
    }

    @AfterAll
    static void close() {
        ds.close();
    }

    @Test
    void theShareIsAnEvenSplitPlusSlackWithinTheCapacity() {
        assertThat(FleetShare.share(8, 9, 3, 1)).isEqualTo(4);
        assertThat(FleetShare.share(8, 9, 1, 1))
                .as("alone: capped by HEADWAY_MAX_GROUPS")
                .isEqualTo(8);
        assertThat(FleetShare.share(8, 10, 3, 0)).isEqualTo(4);
        assertThat(FleetShare.share(8, 0, 3, 0)).as("at least one").isEqualTo(1);
    }

    @Test
    void nineGroupsSpreadOverThreeWorkersInsteadOfFillingTheFirst() {
        GroupStore groups = new GroupStore(ds);
        List<String> waiting = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            String g = "alt.binaries.share.g" + i;
            groups.add(g, 0);
            groups.plan(g, 1, 100, 100, 1);
            waiting.add(g);
        }
        List<Worker> fleet = List.of(new Worker("s1"), new Worker("s2"), new Worker("s3"));
        fleet.forEach(Worker::shareTheFleet);
        Random random = new Random(17);
        for (int sweep = 0; sweep < 20 && !waiting.isEmpty(); sweep++) {
            Collections.shuffle(waiting, random);
            for (String g : List.copyOf(waiting)) {
                for (Worker w : fleet) {
                    if (!w.holdings.hasRoomFor(g)) {
                        continue;
                    }
                    if (w.activities.lease(g, TTL).granted()) {
                        waiting.remove(g);
                    }
                    break;
                }
                for (Worker w : fleet) {
                    assertThat(w.holdings.size())
                            .as("%s holds at most its share", w.id)
                            .isLessThanOrEqualTo(4);
                }
            }
        }

        assertThat(waiting).as("every group taken").isEmpty();
        assertThat(fleet).allSatisfy(w -> assertThat(w.holdings.limit()).isEqualTo(4));
        assertThat(fleet.stream().mapToInt(w -> w.holdings.size()))
                .as("the first worker stopped at its share, the others took the rest")
                .containsExactly(4, 4, 1);
    }

    @Test
    void aShareThatCannotBeReadBeforeAnyReadIsAnError() {
        HikariDataSource own = TestDatabase.pool(ds.getJdbcUrl(), 2);
        NodeRegistry registry = new NodeRegistry(own, "alone", "x", NODE_TTL, Clock.systemUTC());
        registry.register();
        own.close();
        Holdings holdings = new Holdings(8);
        holdings.sharedBy(new FleetShare(registry, 8, 1));

        assertThatThrownBy(holdings::limit)
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("no list read yet to fall back on");
    }

    @Test
    void groupsStartedAfterACountRaiseTheShareWithinASecondNotTheNodeTtl() {
        try (HikariDataSource own = TestDatabase.migrated("share-fresh")) {
            GroupStore groups = new GroupStore(own);
            groups.add("alt.binaries.fresh.g0", 0);
            NodeRegistry registry = new NodeRegistry(own, "alone", "x", NODE_TTL, Clock.systemUTC());
            registry.register();
            AtomicLong nanos = new AtomicLong();
            FleetShare share = new FleetShare(registry, 8, FleetShare.SLACK, nanos::get);
            assertThat(share.getAsInt()).as("one group, one node: 1 + slack").isEqualTo(2);

            for (int i = 1; i <= 4; i++) {
                groups.add("alt.binaries.fresh.g" + i, 0);
            }
            nanos.addAndGet(FleetShare.GROUPS_FRESH.toNanos() / 2);
            assertThat(share.getAsInt())
                    .as("the count read half a second ago still serves")
                    .isEqualTo(2);
            nanos.addAndGet(FleetShare.GROUPS_FRESH.toNanos());
            assertThat(FleetShare.GROUPS_FRESH).isLessThan(NODE_TTL);
            assertThat(share.getAsInt()).as("five groups, read again").isEqualTo(6);
        }
    }

    /** A worker that may hold 8, registered, sharing the fleet as HeadwayWorker wires it. */
    private static final class Worker {
        final String id;
        final NodeRegistry registry;
        final Holdings holdings = new Holdings(8);
        final LeaseActivitiesImpl activities;

        Worker(String id) {
            this.id = id;
            registry = new NodeRegistry(ds, id, id + ":0", NODE_TTL, Clock.systemUTC())
                    .reporting(() -> new NodeRegistry.Report(8, 0, 4, null));
            registry.register();
            activities = new LeaseActivitiesImpl(
                    leases,
                    new PostgresSnapshotStore(ds, leases),
                    holdings,
                    () -> RuleSet.defaults(0),
                    id,
                    "own/" + id,
                    TTL,
                    1000,
                    IndexMetrics.discard(holdings),
                    ConflictReporter.NONE,
                    Band.ALL);
        }

        void shareTheFleet() {
            holdings.sharedBy(new FleetShare(registry, 8, FleetShare.SLACK));
        }
    }
}
