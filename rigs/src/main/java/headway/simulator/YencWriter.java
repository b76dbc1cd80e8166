package headway.simulator;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * Writes yEnc 1.3 article bodies as posters do, for the simulator and the release poster. Written
 * apart from module inspect's encoder on purpose (rigs depends on no headway module), so a test that
 * decodes these bodies with inspect's decoder checks two implementations against each other. It
 * escapes the critical bytes (NUL, LF, CR, {@code =}) everywhere and TAB and space in a line's
 * first and last column, but not a dot in the first column: yEnc leaves that to NNTP's
 * dot-stuffing, so the bodies exercise the server's stuffing and the client's unstuffing. Lines
 * end in CR LF; an escape may make a line one byte longer than the line length.
 */
public final class YencWriter {

    /** The line length posters use (yEnc's default). */
    public static final int LINE = 128;

    private YencWriter() {}

    /** A single-part body of all of {@code file}: {@code =ybegin line size name}, data, {@code =yend size crc32}. */
    public static byte[] single(byte[] file, String name) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(file.length + file.length / 32 + 256);
        ascii(out, "=ybegin line=" + LINE + " size=" + file.length + " name=");
        out.writeBytes(name.getBytes(StandardCharsets.UTF_8));
        ascii(out, "\r\n");
        long crc = data(out, file, 0, file.length);
        ascii(out, "=yend size=" + file.length + " crc32=" + hex(crc) + "\r\n");
        return out.toByteArray();
    }

    /**
     * Part {@code part} of {@code total} holding bytes {@code [from, to)} of {@code file}: {@code =ybegin
     * part total line size name}, {@code =ypart begin end} (1-based, inclusive), data, {@code =yend size
     * part pcrc32}, and on the last part the whole file's {@code crc32}.
     */
    public static byte[] part(byte[] file, String name, int part, int total, int from, int to) {
        long fileCrc = -1;
        if (part == total) {
            CRC32 whole = new CRC32();
            whole.update(file, 0, file.length);
            fileCrc = whole.getValue();
        }
        return part(file, from, to, file.length, name, part, total, fileCrc, Hostile.NONE);
    }

    /** How a part is spoiled on purpose (see {@link BodyKind}). */
    enum Hostile {
        NONE,
        TRUNCATED,
        WRONG_CRC,
        HUGE_SIZE
    }

    /**
     * Part {@code part} of {@code total} of a file of {@code fileSize} bytes whose bytes {@code [from,
     * to)} are {@code data[from..to)}; {@code fileCrc} is added to the last part's trailer when it is
     * not negative.
     */
    static byte[] part(
            byte[] data, int from, int to, long fileSize, String name, int part, int total, long fileCrc, Hostile h) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(to - from + (to - from) / 32 + 256);
        long size = h == Hostile.HUGE_SIZE ? 1L << 60 : fileSize;
        ascii(out, "=ybegin part=" + part + " total=" + total + " line=" + LINE + " size=" + size + " name=");
        out.writeBytes(name.getBytes(StandardCharsets.UTF_8));
        long begin = from + 1L;
        ascii(out, "\r\n=ypart begin=" + begin + " end=" + to + "\r\n");
        int stop = h == Hostile.TRUNCATED ? from + (to - from) / 2 : to;
        long pcrc = data(out, data, from, stop);
        if (h == Hostile.TRUNCATED) {
            return out.toByteArray();
        }
        if (h == Hostile.WRONG_CRC) {
            pcrc ^= 0x5a5a5a5aL;
        }
        String trailer = "=yend size=" + (to - from) + " part=" + part + " pcrc32=" + hex(pcrc);
        if (part == total && fileCrc >= 0) {
            trailer += " crc32=" + hex(fileCrc);
        }
        ascii(out, trailer + "\r\n");
        return out.toByteArray();
    }

    /** One line of {@link #LINE} encoded bytes of {@code seed}'s pattern, for a body that never ends. */
    static byte[] line(long seed) {
        byte[] raw = new byte[LINE];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = (byte) (seed >>> (8 * (i & 7)) ^ i);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(2 * LINE + 2);
        data(out, raw, 0, raw.length);
        return out.toByteArray();
    }

    private static long data(ByteArrayOutputStream out, byte[] file, int from, int to) {
        CRC32 crc = new CRC32();
        crc.update(file, from, to - from);
        int column = 0;
        for (int i = from; i < to; i++) {
            int c = (file[i] + 42) & 0xff;
            boolean first = column == 0;
            boolean last = column == LINE - 1 || i == to - 1;
            boolean escape =
                    c == 0 || c == '\n' || c == '\r' || c == '=' || ((c == '\t' || c == ' ') && (first || last));
            if (escape) {
                out.write('=');
                out.write((c + 64) & 0xff);
                column += 2;
            } else {
                out.write(c);
                column++;
            }
            if (column >= LINE) {
                ascii(out, "\r\n");
                column = 0;
            }
        }
        if (column > 0) {
            ascii(out, "\r\n");
        }
        return crc.getValue();
    }

    private static String hex(long crc) {
        return String.format(Locale.ROOT, "%08x", crc);
    }

    private static void ascii(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
    }
}
