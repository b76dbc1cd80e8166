package headway.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import headway.catalog.CatalogStore;
import headway.catalog.CatalogStoreTest;
import headway.store.Holder;
import headway.store.TestDatabase;
import headway.watchman.Watchman;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pins the two measures that migration V4 defines once (the view group_lag and the function
 * catalog_bytes()), and checks that every reader of them reports the same number.
 */
class SharedDefinitionsTest extends WithCoordinationDatabase {

    private static final Duration TTL = Duration.ofSeconds(30);

    @Test
    void lagIsTheArticlesLeftInUnfinishedRangesForEveryReader() {
        groups.add("g.lag", 0);
        groups.plan("g.lag", 1, 400, 100, 1);
        groups.add("g.none", 0);
        Holder h = leases.lease("g.lag", "n1", TTL).holder();
        RangeRow done = ranges.nextRange(h, null).orElseThrow();
        ranges.rangeDone(h, done.id(), 100);
        RangeRow atEnd = ranges.nextRange(h, null).orElseThrow();
        ranges.heartbeat(h, atEnd.id(), atEnd.end() + 1);
        ranges.rangeDone(h, atEnd.id(), 100);
        RangeRow midway = ranges.nextRange(h, null).orElseThrow();
        ranges.heartbeat(h, midway.id(), 250);
        long expected = (300 - 250 + 1) + 100;

        assertThat(TestDatabase.queryLong(ds, "select lag from group_lag where group_name = 'g.lag'"))
                .as("a done range adds nothing, a leased one from its cursor, a planned one whole")
                .isEqualTo(expected);
        assertThat(TestDatabase.queryLong(ds, "select lag from group_lag where group_name = 'g.none'"))
                .as("a group with no ranges has a row with lag 0")
                .isZero();
        assertThat(ranges.lag("g.lag")).isEqualTo(expected);
        assertThat(ranges.lag("no.such.group")).isZero();
        assertThat(leases.outlook("g.lag").lag()).isEqualTo(expected);
        assertThat(new StatusStore(ds).groups(TTL))
                .extracting(StatusStore.GroupStatus::name, StatusStore.GroupStatus::lag)
                .contains(tuple("g.lag", expected), tuple("g.none", 0L));
        new Watchman(ds).scan(new Watchman.Bounds(Duration.ofMinutes(5), Duration.ofMinutes(30), TTL));
        assertThat(TestDatabase.queryLong(ds, "select lag from group_progress where group_name = 'g.lag'"))
                .as("the lag the watchman waits to see shrink")
                .isEqualTo(expected);
    }

    @Test
    void catalogSizeIsTheCatalogTablesOnDiskAndTheCapComparesItWithTheSetting() throws Exception {
        String everyCatalogTable = """
                select pg_total_relation_size('rule_sets') + pg_total_relation_size('binaries')
                       + pg_total_relation_size('releases') + pg_total_relation_size('missing_articles')
                       + pg_total_relation_size('missing_runs')
                       + pg_total_relation_size('rejected_articles') + pg_total_relation_size('long_names')
                       + pg_total_relation_size('rule_spans')
                """;
        long empty = TestDatabase.queryLong(ds, "select catalog_bytes()");
        assertThat(empty).isEqualTo(TestDatabase.queryLong(ds, everyCatalogTable));

        groups.add("g.catalog", 0);
        Holder h = leases.lease("g.catalog", "n1", TTL).holder();
        leases.fence().run(h, "writing the catalog", c -> {
            new CatalogStore()
                    .writeBinaries(c, List.of(CatalogStoreTest.binary("g.catalog", "R", "r.rar", 2, 1, 1, 2)));
            new CatalogStore().recordMissing(c, "g.catalog", 7, 9);
            return null;
        });
        long written = TestDatabase.queryLong(ds, "select catalog_bytes()");
        assertThat(written)
                .as("indexes, TOAST and heap pages of every catalog table")
                .isGreaterThan(empty)
                .isEqualTo(TestDatabase.queryLong(ds, everyCatalogTable));
        assertThat(new CatalogStore().catalogBytes(ds)).isEqualTo(written);

        assertThat(new LeaseStore(ds, written).catalogFull()).as("at the cap").isTrue();
        assertThat(new LeaseStore(ds, written + 1).catalogFull())
                .as("under the cap")
                .isFalse();
        assertThat(new LeaseStore(ds, 0).catalogFull()).as("no cap").isFalse();
    }
}
