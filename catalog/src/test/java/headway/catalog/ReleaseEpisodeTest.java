package headway.catalog;

import static headway.catalog.CatalogStoreTest.binary;
import static org.assertj.core.api.Assertions.assertThat;

import headway.category.CategoryRules;
import headway.store.Jdbc;
import headway.store.TestDatabase;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * V25: a release stores what kind of episode it is, the last episode of a multi-episode release
 * and a daily show's air date, as every writer of its categories computes them (the release
 * writer, evidence, re-categorizing), and a search finds a multi-episode release by each episode
 * it holds and an anime by its absolute number in the widths clients write it.
 */
class ReleaseEpisodeTest {

    private static final String G = "alt.binaries.test";
    /** The poster of {@link CatalogStoreTest#binary}. */
    private static final String POSTER = "Joe <joe@example.com>";

    private static final String MULTI = "Series.Title.S02E06E07.720p.HDTV.x264-GRP";
    private static final String DAILY = "Daily Talk 10th Mar 2026 720p WEB-GRP";
    private static final String ANIME = "Anime Title - 004 [480p][48CE2D0F]";
    private static final String PACK = "Pack.Show.S03.1080p.WEB-DL-GRP";
    private static final String PACK_EPISODE = "Pack.Show.S03E04.1080p.WEB-DL-GRP";
    private static final String FILM = "A.Film.Title.2019.1080p.BluRay.x264-GRP";
    private static final String TOKEN = "d41d8cd98f00b204e9800998ecf8427e";
    private static final Clock NOW = Clock.fixed(Instant.parse("2026-12-11T10:00:00Z"), ZoneOffset.UTC);

    private static CatalogTestDatabase db;
    private static ReleaseSearch search;

    @BeforeAll
    static void catalog() throws Exception {
        db = CatalogTestDatabase.start(G);
        CatalogStore store = new CatalogStore();
        List<String> names = List.of(MULTI, DAILY, ANIME, PACK, PACK_EPISODE, FILM, TOKEN);
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            int part = i + 1;
            db.inTransaction(c -> store.writeBinaries(c, List.of(binary(G, name, "f" + part + ".rar", 1, 1, part))));
        }
        search = new ReleaseSearch(db.ds, NOW);
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    private record Row(String kind, Integer last, LocalDate airDate) {}

    private static Row row(String name) throws Exception {
        try (Connection c = db.ds.getConnection()) {
            return Jdbc.one(
                    c,
                    "select episode_kind, last_episode, air_date from releases where name = ?",
                    rs -> new Row(rs.getString(1), (Integer) rs.getObject(2), rs.getObject(3, LocalDate.class)),
                    name);
        }
    }

    private static List<String> names(ReleaseSearch.Query q) {
        return search.search(q).releases().stream().map(Release::name).toList();
    }

    private static ReleaseSearch.Query tv(String text, Integer season, String episode) {
        return new ReleaseSearch.Query(text, List.of(5000), season, episode, null, null, 50, 0);
    }

    @Test
    void theWriterStoresTheKindTheLastEpisodeAndTheAirDate() throws Exception {
        assertThat(row(MULTI)).isEqualTo(new Row("multi", 7, null));
        assertThat(row(DAILY)).isEqualTo(new Row("daily", null, LocalDate.of(2026, 3, 10)));
        assertThat(row(ANIME)).isEqualTo(new Row("absolute", null, null));
        assertThat(row(PACK)).isEqualTo(new Row("pack", null, null));
        assertThat(row(PACK_EPISODE)).isEqualTo(new Row("standard", null, null));
        assertThat(row(FILM)).isEqualTo(new Row(null, null, null));
    }

    @Test
    void aMultiEpisodeReleaseIsFoundByEachEpisodeItHoldsAndNoOther() {
        assertThat(names(tv("series title", 2, "6"))).containsExactly(MULTI);
        assertThat(names(tv("series title", 2, "7"))).containsExactly(MULTI);
        assertThat(names(tv("series title", 2, "8"))).isEmpty();
        assertThat(names(tv("series title", 3, "7"))).isEmpty();
    }

    @Test
    void aSeasonAloneFindsItsPackAndItsEpisodes() {
        assertThat(names(tv("pack show", 3, null))).containsExactlyInAnyOrder(PACK, PACK_EPISODE);
    }

    @Test
    void aDailyShowIsFoundByItsYearAndDay() {
        assertThat(names(tv("daily talk", 2026, "03-10"))).containsExactly(DAILY);
        assertThat(names(tv("daily talk", 2026, null))).containsExactly(DAILY);
        assertThat(names(tv("daily talk", 2026, "03-11"))).isEmpty();
    }

    @Test
    void anAbsoluteEpisodeIsFoundInEachWidth() {
        for (String width : List.of("4", "04", "004")) {
            assertThat(names(ReleaseSearch.Query.text("anime title " + width, 10)))
                    .as(width)
                    .containsExactly(ANIME);
        }
        assertThat(names(ReleaseSearch.Query.text("anime title 0004", 10))).isEmpty();
        // a standard episode's number is no plain word: "pack show 4" is not S03E04
        assertThat(names(ReleaseSearch.Query.text("pack show 4", 10))).isEmpty();
    }

    @Test
    void evidenceAndReCategorizingWriteTheColumnsFromTheNameTheyUse() throws Exception {
        CategoryRules rules = CategoryRules.defaults();
        assertThat(row(TOKEN)).isEqualTo(new Row(null, null, null));
        ReleaseEvidence.record(
                db.ds,
                G,
                POSTER,
                TOKEN,
                new ReleaseEvidence.Evidence("Other.Talk.2025.11.02.720p.WEB-GRP", "nfo", 0, null),
                rules,
                0);
        assertThat(row(TOKEN)).isEqualTo(new Row("daily", null, LocalDate.of(2025, 11, 2)));
        assertThat(names(tv("other talk", 2025, "11-02"))).containsExactly(TOKEN);
        TestDatabase.execute(
                db.ds,
                "update releases set episode_kind = null, last_episode = null, air_date = null,"
                        + " category_version = -1 where name in ('" + TOKEN + "', '" + MULTI + "')");
        ReleaseWriter.recategorize(db.ds, rules, 0, 1);
        assertThat(row(TOKEN)).isEqualTo(new Row("daily", null, LocalDate.of(2025, 11, 2)));
        assertThat(row(MULTI)).isEqualTo(new Row("multi", 7, null));
        ReleaseEvidence.record(db.ds, G, POSTER, TOKEN, ReleaseEvidence.Evidence.NONE, rules, 0);
        assertThat(row(TOKEN)).isEqualTo(new Row(null, null, null));
        assertThat(names(tv("other talk", 2025, "11-02"))).isEmpty();
    }

    /**
     * The new words are in the one GIN index, so the searches they serve can use it: with
     * sequential scans priced out (on a catalog this small a scan is rightly cheaper), the plan is
     * a scan of that index; a predicate the index could not answer would still be a sequential scan.
     */
    @Test
    void theNewFiltersAreOneScanOfTheSearchIndex() throws Exception {
        try (CatalogTestDatabase big = CatalogTestDatabase.start(G)) {
            TestDatabase.execute(big.ds, """
                    insert into releases (group_name, poster, name, files_present, files_complete, bytes, posted,
                                          completion_percent, complete, rule_version, category, title, season, episode,
                                          episode_kind, last_episode)
                    select 'alt.binaries.test', 'p', 'Show.' || (i % 500) || '.S0' || (i % 9) || 'E' || (i % 20)
                           || 'E' || (i % 20 + 2) || '.720p-GRP' || i,
                           1, 1, 1, timestamptz '2026-12-01 00:00:00+00' - i * interval '1 minute', 100, true, 1,
                           5040, 'Show', i % 9, (i % 20)::text, 'multi', i % 20 + 2
                    from generate_series(1, 2000) as i;
                    analyze releases;
                    """);
            String plan;
            try (Connection c = big.ds.getConnection()) {
                Jdbc.one(c, "select set_config('enable_seqscan', 'off', false)", rs -> rs.getString(1));
                plan = String.join(
                        "\n",
                        Jdbc.list(
                                c,
                                // what ReleaseSearch's plan of every match runs (its other plan reads newest first)
                                "explain select name from releases where release_search_terms(search_words, posted) @@ lower(?)::tsquery",
                                rs -> rs.getString(1),
                                "'show' & '42' & '#s3' & '#e13'"));
            }
            assertThat(plan).contains("releases_search_terms").doesNotContain("Seq Scan");
        }
    }
}
