package headway.store;

import static headway.store.CatalogStoreTest.binary;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The one search: terms, categories (parents cover their children), season and episode, age, group and paging. */
class ReleaseSearchTest {

    private static final String G = "alt.binaries.test";
    private static final String OTHER = "alt.binaries.other";
    private static CatalogTestDatabase db;
    private static ReleaseSearch search;

    @BeforeAll
    static void catalog() throws Exception {
        db = CatalogTestDatabase.start(G, OTHER);
        CatalogStore store = new CatalogStore();
        db.inTransaction(c -> store.writeBinaries(
                c,
                List.of(
                        binary(G, "Some.Show.S01E01.720p.WEB-GRP", "a.rar", 1, 1, 1),
                        binary(G, "Some.Show.S01E02.720p.WEB-GRP", "b.rar", 1, 1, 2),
                        binary(G, "Other_100%", "o.rar", 1, 1, 3),
                        binary(OTHER, "A.Movie.2026.1080p.BluRay-GRP", "m.rar", 1, 1, 4))));
        TestDatabase.execute(
                db.ds,
                "update releases set category = 5040, season = 1, episode = '1' where name like 'Some.Show.S01E01%';"
                        + "update releases set category = 5030, season = 1, episode = '2' where name like 'Some.Show.S01E02%';"
                        + "update releases set category = 2040 where name like 'A.Movie%';");
        // the binaries above were posted at 10:00:01 .. 10:00:04 on 2026-12-01; "now" is 10 days later
        search = new ReleaseSearch(db.ds, Clock.fixed(Instant.parse("2026-12-11T10:00:00Z"), ZoneOffset.UTC));
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    private static List<String> names(ReleaseSearch.Query q) {
        return search.search(q).releases().stream().map(Release::name).toList();
    }

    private static ReleaseSearch.Query query(String text) {
        return ReleaseSearch.Query.text(text, 10);
    }

    @Test
    void everyTermMustMatchWhateverSeparatesThem() {
        assertThat(names(query("some show s01e02"))).containsExactly("Some.Show.S01E02.720p.WEB-GRP");
        assertThat(names(query("show.720p")))
                .containsExactly("Some.Show.S01E02.720p.WEB-GRP", "Some.Show.S01E01.720p.WEB-GRP");
        assertThat(names(query("zzz"))).isEmpty();
    }

    @Test
    void wildcardsAreLiteral() {
        assertThat(names(query("100%"))).containsExactly("Other_100%");
        assertThat(names(query("%"))).containsExactly("Other_100%");
    }

    @Test
    void emptyTextIsTheNewestFirst() {
        assertThat(names(query("")))
                .containsExactly(
                        "A.Movie.2026.1080p.BluRay-GRP",
                        "Other_100%",
                        "Some.Show.S01E02.720p.WEB-GRP",
                        "Some.Show.S01E01.720p.WEB-GRP");
    }

    @Test
    void aParentCategoryCoversItsChildren() {
        assertThat(names(new ReleaseSearch.Query("", List.of(5000), null, null, null, null, 10, 0)))
                .containsExactly("Some.Show.S01E02.720p.WEB-GRP", "Some.Show.S01E01.720p.WEB-GRP");
        assertThat(names(new ReleaseSearch.Query("", List.of(5040, 2000), null, null, null, null, 10, 0)))
                .containsExactly("A.Movie.2026.1080p.BluRay-GRP", "Some.Show.S01E01.720p.WEB-GRP");
    }

    @Test
    void seasonEpisodeGroupAndAgeNarrow() {
        assertThat(names(new ReleaseSearch.Query("show", List.of(), 1, "2", null, null, 10, 0)))
                .containsExactly("Some.Show.S01E02.720p.WEB-GRP");
        assertThat(names(new ReleaseSearch.Query("", List.of(), null, null, null, OTHER, 10, 0)))
                .containsExactly("A.Movie.2026.1080p.BluRay-GRP");
        assertThat(names(new ReleaseSearch.Query("", List.of(), null, null, Duration.ofDays(9), null, 10, 0)))
                .isEmpty();
        assertThat(names(new ReleaseSearch.Query("", List.of(), null, null, Duration.ofDays(11), null, 10, 0)))
                .hasSize(4);
    }

    @Test
    void pagesCarryTheTotal() {
        ReleaseSearch.Page first = search.search(new ReleaseSearch.Query("", List.of(), null, null, null, null, 3, 0));
        ReleaseSearch.Page second = search.search(new ReleaseSearch.Query("", List.of(), null, null, null, null, 3, 3));
        ReleaseSearch.Page past = search.search(new ReleaseSearch.Query("", List.of(), null, null, null, null, 3, 9));
        assertThat(first.total()).isEqualTo(4);
        assertThat(first.releases()).hasSize(3);
        assertThat(second.total()).isEqualTo(4);
        assertThat(second.releases()).extracting(Release::name).containsExactly("Some.Show.S01E01.720p.WEB-GRP");
        assertThat(past.total()).isEqualTo(4);
        assertThat(past.releases()).isEmpty();
    }

    @Test
    void limitAndOffsetAreChecked() {
        assertThatThrownBy(() -> ReleaseSearch.Query.text("x", 0)).hasMessageContaining("limit");
        assertThatThrownBy(() -> new ReleaseSearch.Query("", List.of(), null, null, null, null, 1, -1))
                .hasMessageContaining("offset");
    }
}
