package headway.inspect.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The 7z reader on hostile bytes: small archives made by 7z (encoded, plain, stored, encrypted
 * entries, encrypted headers) cut into every head and tail, bit-flipped with the CRCs made right
 * again, and with lying start headers; forged headers with 2^60 counts and sizes, a header
 * packed from itself, coders bound in a loop, a chain of 64 coders, and an LZMA bomb. Each case
 * keeps {@link Fuzz#check}'s invariants; a failure prints its seed.
 */
class SevenZipFuzzTest {

    @AfterAll
    static void summary() {
        Fuzz.summary("7z");
    }

    /** Decoding may take a dictionary and an output of MAX_HEADER_BYTES each, and a copy. */
    static long allocationBound(long n) {
        return 3L * SevenZipReader.MAX_HEADER_BYTES + 512 * 1024 + 64 * n;
    }

    /** What a listing whose claims are refused before any decoding may allocate. */
    private static final long NOTHING = 256 * 1024;

    @TempDir
    static Path dir;

    private static final List<byte[]> SAMPLES = new ArrayList<>();

    @BeforeAll
    static void pack() throws Exception {
        String sevenZip = TestTools.sevenZip();
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("d"));
        Random random = new Random(5);
        Files.write(src.resolve("a.txt"), "hello ".repeat(50).getBytes(StandardCharsets.US_ASCII));
        Files.write(src.resolve("d/Ωμέγα.bin"), Samples.bytes(random, 300));
        Files.write(src.resolve("d/inner.zip"), Samples.storedZip(random));
        Files.write(src.resolve("empty"), new byte[0]);
        String[][] variants = {{}, {"-mhc=off"}, {"-mx0"}, {"-pSecret"}, {"-pSecret", "-mhe=on"}, {"-mx0", "-mhc=off"}};
        for (int i = 0; i < variants.length; i++) {
            List<String> cmd = new ArrayList<>(List.of(sevenZip, "a", "-bd"));
            cmd.addAll(Arrays.asList(variants[i]));
            cmd.addAll(List.of("../v" + i + ".7z", "."));
            TestTools.run(src, cmd.toArray(String[]::new));
            SAMPLES.add(TestTools.read(dir.resolve("v" + i + ".7z")));
        }
    }

    private static Listing list(String what, byte[] head, byte[] tail, long offset) {
        return Fuzz.check(
                what,
                head.length + tail.length,
                allocationBound(head.length + tail.length),
                () -> Archives.sevenZip(head, tail, offset));
    }

    private static Listing whole(String what, byte[] b) {
        return list(what, b, b, 0);
    }

    /**
     * What an end alone gives agrees with the whole archive's listing: the same entries when it
     * lists, encrypted headers only when they are; and the whole archive lists or is flagged from
     * its end alone, its header encoded or plain.
     */
    private static void endAgrees(byte[] s, int n, Listing alone) {
        Listing full = Archives.sevenZip(s, s, 0);
        String what = n + " of " + s.length + " bytes: " + alone.reason();
        if (alone.complete()) {
            assertThat(alone.entries()).as(what).isEqualTo(full.entries());
        }
        if (alone.headersEncrypted()) {
            assertThat(full.headersEncrypted()).as(what).isTrue();
        }
        if (n == s.length) {
            assertThat(alone.complete() || alone.headersEncrypted()).as(what).isTrue();
        }
    }

    @Test
    void randomEndsAndEndsFullOfHeaderIdsGiveNoListing() {
        Fuzz.run("7z ends alone", random -> {
            for (int i = 0; i < 300; i++) {
                byte[] b = Samples.bytes(random, random.nextInt(40_000));
                Listing l = Fuzz.check(
                        "random end of " + b.length,
                        b.length,
                        allocationBound(b.length),
                        () -> Archives.sevenZipEnd(b));
                assertThat(l.complete() || l.headersEncrypted()).as(l.reason()).isFalse();
            }
            for (int[] pattern : new int[][] {{0x01, 0x04}, {0x17, 0x06}, {0x01, 0x05, 0x01}, {0x17, 0x06, 0x00}}) {
                byte[] b = new byte[SevenZipReader.END_SCAN * 2];
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) pattern[i % pattern.length];
                }
                Listing l = Fuzz.check(
                        "ids " + pattern[0], b.length, allocationBound(b.length), () -> Archives.sevenZipEnd(b));
                assertThat(l.complete() || l.headersEncrypted()).as(l.reason()).isFalse();
            }
        });
    }

    @Test
    void samplesListWhole() {
        for (byte[] s : SAMPLES) {
            Listing l = whole("sample", s);
            assertThat(l.complete() || l.headersEncrypted()).as(l.reason()).isTrue();
        }
    }

    @Test
    void everyHeadAndEveryTail() {
        Fuzz.run("7z heads and tails", random -> {
            for (byte[] s : SAMPLES) {
                for (int n = 0; n <= s.length; n++) {
                    list("head " + n, Arrays.copyOf(s, n), TestTools.tail(s, 64), s.length - Math.min(64, s.length));
                    byte[] end = Arrays.copyOfRange(s, s.length - n, s.length);
                    Listing alone =
                            Fuzz.check("end alone " + n, n, allocationBound(n), () -> Archives.sevenZipEnd(end));
                    endAgrees(s, n, alone);
                    list(
                            "tail " + n,
                            Arrays.copyOf(s, 32),
                            Arrays.copyOfRange(s, s.length - n, s.length),
                            s.length - n);
                }
                for (int i = 0; i < 100; i++) {
                    int from = random.nextInt(s.length + 1);
                    int to = from + random.nextInt(s.length - from + 1);
                    long offset = random.nextBoolean() ? from : random.nextInt(2 * s.length + 1) - s.length / 2;
                    list(
                            "tail [" + from + ", " + to + ") at " + offset,
                            Arrays.copyOf(s, 32 + random.nextInt(64)),
                            Arrays.copyOfRange(s, from, to),
                            offset);
                }
            }
        });
    }

    @Test
    void bitFlipsWithTheCrcsMadeRight() {
        Fuzz.run("7z bit flips", random -> {
            for (int i = 0; i < 3_000; i++) {
                byte[] s = SAMPLES.get(random.nextInt(SAMPLES.size()));
                long offset = Bytes.u64(s, 12);
                int header = (int) (32 + offset);
                byte[] flipped = random.nextInt(5) == 0
                        ? Fuzz.flip(random, s, 0, s.length, 3)
                        : Fuzz.flip(random, s, header - random.nextInt(40), s.length, 3);
                whole("flip " + i, random.nextInt(4) == 0 ? flipped : SevenZipForge.fixCrcs(flipped));
            }
        });
    }

    @Test
    void lyingStartHeaders() {
        Fuzz.run("7z lying start headers", random -> {
            for (byte[] s : SAMPLES) {
                for (int i = 0; i < 40; i++) {
                    byte[] m = s.clone();
                    int field = random.nextBoolean() ? 12 : 20;
                    long lie = random.nextInt(3) == 0 ? -32 - random.nextInt(64) : Fuzz.lie(random);
                    Fuzz.putLe(m, field, lie, 8);
                    Listing l = Fuzz.check(
                            "start header lie " + lie,
                            m.length * 2L,
                            NOTHING,
                            () -> Archives.sevenZip(SevenZipForge.fixCrcs(m), m, 0));
                    assertThat(l.entries().size()).isLessThanOrEqualTo(m.length);
                }
            }
        });
    }

    @Test
    void lyingNumbersInAPlainHeaderAndInAnEncodedOne() {
        Fuzz.run("7z lying numbers", random -> {
            byte[] header = SevenZipForge.plainHeader(new String[] {"a.rar", "b/c.txt", "d"}, new long[] {10, 20, 30});
            for (int i = 0; i < 800; i++) {
                byte[] m = header.clone();
                int at = 1 + random.nextInt(m.length - 1);
                byte[] lie = new SevenZipForge().number(Fuzz.lie(random)).toBytes();
                byte[] lying = random.nextBoolean()
                        ? RarFuzzTest.concat(
                                RarFuzzTest.concat(Arrays.copyOf(m, at), lie), Arrays.copyOfRange(m, at + 1, m.length))
                        : Fuzz.flip(random, m, 1, m.length, 3);
                byte[] plain = SevenZipForge.archive(new byte[60], lying);
                whole("plain " + i, plain);
                whole("encoded " + i, SevenZipForge.encoded(lying, lying.length));
            }
        });
    }

    @Test
    void claimsOfTwoToTheSixtyAreRefusedWithoutAllocation() {
        long huge = 1L << 60;
        byte[][] headers = {
            new SevenZipForge().bytes(0x01, 0x05).number(huge).bytes(0x00, 0x00).toBytes(),
            new SevenZipForge()
                    .bytes(0x01, 0x05)
                    .number(65_535)
                    .bytes(0x00, 0x00)
                    .toBytes(),
            new SevenZipForge()
                    .bytes(0x01, 0x05)
                    .number(1)
                    .bytes(0x11)
                    .number(huge)
                    .bytes(0, 'a', 0, 0, 0, 0, 0)
                    .toBytes(),
            new SevenZipForge()
                    .bytes(0x01, 0x04, 0x06)
                    .number(0)
                    .number(huge)
                    .bytes(0x00, 0x00, 0x00)
                    .toBytes(),
            new SevenZipForge()
                    .bytes(0x01, 0x04, 0x07, 0x0B)
                    .number(huge)
                    .bytes(0x00, 0x00)
                    .toBytes(),
            new SevenZipForge()
                    .bytes(0x01, 0x04, 0x07, 0x0B, 0x01, 0x00, 0x01, 0x21, 0x00)
                    .number(huge)
                    .toBytes(),
            new SevenZipForge()
                    .bytes(0x01, 0x04, 0x07, 0x0B, 0x01, 0x00, 0x01, 0x01, 0x00, 0x0C)
                    .number(5)
                    .bytes(0x00, 0x08, 0x0D)
                    .number(huge)
                    .toBytes(),
        };
        for (byte[] header : headers) {
            byte[] archive = SevenZipForge.archive(new byte[0], header);
            Listing l = Fuzz.check(
                    "forged header", archive.length * 2L, NOTHING, () -> Archives.sevenZip(archive, archive, 0));
            assertThat(l.entries()).isEmpty();
            assertThat(l.complete()).isFalse();
        }
        byte[] plain = SevenZipForge.plainHeader(new String[] {"x"}, new long[] {1});
        byte[] honest = SevenZipForge.encoded(plain, plain.length);
        assertThat(Archives.sevenZip(honest, honest, 0).entries())
                .as("the forge's honest encoded header lists")
                .singleElement()
                .satisfies(e -> assertThat(e.name()).isEqualTo("x"));
        for (long claim : new long[] {huge, SevenZipReader.MAX_HEADER_BYTES + 1L, Long.MAX_VALUE}) {
            byte[] encoded = SevenZipForge.encoded(plain, claim);
            Listing l = Fuzz.check(
                    "encoded header claiming " + claim,
                    encoded.length * 2L,
                    NOTHING,
                    () -> Archives.sevenZip(encoded, encoded, 0));
            assertThat(l.entries()).isEmpty();
        }
        byte[] bigStart = SevenZipForge.archive(new byte[0], plain, 0, huge);
        Listing l = Fuzz.check(
                "next header of 2^60", bigStart.length * 2L, NOTHING, () -> Archives.sevenZip(bigStart, bigStart, 0));
        assertThat(l.reason()).contains("past the archive");
    }

    @Test
    void anEncodedHeaderPackedFromItselfOrInALoopIsAReason() {
        byte[] self = new SevenZipForge()
                .bytes(0x17, 0x06)
                .number(0)
                .number(1)
                .bytes(0x09)
                .number(40)
                .bytes(0x00, 0x07, 0x0B, 0x01, 0x00, 0x01, 0x23, 0x03, 0x01, 0x01, 0x05, 0x5D, 0, 0, 1, 0, 0x0C)
                .number(100)
                .bytes(0x00, 0x00)
                .toBytes();
        byte[] itself = SevenZipForge.archive(new byte[0], self);
        Listing l = Fuzz.check(
                "header packed from itself",
                itself.length * 2L,
                allocationBound(itself.length),
                () -> Archives.sevenZip(itself, itself, 0));
        assertThat(l.complete()).isFalse();

        SevenZipForge loop = new SevenZipForge()
                .bytes(0x17, 0x06)
                .number(0)
                .number(1)
                .bytes(0x09)
                .number(8);
        loop.bytes(0x00, 0x07, 0x0B, 0x01, 0x00, 0x04);
        for (int i = 0; i < 4; i++) {
            loop.bytes(0x01, 0x00);
        }
        loop.number(0).number(1).number(1).number(2).number(2).number(1);
        loop.bytes(0x0C).number(8).number(8).number(8).number(8).bytes(0x00, 0x00);
        byte[] looping = SevenZipForge.archive(new byte[8], loop.toBytes());
        Listing loops = Fuzz.check(
                "coders bound in a loop", looping.length * 2L, NOTHING, () -> Archives.sevenZip(looping, looping, 0));
        assertThat(loops.reason()).contains("loop");
    }

    @Test
    void aChainOf64CopyCodersDecodesAnd65IsRefused() {
        byte[] header = SevenZipForge.plainHeader(new String[] {"deep.rar"}, new long[] {3});
        for (int coders : new int[] {64, 65}) {
            SevenZipForge f = new SevenZipForge()
                    .bytes(0x17, 0x06)
                    .number(3)
                    .number(1)
                    .bytes(0x09)
                    .number(header.length);
            f.bytes(0x00, 0x07, 0x0B, 0x01, 0x00).number(coders);
            for (int i = 0; i < coders; i++) {
                f.bytes(0x01, 0x00);
            }
            for (int i = 0; i < coders - 1; i++) {
                f.number(i).number(i + 1);
            }
            f.bytes(0x0C);
            for (int i = 0; i < coders; i++) {
                f.number(header.length);
            }
            f.bytes(0x00, 0x00);
            byte[] archive = SevenZipForge.archive(RarFuzzTest.concat(new byte[] {'R', 'a', 'r'}, header), f.toBytes());
            Listing l = Fuzz.check(
                    coders + " coders", archive.length * 2L, NOTHING, () -> Archives.sevenZip(archive, archive, 0));
            if (coders == 64) {
                assertThat(l.complete()).as(l.reason()).isTrue();
                assertThat(l.entries())
                        .singleElement()
                        .satisfies(e -> assertThat(e.name()).isEqualTo("deep.rar"));
            } else {
                assertThat(l.reason()).contains("more than 64");
            }
        }
    }

    @Test
    void anLzmaBombDecodesNoMoreThanTheBound() {
        byte[] zeros = new byte[SevenZipReader.MAX_HEADER_BYTES];
        zeros[0] = 0x01;
        zeros[1] = 0x7F;
        byte[] bomb = SevenZipForge.encoded(zeros, zeros.length);
        assertThat(bomb.length).as("4 MiB packs small").isLessThan(4096);
        Listing l = Fuzz.check(
                "4 MiB from " + bomb.length + " bytes",
                bomb.length * 2L,
                allocationBound(bomb.length),
                () -> Archives.sevenZip(bomb, bomb, 0));
        assertThat(l.complete()).isFalse();
        byte[] over = RarFuzzTest.concat(zeros, new byte[1]);
        byte[] bigger = SevenZipForge.encoded(over, over.length);
        Listing refused =
                Fuzz.check("4 MiB + 1", bigger.length * 2L, NOTHING, () -> Archives.sevenZip(bigger, bigger, 0));
        assertThat(refused.reason()).contains("more than the " + SevenZipReader.MAX_HEADER_BYTES);
    }
}
