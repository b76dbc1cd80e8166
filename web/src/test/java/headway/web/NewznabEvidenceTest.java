package headway.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import headway.catalog.Release;
import headway.catalog.ReleaseEvidence;
import headway.catalog.ReleaseEvidence.Evidence;
import headway.catalog.ReleaseGuids;
import headway.category.CategoryRules;
import headway.simulator.HostileText;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Releases named from their files, black-box over HTTP: the item's title is the real name and its
 * old token still finds it; {@code password} on every item, {@code imdb} where known;
 * {@code t=movie&imdbid=} in the forms clients send, and every other imdbid refused as the spec's
 * error 201, never a 5xx; the same in JSON, the NZB's name and the search page.
 */
class NewznabEvidenceTest {

    private static final String TOKEN = "0f25d3b888aa4be44ff48d9cda8a0275";
    private static final String FILM = "Named.Film.1964.1080p.BluRay.x264-GRP";
    private static final String SHOW_TOKEN = "77c1e0a9d3b2f4e5a6b7c8d9e0f1a2b3";
    private static final String SHOW = "Hidden.Show.S04E07.720p.WEB.h264-GRP";

    private static ServedCatalog served;
    private static String key;
    private static String filmGuid;

    @BeforeAll
    static void serve() throws Exception {
        served = ServedCatalog.start();
        key = served.stores.apiKeys().add("evidence", null, null);
        ServedCatalog.write(
                served.stores,
                List.of(
                        ServedCatalog.single(TOKEN, 4_000_000, ServedCatalog.POSTED.plusSeconds(3600)),
                        ServedCatalog.single(SHOW_TOKEN, 2_000_000, ServedCatalog.POSTED.plusSeconds(3700))));
        assertThat(ReleaseEvidence.record(
                        served.stores.dataSource(),
                        ServedCatalog.G,
                        ServedCatalog.POSTER,
                        TOKEN,
                        new Evidence(FILM, "nfo+par2", 1, "tt0058935"),
                        CategoryRules.defaults(),
                        0))
                .isEqualTo(ReleaseEvidence.Outcome.CHANGED);
        assertThat(ReleaseEvidence.record(
                        served.stores.dataSource(),
                        ServedCatalog.G,
                        ServedCatalog.POSTER,
                        SHOW_TOKEN,
                        new Evidence(SHOW, "par2", 2, null),
                        CategoryRules.defaults(),
                        0))
                .isEqualTo(ReleaseEvidence.Outcome.CHANGED);
        Release film = served.stores.releases().named(TOKEN).get(0);
        filmGuid = ReleaseGuids.of(film);
    }

    @AfterAll
    static void stop() {
        served.close();
    }

    private static HttpResponse<String> api(String query) throws Exception {
        return served.get("/api?" + query + "&apikey=" + key);
    }

    private static Document search(String query) throws Exception {
        HttpResponse<String> r = api(query);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return NewznabApiTest.xml(r.body());
    }

    private static List<Element> items(Document d) {
        NodeList nodes = d.getElementsByTagName("item");
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add((Element) nodes.item(i));
        }
        return out;
    }

    private static String text(Element e, String child) {
        return e.getElementsByTagName(child).item(0).getTextContent();
    }

    private static List<String> titles(Document d) {
        return items(d).stream().map(i -> text(i, "title")).toList();
    }

    private static Map<String, String> attrs(Element item) {
        Map<String, String> out = new TreeMap<>();
        NodeList nodes = item.getElementsByTagNameNS(Newznab.NEWZNAB_NS, "attr");
        for (int i = 0; i < nodes.getLength(); i++) {
            Element a = (Element) nodes.item(i);
            out.merge(a.getAttribute("name"), a.getAttribute("value"), (x, y) -> x + "," + y);
        }
        return out;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void aNamedReleaseIsTitledByItsRealNameAndFoundByItAndByItsToken() throws Exception {
        assertThat(titles(search("t=search&q=named+film+1964"))).containsExactly(FILM);
        assertThat(titles(search("t=movie&q=named+film"))).containsExactly(FILM);
        assertThat(titles(search("t=search&q=" + TOKEN))).containsExactly(FILM);
        assertThat(titles(search("t=tvsearch&q=hidden+show&season=4&ep=7"))).containsExactly(SHOW);
        Element film = items(search("t=search&q=" + TOKEN)).get(0);
        assertThat(text(film, "description")).isEqualTo(FILM + " (posted as " + TOKEN + ")");
        assertThat(text(film, "guid")).isEqualTo(filmGuid);
        assertThat(text(film, "category")).isEqualTo("Movies > HD");
    }

    @Test
    void passwordIsOnEveryItemAndImdbWhereKnown() throws Exception {
        for (String extended : new String[] {"", "&extended=1"}) {
            Map<String, String> film =
                    attrs(items(search("t=movie&q=named+film" + extended)).get(0));
            assertThat(film).containsEntry("password", "1").containsEntry("imdb", "0058935");
            Map<String, String> show =
                    attrs(items(search("t=search&q=hidden+show" + extended)).get(0));
            assertThat(show).containsEntry("password", "2").doesNotContainKey("imdb");
            Map<String, String> plain = attrs(
                    items(search("t=search&q=some+show+s01e01" + extended)).get(0));
            assertThat(plain).containsEntry("password", "0").doesNotContainKey("imdb");
        }
        Map<String, String> details =
                attrs(items(search("t=details&id=" + filmGuid)).get(0));
        assertThat(details)
                .containsEntry("password", "1")
                .containsEntry("imdb", "0058935")
                .containsEntry("year", "1964");
    }

    @Test
    void movieSearchByImdbIdInTheFormsClientsSend() throws Exception {
        for (String id : new String[] {"tt0058935", "0058935", "58935", "TT0058935"}) {
            assertThat(titles(search("t=movie&imdbid=" + id))).as(id).containsExactly(FILM);
        }
        assertThat(titles(search("t=movie&imdbid=0058935&q=named"))).containsExactly(FILM);
        assertThat(titles(search("t=movie&imdbid=0058935&q=hidden"))).isEmpty();
        assertThat(titles(search("t=movie&imdbid=0058935&cat=5000"))).isEmpty();
        assertThat(titles(search("t=movie&imdbid=tt0058936"))).isEmpty();
        assertThat(titles(search("t=movie&imdbid=")))
                .as("an empty imdbid is no filter")
                .contains(FILM);
    }

    @Test
    void jsonCarriesTheSame() throws Exception {
        HttpResponse<String> r = api("t=movie&imdbid=0058935&o=json");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode item = new ObjectMapper()
                .readTree(r.body())
                .path("channel")
                .path("item")
                .get(0);
        assertThat(item.path("title").asText()).isEqualTo(FILM);
        Map<String, String> a = new TreeMap<>();
        item.path("attr")
                .forEach(n -> a.merge(
                        n.path("@attributes").path("name").asText(),
                        n.path("@attributes").path("value").asText(),
                        (x, y) -> x + "," + y));
        assertThat(a).containsEntry("password", "1").containsEntry("imdb", "0058935");
    }

    @Test
    void theNzbIsNamedByTheRealName() throws Exception {
        HttpResponse<String> r = api("t=get&id=" + filmGuid);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("X-DNZB-Name")).contains(FILM);
        assertThat(r.headers().firstValue("Content-Disposition").orElseThrow()).contains(FILM + ".nzb");
        assertThat(r.body()).contains(TOKEN + ".mkv");
    }

    @Test
    void hostileImdbIdsAreTheSpecsError201() throws Exception {
        String[] bad = {
            "tt",
            "abc",
            "tt-1",
            "0",
            "tt0000000",
            "12345678901",
            "\u0661\u0662\u0663",
            "\uff10\uff15\uff18",
            "1e5",
            "tt0058935'--",
            "tt0058935 OR 1=1",
            "'",
            "tt0058935,tt0058936",
            "tt0058935\u202e",
            "%",
            "x".repeat(1999),
            "\ud83d\ude00"
        };
        for (String id : bad) {
            HttpResponse<String> r = api("t=movie&imdbid=" + enc(id));
            String what = id.substring(0, Math.min(40, id.length()));
            assertThat(r.statusCode()).as(what + ": " + r.body()).isEqualTo(400);
            Element error = NewznabApiTest.xml(r.body()).getDocumentElement();
            assertThat(error.getTagName()).as(what).isEqualTo("error");
            assertThat(error.getAttribute("code")).as(what).isEqualTo("201");
            assertThat(error.getAttribute("description")).as(what).contains("imdbid");
        }
        Random random = new Random(4_105);
        for (int i = 0; i < 150; i++) {
            String id = (random.nextBoolean() ? "tt" : "") + HostileText.text(random, 1 + random.nextInt(12));
            HttpResponse<String> r = api("t=movie&imdbid=" + enc(id));
            assertThat(r.statusCode()).as("seed 4105, case %d: %s", i, r.body()).isIn(200, 400);
            Element root = NewznabApiTest.xml(r.body()).getDocumentElement();
            assertThat(root.getTagName()).as("seed 4105, case %d", i).isIn("rss", "error");
            if (root.getTagName().equals("error")) {
                assertThat(root.getAttribute("code")).isEqualTo("201");
            }
        }
    }

    @Test
    void theSearchPageShowsTheRealNameTheTokenAndThePassword() throws Exception {
        HttpResponse<String> page = served.get("/?q=" + TOKEN);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body())
                .contains(FILM)
                .contains("posted as " + TOKEN)
                .contains("<th>Password</th>")
                .contains("<td>passworded</td>");
        HttpResponse<String> details = served.get("/release/" + filmGuid);
        assertThat(details.statusCode()).isEqualTo(200);
        assertThat(details.body())
                .contains("<h2>" + FILM + "</h2>")
                .contains("nfo+par2")
                .contains("tt0058935")
                .contains(TOKEN);
    }
}
