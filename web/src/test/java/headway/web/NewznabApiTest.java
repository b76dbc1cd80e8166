package headway.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import headway.catalog.AvailabilityStore;
import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The newznab API as Sonarr, Radarr, Prowlarr and NZBHydra2 use it, black-box over HTTP: caps,
 * searches with and without q, tv-search, get, details, JSON, the errors of the spec for bad
 * input, and the daily limits (429 with Retry-After).
 */
class NewznabApiTest {

    private static ServedCatalog served;
    private static String key;
    private static String revoked;

    @BeforeAll
    static void serve() throws Exception {
        served = ServedCatalog.start();
        key = served.stores.apiKeys().add("test", null, null);
        revoked = served.stores.apiKeys().add("gone", null, null);
        served.stores.apiKeys().revoke("gone");
    }

    @AfterAll
    static void stop() {
        served.close();
    }

    static Document xml(String body) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> elements(Document d, String name) {
        NodeList nodes = d.getElementsByTagName(name);
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add((Element) nodes.item(i));
        }
        return out;
    }

    private static List<Element> children(Element e, String name) {
        List<Element> out = new ArrayList<>();
        NodeList nodes = e.getElementsByTagName(name);
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add((Element) nodes.item(i));
        }
        return out;
    }

    /** The newznab:attr values of an item by name (repeated names joined with a comma). */
    private static Map<String, String> attrs(Element item) {
        Map<String, String> out = new TreeMap<>();
        NodeList nodes = item.getElementsByTagNameNS(Newznab.NEWZNAB_NS, "attr");
        for (int i = 0; i < nodes.getLength(); i++) {
            Element a = (Element) nodes.item(i);
            out.merge(a.getAttribute("name"), a.getAttribute("value"), (x, y) -> x + "," + y);
        }
        return out;
    }

    private static String text(Element e, String child) {
        return children(e, child).get(0).getTextContent();
    }

    private static HttpResponse<String> api(String query) throws Exception {
        return served.get("/api?" + query);
    }

    private static Document search(String query) throws Exception {
        HttpResponse<String> r = api(query + "&apikey=" + key);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return xml(r.body());
    }

    /** The titles of a feed's items, in order. */
    static List<String> titles(Document d) {
        return elements(d, "item").stream().map(i -> text(i, "title")).toList();
    }

    @Test
    void capsNeedsNoKeyAndStatesLimitsSearchesAndCategories() throws Exception {
        HttpResponse<String> r = api("t=caps");
        assertThat(r.statusCode()).isEqualTo(200);
        Document d = xml(r.body());
        Element limits = elements(d, "limits").get(0);
        assertThat(limits.getAttribute("max")).isEqualTo("100");
        assertThat(limits.getAttribute("default")).isEqualTo("50");
        assertThat(elements(d, "retention").get(0).getAttribute("days")).matches("\\d+");
        Element search = elements(d, "search").get(0);
        assertThat(search.getAttribute("available")).isEqualTo("yes");
        assertThat(search.getAttribute("supportedParams")).isEqualTo("q");
        assertThat(elements(d, "tv-search").get(0).getAttribute("supportedParams"))
                .isEqualTo("q,season,ep,tvdbid,tvmazeid");
        assertThat(elements(d, "movie-search").get(0).getAttribute("supportedParams"))
                .isEqualTo("q,imdbid");
        assertThat(elements(d, "audio-search")).hasSize(1);
        assertThat(elements(d, "book-search")).hasSize(1);
        Element tv = elements(d, "category").stream()
                .filter(c -> c.getAttribute("id").equals("5000"))
                .findFirst()
                .orElseThrow();
        assertThat(tv.getAttribute("name")).isEqualTo("TV");
        assertThat(children(tv, "subcat"))
                .anySatisfy(s -> assertThat(s.getAttribute("id") + "=" + s.getAttribute("name"))
                        .isEqualTo("5040=HD"));
    }

    @Test
    void searchWithQFindsReleasesAsRssTheClientsRead() throws Exception {
        Document d = search("t=search&q=some+show+s01e02");
        assertThat(d.getDocumentElement().getTagName()).isEqualTo("rss");
        assertThat(d.getDocumentElement().getAttribute("version")).isEqualTo("2.0");
        assertThat(titles(d)).containsExactly("Some.Show.S01E02.720p.WEB-GRP");
        Element response = (Element)
                d.getElementsByTagNameNS(Newznab.NEWZNAB_NS, "response").item(0);
        assertThat(response.getAttribute("offset")).isEqualTo("0");
        assertThat(response.getAttribute("total")).isEqualTo("1");
        Element limits = (Element)
                d.getElementsByTagNameNS(Newznab.NEWZNAB_NS, "apilimits").item(0);
        assertThat(Integer.parseInt(limits.getAttribute("apicurrent"))).isPositive();
        Element item = elements(d, "item").get(0);
        everyItemIsReadable(d);
        assertThat(text(item, "guid")).matches("[0-9a-f]{32}");
        assertThat(text(item, "link")).startsWith(served.base() + "/api?t=get&id=" + text(item, "guid"));
        assertThat(text(item, "comments")).endsWith("#comments");
        assertThat(text(item, "category")).isEqualTo("TV > HD");
        assertThat(attrs(item)).containsEntry("category", "5000,5040").containsEntry("size", "3000012");
        assertThat(attrs(item)).doesNotContainKey("poster");
    }

    /** What Sonarr and Prowlarr need of every item: a parseable pubDate, an NZB enclosure with a length, a size. */
    private static void everyItemIsReadable(Document d) {
        for (Element item : elements(d, "item")) {
            ZonedDateTime.parse(text(item, "pubDate"), DateTimeFormatter.RFC_1123_DATE_TIME);
            Element enclosure = children(item, "enclosure").get(0);
            assertThat(enclosure.getAttribute("type")).isEqualTo("application/x-nzb");
            assertThat(Long.parseLong(enclosure.getAttribute("length"))).isPositive();
            assertThat(enclosure.getAttribute("url")).isEqualTo(text(item, "link"));
            assertThat(attrs(item).get("size")).matches("\\d+");
        }
    }

    @Test
    void noQueryIsTheNewestInTheCategoriesAsRssAndTestButtonsAsk() throws Exception {
        Document tv = search("t=search&cat=5030,5040");
        assertThat(titles(tv)).startsWith("Daily.Talk.2026.04.12.720p.HDTV-GRP", "Some.Show.S01E02.720p.WEB-GRP");
        everyItemIsReadable(tv);
        Document movies = search("t=search&cat=2000");
        assertThat(titles(movies)).containsExactly("A.Movie.2026.1080p.BluRay.x264-GRP");
        everyItemIsReadable(movies);
        Document all = search("t=search");
        assertThat(titles(all)).hasSize(5);
        everyItemIsReadable(all);
        assertThat(titles(search("t=tvsearch"))).doesNotContain("A.Movie.2026.1080p.BluRay.x264-GRP");
        assertThat(titles(search("t=movie"))).containsExactly("A.Movie.2026.1080p.BluRay.x264-GRP");
    }

    @Test
    void tvSearchTakesSeasonAndEpisodeInEveryFormClientsSend() throws Exception {
        assertThat(titles(search("t=tvsearch&q=some+show&season=1&ep=2")))
                .containsExactly("Some.Show.S01E02.720p.WEB-GRP");
        assertThat(titles(search("t=tvsearch&q=some+show&season=S01&ep=E02")))
                .containsExactly("Some.Show.S01E02.720p.WEB-GRP");
        assertThat(titles(search("t=tvsearch&q=some+show&season=1"))).hasSize(2);
        assertThat(titles(search("t=tvsearch&season=2026&ep=04/12")))
                .containsExactly("Daily.Talk.2026.04.12.720p.HDTV-GRP");
    }

    @Test
    void pagingLimitAndOffset() throws Exception {
        Document first = search("t=search&limit=2&offset=0");
        Document second = search("t=search&limit=2&offset=2");
        assertThat(titles(first)).hasSize(2);
        assertThat(titles(second)).hasSize(2).doesNotContainAnyElementsOf(titles(first));
        Element response = (Element)
                second.getElementsByTagNameNS(Newznab.NEWZNAB_NS, "response").item(0);
        assertThat(response.getAttribute("offset")).isEqualTo("2");
        assertThat(response.getAttribute("total")).isEqualTo("5");
    }

    @Test
    void extendedAddsWhatTheNameAndTheCatalogSay() throws Exception {
        Element item = elements(search("t=search&q=S01E02&extended=1"), "item").get(0);
        Map<String, String> a = attrs(item);
        assertThat(a)
                .containsEntry("files", "2")
                .containsEntry("poster", ServedCatalog.POSTER)
                .containsEntry("group", ServedCatalog.G)
                .containsEntry("grabs", "0")
                .containsEntry("completion", "100")
                .containsEntry("season", "1")
                .containsEntry("episode", "2")
                .containsEntry("resolution", "720p");
        ZonedDateTime.parse(a.get("usenetdate"), DateTimeFormatter.RFC_1123_DATE_TIME);
    }

    /** Issue 44: once checked, completion is what the best provider can serve, and a release none can complete says so. */
    @Test
    void completionIsWhatTheCheckedProvidersHold() throws Exception {
        AvailabilityStore checks = served.stores.availability();
        AvailabilityStore.Key key =
                new AvailabilityStore.Key(ServedCatalog.G, ServedCatalog.POSTER, "Daily.Talk.2026.04.12.720p.HDTV-GRP");
        checks.record(key, 1, 6, 6, 4, 0, "broken");
        checks.record(key, 2, 6, 6, 3, 0, "broken");
        Map<String, String> a =
                attrs(elements(search("t=search&q=Daily&extended=1"), "item").get(0));
        assertThat(a).containsEntry("completion", "50").containsEntry("availability", "unavailable");
        checks.record(key, 2, 6, 26, 0, -1, "complete");
        a = attrs(elements(search("t=search&q=Daily&extended=1"), "item").get(0));
        assertThat(a).containsEntry("completion", "100").containsEntry("availability", "available");
        assertThat(checks.of(List.of(key)).get(key).describe()).isEqualTo("provider 1 broken, provider 2 complete");
        assertThat(checks.due(10))
                .as("checked releases are not due")
                .doesNotContain(key)
                .hasSize(4);
    }

    @Test
    void jsonHasTheShapeClientsRead() throws Exception {
        HttpResponse<String> r = api("t=search&q=movie&o=json&apikey=" + key);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
        JsonNode root = new ObjectMapper().readTree(r.body());
        JsonNode item = root.path("channel").path("item").get(0);
        assertThat(item.path("title").asText()).isEqualTo("A.Movie.2026.1080p.BluRay.x264-GRP");
        assertThat(item.path("enclosure").path("@attributes").path("type").asText())
                .isEqualTo("application/x-nzb");
        List<String> names = new ArrayList<>();
        item.path("attr")
                .forEach(a -> names.add(a.path("@attributes").path("name").asText()));
        assertThat(names).contains("category", "size");
        assertThat(root.path("channel")
                        .path("response")
                        .path("@attributes")
                        .path("total")
                        .asText())
                .isEqualTo("1");
        assertThat(new ObjectMapper()
                        .readTree(api("t=caps&o=json").body())
                        .path("limits")
                        .path("@attributes")
                        .path("max")
                        .asText())
                .isEqualTo("100");
    }

    @Test
    void getStreamsTheNzbWithTheHeadersDownloadersRead() throws Exception {
        Element item = elements(search("t=search&q=S01E01"), "item").get(0);
        String guid = text(item, "guid");
        HttpResponse<byte[]> r = served.getBytes("/api?t=get&id=" + guid + "&apikey=" + key);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/x-nzb");
        assertThat(r.headers().firstValue("Content-Disposition").orElseThrow())
                .isEqualTo("attachment; filename=\"Some.Show.S01E01.720p.WEB-GRP.nzb\";"
                        + " filename*=UTF-8''Some.Show.S01E01.720p.WEB-GRP.nzb");
        assertThat(r.headers().firstValue("X-DNZB-Name").orElseThrow()).isEqualTo("Some.Show.S01E01.720p.WEB-GRP");
        assertThat(r.headers().firstValue("X-DNZB-Category").orElseThrow()).isEqualTo("TV > HD");
        Document nzb = xml(new String(r.body(), StandardCharsets.UTF_8));
        assertThat(nzb.getElementsByTagName("file").getLength()).isEqualTo(2);
        assertThat(nzb.getElementsByTagName("segment").getLength()).isEqualTo(6);
        Element again = elements(search("t=search&q=S01E01&extended=1"), "item").get(0);
        assertThat(attrs(again)).containsEntry("grabs", "1");
        assertThat(text(again, "guid")).as("stable").isEqualTo(guid);
    }

    @Test
    void hostileNamesAreWellFormedInFeedsAndSafeInHeaders() throws Exception {
        Document d = search("t=search&q=" + URLEncoder.encode("weird <&\"'>", StandardCharsets.UTF_8));
        assertThat(titles(d)).containsExactly("Weird <&\"'> name 100%");
        String guid = text(elements(d, "item").get(0), "guid");
        HttpResponse<byte[]> r = served.getBytes("/api?t=get&id=" + guid + "&apikey=" + key);
        assertThat(r.headers().firstValue("Content-Disposition").orElseThrow())
                .matches("attachment; filename=\"Weird _____ name_ 100_~[0-9a-f]{12}\\.nzb\";"
                        + " filename\\*=UTF-8''Weird%20_____%20name_%20100_~[0-9a-f]{12}\\.nzb");
        Document details = search("t=details&id=" + guid);
        assertThat(titles(details)).containsExactly("Weird <&\"'> name 100%");
    }

    /** Each bad request is an {@code <error>} with the spec's code and a matching status, never a 500. */
    @Test
    void badRequestsAreSpecErrors() throws Exception {
        String longQ = "a".repeat(10_000);
        Object[][] cases = {
            {"t=nosuch&apikey=" + key, 202, 400},
            {"apikey=" + key, 200, 400},
            {"t=register&apikey=" + key, 203, 501},
            {"t=search", 200, 400},
            {"t=search&apikey=wrong", 100, 401},
            {"t=search&apikey=" + revoked, 101, 403},
            {"t=search&limit=-1&apikey=" + key, 201, 400},
            {"t=search&limit=0&apikey=" + key, 201, 400},
            {"t=search&limit=many&apikey=" + key, 201, 400},
            {"t=search&offset=abc&apikey=" + key, 201, 400},
            {"t=search&cat=x&apikey=" + key, 201, 400},
            {"t=search&maxage=soon&apikey=" + key, 201, 400},
            {"t=search&o=yaml&apikey=" + key, 201, 400},
            {"t=search&q=" + longQ + "&apikey=" + key, 201, 400},
            {"t=tvsearch&season=x&apikey=" + key, 201, 400},
            {"t=tvsearch&ep=13/45&apikey=" + key, 201, 400},
            {"t=search&imdbid=0499549&apikey=" + key, 203, 501},
            {"t=tvsearch&imdbid=0499549&apikey=" + key, 203, 501},
            {"t=movie&tvdbid=1&apikey=" + key, 203, 501},
            {"t=search&tvmazeid=1&apikey=" + key, 203, 501},
            {"t=tvsearch&rid=1&apikey=" + key, 203, 501},
            {"t=tvsearch&tvdbid=0&apikey=" + key, 201, 400},
            {"t=tvsearch&tvdbid=tt1&apikey=" + key, 201, 400},
            {"t=tvsearch&tvmazeid=12345678901&apikey=" + key, 201, 400},
            {"t=movie&imdbid=tt&apikey=" + key, 201, 400},
            {"t=get&apikey=" + key, 200, 400},
            {"t=get&id=00000000000000000000000000000000&apikey=" + key, 300, 404},
            {"t=get&id=../../etc/passwd&apikey=" + key, 300, 404},
            {"t=details&id=nope&apikey=" + key, 300, 404},
        };
        for (Object[] c : cases) {
            HttpResponse<String> r = api((String) c[0]);
            String what = ((String) c[0]).substring(0, Math.min(60, ((String) c[0]).length()));
            assertThat(r.statusCode()).as(what + ": " + r.body()).isEqualTo(c[2]);
            assertThat(r.headers().firstValue("Content-Type").orElseThrow())
                    .as(what)
                    .contains("xml");
            Element error = xml(r.body()).getDocumentElement();
            assertThat(error.getTagName()).as(what).isEqualTo("error");
            assertThat(error.getAttribute("code")).as(what).isEqualTo(Integer.toString((Integer) c[1]));
            assertThat(error.getAttribute("description")).as(what).isNotBlank().doesNotContain("Exception");
        }
    }

    @Test
    void sqlAndXmlMetacharactersInQAreJustText() throws Exception {
        for (String q : List.of("'; drop table releases; --", "%_\\", "<script>", "\" or 1=1 --", "]]>&amp;")) {
            HttpResponse<String> r =
                    api("t=search&apikey=" + key + "&q=" + URLEncoder.encode(q, StandardCharsets.UTF_8));
            assertThat(r.statusCode()).as(q).isEqualTo(200);
            xml(r.body());
        }
        assertThat(titles(search("t=search"))).hasSize(5);
    }

    @Test
    void pastADailyLimitTheAnswerIs429WithRetryAfter() throws Exception {
        String tiny = served.stores.apiKeys().add("tiny", 2, 1);
        assertThat(api("t=search&apikey=" + tiny).statusCode()).isEqualTo(200);
        Document second = xml(api("t=search&apikey=" + tiny).body());
        Element limits = (Element)
                second.getElementsByTagNameNS(Newznab.NEWZNAB_NS, "apilimits").item(0);
        assertThat(limits.getAttribute("apicurrent")).isEqualTo("2");
        assertThat(limits.getAttribute("apimax")).isEqualTo("2");
        HttpResponse<String> refused = api("t=search&apikey=" + tiny);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow()))
                .isBetween(1L, 86_400L);
        Element error = xml(refused.body()).getDocumentElement();
        assertThat(error.getAttribute("code")).isEqualTo("500");
        assertThat(error.getAttribute("description")).isEqualTo("Request limit reached");

        String guid = text(elements(search("t=search&q=movie"), "item").get(0), "guid");
        assertThat(api("t=get&id=" + guid + "&apikey=" + tiny).statusCode()).isEqualTo(200);
        HttpResponse<String> grab = api("t=get&id=" + guid + "&apikey=" + tiny);
        assertThat(grab.statusCode()).isEqualTo(429);
        assertThat(grab.headers().firstValue("Retry-After")).isPresent();
        assertThat(xml(grab.body()).getDocumentElement().getAttribute("code")).isEqualTo("501");
        assertThat(served.stores.apiKeys().list())
                .filteredOn(k -> k.name().equals("tiny"))
                .singleElement()
                .satisfies(k -> {
                    assertThat(k.requestsToday()).isEqualTo(2);
                    assertThat(k.grabsToday()).isEqualTo(1);
                });
    }

    @Test
    void healthAndMetrics() throws Exception {
        assertThat(served.get("/health").statusCode()).isEqualTo(200);
        api("t=caps");
        HttpResponse<String> metrics = served.get("/metrics");
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("headway_http_requests_seconds_count{route=\"api:caps\",status=\"200\"}");
    }

    @Test
    void theAccessLogShowsEveryRequestButNeverItsKey() throws Exception {
        ch.qos.logback.classic.Logger access =
                (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("headway.web.access");
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> seen =
                new ch.qos.logback.core.read.ListAppender<>();
        seen.start();
        access.addAppender(seen);
        try {
            search("t=search&q=marker");
            api("t=get&id=00000000000000000000000000000000&apikey=" + key);
            api("t=search&APIKEY=" + key);
            Thread.sleep(200);
        } finally {
            access.detachAppender(seen);
        }
        List<String> lines = seen.list.stream()
                .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
                .toList();
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("q=marker", "apikey=REDACTED", " 200 "));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("t=get", " 404 "));
        assertThat(String.join("\n", lines)).doesNotContain(key);
    }

    @Test
    void theAccessLogNeverShowsAKey() {
        assertThat(FrontDoor.redact("t=search&apikey=secret&q=x")).isEqualTo("t=search&apikey=REDACTED&q=x");
        assertThat(FrontDoor.redact("APIKEY=secret")).isEqualTo("APIKEY=REDACTED");
        assertThat(FrontDoor.redact("q=myapikey=x")).isEqualTo("q=myapikey=x");
    }
}
