package headway.inspect.par2;

import static org.assertj.core.api.Assertions.assertThat;

import headway.inspect.yenc.FuzzSeed;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reader on hostile bytes: random bytes, random bytes around packets, every prefix and random
 * cuts of a real index file, bit flips, and lying length fields in packets whose MD5 is made to
 * check. Whatever the bytes: no exception, no more packets than the bytes hold (each at least 64;
 * the loop's bound), files within their bound, and allocation bounded by the buffer, never by a
 * length field. Each run draws a fresh seed; a failure names it.
 */
class Par2FuzzTest {

    @Test
    void randomBytesAndMagicsInRandomBytes() {
        long seed = FuzzSeed.seed();
        Random r = new Random(seed);
        byte[] magic = "PAR2\0PKT".getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < 3000; i++) {
            byte[] b = new byte[r.nextInt(4000)];
            r.nextBytes(b);
            for (int m = r.nextInt(6); m > 0 && b.length > 80; m--) {
                int at = r.nextInt(b.length - 16);
                System.arraycopy(magic, 0, b, at, 8);
                if (r.nextBoolean()) {
                    Packets.putLong(b, at + 8, lie(r, b.length - at));
                }
            }
            check(b, seed, "random " + i);
        }
    }

    @Test
    void everyPrefixAndRandomCutsOfARealIndexFile() throws Exception {
        long seed = FuzzSeed.seed();
        Random r = new Random(seed);
        byte[] index = Par2ReaderTest.fixture();
        Par2Set whole = Par2Reader.read(index);
        for (int n = 0; n <= index.length; n++) {
            Par2Set s = check(Arrays.copyOf(index, n), seed, "prefix " + n);
            assertThat(whole.files())
                    .as("%s, prefix %d", FuzzSeed.replay(seed), n)
                    .containsAll(s.files());
            boolean boundary = n == index.length || Arrays.binarySearch(packetStarts(index), n) >= 0;
            assertThat(s.reason() == null)
                    .as("prefix %d of %d", n, index.length)
                    .isEqualTo(boundary && n > 0);
        }
        for (int i = 0; i < 500; i++) {
            int from = r.nextInt(index.length);
            int to = from + r.nextInt(index.length - from + 1);
            check(Arrays.copyOfRange(index, from, to), seed, "cut " + from + ".." + to);
        }
    }

    @Test
    void bitFlipsAndLyingLengthsWithValidHashes() throws Exception {
        long seed = FuzzSeed.seed();
        Random r = new Random(seed);
        byte[] index = Par2ReaderTest.fixture();
        int[] starts = packetStarts(index);
        for (int i = 0; i < 3000; i++) {
            byte[] b = index.clone();
            for (int f = 1 + r.nextInt(4); f > 0; f--) {
                int at = r.nextInt(b.length);
                b[at] ^= (byte) (1 << r.nextInt(8));
            }
            check(b, seed, "flip " + i);
            byte[] lying = index.clone();
            int p = starts[r.nextInt(starts.length)];
            int field = p + (r.nextBoolean() ? 8 : 64 + 8 * r.nextInt(4));
            if (field + 8 <= lying.length) {
                Packets.putLong(lying, field, lie(r, lying.length - p));
                if (field > p + 8) {
                    Packets.rehash(lying, p);
                }
            }
            check(lying, seed, "lie " + i);
        }
    }

    private static long lie(Random r, int remaining) {
        long[] lies = {1L << 60, 1L << 31, 1L << 32, -1L, Long.MIN_VALUE, 0, 8, 63, 64, 66, remaining, remaining + 4};
        return r.nextInt(4) == 0 ? r.nextLong() : lies[r.nextInt(lies.length)];
    }

    private static int[] packetStarts(byte[] b) {
        int[] starts = new int[b.length / 64];
        int n = 0;
        for (int i = 0; i + 8 <= b.length; i++) {
            if (b[i] == 'P' && b[i + 1] == 'A' && b[i + 2] == 'R' && b[i + 3] == '2' && b[i + 4] == 0) {
                starts[n++] = i;
            }
        }
        return Arrays.copyOf(starts, n);
    }

    private static Par2Set check(byte[] b, long seed, String what) {
        String where = FuzzSeed.replay(seed) + ", " + what;
        long before = FuzzSeed.allocated();
        Par2Set s;
        try {
            s = Par2Reader.read(b);
        } catch (Exception | StackOverflowError e) {
            throw new AssertionError(where + ": " + e, e);
        }
        long used = FuzzSeed.allocated() - before;
        assertThat(s.packetsRead() + s.packetsSkipped()).as(where).isLessThanOrEqualTo(b.length / 8 + 1);
        assertThat(s.files().size()).as(where).isLessThanOrEqualTo(Par2Reader.MAX_FILES);
        assertThat(s.files())
                .as(where)
                .allSatisfy(f -> assertThat(f.name().length()).isLessThanOrEqualTo(Par2Reader.MAX_NAME));
        assertThat(s.reason() == null || s.reason().length() <= 200).as(where).isTrue();
        assertThat(used).as(where + ": bytes allocated").isLessThan(16L * b.length + 256 * 1024);
        return s;
    }
}
