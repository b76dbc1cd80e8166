package headway.web;

import static org.assertj.core.api.Assertions.assertThat;

import headway.catalog.Stores;
import headway.store.Database;
import headway.store.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Two {@code serve} instances (own pools, as two processes) share a key's daily count, and a restart keeps it. */
class SharedLimitsTest {

    private final HttpClient http = HttpClient.newHttpClient();

    private static Stores open(String url) {
        return Stores.open(new Database.Settings(url, "postgres", null, 4, Duration.ofSeconds(10)), "limits-test");
    }

    private static FrontDoor serve(Stores stores) {
        return FrontDoor.start(stores, new ServeConfig("127.0.0.1", 0, false, "headway"), new SimpleMeterRegistry());
    }

    private int status(FrontDoor door, String key) throws Exception {
        return http.send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + door.port() + "/api?t=search&apikey=" + key))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    @Test
    void aKeysCountIsSharedByInstancesAndSurvivesARestart() throws Exception {
        String url = TestDatabase.emptyDatabase("limits");
        String key;
        try (Stores a = open(url);
                Stores b = open(url);
                FrontDoor one = serve(a);
                FrontDoor two = serve(b)) {
            key = a.apiKeys().add("shared", 3, null);
            assertThat(status(one, key)).isEqualTo(200);
            assertThat(status(two, key)).isEqualTo(200);
            assertThat(status(one, key)).isEqualTo(200);
            assertThat(status(two, key))
                    .as("the fourth request of a 3-a-day key, on either instance")
                    .isEqualTo(429);
            assertThat(status(one, key)).isEqualTo(429);
        }
        try (Stores c = open(url);
                FrontDoor restarted = serve(c)) {
            assertThat(status(restarted, key)).as("after a restart").isEqualTo(429);
            assertThat(c.apiKeys().list())
                    .singleElement()
                    .satisfies(k -> assertThat(k.requestsToday()).isEqualTo(3));
        }
    }
}
