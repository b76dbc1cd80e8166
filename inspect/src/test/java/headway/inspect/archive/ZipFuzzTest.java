package headway.inspect.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ZIP reader on hostile bytes: archives from ZipOutputStream (deflated with descriptors,
 * stored) and 7z (ZipCrypto) cut into every head and tail, bit-flipped (ZIP headers carry no CRC),
 * with lying counts, sizes and offsets in the end records, central and local headers (2^60 via
 * ZIP64), a central directory that points at itself, and a ZIP nested 50 deep. Each case keeps
 * {@link Fuzz#check}'s invariants; a failure prints its seed.
 */
class ZipFuzzTest {

    @AfterAll
    static void summary() {
        Fuzz.summary("ZIP");
    }

    /** A listing allocates for its entries and names only; no size field is ever allocated. */
    static long allocationBound(long n) {
        return 256 * 1024 + 64 * n;
    }

    @TempDir
    static Path dir;

    private static final List<byte[]> SAMPLES = new ArrayList<>();

    @BeforeAll
    static void pack() throws Exception {
        Random random = new Random(9);
        SAMPLES.add(javaZip(random, false));
        SAMPLES.add(javaZip(random, true));
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("d"));
        Files.write(src.resolve("d/Ωμέγα.txt"), "text ".repeat(40).getBytes(StandardCharsets.UTF_8));
        Files.write(src.resolve("b.bin"), Samples.bytes(random, 200));
        TestTools.run(src, TestTools.sevenZip(), "a", "-bd", "-tzip", "-pSecret", "../crypto.zip", ".");
        SAMPLES.add(TestTools.read(dir.resolve("crypto.zip")));
    }

    /** A small ZIP from Java: deflated entries (sizes in descriptors) or stored ones, UTF-8 names. */
    static byte[] javaZip(Random random, boolean stored) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out, StandardCharsets.UTF_8)) {
            for (String name : List.of("a.txt", "dir/", "dir/ünï.rar", "z.bin")) {
                byte[] data = name.endsWith("/") ? new byte[0] : Samples.bytes(random, 20 + random.nextInt(80));
                ZipEntry e = new ZipEntry(name);
                if (stored) {
                    e.setMethod(ZipEntry.STORED);
                    e.setSize(data.length);
                    CRC32 crc = new CRC32();
                    crc.update(data);
                    e.setCrc(crc.getValue());
                }
                zip.putNextEntry(e);
                zip.write(data);
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static Listing list(String what, byte[] head, byte[] tail, long offset) {
        return Fuzz.check(
                what,
                head.length + tail.length,
                allocationBound(head.length + tail.length),
                () -> Archives.zip(head, tail, offset));
    }

    @Test
    void samplesListWhole() {
        for (byte[] s : SAMPLES) {
            assertThat(list("central", s, s, 0).entries()).hasSize(s == SAMPLES.get(2) ? 3 : 4);
            assertThat(list("local", s, new byte[0], 0).complete()).isTrue();
        }
    }

    @Test
    void everyHeadAndEveryTail() {
        Fuzz.run("zip heads and tails", random -> {
            for (byte[] s : SAMPLES) {
                for (int n = 0; n <= s.length; n++) {
                    list("head " + n, Arrays.copyOf(s, n), new byte[0], 0);
                    list("tail " + n, new byte[0], Arrays.copyOfRange(s, s.length - n, s.length), s.length - n);
                }
                for (int i = 0; i < 300; i++) {
                    int from = random.nextInt(s.length + 1);
                    int to = from + random.nextInt(s.length - from + 1);
                    long offset = random.nextBoolean() ? from : random.nextInt(2 * s.length + 1) - s.length / 2;
                    list(
                            "[" + from + ", " + to + ") at " + offset,
                            Arrays.copyOf(s, random.nextInt(s.length + 1)),
                            Arrays.copyOfRange(s, from, to),
                            offset);
                }
            }
        });
    }

    @Test
    void bitFlips() {
        Fuzz.run("zip bit flips", random -> {
            for (int i = 0; i < 4_000; i++) {
                byte[] s = SAMPLES.get(random.nextInt(SAMPLES.size()));
                byte[] m = Fuzz.flip(random, s, 0, s.length, 4);
                list("flip " + i, m, m, 0);
                list("flip " + i + " local", m, new byte[0], 0);
            }
        });
    }

    @Test
    void lyingFieldsInEveryRecord() {
        Fuzz.run("zip lying fields", random -> {
            for (byte[] s : SAMPLES) {
                List<int[]> fields = fields(s);
                for (int i = 0; i < 800; i++) {
                    int[] field = fields.get(random.nextInt(fields.size()));
                    byte[] m = s.clone();
                    long lie = random.nextInt(4) == 0 ? random.nextInt(m.length + 1) : Fuzz.lie(random);
                    Fuzz.putLe(m, field[0], lie, field[1]);
                    list("field at " + field[0] + " = " + lie, m, m, 0);
                    list("field at " + field[0] + " = " + lie + " local", m, new byte[0], 0);
                }
            }
        });
    }

    /** Offsets and widths of the size, count, offset and length fields of every record found. */
    private static List<int[]> fields(byte[] s) {
        List<int[]> fields = new ArrayList<>();
        for (int p = 0; p + 4 <= s.length; p++) {
            long sig = Bytes.u32(s, p);
            if (sig == ZipReader.LOCAL) {
                for (int f : new int[] {18, 22}) {
                    fields.add(new int[] {p + f, 4});
                }
                fields.add(new int[] {p + 26, 2});
                fields.add(new int[] {p + 28, 2});
            } else if (sig == ZipReader.CENTRAL) {
                for (int f : new int[] {20, 24, 42}) {
                    fields.add(new int[] {p + f, 4});
                }
                for (int f : new int[] {28, 30, 32, 34}) {
                    fields.add(new int[] {p + f, 2});
                }
            } else if (sig == ZipReader.END) {
                for (int f : new int[] {4, 6, 8, 10, 20}) {
                    fields.add(new int[] {p + f, 2});
                }
                fields.add(new int[] {p + 12, 4});
                fields.add(new int[] {p + 16, 4});
            }
        }
        return fields;
    }

    @Test
    void zip64ClaimsOfTwoToTheSixtyAndADirectoryPointingAtItself() {
        long huge = 1L << 60;
        byte[] zip64 = zip64(huge, huge, 1);
        Listing l = Fuzz.check(
                "zip64 2^60 entries", zip64.length, allocationBound(zip64.length), () -> Archives.zip(zip64, zip64, 0));
        assertThat(l.reason()).contains("ends after 1 of " + huge + " entries");
        byte[] bigDirectory = zip64(1, 1, huge);
        Listing big = Fuzz.check(
                "zip64 2^60-byte directory",
                bigDirectory.length,
                allocationBound(bigDirectory.length),
                () -> Archives.zip(bigDirectory, bigDirectory, 0));
        assertThat(big.entries()).isEmpty();
        byte[] s = SAMPLES.get(1).clone();
        int end = s.length - 22;
        Fuzz.putLe(s, end + 8, 0xFFFF, 2);
        Fuzz.putLe(s, end + 10, 0xFFFF, 2);
        Fuzz.putLe(s, end + 12, 0, 4);
        Fuzz.putLe(s, end + 16, end, 4);
        Listing self = Fuzz.check(
                "directory at its own end record", s.length, allocationBound(s.length), () -> Archives.zip(s, s, 0));
        assertThat(self.reason()).contains("ends after 0 of 65535 entries");
    }

    /** One stored entry whose central directory and counts are stated through ZIP64 records. */
    private static byte[] zip64(long count, long entrySize, long cdSize) {
        byte[] name = "big.rar".getBytes(StandardCharsets.US_ASCII);
        SevenZipForge f = new SevenZipForge();
        f.u32(ZipReader.LOCAL)
                .bytes(20, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                .u32(0)
                .u32(0xFFFFFFFFL)
                .u32(0xFFFFFFFFL);
        f.bytes(name.length, 0, 20, 0)
                .bytes(name)
                .bytes(1, 0, 16, 0)
                .bytes(le(entrySize, 8))
                .bytes(le(entrySize, 8));
        int cd = f.toBytes().length;
        f.u32(ZipReader.CENTRAL)
                .bytes(45, 3, 45, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                .u32(0)
                .u32(0xFFFFFFFFL)
                .u32(0xFFFFFFFFL);
        f.bytes(name.length, 0, 20, 0, 0, 0, 0, 0, 0, 0).u32(0).u32(0).bytes(name);
        f.bytes(1, 0, 16, 0).bytes(le(entrySize, 8)).bytes(le(entrySize, 8));
        int record = f.toBytes().length;
        f.u32(ZipReader.ZIP64_END).bytes(le(44, 8)).bytes(45, 0, 45, 0).u32(0).u32(0);
        f.bytes(le(count, 8))
                .bytes(le(count, 8))
                .bytes(le(cdSize == 1 ? record - cd : cdSize, 8))
                .bytes(le(cd, 8));
        f.u32(ZipReader.ZIP64_LOCATOR).u32(0).bytes(le(record, 8)).u32(1);
        f.u32(ZipReader.END)
                .bytes(0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF)
                .u32(0xFFFFFFFFL)
                .u32(0xFFFFFFFFL)
                .bytes(0, 0);
        return f.toBytes();
    }

    private static byte[] le(long v, int width) {
        byte[] b = new byte[width];
        Fuzz.putLe(b, 0, v, width);
        return b;
    }

    @Test
    void aZipNested50DeepIsReadOneLevelDeep() throws IOException {
        byte[] inner = javaZip(new Random(1), true);
        for (int depth = 0; depth < 50; depth++) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (ZipOutputStream zip = new ZipOutputStream(out)) {
                ZipEntry e = new ZipEntry("level" + depth + ".dat");
                e.setMethod(ZipEntry.STORED);
                e.setSize(inner.length);
                CRC32 crc = new CRC32();
                crc.update(inner);
                e.setCrc(crc.getValue());
                zip.putNextEntry(e);
                zip.write(inner);
                zip.closeEntry();
            }
            inner = out.toByteArray();
        }
        byte[] nested = inner;
        Listing l = Fuzz.check(
                "50 deep", nested.length, allocationBound(nested.length), () -> Archives.zip(nested, nested, 0));
        assertThat(l.entries()).singleElement().satisfies(e -> {
            assertThat(e.name()).isEqualTo("level49.dat");
            assertThat(e.archive()).as("a ZIP by its magic").isTrue();
        });
    }
}
