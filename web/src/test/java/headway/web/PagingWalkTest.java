package headway.web;

import static org.assertj.core.api.Assertions.assertThat;

import headway.index.CompletedBinary;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Paging as the clients walk it: Sonarr and Radarr ask {@code offset=page*100&limit=100} until a
 * short page (their {@code HttpIndexerBase}), NZBHydra2 {@code limit=1000} (served as 100) with
 * the offset moved on by the items it got while the total says there are more. The catalog has
 * many releases posted in the same second, so the order depends on its tie-breaker.
 */
class PagingWalkTest {

    /** Releases in each of the seconds the catalog's releases were posted in. */
    private static final int SAME_SECOND = 40;

    private static final int SECONDS = 7;

    /** The start of the names the walks post while they page: season 8 the newest, season 9 among the others. */
    private static final String FRESH = "Walk.Show.S0";

    /** Releases posted during walks so far, so every one has a name of its own. */
    private static final AtomicInteger POSTED = new AtomicInteger();

    private static ServedCatalog served;
    private static String key;

    @BeforeAll
    static void serve() throws Exception {
        served = ServedCatalog.start();
        key = served.stores.apiKeys().add("walker", null, null);
        List<CompletedBinary> binaries = new ArrayList<>();
        Instant at = ServedCatalog.POSTED.minusSeconds(86_400);
        for (int s = 0; s < SECONDS; s++) {
            for (int i = 0; i < SAME_SECOND; i++) {
                // names that sort otherwise than they were written, so insertion order cannot pass for the order
                int n = (i * 17 + s * 5) % SAME_SECOND;
                binaries.add(ServedCatalog.single(
                        "Walk.Show.S0" + (s + 1) + "E" + (10 + n) + ".720p.WEB-GRP", 1_000_000, at.plusSeconds(s)));
            }
        }
        ServedCatalog.write(served.stores, binaries);
    }

    @AfterAll
    static void stop() {
        served.close();
    }

    @Test
    void theSameSearchTwiceGivesTheSameOrder() throws Exception {
        List<String> first = sonarrWalk("&q=Walk%20Show", null);
        List<String> second = sonarrWalk("&q=Walk%20Show", null);
        assertThat(first).doesNotHaveDuplicates().isEqualTo(second);
        // the other tests may have posted fresh releases already
        assertThat(first.stream().filter(isFresh().negate())).hasSize(SECONDS * SAME_SECOND);
        assertThat(hydraWalk("&q=Walk%20Show", null)).isEqualTo(first);
        List<String> season = sonarrWalk("&q=Walk%20Show&season=3", null);
        assertThat(season).hasSize(SAME_SECOND).isEqualTo(sonarrWalk("&q=Walk%20Show&season=3", null));
        // newest first; within a second by name: the order the releases' key gives
        assertThat(first.stream().filter(isFresh().negate()).limit(SAME_SECOND).toList())
                .isSorted()
                .allMatch(t -> t.startsWith("Walk.Show.S07"));
    }

    /**
     * Releases posted while a client walks, one after every page, newest of all or among the
     * others, move nothing: the walk's later pages are read at its first page's horizon
     * ({@link WalkHorizons}), so no release is skipped or given twice and the total does not grow;
     * the next walk starts with what was posted. Before, each one moved every later release a
     * place on and the walk gave one release twice.
     */
    @Test
    void releasesPostedDuringASonarrWalkMoveNothingAndShowOnTheNextWalk() throws Exception {
        List<String> before = sonarrWalk("&q=Walk%20Show", null);
        int start = POSTED.get();
        List<String> during = sonarrWalk("&q=Walk%20Show", PagingWalkTest::postTwo);
        int posts = POSTED.get() - start;
        assertThat(posts).isGreaterThan(2);
        assertThat(during).doesNotHaveDuplicates().isEqualTo(before);
        List<String> after = sonarrWalk("&q=Walk%20Show", null);
        assertThat(after).doesNotHaveDuplicates().containsAll(before).hasSize(before.size() + 2 * posts);
        assertThat(after.get(0)).isEqualTo(newestPosted);
    }

    /** The same for NZBHydra2's walk by {@code total}: its total stays the first page's. */
    @Test
    void releasesPostedDuringAHydraWalkMoveNothingAndShowOnTheNextWalk() throws Exception {
        List<String> before = hydraWalk("&q=Walk%20Show", null);
        List<Long> totals = new ArrayList<>();
        List<String> during = hydraWalk("&q=Walk%20Show", PagingWalkTest::postTwo, totals);
        assertThat(during).doesNotHaveDuplicates().isEqualTo(before);
        assertThat(totals).hasSizeGreaterThan(2).containsOnly((long) before.size());
        List<String> after = hydraWalk("&q=Walk%20Show", null);
        assertThat(after).doesNotHaveDuplicates().containsAll(before);
        assertThat(after).hasSize(before.size() + 2 * totals.size());
    }

    /** A walk's pages hold still for its own search only: another search, or another key, sees what was posted. */
    @Test
    void aWalksHorizonHoldsOnlyItsOwnSearch() throws Exception {
        String other = served.stores.apiKeys().add("other-walker", null, null);
        List<String> first = titlesAt(key, "&q=Walk%20Show", 0);
        postTwo();
        assertThat(titlesAt(key, "&q=Walk%20Show", 100)).doesNotContainAnyElementsOf(first);
        assertThat(titlesAt(other, "&q=Walk%20Show", 100)).contains(first.get(99));
        assertThat(titlesAt(key, "&q=Walk%20Show&season=9", 0)).contains(lastMiddle);
        assertThat(titlesAt(key, "&q=Walk%20Show", 0).get(0)).isEqualTo(newestPosted);
    }

    private static volatile String newestPosted;
    private static volatile String lastMiddle;

    private static Predicate<String> isFresh() {
        return t -> t.startsWith(FRESH + "8") || t.startsWith(FRESH + "9");
    }

    /** Posts a release newer than all others and one among the others (posted between two of their seconds). */
    private static void postTwo() {
        int n = POSTED.incrementAndGet();
        String newest = FRESH + "8E" + (100 + n) + ".720p.WEB-GRP";
        String middle = FRESH + "9E" + (100 + n) + ".720p.WEB-GRP";
        Instant between = ServedCatalog.POSTED
                .minusSeconds(86_400)
                .plusSeconds(SECONDS / 2)
                .plusMillis(500);
        try {
            ServedCatalog.write(
                    served.stores,
                    List.of(
                            ServedCatalog.single(newest, 1_000_000, ServedCatalog.POSTED.plusSeconds(n)),
                            ServedCatalog.single(middle, 1_000_000, between)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        newestPosted = newest;
        lastMiddle = middle;
    }

    private static List<String> titlesAt(String apiKey, String params, int offset) throws Exception {
        return NewznabApiTest.titles(get(
                "t=tvsearch&cat=5030,5040&extended=1&apikey=" + apiKey + "&offset=" + offset + "&limit=100" + params));
    }

    /** Sonarr's walk of tvsearch: 100 a page until a short page; {@code between} runs once after the first page. */
    private static List<String> sonarrWalk(String params, Runnable between) throws Exception {
        List<String> all = new ArrayList<>();
        for (int page = 0; page < 30; page++) {
            List<String> titles = NewznabApiTest.titles(get("t=tvsearch&cat=5030,5040&extended=1&apikey=" + key
                    + "&offset=" + page * 100 + "&limit=100" + params));
            all.addAll(titles);
            if (between != null) {
                between.run();
            }
            if (titles.size() < 100) {
                break;
            }
        }
        return all;
    }

    /** NZBHydra2's walk: limit=1000, the offset moved on by the items received while the total says there are more. */
    private static List<String> hydraWalk(String params, Runnable between) throws Exception {
        return hydraWalk(params, between, new ArrayList<>());
    }

    /** As {@link #hydraWalk(String, Runnable)}, noting each page's total in {@code totals}. */
    private static List<String> hydraWalk(String params, Runnable between, List<Long> totals) throws Exception {
        List<String> all = new ArrayList<>();
        int offset = 0;
        while (true) {
            Document d = get("t=tvsearch&extended=1" + params + "&password=0&cat=5030,5040&limit=1000&offset=" + offset
                    + "&apikey=" + key);
            List<String> titles = NewznabApiTest.titles(d);
            all.addAll(titles);
            if (between != null) {
                between.run();
            }
            offset += titles.size();
            Element response = (Element)
                    d.getElementsByTagNameNS(Newznab.NEWZNAB_NS, "response").item(0);
            totals.add(Long.parseLong(response.getAttribute("total")));
            if (titles.isEmpty() || offset >= Integer.parseInt(response.getAttribute("total"))) {
                return all;
            }
        }
    }

    private static Document get(String query) throws Exception {
        HttpResponse<String> r = served.get("/api?" + query);
        assertThat(r.statusCode()).as(query + ": " + r.body()).isEqualTo(200);
        return NewznabApiTest.xml(r.body());
    }
}
