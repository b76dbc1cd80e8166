package headway.web;

import static org.assertj.core.api.Assertions.assertThat;

import headway.catalog.ReleaseEvidence;
import headway.category.CategoryRules;
import headway.index.CompletedBinary;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Replays the request sequences Sonarr, Radarr, Prowlarr and NZBHydra2 make, as their source builds
 * them, against a catalog of releases of every shape (a standard series, a multi-episode release,
 * a season pack, a special, a daily show in three name forms, anime by absolute number in three
 * widths, a film with its year, a film whose files gave an IMDb id), each buried under more newer
 * releases of its category than a page holds, and checks that the right release is on the first
 * page of the first tier that answers (a client stops at the first tier with results).
 *
 * <p>Sources, read for this test: Sonarr {@code NewznabRequestGenerator} (49df353: tvsearch with
 * {@code q}, {@code season} ({@code 00} for specials), {@code ep}; daily {@code season=yyyy&ep=MM/dd},
 * daily season {@code season=yyyy}; anime {@code t=search&q=Title+{abs:00}} then, with the
 * standard-format option, {@code t=tvsearch&q=Title&season&ep}; {@code offset=page*100&limit=100}
 * up to 30 pages, ending at a short page: {@code HttpIndexerBase}); Radarr's (1b9662d: {@code
 * t=movie&imdbid=<digits>} when caps offers imdbid, then a tier of {@code t=search&q=Title Year},
 * without the year when "remove year" is set); Prowlarr's (0ffcfcc: the app's season, ep, imdbid
 * passed on after {@code t=...&extended=1&cat=}, the title's {@code +} written as {@code %20});
 * NZBHydra2's {@code Newznab.buildSearchUrl} (07f7423: {@code t, extended, q, season, ep,
 * password, cat, limit=1000, offset}, paging by the response's total).
 */
class ClientSearchReplayTest {

    private static final String STANDARD = "Some.Show.S01E05.720p.WEB-GRP";
    private static final String MULTI = "Series.Title.S02E06E07.720p.HDTV.x264-GRP";
    private static final String PACK = "Pack.Show.S03.1080p.WEB-DL-GRP";
    private static final String PACK_EPISODE = "Pack.Show.S03E04.1080p.WEB-DL-GRP";
    /** Packs of several seasons, as scene and as people write them. */
    private static final String RANGE_PACK = "Range.Show.S01-S03.1080p.BluRay.x264-GRP";

    private static final String RANGE_WORDS = "Range Show Season 4-5 720p WEB-DL-GRP";
    private static final String COMPLETE = "Whole.Show.Complete.Series.1080p.BluRay.x264-GRP";
    private static final String WHOLE_EPISODE = "Whole.Show.S02E03.720p.HDTV.x264-GRP";
    private static final String SPECIAL = "Some.Show.S00E02.Special.720p.WEB-GRP";
    private static final String DAILY_DOTTED = "Daily.Talk.2026.04.12.720p.HDTV-GRP";
    private static final String DAILY_SHORT = "Daily.Talk.260413.720p.WEB-GRP";
    private static final String DAILY_WORDS = "Daily Talk 10th Mar 2026 720p WEB-GRP";
    private static final String ANIME = "[SubGroup] Anime Title - 12 [720p]";
    private static final String ANIME_PADDED = "Anime Title - 004 [480p][48CE2D0F]";
    private static final String ANIME_LONG = "[SubGroup] Anime Title - 101 [1080p]";
    private static final String FILM = "A.Film.Title.2019.1080p.BluRay.x264-GRP";
    private static final String FILM_BY_ID = "The.Old.Picture.1965.720p.BluRay.x264-GRP";
    private static final String FILM_ID = "0058935";
    /** Another release of the film whose files gave an IMDb id, without one of its own. */
    private static final String FILM_BY_ID_ALSO = "The.Old.Picture.1965.1080p.BluRay.x264-OTHER";

    /** An obfuscated post of the standard series that inspection named, with the TheTVDB id its NFO links. */
    private static final String TOKEN = "5f0e3c1b9a7d4e2f8c6b0a1d3e5f7a9b";

    private static final String TOKEN_NAME = "Some.Show.S01E06.720p.WEB-GRP";
    private static final long TVDB = 81189;

    /** Newer releases per category than a page holds, so a search that filters nothing shows none of the above. */
    private static final int FILLERS = 110;

    private static final String SONARR_TV = "5030,5040";
    private static final String SONARR_ANIME = "5070";
    private static final String RADARR_MOVIES = "2000,2010,2020,2030,2040,2045,2050,2060";

    private static ServedCatalog served;
    private static String key;

    @BeforeAll
    static void serve() throws Exception {
        served = ServedCatalog.start();
        key = served.stores.apiKeys().add("replay", null, null);
        Instant old = ServedCatalog.POSTED.minusSeconds(30L * 86_400);
        List<CompletedBinary> binaries = new ArrayList<>();
        List<String> shapes = List.of(
                STANDARD,
                MULTI,
                PACK,
                PACK_EPISODE,
                RANGE_PACK,
                RANGE_WORDS,
                COMPLETE,
                WHOLE_EPISODE,
                SPECIAL,
                DAILY_DOTTED,
                DAILY_SHORT,
                DAILY_WORDS,
                ANIME,
                ANIME_PADDED,
                ANIME_LONG,
                FILM,
                FILM_BY_ID,
                FILM_BY_ID_ALSO,
                TOKEN);
        for (int i = 0; i < shapes.size(); i++) {
            binaries.add(ServedCatalog.single(shapes.get(i), 700_000_000, old.plusSeconds(i)));
        }
        Instant newer = ServedCatalog.POSTED.plusSeconds(86_400);
        List<IntFunction<String>> fillers = List.of(
                i -> "Other.Show.S01E05.720p.WEB-GRP" + i,
                i -> "Other.Show.S02E07.720p.HDTV.x264-GRP" + i,
                i -> "Other.Talk.2026.04.12.720p.HDTV-GRP" + i,
                i -> "[SubGroup] Other Anime - 12 [720p] v" + i,
                i -> "Other.Film.2019.1080p.BluRay.x264-GRP" + i);
        for (IntFunction<String> filler : fillers) {
            for (int i = 0; i < FILLERS; i++) {
                binaries.add(ServedCatalog.single(filler.apply(i), 1_000_000, newer.plusSeconds(i)));
            }
        }
        ServedCatalog.write(served.stores, binaries);
        assertThat(ReleaseEvidence.record(
                        served.stores.dataSource(),
                        ServedCatalog.G,
                        ServedCatalog.POSTER,
                        FILM_BY_ID,
                        new ReleaseEvidence.Evidence(null, null, 0, "tt" + FILM_ID),
                        CategoryRules.defaults(),
                        0))
                .isEqualTo(ReleaseEvidence.Outcome.CHANGED);
        assertThat(ReleaseEvidence.record(
                        served.stores.dataSource(),
                        ServedCatalog.G,
                        ServedCatalog.POSTER,
                        TOKEN,
                        new ReleaseEvidence.Evidence(TOKEN_NAME, "nfo", 0, null, TVDB, 169L),
                        CategoryRules.defaults(),
                        0))
                .isEqualTo(ReleaseEvidence.Outcome.CHANGED);
    }

    @AfterAll
    static void stop() {
        served.close();
    }

    // --- Sonarr -------------------------------------------------------------------------------

    @Test
    void sonarrFindsAStandardEpisode() throws Exception {
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Some%20Show&season=1&ep=5"))
                .contains(STANDARD);
    }

    /**
     * Caps offers tvdbid, so Sonarr asks by id first (AddTvIdPageableRequests) and by title only
     * when the id tier finds nothing: the id finds the release whose NFO linked it and the other
     * releases of its title.
     */
    @Test
    void sonarrFindsAnEpisodeByTheSeriesIdFirst() throws Exception {
        assertThat(sonarrById("&tvdbid=" + TVDB + "&season=1&ep=6", "&q=Some%20Show&season=1&ep=6"))
                .containsExactly(TOKEN_NAME);
        assertThat(sonarrById("&tvdbid=" + TVDB + "&season=1&ep=5", "&q=Some%20Show&season=1&ep=5"))
                .containsExactly(STANDARD);
        assertThat(sonarr("tvsearch", SONARR_TV, "&tvdbid=" + TVDB + "&season=1&ep=5"))
                .containsExactly(STANDARD);
        // the season of the series (ServedCatalog holds its episodes 1 and 2 as well)
        assertThat(sonarr("tvsearch", SONARR_TV, "&tvmazeid=169&season=1"))
                .contains(STANDARD, TOKEN_NAME)
                .allMatch(t -> t.startsWith("Some.Show.S01E"));
        // an id no release carries finds nothing, so the title tier answers
        assertThat(sonarr("tvsearch", SONARR_TV, "&tvdbid=999999&season=1&ep=5"))
                .isEmpty();
        assertThat(sonarrById("&tvdbid=999999&season=1&ep=5", "&q=Some%20Show&season=1&ep=5"))
                .containsExactly(STANDARD);
    }

    @Test
    void sonarrFindsAMultiEpisodeReleaseByEachEpisodeItHolds() throws Exception {
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Series%20Title&season=2&ep=6"))
                .containsExactly(MULTI);
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Series%20Title&season=2&ep=7"))
                .containsExactly(MULTI);
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Series%20Title&season=2&ep=8"))
                .isEmpty();
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Series%20Title&season=2&ep=5"))
                .isEmpty();
    }

    @Test
    void sonarrFindsASeasonPackAndTheSeasonsEpisodesBySeasonAlone() throws Exception {
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Pack%20Show&season=3"))
                .containsExactlyInAnyOrder(PACK, PACK_EPISODE);
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Pack%20Show&season=3&ep=4"))
                .containsExactly(PACK_EPISODE);
    }

    /** GetSearchRequests(SeasonSearchCriteria): {@code season=N} alone, for each season a multi-season pack holds. */
    @Test
    void sonarrFindsAMultiSeasonPackByEachSeasonItHolds() throws Exception {
        for (int season = 1; season <= 3; season++) {
            assertThat(sonarr("tvsearch", SONARR_TV, "&q=Range%20Show&season=" + season))
                    .as("season %d", season)
                    .containsExactly(RANGE_PACK);
        }
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Range%20Show&season=4")).containsExactly(RANGE_WORDS);
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Range%20Show&season=5")).containsExactly(RANGE_WORDS);
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Range%20Show&season=6")).isEmpty();
        assertThat(hydra("tvsearch", "&q=Range%20Show&season=2", SONARR_TV)).containsExactly(RANGE_PACK);
    }

    /** A pack of the whole series answers a search by any season alone, never one by an episode. */
    @Test
    void sonarrFindsACompleteSeriesPackByAnySeason() throws Exception {
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Whole%20Show&season=1")).containsExactly(COMPLETE);
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Whole%20Show&season=2"))
                .containsExactlyInAnyOrder(COMPLETE, WHOLE_EPISODE);
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Whole%20Show&season=2&ep=3"))
                .containsExactly(WHOLE_EPISODE);
    }

    @Test
    void sonarrFindsASpecialBySeasonZeroWrittenAsTwoZeros() throws Exception {
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Some%20Show&season=00&ep=2"))
                .containsExactly(SPECIAL);
    }

    @Test
    void sonarrFindsADailyEpisodeByItsAirDateInEachNameForm() throws Exception {
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Daily%20Talk&season=2026&ep=04/12"))
                .containsExactly(DAILY_DOTTED);
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Daily%20Talk&season=2026&ep=04/13"))
                .containsExactly(DAILY_SHORT);
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Daily%20Talk&season=2026&ep=03/10"))
                .containsExactly(DAILY_WORDS);
    }

    @Test
    void sonarrFindsADailyShowsYearBySeasonAlone() throws Exception {
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Daily%20Talk&season=2026"))
                .containsExactlyInAnyOrder(DAILY_DOTTED, DAILY_SHORT, DAILY_WORDS);
    }

    /**
     * {@code season=<yyyy>&ep=<MM>}: a whole month of a daily show, in every name form; no client
     * of the four sends it (Sonarr's daily forms are {@code ep=MM/dd} and the year alone), but the
     * newznab form is the client's to choose, and the month costs no filter word of its own.
     */
    @Test
    void aDailyShowsMonthIsFoundBySeasonAndTwoDigitEpisode() throws Exception {
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Daily%20Talk&season=2026&ep=04"))
                .containsExactlyInAnyOrder(DAILY_DOTTED, DAILY_SHORT);
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Daily%20Talk&season=2026&ep=3"))
                .containsExactly(DAILY_WORDS);
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Daily%20Talk&season=2026&ep=05"))
                .isEmpty();
        assertThat(sonarr("tvsearch", SONARR_TV, "&q=Daily%20Talk&season=2025&ep=04"))
                .isEmpty();
        assertThat(hydra("tvsearch", "&q=Daily%20Talk&season=2026&ep=04", SONARR_TV))
                .containsExactlyInAnyOrder(DAILY_DOTTED, DAILY_SHORT);
    }

    /** GetSearchRequests(AnimeEpisodeSearchCriteria): t=search with q=Title+{abs:00}, in the anime categories. */
    @Test
    void sonarrFindsAnimeByAbsoluteEpisodeInEveryWidth() throws Exception {
        assertThat(sonarr("search", SONARR_ANIME, "&q=Anime%20Title+12")).containsExactly(ANIME);
        assertThat(sonarr("search", SONARR_ANIME, "&q=Anime%20Title+04")).containsExactly(ANIME_PADDED);
        assertThat(sonarr("search", SONARR_ANIME, "&q=Anime%20Title+101")).containsExactly(ANIME_LONG);
        assertThat(sonarr("search", SONARR_ANIME, "&q=Anime%20Title+13")).isEmpty();
    }

    // --- Radarr -------------------------------------------------------------------------------

    /**
     * Caps offers imdbid, so Radarr asks by id first and by title and year only when the id finds
     * nothing: the id finds the release whose files gave it and the film's other releases too.
     */
    @Test
    void radarrFindsAFilmByItsImdbIdFirst() throws Exception {
        assertThat(radarr(FILM_ID, "The%20Old%20Picture%201965"))
                .containsExactlyInAnyOrder(FILM_BY_ID, FILM_BY_ID_ALSO);
    }

    /** The film's files gave no id, so the id tier finds nothing and the title tier answers, with the year or without. */
    @Test
    void radarrFindsAFilmWithoutAnIdByTitleAndYearAndWithoutTheYear() throws Exception {
        assertThat(radarr("0111161", "A%20Film%20Title%202019")).containsExactly(FILM);
        assertThat(radarr("0111161", "A%20Film%20Title")).containsExactly(FILM);
        assertThat(radarr("0111161", "A%20Film%20Title%202018")).isEmpty();
    }

    // --- Prowlarr -----------------------------------------------------------------------------

    @Test
    void prowlarrPassesTheAppsSearchesOn() throws Exception {
        assertThat(prowlarr("tvsearch", SONARR_TV, "&q=Series%20Title&season=2&ep=7"))
                .containsExactly(MULTI);
        assertThat(prowlarr("tvsearch", SONARR_TV, "&q=Daily%20Talk&season=2026&ep=04%2F12"))
                .containsExactly(DAILY_DOTTED);
        assertThat(prowlarr("tvsearch", SONARR_TV, "&q=Pack%2520Show&season=3"))
                .containsExactlyInAnyOrder(PACK, PACK_EPISODE);
        assertThat(prowlarr("search", SONARR_ANIME, "&q=Anime%2520Title%252004"))
                .containsExactly(ANIME_PADDED);
        assertThat(prowlarr("movie", RADARR_MOVIES, "&imdbid=" + FILM_ID))
                .containsExactlyInAnyOrder(FILM_BY_ID, FILM_BY_ID_ALSO);
        assertThat(prowlarr("search", RADARR_MOVIES, "&q=A%2520Film%2520Title%25202019"))
                .containsExactly(FILM);
    }

    // --- NZBHydra2 ----------------------------------------------------------------------------

    @Test
    void nzbhydraFindsEachShapeWithItsParameterOrder() throws Exception {
        assertThat(hydra("tvsearch", "&q=Some%20Show&season=1&ep=5", SONARR_TV)).containsExactly(STANDARD);
        assertThat(hydra("tvsearch", "&q=Series%20Title&season=2&ep=7", SONARR_TV))
                .containsExactly(MULTI);
        assertThat(hydra("tvsearch", "&q=Daily%20Talk&season=2026&ep=04/12", SONARR_TV))
                .containsExactly(DAILY_DOTTED);
        assertThat(hydra("tvsearch", "&q=Pack%20Show&season=3", SONARR_TV))
                .containsExactlyInAnyOrder(PACK, PACK_EPISODE);
        assertThat(hydra("search", "&q=Anime%20Title%20101", SONARR_ANIME)).containsExactly(ANIME_LONG);
        assertThat(hydra("movie", "&imdbid=tt" + FILM_ID, "2000"))
                .containsExactlyInAnyOrder(FILM_BY_ID, FILM_BY_ID_ALSO);
        assertThat(hydra("search", "&q=A%20Film%20Title%202019", "2000")).containsExactly(FILM);
    }

    // --- items --------------------------------------------------------------------------------

    @Test
    void itemsCarryTheAttributesClientsRead() throws Exception {
        Element daily = only(get("t=tvsearch&extended=1&q=Daily%20Talk&season=2026&ep=04/12"));
        assertThat(attr(daily, "season")).isEqualTo("2026");
        assertThat(attr(daily, "episode")).isEqualTo("04/12");
        assertThat(attr(daily, "tvairdate")).isEqualTo("Sun, 12 Apr 2026 00:00:00 +0000");
        Element multi = only(get("t=tvsearch&extended=1&q=Series%20Title&season=2&ep=7"));
        assertThat(attr(multi, "season")).isEqualTo("2");
        assertThat(attr(multi, "episode")).isEqualTo("6");
        assertThat(attr(multi, "tvairdate")).isNull();
        Element film = only(get("t=movie&q=Picture%20x264%20GRP&imdbid=" + FILM_ID));
        assertThat(attr(film, "imdb")).isEqualTo(FILM_ID);
        Element named = only(get("t=tvsearch&tvdbid=" + TVDB + "&season=1&ep=6"));
        assertThat(attr(named, "tvdbid")).isEqualTo(Long.toString(TVDB));
        assertThat(attr(named, "tvmazeid")).isEqualTo("169");
    }

    // --- the clients' pagers ------------------------------------------------------------------

    /**
     * Sonarr's chain for one search: the first page of {@code offset=0&limit=100} as it builds it
     * (base, then paging, then the search's parameters), paged on while pages are full, at most 30.
     * Returns the titles of the first page, after checking that later pages add nothing to it.
     */
    private static List<String> sonarr(String t, String cats, String params) throws Exception {
        List<String> first = null;
        for (int page = 0; page < 30; page++) {
            List<String> titles = NewznabApiTest.titles(get("t=" + t + "&cat=" + cats + "&extended=1&apikey=" + key
                    + "&offset=" + page * 100 + "&limit=100" + params));
            if (first == null) {
                first = titles;
            }
            if (titles.size() < 100) {
                break;
            }
        }
        return first;
    }

    /** Sonarr's chain for an episode when caps offers tvdbid: a tier by id, then a tier by title. */
    private static List<String> sonarrById(String idParams, String titleParams) throws Exception {
        List<String> byId = sonarr("tvsearch", SONARR_TV, idParams);
        return !byId.isEmpty() ? byId : sonarr("tvsearch", SONARR_TV, titleParams);
    }

    /**
     * Radarr's chain for a film (its pager is Sonarr's): a tier of t=movie by IMDb id (digits, the
     * tt cut off), then, only when that found nothing, a tier of t=search by title and year.
     */
    private static List<String> radarr(String imdbDigits, String titleAndYear) throws Exception {
        List<String> byId = sonarr("movie", RADARR_MOVIES, "&imdbid=" + imdbDigits);
        return !byId.isEmpty() ? byId : sonarr("search", RADARR_MOVIES, "&q=" + titleAndYear);
    }

    /** Prowlarr's URL: t and extended, then cat, the key, then the parameters, limit and offset last. */
    private static List<String> prowlarr(String t, String cats, String params) throws Exception {
        return NewznabApiTest.titles(
                get("t=" + t + "&extended=1&cat=" + cats + "&apikey=" + key + params + "&limit=100&offset=0"));
    }

    /** NZBHydra2's URL: t, extended, q, season, ep, password, cat, limit=1000, offset; pages while total says more. */
    private static List<String> hydra(String t, String params, String cats) throws Exception {
        List<String> first = null;
        int offset = 0;
        while (true) {
            Document d = get("apikey=" + key + "&t=" + t + "&extended=1" + params + "&password=0&cat=" + cats
                    + "&limit=1000&offset=" + offset);
            List<String> titles = NewznabApiTest.titles(d);
            if (first == null) {
                first = titles;
            }
            Element response = (Element)
                    d.getElementsByTagNameNS(Newznab.NEWZNAB_NS, "response").item(0);
            offset += titles.size();
            if (titles.isEmpty() || offset >= Integer.parseInt(response.getAttribute("total"))) {
                return first;
            }
        }
    }

    private static Document get(String query) throws Exception {
        String q = query.contains("apikey=") ? query : query + "&apikey=" + key;
        HttpResponse<String> r = served.get("/api?" + q);
        assertThat(r.statusCode()).as(q + ": " + r.body()).isEqualTo(200);
        return NewznabApiTest.xml(r.body());
    }

    private static Element only(Document d) {
        NodeList items = d.getElementsByTagName("item");
        assertThat(items.getLength()).isEqualTo(1);
        return (Element) items.item(0);
    }

    private static String attr(Element item, String name) {
        NodeList attrs = item.getElementsByTagNameNS(Newznab.NEWZNAB_NS, "attr");
        for (int i = 0; i < attrs.getLength(); i++) {
            Element a = (Element) attrs.item(i);
            if (a.getAttribute("name").equals(name)) {
                return a.getAttribute("value");
            }
        }
        return null;
    }
}
