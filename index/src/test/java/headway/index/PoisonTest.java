package headway.index;

import static org.assertj.core.api.Assertions.assertThat;

import headway.overview.OverviewLine;
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

    /** A buffer smaller than some of the texts, as the window's is smaller than some posters: both ways of reading are used. */
    private final byte[] scratch = new byte[16];

    /**
     * {@code text} cleaned alone and as a header's subject and poster read through a buffer (the
     * window's way), which must agree; the first.
     */
    private String clean(String text) {
        String alone = Poison.clean(text);
        OverviewLine line = new OverviewLine(7, text, text, "", "<a@b>", "", 1, 1, "");
        OverviewLine cleaned = Poison.clean(line, scratch);
        assertThat(cleaned.subject()).isEqualTo(alone);
        assertThat(cleaned.from()).isEqualTo(alone);
        if (alone.equals(text)) {
            assertThat(cleaned).isSameAs(line);
        }
        return alone;
    }

    @Test
    void aDateTheCatalogCannotHoldHasNoCleanForm() {
        for (String date : new String[] {
            "26 Dec 0000 12:34:56 +0000", "01 Jan 0001 00:00:00 +0100", "Fri, 31 Dec 9999 23:00:00 -1400"
        }) {
            OverviewLine line = new OverviewLine(7, "\"a.rar\" yEnc (1/1)", "p", date, "<a@b>", "", 1, 1, "");
            assertThat(Poison.reason(line))
                    .as(date)
                    .isEqualTo("date outside the years 1 to 9999, which the catalog holds");
        }
        for (String date : new String[] {
            "Mon, 01 Jan 0001 00:00:00 +0000", "Fri, 31 Dec 9999 23:59:59 +0000", "Wed, 02 Dec 2026 17:17:02 +0000", ""
        }) {
            OverviewLine line = new OverviewLine(7, "\"a.rar\" yEnc (1/1)", "p", date, "<a@b>", "", 1, 1, "");
            assertThat(Poison.reason(line)).as(date).isNull();
        }
    }

    @Test
    void everyControlCharacterAtEveryPlaceIsFoundBesideAnyOtherCharacter() {
        char[] controls = new char[33];
        for (int c = 0; c < 32; c++) {
            controls[c] = (char) c;
        }
        controls[32] = 0x7f;
        // bytes past 0x7f and characters past U+00FF around the control, where a word-wide test could miss it
        // and characters whose low byte is a control character (U+010A, U+017F)
        String[] fillers = {"a", "é", "\u0080", "\u00ff", "公", " ", "~", "!", "\u010a", "\u017f"};
        for (String filler : fillers) {
            for (int length = 1; length <= 24; length++) {
                for (int at = 0; at < length; at++) {
                    for (char control : controls) {
                        StringBuilder sb = new StringBuilder(filler.repeat(length));
                        sb.setCharAt(at, control);
                        String text = sb.toString();
                        assertThat(clean(text))
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
        assertThat(clean(clean)).isSameAs(clean);
        String lowBytesLikeControls = "\u0100\u010a\u011f\u017f".repeat(9) + " (1/50)";
        assertThat(clean(lowBytesLikeControls)).isSameAs(lowBytesLikeControls);
        for (int k = 0; k < 20_000; k++) {
            char[] text = new char[random.nextInt(40)];
            for (int i = 0; i < text.length; i++) {
                int kind = random.nextInt(11);
                text[i] = (char)
                        (kind == 0
                                ? random.nextInt(0x20)
                                : kind < 3
                                        ? 0x80 + random.nextInt(0x80)
                                        : kind == 3
                                                ? 0x4e00 + random.nextInt(100)
                                                : kind == 4
                                                        ? 0x100 + random.nextInt(0x80)
                                                        : 0x20 + random.nextInt(0x60));
            }
            String s = new String(text);
            String cleaned = clean(s);
            assertThat(cleaned).isEqualTo(byCharacters(s));
            if (cleaned.equals(s)) {
                assertThat(cleaned).isSameAs(s);
            }
        }
    }
}
