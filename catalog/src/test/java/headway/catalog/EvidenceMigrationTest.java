package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.catalog.ReleaseEvidence.Evidence;
import headway.category.CategoryRules;
import headway.store.Database;
import headway.store.TestDatabase;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * V22 on a catalog that V21 wrote: every release keeps its row and its search words, has no
 * evidence and password 0, and can be named afterwards.
 */
class EvidenceMigrationTest {

    @Test
    void releasesWrittenBeforeV22AreFoundAsBeforeAndCanBeNamed() throws Exception {
        try (HikariDataSource ds = TestDatabase.migratedTo("evidence_v22", "21")) {
            TestDatabase.execute(ds, """
                    insert into groups (name) values ('alt.binaries.old');
                    insert into releases (group_name, poster, name, files_present, files_complete, bytes, posted,
                                          completion_percent, complete, rule_version, category, season, episode,
                                          category_version)
                    values ('alt.binaries.old', 'p', 'Some.Show.S01E05.720p-GRP', 1, 1, 10, now(), 100, true, 1,
                            5040, 1, '5', 0),
                           ('alt.binaries.old', 'p', '0f25d3b888aa', 1, 1, 10, now(), 100, true, 1, 8020, null,
                            null, 0);
                    """);
            String guid =
                    TestDatabase.queryString(ds, "select guid from releases where name = 'Some.Show.S01E05.720p-GRP'");

            Database.migrate(ds);

            ReleaseSearch search = new ReleaseSearch(ds, Clock.systemUTC());
            List<Release> found = search.search(
                            new ReleaseSearch.Query("some show", List.of(5000), 1, "5", null, null, 10, 0))
                    .releases();
            assertThat(found).extracting(Release::name).containsExactly("Some.Show.S01E05.720p-GRP");
            Release old = found.get(0);
            assertThat(old.realName()).isNull();
            assertThat(old.namedBy()).isNull();
            assertThat(old.imdb()).isNull();
            assertThat(old.password()).isZero();
            assertThat(ReleaseGuids.of(old)).isEqualTo(guid);

            ReleaseEvidence.record(
                    ds,
                    "alt.binaries.old",
                    "p",
                    "0f25d3b888aa",
                    new Evidence("Other.Show.S03E01.1080p-GRP", "nfo", 0, null),
                    CategoryRules.defaults(),
                    0);
            assertThat(search.search(ReleaseSearch.Query.text("other show", 10)).releases())
                    .extracting(Release::name)
                    .containsExactly("0f25d3b888aa");
            assertThat(search.search(ReleaseSearch.Query.text("0f25d3b888aa", 10))
                            .releases())
                    .extracting(Release::displayName)
                    .containsExactly("Other.Show.S03E01.1080p-GRP");
            assertThat(TestDatabase.queryLong(ds, "select count(*) from release_inspections"))
                    .isZero();
        }
    }
}
