package headway.inspect.archive;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.LZMAOutputStream;

/** Builds 7z archives byte by byte for the fuzz tests: any header, honest CRCs, lying contents. */
final class SevenZipForge {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    SevenZipForge bytes(int... values) {
        for (int v : values) {
            out.write(v);
        }
        return this;
    }

    SevenZipForge bytes(byte[] b) {
        out.write(b, 0, b.length);
        return this;
    }

    /** A 7z NUMBER: as many leading 1 bits in the first byte as bytes follow, low byte first. */
    SevenZipForge number(long v) {
        for (int i = 0; i < 8; i++) {
            if (Long.compareUnsigned(v, 1L << (7 * (i + 1))) < 0) {
                out.write(((0xFF00 >> i) & 0xFF) | (int) (v >>> (8 * i)));
                for (int k = 0; k < i; k++) {
                    out.write((int) (v >>> (8 * k)));
                }
                return this;
            }
        }
        out.write(0xFF);
        for (int k = 0; k < 8; k++) {
            out.write((int) (v >>> (8 * k)));
        }
        return this;
    }

    SevenZipForge u32(long v) {
        for (int k = 0; k < 4; k++) {
            out.write((int) (v >>> (8 * k)));
        }
        return this;
    }

    byte[] toBytes() {
        return out.toByteArray();
    }

    /** An archive: signature header, {@code packed}, then {@code header}, CRCs right. */
    static byte[] archive(byte[] packed, byte[] header) {
        return archive(packed, header, packed.length, header.length);
    }

    /** An archive whose start header states {@code offset} and {@code size} for its next header. */
    static byte[] archive(byte[] packed, byte[] header, long offset, long size) {
        byte[] b = new byte[32 + packed.length + header.length];
        System.arraycopy(SevenZipReader.SIGNATURE, 0, b, 0, 6);
        b[7] = 4;
        System.arraycopy(packed, 0, b, 32, packed.length);
        System.arraycopy(header, 0, b, 32 + packed.length, header.length);
        Fuzz.putLe(b, 12, offset, 8);
        Fuzz.putLe(b, 20, size, 8);
        Fuzz.putLe(b, 28, Bytes.crc32(header, 0, header.length), 4);
        Fuzz.putLe(b, 8, Bytes.crc32(b, 12, 32), 4);
        return b;
    }

    /** Makes the start header's CRC and the next header's CRC right again after damage. */
    static byte[] fixCrcs(byte[] b) {
        byte[] m = b.clone();
        long offset = Bytes.u64(m, 12);
        long size = Bytes.u64(m, 20);
        if (offset >= 0 && size >= 0 && offset <= m.length && size <= m.length - 32 - offset) {
            Fuzz.putLe(m, 28, Bytes.crc32(m, 32 + (int) offset, 32 + (int) (offset + size)), 4);
        }
        Fuzz.putLe(m, 8, Bytes.crc32(m, 12, 32), 4);
        return m;
    }

    /** Raw LZMA of {@code data} (no header, no end marker) and its 5 property bytes. */
    static byte[][] lzma(byte[] data) {
        try {
            LZMA2Options options = new LZMA2Options(0);
            options.setDictSize(LZMA2Options.DICT_SIZE_MIN);
            ByteArrayOutputStream o = new ByteArrayOutputStream();
            LZMAOutputStream lzma = new LZMAOutputStream(o, options, false);
            lzma.write(data);
            lzma.finish();
            byte[] props = new byte[5];
            props[0] = (byte) lzma.getProps();
            Fuzz.putLe(props, 1, options.getDictSize(), 4);
            return new byte[][] {o.toByteArray(), props};
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * An archive whose header is {@code header} packed with LZMA behind an encoded header claiming
     * {@code unpackSize} (the real size when honest).
     */
    static byte[] encoded(byte[] header, long unpackSize) {
        byte[][] lzma = lzma(header);
        byte[] encodedHeader = new SevenZipForge()
                .bytes(0x17, 0x06)
                .number(0)
                .number(1)
                .bytes(0x09)
                .number(lzma[0].length)
                .bytes(0x00, 0x07, 0x0B)
                .number(1)
                .bytes(0x00)
                .number(1)
                .bytes(0x23, 0x03, 0x01, 0x01)
                .number(5)
                .bytes(lzma[1])
                .bytes(0x0C)
                .number(unpackSize)
                .bytes(0x0A, 0x01)
                .u32(Bytes.crc32(header, 0, header.length))
                .bytes(0x00, 0x00)
                .toBytes();
        return archive(lzma[0], encodedHeader);
    }

    /** A plain header listing files {@code names}, each with {@code sizes[i]} bytes in one Copy folder. */
    static byte[] plainHeader(String[] names, long[] sizes) {
        SevenZipForge h =
                new SevenZipForge().bytes(0x01, 0x04, 0x06).number(0).number(1).bytes(0x09);
        long total = Arrays.stream(sizes).sum();
        h.number(total).bytes(0x00, 0x07, 0x0B).number(1).bytes(0x00).number(1).bytes(0x01, 0x00);
        h.bytes(0x0C).number(total).bytes(0x00, 0x08, 0x0D).number(names.length).bytes(0x09);
        for (int i = 0; i < sizes.length - 1; i++) {
            h.number(sizes[i]);
        }
        h.bytes(0x00, 0x00, 0x05).number(names.length).bytes(0x11);
        ByteArrayOutputStream utf16 = new ByteArrayOutputStream();
        utf16.write(0);
        for (String n : names) {
            byte[] b = (n + "\0").getBytes(java.nio.charset.StandardCharsets.UTF_16LE);
            utf16.write(b, 0, b.length);
        }
        h.number(utf16.size()).bytes(utf16.toByteArray()).bytes(0x00, 0x00);
        return h.toBytes();
    }
}
