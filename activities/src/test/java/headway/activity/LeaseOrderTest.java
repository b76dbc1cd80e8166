package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.coordination.Band;
import headway.coordination.GroupStore;
import headway.coordination.LeaseStore;
import headway.coordination.NodeRegistry;
import headway.coordination.PostgresSnapshotStore;
import headway.index.RuleSet;
import headway.store.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The leasing order in production, through the lease activity as workers run it: 10 groups of
 * equal range urgency, some never held and the others unheld for different times, with different
 * priorities, and a fleet of two workers that hold one group each. The groups' lease tasks reach
 * the workers in a random order, as Temporal hands them out; the takes still follow the order.
 */
class LeaseOrderTest {

    private static final Duration TTL = Duration.ofSeconds(30);

    private static HikariDataSource ds;
    private static LeaseStore leases;
    private static GroupStore groups;

    @BeforeAll
    static void database() {
        ds = TestDatabase.migrated("leaseorder");
        leases = new LeaseStore(ds, 0);
        groups = new GroupStore(ds);
    }

    @AfterAll
    static void close() {
        ds.close();
    }

    @Test
    void tenGroupsOnTwoSlotsAreTakenInTheLeasingOrder() {
        // name, group priority, unheld for (minutes; -1 never held)
        Object[][] spec = {
            {"g.a", 5, 10}, {"g.b", 1, -1}, {"g.c", 3, 30}, {"g.d", 2, 10}, {"g.e", 9, -1},
            {"g.f", 0, 5}, {"g.g", 4, 30}, {"g.h", 7, -1}, {"g.i", 1, 60}, {"g.j", 8, 1},
        };
        for (Object[] g : spec) {
            String name = (String) g[0];
            groups.add(name, (Integer) g[1]);
            groups.plan(name, 1, 100, 100, 1);
            int unheld = (Integer) g[2];
            if (unheld >= 0) {
                TestDatabase.execute(
                        ds,
                        "insert into group_leases (group_name, epoch, free_since) values ('" + name
                                + "', 1, timestamptz '2026-12-01 12:00:00+00' - interval '" + unheld + " minutes')");
            }
        }
        // never held first (by group priority), then longest unheld (ties by group priority)
        List<String> specified = List.of("g.b", "g.h", "g.e", "g.i", "g.c", "g.g", "g.d", "g.a", "g.f", "g.j");

        List<Worker> fleet = List.of(new Worker("w1"), new Worker("w2"));
        List<String> waiting = new ArrayList<>(specified);
        Random random = new Random(17);
        for (String g : waiting) {
            fleet.get(0).activities.outlook(g);
        }
        List<String> takes = new ArrayList<>();
        List<Worker> holding = new ArrayList<>();
        while (!waiting.isEmpty()) {
            Collections.shuffle(waiting, random);
            boolean took = false;
            for (String g : List.copyOf(waiting)) {
                for (Worker w : fleet) {
                    if (w.holdings.full()) {
                        continue;
                    }
                    LeaseGrant grant = w.activities.lease(g, TTL);
                    if (grant.granted()) {
                        takes.add(g);
                        waiting.remove(g);
                        w.hold(grant.token());
                        holding.add(w);
                        took = true;
                    } else {
                        assertThat(grant.heldBy()).startsWith("lease order: ");
                        assertThat(grant.freeIn()).isEqualTo(LeaseStore.TURN_WAIT);
                    }
                    break;
                }
            }
            if (!took) {
                holding.remove(0).finish();
            }
        }

        assertThat(takes.subList(0, 2))
                .as("both slots free: the first two of the order, whichever asked first")
                .containsExactlyInAnyOrderElementsOf(specified.subList(0, 2));
        assertThat(takes.subList(2, 10))
                .as("one slot at a time: the next in the order")
                .containsExactlyElementsOf(specified.subList(2, 10));
    }

    /** A worker of capacity 1, registered with it, as HeadwayWorker wires the lease activity. */
    private static final class Worker {
        final Holdings holdings = new Holdings(1);
        final LeaseActivitiesImpl activities;
        HolderToken held;

        Worker(String id) {
            new NodeRegistry(ds, id, id + ":0", Duration.ofSeconds(15), Clock.systemUTC())
                    .reporting(() -> new NodeRegistry.Report(1, 0, 4, null))
                    .register();
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

        void hold(HolderToken token) {
            held = token;
        }

        /** The group is caught up: its ranges are done, and the worker hands it back. */
        void finish() {
            TestDatabase.execute(ds, "update ranges set status = 'done' where group_name = '" + held.group() + "'");
            leases.release(new headway.store.Holder(held.group(), held.node(), held.epoch()));
            holdings.remove(held.group(), held.epoch());
        }
    }
}
