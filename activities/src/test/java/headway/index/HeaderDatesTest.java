package headway.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class HeaderDatesTest {

    @Test
    void parsesTheUsualOverviewDateShapes() {
        Instant expected = Instant.parse("2026-12-02T17:17:02Z");
        assertThat(HeaderDates.parse("Wed, 02 Dec 2026 17:17:02 +0000")).isEqualTo(expected);
        assertThat(HeaderDates.parse("2 Dec 2026 17:17:02 GMT")).isEqualTo(expected);
        assertThat(HeaderDates.parse("Wed, 2 Dec 2026 18:17:02 +0100 (CET)")).isEqualTo(expected);
        assertThat(HeaderDates.parse("Wed,  02 Dec 2026 17:17:02 UTC")).isEqualTo(expected);
    }

    @Test
    void hostileDateFieldsAreNotDates() {
        assertThat(HeaderDates.parse("(".repeat(60_000))).isNull();
        assertThat(HeaderDates.parse("Wed, 02 Dec 2026 17:17:02 +0000 " + " (".repeat(30_000) + ")"))
                .isNull();
        assertThat(HeaderDates.parse("Wed, 02 Dec 2026 17:17:02 +0000 (" + "x".repeat(HeaderDates.MAX_LENGTH) + ")"))
                .isNull();
        assertThat(HeaderDates.parse("Wed, 02 Dec 2026 17:17:02 +0000 (a) (b)")).isNull();
    }

    @Test
    void unparseableDatesAreNull() {
        assertThat(HeaderDates.parse("")).isNull();
        assertThat(HeaderDates.parse("yesterday")).isNull();
        assertThat(HeaderDates.parse(null)).isNull();
    }
}
