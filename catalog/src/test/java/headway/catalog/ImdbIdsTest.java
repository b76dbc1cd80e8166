package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import headway.simulator.HostileText;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** IMDb ids in the forms clients send, and everything else refused, from all of Unicode. */
class ImdbIdsTest {

    @Test
    void theFormsClientsSendReadAsOneId() {
        for (String sent : new String[] {"tt0058935", "0058935", "58935", "TT0058935", " tt58935 ", "tt00058935"}) {
            assertThat(ImdbIds.normalize(sent)).as(sent).contains("tt0058935");
        }
        assertThat(ImdbIds.normalize("tt12345678")).contains("tt12345678");
        assertThat(ImdbIds.normalize("9999999999")).contains("tt9999999999");
        assertThat(ImdbIds.digits("tt0058935")).isEqualTo("0058935");
    }

    @Test
    void whatIsNoIdIsRefused() {
        for (String sent : new String[] {
            null,
            "",
            " ",
            "tt",
            "0",
            "tt0000000",
            "abc",
            "tt-1",
            "-1",
            "1e5",
            "tt 123",
            "123\u0000",
            "12345678901",
            "\u0661\u0662\u0663",
            "tt\uff10\uff15\uff18",
            "58935.0",
            "+58935",
            "0x1f",
            "tt0058935tt",
            "ｔｔ0058935"
        }) {
            assertThat(ImdbIds.normalize(sent)).as(String.valueOf(sent)).isEmpty();
        }
    }

    @Test
    void randomTextIsRefusedOrInTheStoredForm() {
        Random r = new Random(42);
        for (int i = 0; i < 5_000; i++) {
            String text = r.nextBoolean() ? HostileText.text(r, 12) : "tt" + HostileText.text(r, 8);
            Optional<String> id = ImdbIds.normalize(text);
            id.ifPresent(
                    v -> assertThat(ImdbIds.FORM.matcher(v).matches()).as(text).isTrue());
        }
    }
}
