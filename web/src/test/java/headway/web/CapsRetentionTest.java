package headway.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * {@code t=caps} states HEADWAY_RETENTION_DAYS as the retention when it is set (what the catalog keeps,
 * newznab's meaning), and the age of the oldest release when it is off.
 */
class CapsRetentionTest {

    private static HttpResponse<String> caps(ServedCatalog served, FrontDoor door, String format) throws Exception {
        return served.http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + door.port() + "/api?t=caps" + format))
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void capsStatesTheRetentionSettingWhenItIsSetAndTheOldestReleaseWhenItIsNot() throws Exception {
        try (ServedCatalog served = ServedCatalog.start();
                FrontDoor kept = FrontDoor.start(
                        served.stores,
                        new ServeConfig("127.0.0.1", 0, true, "headway").withRetentionDays(1_234),
                        new SimpleMeterRegistry())) {
            HttpResponse<String> xml = caps(served, kept, "");
            assertThat(xml.statusCode()).isEqualTo(200);
            Element retention = (Element) NewznabApiTest.xml(xml.body())
                    .getElementsByTagName("retention")
                    .item(0);
            assertThat(retention.getAttribute("days")).isEqualTo("1234");
            HttpResponse<String> json = caps(served, kept, "&o=json");
            assertThat(new ObjectMapper()
                            .readTree(json.body())
                            .path("retention")
                            .path("@attributes")
                            .path("days")
                            .asText())
                    .as(json.body())
                    .isEqualTo("1234");

            String off = served.get("/api?t=caps").body();
            Element oldest = (Element)
                    NewznabApiTest.xml(off).getElementsByTagName("retention").item(0);
            assertThat(oldest.getAttribute("days"))
                    .isEqualTo(Integer.toString(served.stores.guids().oldestDays()));
        }
    }

    @Test
    void aRetentionOutsideItsRangeIsRefusedNamingTheSetting() {
        ServeConfig config = new ServeConfig("127.0.0.1", 0, true, "headway");
        assertThatThrownBy(() -> config.withRetentionDays(-1)).hasMessageContaining("HEADWAY_RETENTION_DAYS");
        assertThatThrownBy(() -> config.withRetentionDays(36_501)).hasMessageContaining("HEADWAY_RETENTION_DAYS");
    }
}
