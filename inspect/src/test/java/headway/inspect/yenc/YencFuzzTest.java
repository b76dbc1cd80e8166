package headway.inspect.yenc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The decoder on hostile bodies: random bytes, every prefix and random cuts of valid parts, bit
 * flips, and lying header fields. Whatever the bytes: no exception, at most the cap kept, never
 * more decoded bytes than input bytes (the loop's bound), and a prefix of a valid part decodes to a
 * prefix of its file. Each run draws a fresh seed; a failure names it.
 */
class YencFuzzTest {

    private static final int CAP = 4096;

    @Test
    void randomBytesAndRandomBytesAfterAHeader() {
        long seed = FuzzSeed.seed();
        Random r = new Random(seed);
        for (int i = 0; i < 2000; i++) {
            byte[] junk = new byte[r.nextInt(3000)];
            r.nextBytes(junk);
            check(junk, seed, "random " + i);
            byte[] headed = YencDecoderTest.concat(
                    YencDecoderTest.ascii("=ybegin part=1 line=128 size=" + r.nextInt(5000) + " name=x\r\n"), junk);
            check(headed, seed, "headed " + i);
        }
    }

    @Test
    void everyPrefixOfAValidPartDecodesToAPrefixOfItsFile() {
        long seed = FuzzSeed.seed();
        Random r = new Random(seed);
        byte[] file = new byte[1500];
        r.nextBytes(file);
        byte[] body = YencEncoder.part(file, "prefix.bin", 1, 1, 0, file.length, 1 + r.nextInt(200));
        for (int n = 0; n <= body.length; n++) {
            byte[] prefix = Arrays.copyOf(body, n);
            YencPart p = check(prefix, seed, "prefix " + n);
            byte[] kept = p.data();
            assertThat(kept).as("%s, prefix %d", FuzzSeed.replay(seed), n).isEqualTo(Arrays.copyOf(file, kept.length));
            if (p.ok()) {
                assertThat(p.decoded())
                        .as("%s, prefix %d is ok only when whole", FuzzSeed.replay(seed), n)
                        .isEqualTo(file.length);
            }
        }
    }

    @Test
    void randomSizesLineLengthsCutsAndBitFlipsNeverThrow() {
        long seed = FuzzSeed.seed();
        Random r = new Random(seed);
        for (int i = 0; i < 400; i++) {
            byte[] file = new byte[r.nextInt(20_000)];
            r.nextBytes(file);
            int line = 1 + r.nextInt(1000);
            byte[] body = r.nextBoolean()
                    ? YencEncoder.single(file, "f" + i, line)
                    : YencEncoder.part(file, "f" + i, 1, 1 + r.nextInt(3), 0, file.length, line);
            YencPart whole = check(body, seed, "whole " + i);
            assertThat(whole.ok()).as("%s, case %d", FuzzSeed.replay(seed), i).isTrue();
            assertThat(whole.data()).isEqualTo(Arrays.copyOf(file, Math.min(CAP, file.length)));
            check(Arrays.copyOf(body, r.nextInt(body.length + 1)), seed, "cut " + i);
            byte[] flipped = body.clone();
            for (int f = 1 + r.nextInt(8); f > 0; f--) {
                int at = r.nextInt(flipped.length);
                flipped[at] ^= (byte) (1 << r.nextInt(8));
            }
            YencPart p = check(flipped, seed, "flipped " + i);
            if (p.ok() && p.found()) {
                assertThat(p.crc()).isNotEqualTo(YencPart.Crc.MISMATCHED);
            }
        }
    }

    @Test
    void lyingHeaderFieldsAreReasons() {
        long seed = FuzzSeed.seed();
        Random r = new Random(seed);
        String[] lies = {
            "2147483648",
            "1152921504606846976",
            "-1",
            "99999999999999999999",
            "0",
            "abc",
            "",
            "1e9",
            "18446744073709551615"
        };
        String[] keys = {"size", "part", "total", "begin", "end"};
        byte[] file = new byte[3000];
        r.nextBytes(file);
        String good = new String(YencEncoder.part(file, "l", 1, 2, 0, 3000, 128), StandardCharsets.ISO_8859_1);
        for (String key : keys) {
            for (String lie : lies) {
                String body = good.replaceFirst(" " + key + "=[0-9]+", " " + key + "=" + lie);
                YencPart p = check(body.getBytes(StandardCharsets.ISO_8859_1), seed, key + "=" + lie);
                if (key.equals("size") && lie.equals("2147483648")) {
                    assertThat(p.ok()).as("a 2 GiB file is no lie").isTrue();
                    continue;
                }
                assertThat(p.ok()).as("%s=%s", key, lie).isFalse();
                assertThat(p.reason()).as("%s=%s", key, lie).isNotNull();
            }
        }
    }

    static boolean same(YencPart a, YencPart b) {
        return a.name().equals(b.name())
                && a.part() == b.part()
                && a.total() == b.total()
                && a.begin() == b.begin()
                && a.end() == b.end()
                && a.size() == b.size()
                && Arrays.equals(a.data(), b.data())
                && a.decoded() == b.decoded()
                && a.crc() == b.crc()
                && java.util.Objects.equals(a.reason(), b.reason());
    }

    private static YencPart check(byte[] body, long seed, String what) {
        YencPart p;
        YencPart s;
        try {
            p = YencDecoder.decode(body, CAP);
            s = YencDecoder.decode(new ByteArrayInputStream(body), CAP);
        } catch (Exception | StackOverflowError e) {
            throw new AssertionError(FuzzSeed.replay(seed) + ", " + what + ": " + e, e);
        }
        String where = FuzzSeed.replay(seed) + ", " + what;
        assertThat(p.data().length).as(where).isLessThanOrEqualTo(CAP);
        assertThat(p.decoded()).as(where).isLessThanOrEqualTo(body.length);
        assertThat(p.name().length()).as(where).isLessThanOrEqualTo(YencDecoder.MAX_NAME);
        assertThat(p.reason() == null || p.reason().length() < 300).as(where).isTrue();
        assertThat(same(s, p)).as(where + ": the stream decodes as the array").isTrue();
        return p;
    }
}
