package headway.web;

import static org.assertj.core.api.Assertions.assertThat;

import headway.catalog.ApiKeyStore;
import headway.rig.RawHttp;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requests as a hostile client sends them, byte for byte: control characters, broken
 * percent-encoding, request lines and headers past what Jetty reads, any {@code Host}, words
 * that are no words, pages past the bound, and random query strings. None is a 5xx or an HTML
 * page from Jetty; on {@code /api} each is a newznab error and none counts against the key.
 */
class HostileRequestsTest {

    private static ServedCatalog served;
    private static String key;

    @BeforeAll
    static void serve() throws Exception {
        served = ServedCatalog.start(new ServeConfig("127.0.0.1", 0, true, "headway")
                .withLimits(ServeConfig.Limits.defaults().withAnonymous(1_000_000, 1_000_000, 8)));
        key = served.stores.apiKeys().add("hostile", null, null);
    }

    @AfterAll
    static void stop() {
        served.close();
    }

    private static RawHttp.Response get(String target, String... headers) throws Exception {
        return served.raw(null, target, headers);
    }

    private static int requestsToday() {
        return served.stores.apiKeys().list().stream()
                .filter(k -> k.name().equals("hostile"))
                .findFirst()
                .orElseThrow()
                .requestsToday();
    }

    private static void isNewznabError(RawHttp.Response r, int code, int status, String what) {
        assertThat(r.status()).as(what + ": " + r.text()).isEqualTo(status);
        assertThat(r.header("Content-Type")).as(what).contains("xml");
        assertThat(r.text()).as(what).contains("<error code=\"" + code + "\"").doesNotContain("<html");
    }

    @Test
    void controlCharactersAndBrokenEncodingAreNewznabErrorsThatCountNothing() throws Exception {
        int before = requestsToday();
        for (String q :
                List.of("%00", "a%00b", "%0d%0a", "%1b[31m", "%7f", "%C2%80", "%zz", "%", "%FF%FE", "%ED%A0%80")) {
            RawHttp.Response r = get("/api?t=search&apikey=" + key + "&q=" + q);
            isNewznabError(r, 201, 400, "q=" + q);
            assertThat(r.text()).contains("q: ");
        }
        isNewznabError(get("/api?t=search&apikey=" + key + "&cat=" + "1,".repeat(1500)), 201, 400, "long cat");
        isNewznabError(get("/api?t=search&apikey=" + key + "&q=" + "a".repeat(600)), 201, 400, "long q");
        isNewznabError(get("/api?t=search&apikey=" + key + "&x=1".repeat(200)), 201, 400, "many parameters");
        assertThat(requestsToday())
                .as("refused requests are not counted against the key")
                .isEqualTo(before);

        RawHttp.Response page = get("/?q=%00");
        assertThat(page.status()).isEqualTo(400);
        assertThat(page.text()).contains("could not be read", "q: no control characters");
    }

    @Test
    void whatJettyRefusesIsANewznabErrorOnTheApiAndAPlainLineElsewhere() throws Exception {
        String longTarget = "/api?t=search&apikey=" + key + "&q=" + "a".repeat(FrontDoor.MAX_REQUEST_HEADER + 1000);
        RawHttp.Response uri = get(longTarget);
        isNewznabError(uri, 201, 414, "a 65 kB request line");
        assertThat(uri.text()).contains("q takes at most 500 characters");
        RawHttp.Response garbage =
                served.raw(null, "GET /api?t=ca ps HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(garbage.status()).isEqualTo(400);
        assertThat(garbage.text()).startsWith("400 ").doesNotContain("<html");
        String bigHeader = "X-Filler: " + "b".repeat(FrontDoor.MAX_REQUEST_HEADER + 1000);
        RawHttp.Response api = get("/api?t=caps", bigHeader);
        isNewznabError(api, 201, 431, "a 65 kB header on /api");
        assertThat(api.text()).contains("64 kB");
        RawHttp.Response page = get("/?q=x", bigHeader);
        assertThat(page.status()).isEqualTo(431);
        assertThat(page.header("Content-Type")).startsWith("text/plain");
        assertThat(page.text()).startsWith("431 ").doesNotContain("<html");
    }

    @Test
    void linksFollowTheHostHeaderOnlyWhenItNamesThisServer() throws Exception {
        int port = served.door.port();
        String search = "/api?t=search&q=show&apikey=" + key;
        assertThat(links(get(search, "Host: evil.example.com")))
                .isNotEmpty()
                .allMatch(l -> l.startsWith("http://127.0.0.1:" + port + "/api?t=get&id="));
        assertThat(links(get(search, "Host: 203.0.113.66:" + port)))
                .allMatch(l -> l.startsWith("http://127.0.0.1:" + port + "/"));
        assertThat(links(get(search, "Host: localhost:8081")))
                .as("a loopback name: a port mapping in front (compose) is followed")
                .allMatch(l -> l.startsWith("http://localhost:8081/api?t=get"));
        assertThat(links(get(search, "Host: 127.0.0.1:" + port)))
                .allMatch(l -> l.startsWith("http://127.0.0.1:" + port + "/"));
        assertThat(links(get(search, "Host: [::1]:9"))).allMatch(l -> l.startsWith("http://[::1]:9/"));
    }

    private static List<String> links(RawHttp.Response r) {
        assertThat(r.status()).as(r.text()).isEqualTo(200);
        Matcher m = Pattern.compile("<link>([^<]*)</link>").matcher(r.text());
        List<String> out = new java.util.ArrayList<>();
        while (m.find()) {
            if (m.group(1).contains("t=get")) {
                out.add(m.group(1).replace("&amp;", "&"));
            }
        }
        return out;
    }

    @Test
    void everyResponseForbidsSniffingFramingAndReferrersAndThePageLoadsNothingElse() throws Exception {
        for (String target : List.of("/?q=show", "/api?t=caps", "/health", "/nosuch")) {
            RawHttp.Response r = get(target);
            assertThat(r.header("X-Content-Type-Options")).as(target).isEqualTo("nosniff");
            assertThat(r.header("X-Frame-Options")).as(target).isEqualTo("DENY");
            assertThat(r.header("Referrer-Policy")).as(target).isEqualTo("no-referrer");
        }
        RawHttp.Response page = get("/?q=show");
        String csp = page.header("Content-Security-Policy");
        assertThat(csp).contains("default-src 'none'", "frame-ancestors 'none'", "form-action 'self'");
        assertThat(csp).doesNotContain("unsafe-inline");
        Matcher style = Pattern.compile("<style>(.*?)</style>", Pattern.DOTALL).matcher(page.text());
        assertThat(style.find()).isTrue();
        String hash = java.util.Base64.getEncoder()
                .encodeToString(java.security.MessageDigest.getInstance("SHA-256")
                        .digest(style.group(1).getBytes(StandardCharsets.UTF_8)));
        assertThat(csp).as("the page's one style is allowed by its hash").contains("'sha256-" + hash + "'");
        assertThat(page.text()).doesNotContain("<script");
    }

    @Test
    void aTermWithoutAWordIsTheNewestReleasesNotAScan() throws Exception {
        for (String q : List.of("!", "%25%25%25", "%21%40%23", "-", "...")) {
            RawHttp.Response r = get("/api?t=search&apikey=" + key + "&q=" + q);
            assertThat(r.status()).as(q).isEqualTo(200);
            assertThat(r.text()).as(q).contains("total=\"5\"");
        }
        RawHttp.Response page = get("/?q=%21");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.text()).contains("has no letters or digits to search for");
    }

    @Test
    void pagingEndsAtTheBoundWithAnEmptyPageThatCountsNothing() throws Exception {
        int before = requestsToday();
        RawHttp.Response deep = get("/api?t=search&apikey=" + key + "&offset=" + Params.MAX_DEPTH);
        assertThat(deep.status()).isEqualTo(200);
        assertThat(deep.text()).doesNotContain("<item>").contains("total=\"" + Params.MAX_DEPTH + "\"");
        RawHttp.Response deeper = get("/api?t=search&apikey=" + key + "&offset=2000000000&limit=100");
        assertThat(deeper.status()).isEqualTo(200);
        assertThat(deeper.text()).doesNotContain("<item>");
        assertThat(requestsToday()).isEqualTo(before);

        Params near = new Params(QueryString.parse("offset=990&limit=100"));
        assertThat(near.search(50, 100, List.of(), false, List.of(), false).limit())
                .as("a page ends at the bound")
                .isEqualTo(10);
        RawHttp.Response page = get("/?q=show&page=999999");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.text()).contains("Pages end at " + SearchPage.MAX_PAGE);
    }

    @Test
    void metricsTagOnlyTheFunctionsServed() throws Exception {
        Random r = new Random(Seeds.next());
        for (int i = 0; i < 300; i++) {
            StringBuilder t = new StringBuilder();
            for (int c = 0; c < 1 + r.nextInt(12); c++) {
                t.append((char) ('a' + r.nextInt(26)));
            }
            get("/api?t=" + t + "&apikey=" + key);
        }
        get("/api?t=SEARCH&apikey=" + key);
        get("/api?t=%00");
        String metrics = get("/metrics").text();
        List<String> routes = metrics.lines()
                .filter(l -> l.startsWith("headway_http_requests_seconds_count{"))
                .map(l -> l.replaceAll(".*route=\"([^\"]*)\".*", "$1"))
                .distinct()
                .toList();
        assertThat(routes)
                .allMatch(route -> route.equals("/")
                        || route.equals("/health")
                        || route.equals("/metrics")
                        || route.equals("release")
                        || route.equals("nzb")
                        || route.equals("other")
                        || route.equals("api:none")
                        || route.equals("api:other")
                        || (route.startsWith("api:") && Newznab.FUNCTIONS.contains(route.substring(4))))
                .contains("api:other", "api:search");
        assertThat(metrics.lines().filter(l -> l.startsWith("headway_http_requests_seconds_count{")))
                .hasSizeLessThan(60);
    }

    /**
     * Random query strings on {@code /api} with a valid key and on the page, over all of Unicode and
     * every byte: never a 5xx, every API answer is a feed or a newznab error, and the key's count
     * grows only by the searches and details answered from the catalog (details that found no item too).
     */
    @Test
    void randomQueryStringsAreNeverA5xx() throws Exception {
        long seed = Seeds.next();
        Random r = new Random(seed);
        String[] names = {"t", "q", "cat", "limit", "offset", "season", "ep", "o", "extended", "maxage", "title", "id"};
        String[] functions = {"search", "tvsearch", "movie", "music", "book", "caps", "details", "get", "x"};
        int answered = 0;
        int before = requestsToday();
        for (int n = 0; n < 150; n++) {
            StringBuilder query = new StringBuilder("apikey=" + key + "&t=" + functions[r.nextInt(functions.length)]);
            for (int p = 0; p < r.nextInt(5); p++) {
                query.append('&')
                        .append(names[r.nextInt(names.length)])
                        .append('=')
                        .append(junk(r));
            }
            String what = Seeds.describe(seed) + ", /api?" + query;
            RawHttp.Response api = get("/api?" + query);
            assertThat(api.status()).as(what).isLessThan(500);
            if (api.status() == 200) {
                assertThat(api.text()).as(what).containsAnyOf("<rss", "<caps", "\"channel\"", "@attributes", "<nzb");
                if (api.text().contains("<newznab:response") || api.text().contains("\"response\"")) {
                    answered++;
                }
            } else {
                assertThat(api.text()).as(what).contains("<error code=\"");
                if (query.toString().contains("&t=details") && api.text().contains("code=\"300\"")) {
                    answered++;
                }
            }
            RawHttp.Response page = get("/?q=" + junk(r) + "&cat=" + junk(r) + "&page=" + junk(r));
            assertThat(page.status()).as(Seeds.describe(seed) + ", page").isLessThan(500);
        }
        assertThat(requestsToday() - before).as(Seeds.describe(seed)).isLessThanOrEqualTo(answered);
        assertThat(ApiKeyStore.wellFormed(key)).isTrue();
    }

    /** A value as a hostile client writes it: percent bytes, raw ASCII that a request line may hold, or UTF-8. */
    private static String junk(Random r) {
        StringBuilder v = new StringBuilder();
        int length = r.nextInt(12);
        for (int i = 0; i < length; i++) {
            switch (r.nextInt(4)) {
                case 0 -> v.append('%').append(String.format("%02X", r.nextInt(256)));
                case 1 -> v.append("abcXYZ019-._~!$'()*,;:@/?+%".charAt(r.nextInt(27)));
                case 2 -> {
                    int cp = r.nextInt(Character.MAX_CODE_POINT + 1);
                    if (cp < 0xD800 || cp > 0xDFFF) {
                        for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
                            v.append('%').append(String.format("%02X", b & 0xFF));
                        }
                    }
                }
                default -> v.append(r.nextInt(2000));
            }
        }
        return v.toString();
    }
}
