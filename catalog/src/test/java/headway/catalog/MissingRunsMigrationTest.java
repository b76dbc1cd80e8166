package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.store.Database;
import headway.store.TestDatabase;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * V18 keeps a batch's missing runs in one row of missing_runs. The runs a catalog held before, one
 * per row in missing_articles, read as before, and a worker of an older build can still write
 * there during a rolling upgrade; a batch this build writes over them replaces them.
 */
class MissingRunsMigrationTest {

    private static final String G = "alt.binaries.migrated";

    /** What a build before V18 ran for a batch's runs (CatalogStore's INSERT_MISSING_RUNS then). */
    private static final String OLDER_BUILDS_INSERT = """
            insert into missing_articles (group_name, first_article, last_article)
            select 'alt.binaries.migrated', r.first_article, r.last_article
            from unnest('{9000,9500}'::bigint[], '{9000,9600}'::bigint[]) as r(first_article, last_article)
            on conflict do nothing
            """;

    @Test
    void runsWrittenOnePerRowReadAlikeAndABatchOverThemReplacesThem() throws Exception {
        try (HikariDataSource ds = TestDatabase.migratedTo("runs_v18", "17")) {
            TestDatabase.execute(ds, """
                    insert into groups (name) values ('alt.binaries.migrated'), ('alt.binaries.other');
                    insert into missing_articles (group_name, first_article, last_article)
                    values ('alt.binaries.migrated', 3, 4), ('alt.binaries.migrated', 50, 50),
                           ('alt.binaries.migrated', 7000, 7999), ('alt.binaries.other', 3, 4);
                    """);

            Database.migrate(ds);
            TestDatabase.execute(ds, OLDER_BUILDS_INSERT);

            CatalogStore store = new CatalogStore();
            List<MissingRun> each = List.of(
                    new MissingRun(3, 4),
                    new MissingRun(50, 50),
                    new MissingRun(7000, 7999),
                    new MissingRun(9000, 9000),
                    new MissingRun(9500, 9600));
            assertThat(store.missing(ds, G)).isEqualTo(each);

            // the batches 1..5000 and 8001..10000 written again by this build (a redo): each run once
            try (var c = ds.getConnection()) {
                c.setAutoCommit(false);
                store.recordMissing(c, G, 1, 5000, List.of(new long[] {3, 4}, new long[] {50, 50}));
                store.recordMissing(c, G, 8001, 10_000, List.of(new long[] {9000, 9000}, new long[] {9500, 9600}));
                c.commit();
            }
            assertThat(store.missing(ds, G)).isEqualTo(each);
            assertThat(TestDatabase.queryLong(
                            ds, "select count(*) from missing_articles where group_name = '" + G + "'"))
                    .as("the older rows the batches covered are gone; 7000..7999 lies in neither")
                    .isEqualTo(1);
            assertThat(TestDatabase.queryLong(ds, "select count(*) from missing_runs"))
                    .isEqualTo(2);
            assertThat(store.missing(ds, "alt.binaries.other")).containsExactly(new MissingRun(3, 4));

            // a batch with other boundaries than the older build's clips its run 7000..7999 to what lies outside
            try (var c = ds.getConnection()) {
                c.setAutoCommit(false);
                store.recordMissing(c, G, 7_501, 8_000, List.of(new long[] {7_501, 7_999}));
                c.commit();
            }
            assertThat(store.missing(ds, G))
                    .containsExactly(
                            new MissingRun(3, 4),
                            new MissingRun(50, 50),
                            new MissingRun(7000, 7500),
                            new MissingRun(7501, 7999),
                            new MissingRun(9000, 9000),
                            new MissingRun(9500, 9600));
            assertThat(TestDatabase.queryLong(ds, "select catalog_bytes()"))
                    .as("both tables count in the catalog's size")
                    .isEqualTo(TestDatabase.queryLong(ds, """
                            select pg_total_relation_size('rule_sets') + (select sum(pg_total_relation_size(relid)) from pg_partition_tree('binaries'))
                                   + pg_total_relation_size('releases') + pg_total_relation_size('missing_articles')
                                   + pg_total_relation_size('missing_runs')
                                   + pg_total_relation_size('rejected_articles')
                                   + pg_total_relation_size('long_names') + pg_total_relation_size('rule_spans')
                            """));
        }
    }
}
