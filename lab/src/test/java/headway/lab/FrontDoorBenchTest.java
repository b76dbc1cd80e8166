package headway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The machinery of {@code bench frontdoor}, briefly and on a small catalog, so that it cannot rot:
 * serve starts in its own JVM, every kind of hostile request is sent and answered, the keyed and
 * health clients get their answers, nothing is a 5xx. No figure is judged here.
 */
@Isolated("its assertions measure time: it runs alone, not beside another test class")
class FrontDoorBenchTest {

    @Test
    void aShortRunOnASmallCatalogSendsEveryKindAndGetsNo5xx() throws Exception {
        StringWriter printed = new StringWriter();
        FrontDoorBench.Result r = new FrontDoorBench(
                        new FrontDoorBench.Options(
                                2_000,
                                "128MB",
                                4,
                                2,
                                1,
                                Duration.ofMillis(20),
                                Duration.ofMillis(50),
                                600,
                                Duration.ofSeconds(2),
                                Duration.ofSeconds(60),
                                Duration.ofSeconds(2),
                                19,
                                Map.of()),
                        new PrintWriter(printed, true))
                .run();
        String out = printed.toString();
        assertThat(r.hostile()).as(out).isBetween(600L, 604L);
        assertThat(r.keyed()).as(out).isPositive();
        assertThat(r.keyedFailed()).as(out).isZero();
        assertThat(r.health()).as(out).isPositive();
        assertThat(r.errors5xx()).as(out).isZero();
        for (String kind : new String[] {
            "page-noword", "page-deep", "api-t", "api-wrongkey", "api-caps", "uri-100kB", "header-100kB", "nul"
        }) {
            assertThat(out).contains("frontdoor: hostile " + kind);
        }
        assertThat(out).contains("HTTP 429", "HTTP 414", "HTTP 431");
    }

    @Test
    void theKeyedSearchesAreTheSearchBenchsMixAsTheApiTakesIt() {
        SyntheticReleases catalog = new SyntheticReleases(16, 1_000, java.time.Instant.now());
        for (int i = 0; i < 1_000; i++) {
            catalog.next(i, 1_000);
        }
        for (SearchBench.Timed t : SearchBench.mix(catalog, new Random(3), 200)) {
            String q = FrontDoorBench.apiQuery(t, "k");
            assertThat(q)
                    .matches(
                            "t=(search|tvsearch)(&q=[^&]+)?(&cat=[0-9,]+)?(&season=\\d+&ep=\\d+)?&limit=\\d+&offset=\\d+&apikey=k");
        }
        assertThat(FrontDoorBench.hostile(new Random(1), catalog).request()).isNotEmpty();
    }
}
