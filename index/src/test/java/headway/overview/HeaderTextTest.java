package headway.overview;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HeaderTextTest {

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    @Test
    void aCutNeverEndsInHalfAPair() {
        assertThat(HeaderText.cut("ab\uD83D\uDE00c", 3)).isEqualTo("ab");
        assertThat(HeaderText.cut("ab\uD83D\uDE00c", 4)).isEqualTo("ab\uD83D\uDE00");
        assertThat(HeaderText.cut("ab\uD83D\uDE00c", 2)).isEqualTo("ab");
        assertThat(HeaderText.cut("short", 10)).isEqualTo("short");
        assertThat(HeaderText.cut("\uD83D\uDE00", 1)).isEmpty();
        assertThat(HeaderText.cut("abc", 0)).isEmpty();
    }

    @Test
    void asciiIsItself() {
        String s = "[01/12] - \"Show.S01E02.part01.rar\" yEnc (1/50)";
        assertThat(HeaderText.decode(s.getBytes(StandardCharsets.US_ASCII))).isEqualTo(s);
        assertThat(HeaderText.decode(new byte[0])).isEmpty();
    }

    @Test
    void validUtf8ReadsAsUtf8() {
        for (String s : new String[] {"City.Nord.Über.2020", "Déjà.Vu.Crème.Brûlée", "東京物語 1953", "emoji 🎬 film"}) {
            assertThat(HeaderText.decode(s.getBytes(StandardCharsets.UTF_8))).isEqualTo(s);
        }
    }

    @Test
    void bytesThatAreNotUtf8ReadAsWindows1252() {
        assertThat(HeaderText.decode("City.Nord.Über.2020".getBytes(StandardCharsets.ISO_8859_1)))
                .isEqualTo("City.Nord.Über.2020");
        // 0x80..0x9F are Windows-1252's own: euro, quotes, dashes, trade mark
        assertThat(HeaderText.decode(bytes(0x80, ' ', 0x93, 'q', 0x94, ' ', 0x96, ' ', 0x99)))
                .isEqualTo("€ “q” – ™");
        // the five bytes Windows-1252 leaves unassigned read as the C1 controls of the same value
        assertThat(HeaderText.decode(bytes('a', 0x81, 0x8D, 0x8F, 0x90, 0x9D)))
                .isEqualTo("a\u0081\u008D\u008F\u0090\u009D");
    }

    @Test
    void aFieldWithUtf8AndAStrayByteIsWindows1252Whole() {
        byte[] mixed =
                concat("Über ".getBytes(StandardCharsets.UTF_8), bytes(0xE9), " fin".getBytes(StandardCharsets.UTF_8));
        assertThat(HeaderText.decode(mixed)).isEqualTo("Ãœber é fin");
    }

    @Test
    void malformedUtf8IsNotUtf8() {
        assertThat(HeaderText.isUtf8(bytes(0xC0, 0xAF), 0, 2)).as("overlong /").isFalse();
        assertThat(HeaderText.isUtf8(bytes(0xE0, 0x80, 0xAF), 0, 3))
                .as("overlong 3-byte")
                .isFalse();
        assertThat(HeaderText.isUtf8(bytes(0xED, 0xA0, 0x80), 0, 3))
                .as("surrogate")
                .isFalse();
        assertThat(HeaderText.isUtf8(bytes(0xF4, 0x90, 0x80, 0x80), 0, 4))
                .as("past U+10FFFF")
                .isFalse();
        assertThat(HeaderText.isUtf8(bytes(0xE2, 0x82), 0, 2)).as("truncated").isFalse();
        assertThat(HeaderText.isUtf8(bytes(0xC3, 0x28), 0, 2))
                .as("bad continuation")
                .isFalse();
        assertThat(HeaderText.isUtf8(bytes(0xF0, 0x9F, 0x8E, 0xAC), 0, 4))
                .as("U+1F3AC")
                .isTrue();
        assertThat(HeaderText.decode(bytes('x', 0xC0, 0xAF))).isEqualTo("xÀ¯");
    }

    @Test
    void onlyTheRangeAskedForIsRead() {
        byte[] line =
                concat("1\t".getBytes(StandardCharsets.US_ASCII), "Ünï".getBytes(StandardCharsets.UTF_8), bytes(0xFF));
        assertThat(HeaderText.decode(line, 2, line.length - 1)).isEqualTo("Ünï");
    }

    @Test
    void theOverviewParserDecodesEachFieldOnItsOwn() {
        byte[] line = concat(
                "7\t".getBytes(StandardCharsets.US_ASCII),
                "\"Déjà.Vu.2020.nfo\" yEnc (1/1)".getBytes(StandardCharsets.UTF_8),
                "\t".getBytes(StandardCharsets.US_ASCII),
                "Ren".getBytes(StandardCharsets.US_ASCII),
                bytes(0xE9),
                " <r@x>\tdate\t<id@x>\t\t10\t1\t".getBytes(StandardCharsets.US_ASCII));
        OverviewLine l = OverviewParser.defaultFormat().parse(line, 0, line.length);
        assertThat(l.subject()).as("valid UTF-8").isEqualTo("\"Déjà.Vu.2020.nfo\" yEnc (1/1)");
        assertThat(l.from()).as("a Windows-1252 byte").isEqualTo("René <r@x>");
        assertThat(l.messageId()).isEqualTo("<id@x>");
    }
}
