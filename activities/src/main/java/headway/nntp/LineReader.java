package headway.nntp;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads CRLF (or bare LF) terminated lines as bytes from a stream through its own buffer, so a reply
 * is parsed line by line and never held whole. Not thread-safe; the line array is reused by the next
 * call, which costs nothing per line but means callers must copy what they keep.
 */
final class LineReader {
    static final int MAX_LINE = 4 << 20;

    private final InputStream in;
    private final byte[] buf;
    private int pos;
    private int limit;
    private byte[] line = new byte[2048];

    LineReader(InputStream in, int bufferSize) {
        this.in = in;
        this.buf = new byte[bufferSize];
    }

    /** The bytes of the last line read; valid up to the length it returned. */
    byte[] line() {
        return line;
    }

    /** Reads the next line without its terminator and returns its length, or -1 at end of stream. */
    int readLine() throws IOException {
        int len = 0;
        while (true) {
            if (pos >= limit) {
                int n = in.read(buf, 0, buf.length);
                if (n < 0) {
                    if (len == 0) {
                        return -1;
                    }
                    throw new EOFException("connection closed in the middle of a line");
                }
                pos = 0;
                limit = n;
            }
            int start = pos;
            int end = limit;
            byte[] b = buf;
            int i = start;
            while (i < end && b[i] != '\n') {
                i++;
            }
            int chunk = i - start;
            if (len + chunk > line.length) {
                if (len + chunk > MAX_LINE) {
                    throw new IOException("line longer than " + MAX_LINE + " bytes: the peer is not speaking NNTP");
                }
                line = Arrays.copyOf(line, Math.max(line.length * 2, len + chunk));
            }
            System.arraycopy(b, start, line, len, chunk);
            len += chunk;
            if (i < end) {
                pos = i + 1;
                if (len > 0 && line[len - 1] == '\r') {
                    len--;
                }
                return len;
            }
            pos = end;
        }
    }
}
