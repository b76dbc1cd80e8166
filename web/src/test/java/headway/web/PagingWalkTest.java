package headway.web;

import static org.assertj.core.api.Assertions.assertThat;

import headway.index.CompletedBinary;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
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

    /** What {@link #aReleasePostedDuringAWalkSkipsNothingAndLandsOnPageOne} posts during its walk. */
    private static final String FRESH = "Walk.Show.S08E01.720p.WEB-GRP";

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
        // the other test may have posted FRESH already
        assertThat(first.stream().filter(t -> !t.equals(FRESH))).hasSize(SECONDS * SAME_SECOND);
        assertThat(hydraWalk("&q=Walk%20Show", null)).isEqualTo(first);
        List<String> season = sonarrWalk("&q=Walk%20Show&season=3", null);
        assertThat(season).hasSize(SAME_SECOND).isEqualTo(sonarrWalk("&q=Walk%20Show&season=3", null));
        // newest first; within a second by name: the order the releases' key gives
        assertThat(first.stream()
                        .filter(t -> !t.equals(FRESH))
                        .limit(SAME_SECOND)
                        .toList())
                .isSorted()
                .allMatch(t -> t.startsWith("Walk.Show.S07"));
    }

    /**
     * A release posted while a client walks lands on page 1 (newest first) and moves every later
     * release one place on: no release is skipped, and the one at the page boundary comes again at
     * the top of the next page, which the clients drop by guid (Sonarr's and Radarr's
     * {@code CleanupReleases}: {@code DistinctBy(v => v.Guid)}). The next walk starts with it.
     */
    @Test
    void aReleasePostedDuringAWalkSkipsNothingAndLandsOnPageOne() throws Exception {
        List<String> before = sonarrWalk("&q=Walk%20Show", null);
        List<String> during = sonarrWalk("&q=Walk%20Show", () -> post(FRESH));
        Set<String> distinct = new LinkedHashSet<>(during);
        assertThat(distinct).containsAll(before).doesNotContain(FRESH);
        assertThat(during).hasSize(before.size() + 1);
        assertThat(sonarrWalk("&q=Walk%20Show", null).get(0)).isEqualTo(FRESH);
    }

    private static void post(String name) {
        try {
            ServedCatalog.write(served.stores, List.of(ServedCatalog.single(name, 1_000_000, ServedCatalog.POSTED)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sonarr's walk of tvsearch: 100 a page until a short page; {@code between} runs once after the first page. */
    private static List<String> sonarrWalk(String params, Runnable between) throws Exception {
        List<String> all = new ArrayList<>();
        for (int page = 0; page < 30; page++) {
            List<String> titles = NewznabApiTest.titles(get("t=tvsearch&cat=5030,5040&extended=1&apikey=" + key
                    + "&offset=" + page * 100 + "&limit=100" + params));
            all.addAll(titles);
            if (page == 0 && between != null) {
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
        List<String> all = new ArrayList<>();
        int offset = 0;
        while (true) {
            Document d = get("t=tvsearch&extended=1" + params + "&password=0&cat=5030,5040&limit=1000&offset=" + offset
                    + "&apikey=" + key);
            List<String> titles = NewznabApiTest.titles(d);
            all.addAll(titles);
            if (offset == 0 && between != null) {
                between.run();
            }
            offset += titles.size();
            Element response = (Element)
                    d.getElementsByTagNameNS(Newznab.NEWZNAB_NS, "response").item(0);
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
