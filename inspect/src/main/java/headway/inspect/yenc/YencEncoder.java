package headway.inspect.yenc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Encodes bytes as yEnc 1.3 article bodies, for the news simulator and the tests: the encoder a
 * careful poster runs. It escapes the four critical bytes (NUL, LF, CR, {@code =}) everywhere, TAB
 * and space in a line's first and last column (transports strip them), and a dot in the first
 * column, so no line starts with a dot and the output needs no NNTP dot-stuffing. Lines end in
 * CR LF; an escape never ends a line, so a line may be one byte longer than the line length.
 */
public final class YencEncoder {

    private YencEncoder() {}

    /** A single-part post of all of {@code file}: {@code =ybegin line size name}, data, {@code =yend size crc32}. */
    public static byte[] single(byte[] file, String name, int lineLength) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(file.length + file.length / 32 + 256);
        ascii(out, "=ybegin line=" + lineLength + " size=" + file.length + " name=");
        out.writeBytes(name.getBytes(StandardCharsets.UTF_8));
        ascii(out, "\r\n");
        long crc = data(out, file, 0, file.length, lineLength);
        ascii(out, "=yend size=" + file.length + " crc32=" + hex(crc) + "\r\n");
        return out.toByteArray();
    }

    /**
     * Part {@code part} of {@code total} of {@code file}, holding its bytes {@code [from, to)}:
     * {@code =ybegin part total line size name}, {@code =ypart begin end} (1-based, inclusive), data,
     * {@code =yend size part pcrc32}, and on the last part the whole file's {@code crc32} too.
     */
    public static byte[] part(byte[] file, String name, int part, int total, int from, int to, int lineLength) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(to - from + (to - from) / 32 + 256);
        ascii(
                out,
                "=ybegin part=" + part + " total=" + total + " line=" + lineLength + " size=" + file.length + " name=");
        out.writeBytes(name.getBytes(StandardCharsets.UTF_8));
        ascii(out, "\r\n=ypart begin=" + (from + 1) + " end=" + to + "\r\n");
        long pcrc = data(out, file, from, to, lineLength);
        String trailer = "=yend size=" + (to - from) + " part=" + part + " pcrc32=" + hex(pcrc);
        if (part == total) {
            CRC32 whole = new CRC32();
            whole.update(file, 0, file.length);
            trailer += " crc32=" + hex(whole.getValue());
        }
        ascii(out, trailer + "\r\n");
        return out.toByteArray();
    }

    private static long data(ByteArrayOutputStream out, byte[] file, int from, int to, int lineLength) {
        CRC32 crc = new CRC32();
        crc.update(file, from, to - from);
        int column = 0;
        for (int i = from; i < to; i++) {
            int c = (file[i] + 42) & 0xff;
            boolean first = column == 0;
            boolean last = column == lineLength - 1 || i == to - 1;
            boolean escape = c == 0
                    || c == '\n'
                    || c == '\r'
                    || c == '='
                    || ((c == '\t' || c == ' ') && (first || last))
                    || (c == '.' && first);
            if (escape) {
                out.write('=');
                out.write((c + 64) & 0xff);
                column += 2;
            } else {
                out.write(c);
                column++;
            }
            if (column >= lineLength) {
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
        return String.format("%08x", crc);
    }

    private static void ascii(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
    }
}
