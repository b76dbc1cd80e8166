package headway.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/** V18 keeps a batch's missing runs in one row; the runs of a catalog written before keep their place. */
class MissingRunsMigrationTest {

    private static final String G = "alt.binaries.migrated";

    @Test
    void runsRecordedOnePerRowAreReadAlikeAndABatchOverThemReplacesThem() throws Exception {
        try (HikariDataSource ds = TestDatabase.migratedTo("runs_v18", "17")) {
            TestDatabase.execute(ds, """
                    insert into groups (name) values ('alt.binaries.migrated'), ('alt.binaries.other');
                    insert into missing_articles (group_name, first_article, last_article)
                    values ('alt.binaries.migrated', 3, 4), ('alt.binaries.migrated', 50, 50),
                           ('alt.binaries.migrated', 7000, 7999), ('alt.binaries.other', 3, 4);
                    """);

            Database.migrate(ds);

            CatalogStore store = new CatalogStore();
            assertThat(store.missing(ds, G))
                    .containsExactly(new MissingRun(3, 4), new MissingRun(50, 50), new MissingRun(7000, 7999));
            assertThat(TestDatabase.queryLong(ds, "select count(*) from missing_articles"))
                    .isEqualTo(4);

            // the batch 1..5000 written again after the upgrade (a redo): its runs once, the others kept
            try (var c = ds.getConnection()) {
                c.setAutoCommit(false);
                store.recordMissing(c, G, 1, 5000, List.of(new long[] {3, 4}, new long[] {50, 50}));
                c.commit();
            }
            assertThat(store.missing(ds, G))
                    .containsExactly(new MissingRun(3, 4), new MissingRun(50, 50), new MissingRun(7000, 7999));
            assertThat(store.missing(ds, "alt.binaries.other")).containsExactly(new MissingRun(3, 4));
            assertThat(TestDatabase.queryLong(ds, "select catalog_bytes()"))
                    .as("the runs' table counts in the catalog's size")
                    .isGreaterThanOrEqualTo(TestDatabase.queryLong(ds, "select pg_total_relation_size('missing_runs')"))
                    .isGreaterThan(0);
        }
    }
}
