package headway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class SyntheticReleasesTest {

    /** The hang guard: before the cap, the artists' titles of 20,000,000 releases were drawn forever. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aCatalogOfTwentyMillionReleasesHasAVocabularyItsWordsCanMake() {
        SyntheticReleases releases = new SyntheticReleases(43, 20_000_000, Instant.parse("2026-12-08T00:00:00Z"));
        assertThat(releases.shows()).hasSize(100_000);
        assertThat(new HashSet<>(releases.shows())).hasSize(100_000);
    }
}
