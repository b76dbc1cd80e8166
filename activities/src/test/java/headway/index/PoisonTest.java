package headway.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Cleaning header text: control characters become spaces, NUL goes, clean text comes back as the same object. */
class PoisonTest {

    /** What {@link Poison#clean(String)} must give, one character at a time. */
    private static String byCharacters(String text) {
        StringBuilder sb = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c != 0) {
                sb.append(c < 0x20 || c == 0x7f ? ' ' : c);
            }
        }
        return sb.toString();
    }

    @Test
    void everyControlCharacterAtEveryPlaceIsFoundBesideAnyOtherCharacter() {
        char[] controls = new char[33];
        for (int c = 0; c < 32; c++) {
            controls[c] = (char) c;
        }
        controls[32] = 0x7f;
        // bytes past 0x7f and characters past U+00FF around the control, where a word-wide test could miss it
        String[] fillers = {"a", "é", "\u0080", "\u00ff", "公", " ", "~", "!"};
        for (String filler : fillers) {
            for (int length = 1; length <= 24; length++) {
                for (int at = 0; at < length; at++) {
                    for (char control : controls) {
                        StringBuilder sb = new StringBuilder(filler.repeat(length));
                        sb.setCharAt(at, control);
                        String text = sb.toString();
                        assertThat(Poison.clean(text))
                                .as("%s at %d of %d", (int) control, at, length)
                                .isEqualTo(byCharacters(text));
                    }
                }
            }
        }
    }

    @Test
    void cleanTextIsTheSameObjectAndRandomTextIsCleanedAsByCharacters() {
        Random random = new Random(5);
        String clean = "[01/50] - \"Café.Déjà.Vu.公.part01.rar\" yEnc (1/50) ~\u00a0\u00ff";
        assertThat(Poison.clean(clean)).isSameAs(clean);
        for (int k = 0; k < 20_000; k++) {
            char[] text = new char[random.nextInt(40)];
            for (int i = 0; i < text.length; i++) {
                int kind = random.nextInt(10);
                text[i] = (char)
                        (kind == 0
                                ? random.nextInt(0x20)
                                : kind < 3
                                        ? 0x80 + random.nextInt(0x80)
                                        : kind == 3 ? 0x4e00 + random.nextInt(100) : 0x20 + random.nextInt(0x60));
            }
            String s = new String(text);
            String cleaned = Poison.clean(s);
            assertThat(cleaned).isEqualTo(byCharacters(s));
            if (cleaned.equals(s)) {
                assertThat(cleaned).isSameAs(s);
            }
        }
    }
}
