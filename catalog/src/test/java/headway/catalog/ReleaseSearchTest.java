package headway.catalog;

import static headway.catalog.CatalogStoreTest.binary;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.store.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The one search: terms as whole words, categories (parents cover their children), season and
 * episode, age, group and paging; and the same pages whichever way a search finds them.
 */
class ReleaseSearchTest {

    private static final String G = "alt.binaries.test";
    private static final String OTHER = "alt.binaries.other";
    private static final Clock NOW = Clock.fixed(Instant.parse("2026-12-11T10:00:00Z"), ZoneOffset.UTC);
    private static final String LONG_WORD = "x".repeat(70);
    private static CatalogTestDatabase db;
    private static ReleaseSearch search;
    /** A second catalog: names with punctuation, accents and a long word, and 300 fillers whose words are dense or sparse. */
    private static CatalogTestDatabase words;

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
        search = new ReleaseSearch(db.ds, NOW);

        words = CatalogTestDatabase.start(G);
        TestDatabase.execute(words.ds, """
                insert into releases (group_name, poster, name, files_present, files_complete, bytes, posted,
                                      completion_percent, complete, rule_version, category)
                select 'alt.binaries.test', 'p', n, 1, 1, 1, timestamptz '2026-12-01 10:00:00+00' - i * interval '1 minute',
                       100, true, 1, c
                from (values (1, '[SubsPlease] Ijiranaide, Nagatoro-san - 02 (1080p) [6E8E8065]', 5070),
                             (2, 'Le.Fabuleux.Destin.d.AMÉLIE.Poulain.2001.1080p.BluRay-GRP', 2040),
                             (3, 'Long.%s.Word-GRP', 8010)) as named(i, n, c)
                union all
                select 'alt.binaries.test', 'p', 'Filler.' || i || case when i %% 3 = 0 then '.dense' else '' end
                       || case when i %% 97 = 0 then '.sparse' else '' end,
                       1, 1, 1, timestamptz '2026-12-01 00:00:00+00' - i * interval '1 minute', 100, true, 1,
                       case when i %% 2 = 0 then 5040 else 2040 end
                from generate_series(1, 300) as i;
                analyze releases;
                """.formatted(LONG_WORD));
    }

    @AfterAll
    static void stop() {
        db.close();
        words.close();
    }

    private static List<String> wordNames(String text) {
        return new ReleaseSearch(words.ds, NOW)
                .search(ReleaseSearch.Query.text(text, 10)).releases().stream()
                        .map(Release::name)
                        .toList();
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
    void wildcardsAreNoWordsAndATermWithoutAWordIsLeftOut() {
        assertThat(names(query("100%"))).containsExactly("Other_100%");
        assertThat(names(query("other %"))).containsExactly("Other_100%");
        assertThat(names(query("%")))
                .as("no word: the newest releases, not a scan for the text")
                .isEqualTo(names(query("")));
        assertThat(names(query("! %%% -"))).isEqualTo(names(query("")));
        assertThat(query("! %%%").words()).isEmpty();
        assertThat(query("Some.Show 100%").words()).containsExactly("some", "show", "100");
    }

    @Test
    void aStatementPastTheTimeoutStopsTheSearch() throws Exception {
        try (java.sql.Connection lock = db.ds.getConnection();
                java.sql.Statement s = lock.createStatement()) {
            lock.setAutoCommit(false);
            s.execute("lock table releases in access exclusive mode");
            long start = System.nanoTime();
            assertThatThrownBy(() -> search.search(query("show"), Duration.ofMillis(300)))
                    .isInstanceOfSatisfying(
                            SearchTimeoutException.class,
                            e -> assertThat(e.timeout()).isEqualTo(Duration.ofMillis(300)))
                    .hasMessageContaining("longer than 300 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            lock.rollback();
        }
        assertThat(names(query("show"))).hasSize(2);
        assertThat(search.search(query("show"), Duration.ofSeconds(5)).releases())
                .hasSize(2);
    }

    @Test
    void termsMatchWholeWordsNotParts() {
        assertThat(names(query("sho"))).isEmpty();
        assertThat(names(query("how"))).isEmpty();
        assertThat(names(query("s01"))).isEmpty();
        assertThat(names(query("S01E01"))).containsExactly("Some.Show.S01E01.720p.WEB-GRP");
    }

    @Test
    void punctuationSeparatesWords() {
        String nagatoro = "[SubsPlease] Ijiranaide, Nagatoro-san - 02 (1080p) [6E8E8065]";
        assertThat(wordNames("nagatoro san 02")).containsExactly(nagatoro);
        assertThat(wordNames("subsplease, (1080p)")).containsExactly(nagatoro);
        assertThat(wordNames("6e8e8065")).containsExactly(nagatoro);
        assertThat(wordNames("nagato")).isEmpty();
    }

    @Test
    void nonAsciiWordsMatchWithoutRegardToCase() {
        String amelie = "Le.Fabuleux.Destin.d.AMÉLIE.Poulain.2001.1080p.BluRay-GRP";
        assertThat(wordNames("amélie poulain")).containsExactly(amelie);
        assertThat(wordNames("Amélie")).containsExactly(amelie);
        assertThat(wordNames("amelie")).as("accents are not folded").isEmpty();
    }

    @Test
    void longWordsMatchOnTheirFirst64Characters() {
        String name = "Long." + LONG_WORD + ".Word-GRP";
        assertThat(wordNames(LONG_WORD)).containsExactly(name);
        assertThat(wordNames("x".repeat(64) + "yyy")).containsExactly(name);
        assertThat(wordNames("x".repeat(63))).isEmpty();
    }

    @Test
    void everyWayOfFindingAPageGivesTheSamePage() {
        ReleaseSearch whole = new ReleaseSearch(words.ds, NOW);
        List<ReleaseSearch> narrow = List.of(
                new ReleaseSearch(words.ds, NOW, 1),
                new ReleaseSearch(words.ds, NOW, 4),
                new ReleaseSearch(words.ds, NOW, 60));
        for (String text : List.of("dense", "sparse", "filler", "", "dense sparse", "1080p", "nothing", "% !")) {
            for (List<Integer> categories : List.of(List.<Integer>of(), List.of(5000))) {
                for (int offset : List.of(0, 5, 40, 400)) {
                    for (int limit : List.of(1, 7, 100)) {
                        var q = new ReleaseSearch.Query(text, categories, null, null, null, null, limit, offset);
                        ReleaseSearch.Page expected = whole.search(q);
                        for (ReleaseSearch s : narrow) {
                            ReleaseSearch.Page page = s.search(q);
                            assertThat(page.releases()).as(q.toString()).isEqualTo(expected.releases());
                            if (!page.releases().isEmpty()) {
                                assertThat(page.total())
                                        .as(q.toString())
                                        .isGreaterThanOrEqualTo(
                                                offset + page.releases().size());
                            }
                            if (page.releases().size() < limit) {
                                assertThat(page.total()).as(q.toString()).isEqualTo(expected.total());
                            }
                        }
                    }
                }
            }
        }
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
        assertThat(names(new ReleaseSearch.Query("", List.of(5000), 1, "2' | '#e1", null, null, 10, 0)))
                .as("an episode is a value, not tsquery syntax")
                .isEmpty();
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
