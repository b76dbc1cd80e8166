package headway.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Behind a TLS-terminating reverse proxy the request reaches {@code serve} as plain http at the
 * proxy's idea of its address, so links built from it would send Sonarr to {@code http://} URLs
 * it cannot reach. {@code HEADWAY_HTTP_PUBLIC_URL} names the address clients use; every link in a
 * feed is built on it.
 */
class PublicUrlTest {

    @Test
    void feedsLinkToThePublicUrlWhenOneIsSet() throws Exception {
        try (ServedCatalog served = ServedCatalog.start();
                FrontDoor proxied = FrontDoor.start(
                        served.stores,
                        new ServeConfig("127.0.0.1", 0, true, "headway", "https://indexer.example.org/usenet/"),
                        new SimpleMeterRegistry())) {
            String key = served.stores.apiKeys().add("proxied", null, null);
            HttpResponse<String> reply = served.http.send(
                    HttpRequest.newBuilder(URI.create(
                                    "http://127.0.0.1:" + proxied.port() + "/api?t=search&q=Some.Show&apikey=" + key))
                            .timeout(Duration.ofSeconds(20))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(reply.statusCode()).isEqualTo(200);
            Document feed = NewznabApiTest.xml(reply.body());
            var items = feed.getElementsByTagName("item");
            assertThat(items.getLength()).isPositive();
            for (int i = 0; i < items.getLength(); i++) {
                Element item = (Element) items.item(i);
                Element enclosure =
                        (Element) item.getElementsByTagName("enclosure").item(0);
                assertThat(enclosure.getAttribute("url"))
                        .startsWith("https://indexer.example.org/usenet/api?t=get&id=");
                assertThat(item.getElementsByTagName("link").item(0).getTextContent())
                        .startsWith("https://indexer.example.org/usenet/api?t=get&id=");
            }

            // the instance without the setting still links to where it was reached
            String direct =
                    served.get("/api?t=search&q=Some.Show&apikey=" + key).body();
            assertThat(direct).contains(served.base() + "/api?t=get").doesNotContain("indexer.example.org");
        }
    }

    @Test
    void aPublicUrlThatIsNoBaseUrlIsRefusedNamingTheFix() {
        for (String bad : new String[] {
            "indexer.example.org",
            "ftp://indexer.example.org",
            "https://",
            "https://a.example/?x=1",
            "https://u:p@a.example"
        }) {
            assertThatThrownBy(() -> new ServeConfig("127.0.0.1", 0, true, "headway", bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("HEADWAY_HTTP_PUBLIC_URL=")
                    .hasMessageContaining("such as https://indexer.example.org");
        }
        assertThat(new ServeConfig("127.0.0.1", 0, true, "headway", " https://a.example/x// ").publicUrl())
                .isEqualTo("https://a.example/x");
        assertThat(new ServeConfig("127.0.0.1", 0, true, "headway", "").publicUrl())
                .isNull();
    }
}
