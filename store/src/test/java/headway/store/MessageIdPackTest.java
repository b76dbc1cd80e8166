package headway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The packed message-ids: every list of ids the catalog takes comes back as PostgreSQL's text gave
 * it back (UTF-8 there and back), equal lists and only equal lists have equal values, and no
 * value, however cut or lying, makes the decoder throw anything but {@link IllegalArgumentException}.
 * Seeded: a failure prints its seed, {@code -Dheadway.seed=N} replays it.
 */
class MessageIdPackTest {

    private static final String HEX = "0123456789abcdef";
    private static final String LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    /** What PostgreSQL's text gave back for an id: its UTF-8 bytes read again (a lone surrogate is '?'). */
    private static String asStored(String id) {
        return new String(id.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }

    @Test
    void postingToolsIdsPackNearTheirInformation() {
        Random r = new Random(7);
        long millis = 1_695_410_374_703L;
        long a = 3_443_298_495L;
        long b = 2_277_527L;
        List<String> nyuu = new ArrayList<>();
        List<String> nyuuRand = new ArrayList<>();
        List<String> newsUp = new ArrayList<>();
        List<String> newzToolz = new ArrayList<>();
        List<String> ngPost = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            millis += 20 + r.nextInt(40);
            a += 8 + r.nextInt(5);
            b += 550 + r.nextInt(100);
            nyuu.add(millis + "." + TestSeeds.text(r, HEX, 32) + "@nyuu");
            nyuuRand.add(TestSeeds.text(r, LETTERS, 24) + "-" + millis + "@nyuu");
            newsUp.add(TestSeeds.text(r, LETTERS, 32) + "@abc");
            newzToolz.add("NewzToolz_Rulz!_www.techsono.com_" + a + "_" + b + "@giganews.com");
            ngPost.add(TestSeeds.text(r, HEX, 8) + "-" + TestSeeds.text(r, HEX, 4) + "-" + TestSeeds.text(r, HEX, 4)
                    + "-" + TestSeeds.text(r, HEX, 4) + "-" + TestSeeds.text(r, HEX, 12) + "@ngPost.com");
        }
        assertThat(perId(nyuu)).isLessThanOrEqualTo(20.5); // 51 as text, 16 of them random
        assertThat(perId(nyuuRand)).isLessThanOrEqualTo(21.5); // 43 as text, 17.1 random
        assertThat(perId(newsUp)).isLessThanOrEqualTo(25.5); // 36 as text, 22.8 random
        assertThat(perId(newzToolz)).isLessThanOrEqualTo(6.5); // 64 as text
        assertThat(perId(ngPost)).isLessThanOrEqualTo(21.5); // 47 as text, 16 random in five runs
    }

    private static double perId(List<String> ids) {
        byte[] packed = MessageIdPack.encode(ids);
        assertThat(MessageIdPack.decode(packed)).isEqualTo(ids);
        return (double) packed.length / ids.size();
    }

    @Test
    void everyListComesBackAsTextDid() {
        long seed = TestSeeds.next();
        Random r = new Random(seed);
        for (int round = 0; round < 3_000; round++) {
            List<String> ids = randomIds(r);
            byte[] packed = MessageIdPack.encode(ids);
            assertThat(MessageIdPack.decode(packed))
                    .as(TestSeeds.describe(seed))
                    .isEqualTo(ids.stream().map(MessageIdPackTest::asStored).toList());
            // the first k ids are the value's first bits: all but the last byte alike
            int k = r.nextInt(ids.size() + 1);
            byte[] head = MessageIdPack.encode(ids.subList(0, k));
            int whole = Math.max(0, head.length - 1);
            assertThat(Arrays.equals(head, 0, whole, packed, 0, whole))
                    .as(TestSeeds.describe(seed))
                    .isTrue();
        }
    }

    @Test
    void equalValuesOnlyForEqualLists() {
        long seed = TestSeeds.next();
        Random r = new Random(seed);
        for (int round = 0; round < 3_000; round++) {
            List<String> a =
                    randomIds(r).stream().map(MessageIdPackTest::asStored).toList();
            List<String> b = new ArrayList<>(a);
            if (!b.isEmpty() && r.nextBoolean()) {
                int i = r.nextInt(b.size());
                b.set(i, mutate(r, b.get(i)));
            }
            b = b.stream().map(MessageIdPackTest::asStored).toList();
            assertThat(Arrays.equals(MessageIdPack.encode(a), MessageIdPack.encode(b)))
                    .as(TestSeeds.describe(seed) + " " + a + " " + b)
                    .isEqualTo(a.equals(b));
        }
    }

    @Test
    void lyingOrCutValuesFailCleanly() {
        long seed = TestSeeds.next();
        Random r = new Random(seed);
        for (int round = 0; round < 5_000; round++) {
            byte[] value;
            if (round % 3 == 0) {
                value = new byte[r.nextInt(40)];
                r.nextBytes(value);
            } else {
                byte[] packed = MessageIdPack.encode(randomIds(r));
                value = round % 3 == 1 && packed.length > 0
                        ? Arrays.copyOf(packed, r.nextInt(packed.length))
                        : packed.clone();
                if (value.length > 0) {
                    value[r.nextInt(value.length)] ^= (byte) (1 << r.nextInt(8));
                }
            }
            try {
                List<String> ids = MessageIdPack.decode(value);
                // a value that decodes is the one value of its ids
                assertThat(MessageIdPack.encode(ids))
                        .as(TestSeeds.describe(seed))
                        .isEqualTo(value);
            } catch (IllegalArgumentException expected) {
                // refused: the only way a value may fail
            }
        }
    }

    @Test
    void aNulIsRefusedAsPostgresqlRefusedItInText() {
        assertThatThrownBy(() -> MessageIdPack.encode(List.of("a@b", "x\0y@b")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NUL");
    }

    @Test
    void edgesRoundTrip() {
        List<List<String>> lists = List.of(
                List.of(),
                List.of(""),
                List.of("", ""),
                List.of("", "a", ""),
                List.of("999999999999999999", "000000000000000000", "999999999999999999"),
                List.of("9999999999999999999", "0000000000000000000"),
                List.of("a".repeat(100_000), "a".repeat(100_000) + "b"),
                List.of("\uD800x@y", "\uDFFF@y", "\uD83D\uDE00@y"),
                List.of("@@@", "@@@", "@@"));
        for (List<String> ids : lists) {
            assertThat(MessageIdPack.decode(MessageIdPack.encode(ids)))
                    .isEqualTo(ids.stream().map(MessageIdPackTest::asStored).toList());
        }
        assertThat(MessageIdPack.encode(List.of())).isEmpty();
    }

    private static List<String> randomIds(Random r) {
        int n = r.nextInt(8) == 0 ? 0 : 1 + r.nextInt(r.nextBoolean() ? 4 : 60);
        String base = randomId(r);
        List<String> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ids.add(r.nextInt(3) == 0 ? randomId(r) : mutate(r, base));
            if (r.nextInt(4) == 0) {
                base = ids.get(i);
            }
        }
        return ids;
    }

    /** Any text without a tab or a NUL: shapes of tools, digits, letters, all of Unicode, lone surrogates, empty, long. */
    private static String randomId(Random r) {
        switch (r.nextInt(6)) {
            case 0:
                return r.nextLong(1L << 41) + "." + TestSeeds.text(r, HEX, 32) + "@nyuu";
            case 1:
                return TestSeeds.text(r, LETTERS, r.nextInt(40)) + "@" + TestSeeds.text(r, LETTERS, 3);
            case 2:
                return Long.toString(r.nextLong() & Long.MAX_VALUE) + "_" + r.nextInt(100) + "@x";
            case 3:
                return "";
            default: {
                StringBuilder sb = new StringBuilder();
                int len = r.nextInt(20) == 0 ? r.nextInt(3_000) : r.nextInt(40);
                for (int i = 0; i < len; i++) {
                    int kind = r.nextInt(4);
                    int cp = kind == 0
                            ? r.nextInt(0x80)
                            : kind == 1 ? LETTERS.charAt(r.nextInt(LETTERS.length())) : r.nextInt(0x110000);
                    if (cp == '\t' || cp == 0) {
                        cp = '~';
                    }
                    if (cp >= 0xD800 && cp <= 0xDFFF) {
                        sb.append((char) cp); // a lone surrogate, as a String may hold one
                    } else {
                        sb.appendCodePoint(cp);
                    }
                }
                return sb.toString();
            }
        }
    }

    /** {@code id} with a character or digit run changed, so that ids of one binary share a shape. */
    private static String mutate(Random r, String id) {
        if (id.isEmpty()) {
            return r.nextBoolean() ? "" : "0";
        }
        StringBuilder sb = new StringBuilder(id);
        int at = r.nextInt(sb.length());
        char c = sb.charAt(at);
        if (c >= '0' && c <= '9') {
            sb.setCharAt(at, (char) ('0' + r.nextInt(10)));
        } else if (r.nextBoolean()) {
            sb.setCharAt(at, LETTERS.charAt(r.nextInt(LETTERS.length())));
        } else {
            sb.insert(at, HEX.charAt(r.nextInt(16)));
        }
        return sb.toString();
    }
}
