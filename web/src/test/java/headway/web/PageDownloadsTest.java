package headway.web;

import static org.assertj.core.api.Assertions.assertThat;

import headway.rig.RawHttp;
import headway.store.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The page's NZBs: off by default (no link, and the route refuses), on with HEADWAY_HTTP_PAGE_NZB
 * and then counted against the day's anonymous downloads in PostgreSQL, never as the release's
 * grabs; and with the page off, feeds link to nothing on it.
 */
class PageDownloadsTest {

    private static String guid(String page) {
        Matcher m = Pattern.compile("href=\"/release/([0-9a-f]{32})\"").matcher(page);
        assertThat(m.find()).as(page).isTrue();
        return m.group(1);
    }

    @Test
    void offByDefaultTheLinkIsAbsentAndTheRouteRefuses() throws Exception {
        try (ServedCatalog served = ServedCatalog.start()) {
            String page = served.get("/?q=some+show+s01e02").body();
            assertThat(page).doesNotContain("/nzb/", "<th>NZB</th>");
            String guid = guid(page);
            assertThat(served.get("/release/" + guid).body()).doesNotContain("/nzb/");
            var nzb = served.get("/nzb/" + guid);
            assertThat(nzb.statusCode()).isEqualTo(404);
            assertThat(nzb.body()).contains("use the newznab API with a key");
        }
    }

    @Test
    void onTheyAreCountedAgainstTheAnonymousDailyLimitNotAsGrabs() throws Exception {
        try (ServedCatalog served = ServedCatalog.start(new ServeConfig("127.0.0.1", 0, true, "headway")
                .withLimits(ServeConfig.Limits.defaults().withPageNzb(true, 2)))) {
            String page = served.get("/?q=some+show+s01e02").body();
            String guid = guid(page);
            assertThat(page).contains("href=\"/nzb/" + guid + "\"");
            for (int i = 0; i < 2; i++) {
                var nzb = served.getBytes("/nzb/" + guid);
                assertThat(nzb.statusCode()).isEqualTo(200);
                assertThat(nzb.headers().firstValue("Content-Type").orElseThrow())
                        .startsWith("application/x-nzb");
            }
            var refused = served.get("/nzb/" + guid);
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(Long.parseLong(
                            refused.headers().firstValue("Retry-After").orElseThrow()))
                    .isBetween(1L, 86_400L);
            assertThat(refused.body()).contains("today's 2 downloads without a key are used up");
            assertThat(TestDatabase.queryLong(
                            served.stores.dataSource(), "select coalesce(sum(grabs), 0) from anonymous_usage"))
                    .isEqualTo(2);
            assertThat(TestDatabase.queryLong(served.stores.dataSource(), "select count(*) from release_grabs"))
                    .as("an anonymous download is not a grab")
                    .isZero();
        }
    }

    @Test
    void withThePageOffFeedsLinkToNothingOnIt() throws Exception {
        try (ServedCatalog served = ServedCatalog.start();
                FrontDoor closed = FrontDoor.start(
                        served.stores, new ServeConfig("127.0.0.1", 0, false, "headway"), new SimpleMeterRegistry())) {
            String key = served.stores.apiKeys().add("closed", null, null);
            RawHttp.Response feed = RawHttp.send(
                    null,
                    new InetSocketAddress("127.0.0.1", closed.port()),
                    RawHttp.get("/api?t=search&q=show&apikey=" + key),
                    Duration.ofSeconds(20));
            assertThat(feed.status()).isEqualTo(200);
            assertThat(feed.text()).contains("<item>").doesNotContain("/release/", "<comments>");
            RawHttp.Response json = RawHttp.send(
                    null,
                    new InetSocketAddress("127.0.0.1", closed.port()),
                    RawHttp.get("/api?t=search&q=show&o=json&apikey=" + key),
                    Duration.ofSeconds(20));
            assertThat(json.text()).doesNotContain("/release/");
            RawHttp.Response release = RawHttp.send(
                    null,
                    new InetSocketAddress("127.0.0.1", closed.port()),
                    RawHttp.get("/release/00000000000000000000000000000000"),
                    Duration.ofSeconds(20));
            assertThat(release.status()).isEqualTo(404);

            String open = served.get("/api?t=search&q=show&apikey=" + key).body();
            assertThat(open).contains("/release/", "<comments>");
        }
    }
}
