package headway.inspect.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The RAR readers on hostile bytes, built from the committed fixtures: every prefix, random cuts,
 * random bytes after a marker, bit flips and lying size fields with the header CRCs made right
 * again (so the damage gets past the CRC check into the parser), and size claims of 2^60. Each
 * case must keep {@link Fuzz#check}'s invariants; a failure prints its seed.
 */
class RarFuzzTest {

    @AfterAll
    static void summary() {
        Fuzz.summary("RAR");
    }

    private static final List<String> FIXTURES = List.of(
            "rar15-comment.rar",
            "rar2-unix-owner.rar",
            "rar3-comment-hpsw.rar",
            "rar3-comment-psw.rar",
            "rar3-old.head4k.r00",
            "rar3-old.head4k.rar",
            "rar3-old.r01",
            "rar3-subdirs.rar",
            "rar5-hpsw.rar",
            "rar5-psw.rar",
            "rar5-subdirs.rar",
            "rar5-vols.part1.head4k.rar",
            "rar5-vols.part2.head4k.rar",
            "rar5-vols.part3.rar",
            "unicode.rar");

    /** What a listing of n bytes may allocate: names, entries and cursors, never a claimed size. */
    static long allocationBound(long n) {
        return 256 * 1024 + 64 * n;
    }

    private static List<byte[]> samples() {
        return FIXTURES.stream().map(f -> TestTools.resource("rar/" + f)).toList();
    }

    private static Listing list(String what, byte[] b) {
        return Fuzz.check(
                what,
                b.length,
                allocationBound(b.length),
                () -> Archives.list(b, b, 0).orElseGet(() -> Archives.rar4(b)));
    }

    @Test
    void everyPrefixAndRandomCuts() {
        Fuzz.run("rar prefixes and cuts", random -> {
            for (byte[] sample : samples()) {
                for (int n = 0; n <= Math.min(sample.length, 1024); n++) {
                    list("prefix " + n, Arrays.copyOf(sample, n));
                }
                for (int i = 0; i < 100; i++) {
                    int from = 7 + random.nextInt(Math.max(1, sample.length - 7));
                    int to = from + random.nextInt(sample.length - from + 1);
                    byte[] cut = concat(Arrays.copyOf(sample, 8), Arrays.copyOfRange(sample, from, to));
                    list("marker + [" + from + ", " + to + ")", cut);
                }
            }
        });
    }

    @Test
    void randomBytesAfterAMarker() {
        Fuzz.run("rar random bytes", random -> {
            for (int i = 0; i < 2_000; i++) {
                byte[] marker = random.nextBoolean() ? Rar4Reader.MARKER : Rar5Reader.SIGNATURE;
                list("random " + i, concat(marker, Fuzz.bytes(random, random.nextInt(4096))));
            }
        });
    }

    @Test
    void bitFlipsWithTheHeaderCrcsMadeRight() {
        Fuzz.run("rar bit flips", random -> {
            List<byte[]> samples = samples();
            for (int i = 0; i < 5_000; i++) {
                byte[] sample = samples.get(random.nextInt(samples.size()));
                byte[] flipped = Fuzz.flip(random, sample, 7, Math.min(sample.length, 600), 4);
                list("flip " + i, random.nextInt(4) == 0 ? flipped : fixCrcs(flipped));
            }
        });
    }

    @Test
    void lyingSizeFieldsWithTheHeaderCrcsMadeRight() {
        Fuzz.run("rar lying sizes", random -> {
            for (byte[] sample : samples()) {
                boolean rar5 = Archives.sniff(sample).orElseThrow() == ArchiveFormat.RAR5;
                List<Integer> fields = rar5 ? rar5SizeFields(sample) : rar4SizeFields(sample);
                for (int field : fields) {
                    for (int i = 0; i < 12; i++) {
                        byte[] lying = sample.clone();
                        if (rar5) {
                            lying = replaceVint(lying, field, Fuzz.lie(random) & Long.MAX_VALUE);
                        } else {
                            Fuzz.putLe(lying, field, Fuzz.lie(random), 4);
                        }
                        list("field at " + field, fixCrcs(lying));
                    }
                }
            }
        });
    }

    @Test
    void aClaimOfTwoToTheSixtyBytesAllocatesNothing() {
        int file = 7 + 13;
        byte[] large = TestTools.resource("rar/rar3-subdirs.rar");
        large[file + 4] |= 0x01;
        large = insert(large, file + 32, new byte[] {0, 0, 0, 0x10, 0, 0, 0, 0});
        Fuzz.putLe(large, file + 5, Bytes.u16(large, file + 5) + 8, 2);
        byte[] rar4 = fixCrcs(large);
        Listing l4 = Fuzz.check("rar4 2^60", rar4.length, 64 * 1024, () -> Archives.rar4(rar4));
        assertThat(l4.entries())
                .singleElement()
                .satisfies(e ->
                        assertThat(e.packedSize().orElseThrow()).isEqualTo((1L << 60) + Bytes.u32(rar4, file + 7)));
        assertThat(l4.reason()).contains("runs past");

        byte[] sample = TestTools.resource("rar/rar5-psw.rar");
        int header = firstFileHeader(sample);
        int grown = replaceVint(sample, dataSizeField(sample, header), 1L << 60).length - sample.length;
        Cursor size = new Cursor(sample, header + 4, sample.length);
        long headerSize = size.vint("size");
        byte[] resized = replaceVint(sample, header + 4, headerSize + grown);
        byte[] rar5 = fixCrcs(replaceVint(resized, dataSizeField(resized, header), 1L << 60));
        Listing l5 = Fuzz.check("rar5 2^60", rar5.length, 64 * 1024, () -> Archives.rar5(rar5));
        assertThat(l5.entries())
                .singleElement()
                .satisfies(e -> assertThat(e.packedSize().orElseThrow()).isEqualTo(1L << 60));
        assertThat(l5.reason()).contains("runs past");
    }

    /** Recomputes every header CRC a lenient walk reaches, so that damage passes the CRC check. */
    static byte[] fixCrcs(byte[] b) {
        return Archives.sniff(b)
                .map(f -> f == ArchiveFormat.RAR5 ? fixRar5(b) : fixRar4(b))
                .orElse(b);
    }

    private static byte[] fixRar4(byte[] b) {
        byte[] m = b.clone();
        walkRar4(m, (pos, size) -> {
            Fuzz.putLe(m, pos, Bytes.crc32(m, pos + 2, pos + size) & 0xFFFF, 2);
            return true;
        });
        return m;
    }

    /** The offsets of RAR 4 size fields: header size, packed and unpacked size, name size. */
    private static List<Integer> rar4SizeFields(byte[] b) {
        List<Integer> fields = new ArrayList<>();
        walkRar4(b, (pos, size) -> {
            fields.add(pos + 5);
            if ((b[pos + 2] & 0xFF) == 0x74 && size >= 32) {
                fields.addAll(List.of(pos + 7, pos + 11, pos + 26));
            }
            return true;
        });
        return fields;
    }

    private interface Block {
        boolean visit(int pos, int size);
    }

    private static void walkRar4(byte[] m, Block block) {
        int pos = 7;
        while (pos + 7 <= m.length) {
            int flags = Bytes.u16(m, pos + 3);
            int size = Bytes.u16(m, pos + 5);
            if (size < 7 || size > m.length - pos || !block.visit(pos, size)) {
                return;
            }
            long data = (flags & 0x8000) != 0 && size >= 11 ? Bytes.u32(m, pos + 7) : 0;
            if (((m[pos + 2] & 0xFF) == 0x74 || (m[pos + 2] & 0xFF) == 0x7A) && (flags & 0x100) != 0 && size >= 40) {
                data |= Bytes.u32(m, pos + 32) << 32;
            }
            if (data < 0 || data > m.length - pos - size) {
                return;
            }
            pos += size + (int) data;
        }
    }

    private static byte[] fixRar5(byte[] b) {
        byte[] m = b.clone();
        walkRar5(m, (pos, end) -> {
            Fuzz.putLe(m, pos, Bytes.crc32(m, pos + 4, end), 4);
            return true;
        });
        return m;
    }

    /** The offsets of RAR 5 size vints: header size, extra size, data size, unpacked size. */
    private static List<Integer> rar5SizeFields(byte[] b) {
        List<Integer> fields = new ArrayList<>();
        walkRar5(b, (pos, end) -> {
            fields.add(pos + 4);
            try {
                Cursor c = new Cursor(b, pos + 4, end);
                c.vint("size");
                c.vint("type");
                long flags = c.vint("flags");
                if ((flags & 1) != 0) {
                    fields.add(c.pos());
                    c.vint("extra");
                }
                if ((flags & 2) != 0) {
                    fields.add(c.pos());
                }
            } catch (Malformed e) {
                return false;
            }
            return true;
        });
        return fields;
    }

    private static int firstFileHeader(byte[] b) {
        int[] found = {-1};
        walkRar5(b, (pos, end) -> {
            Cursor c = new Cursor(b, pos + 4, end);
            c.vint("size");
            if (c.vint("type") == 2 && found[0] < 0) {
                found[0] = pos;
            }
            return true;
        });
        return found[0];
    }

    private static int dataSizeField(byte[] b, int pos) {
        Cursor c = new Cursor(b, pos + 4, b.length);
        c.vint("size");
        c.vint("type");
        long flags = c.vint("flags");
        if ((flags & 1) != 0) {
            c.vint("extra");
        }
        return c.pos();
    }

    private interface Header {
        boolean visit(int pos, int end);
    }

    private static void walkRar5(byte[] m, Header header) {
        int pos = 8;
        while (pos + 7 <= m.length) {
            try {
                Cursor c = new Cursor(m, pos + 4, m.length);
                long size = c.vint("size");
                if (size > c.remaining()) {
                    return;
                }
                int end = c.pos() + (int) size;
                c.vint("type");
                long flags = c.vint("flags");
                if ((flags & 1) != 0) {
                    c.vint("extra");
                }
                long data = (flags & 2) != 0 ? c.vint("data") : 0;
                if (!header.visit(pos, end) || data > m.length - end) {
                    return;
                }
                pos = end + (int) data;
            } catch (Malformed e) {
                return;
            }
        }
    }

    /** {@code b} with the vint at {@code at} replaced by {@code value}'s vint (lengths may differ). */
    static byte[] replaceVint(byte[] b, int at, long value) {
        Cursor c = new Cursor(b, at, b.length);
        try {
            c.vint("old");
        } catch (Malformed e) {
            return b;
        }
        List<Byte> v = new ArrayList<>();
        long x = value;
        do {
            v.add((byte) ((x & 0x7F) | (x > 0x7F ? 0x80 : 0)));
            x >>>= 7;
        } while (x != 0);
        byte[] enc = new byte[v.size()];
        for (int i = 0; i < enc.length; i++) {
            enc[i] = v.get(i);
        }
        return concat(concat(Arrays.copyOf(b, at), enc), Arrays.copyOfRange(b, c.pos(), b.length));
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    static byte[] insert(byte[] b, int at, byte[] what) {
        return concat(concat(Arrays.copyOf(b, at), what), Arrays.copyOfRange(b, at, b.length));
    }
}
