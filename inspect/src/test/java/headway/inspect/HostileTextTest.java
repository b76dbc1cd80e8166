package headway.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import headway.inspect.yenc.FuzzSeed;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HostileTextTest {

    @Test
    void validUtf8ReadsAsUtf8AndAnythingElseAsWindows1252() {
        byte[] utf8 = "Café 日本 😀".getBytes(StandardCharsets.UTF_8);
        assertThat(HostileText.decode(utf8, 0, utf8.length)).isEqualTo("Café 日本 😀");
        byte[] overlong = {'a', (byte) 0xC0, (byte) 0xAF, (byte) 0x80, (byte) 0x9F};
        assertThat(HostileText.decode(overlong, 0, overlong.length)).isEqualTo("aÀ¯€Ÿ");
        byte[] surrogate = {(byte) 0xED, (byte) 0xA0, (byte) 0x80};
        assertThat(HostileText.decode(surrogate, 0, 3)).isEqualTo("í\u00A0€");
    }

    @Test
    void namesLoseControlsAndBidiOverridesAndAreBoundedWithoutSplittingAPair() {
        byte[] b = "\u0001evil\u202Egpj.exe\t\u0085 ".getBytes(StandardCharsets.UTF_8);
        assertThat(HostileText.name(b, 0, b.length, 100)).isEqualTo("evilgpj.exe");
        assertThat(HostileText.clean("ab😀", 3)).isEqualTo("ab");
        assertThat(HostileText.clean("ab😀", 4)).isEqualTo("ab😀");
        assertThat(HostileText.clean("a\uD800b\uDC00", 10)).isEqualTo("a\uFFFDb\uFFFD");
    }

    @Test
    void randomBytesAlwaysGiveBoundedWellFormedText() {
        long seed = FuzzSeed.seed();
        Random r = new Random(seed);
        for (int i = 0; i < 5000; i++) {
            byte[] b = new byte[r.nextInt(300)];
            r.nextBytes(b);
            int max = 1 + r.nextInt(100);
            String s = HostileText.name(b, 0, b.length, max);
            assertThat(s.length()).as(FuzzSeed.replay(seed)).isLessThanOrEqualTo(max);
            assertThat(s.codePoints().noneMatch(Character::isISOControl))
                    .as(FuzzSeed.replay(seed))
                    .isTrue();
            for (int k = 0; k < s.length(); k++) {
                char c = s.charAt(k);
                if (Character.isHighSurrogate(c)) {
                    assertThat(Character.isLowSurrogate(s.charAt(++k)))
                            .as(FuzzSeed.replay(seed))
                            .isTrue();
                } else {
                    assertThat(Character.isLowSurrogate(c))
                            .as(FuzzSeed.replay(seed))
                            .isFalse();
                }
            }
        }
    }
}
