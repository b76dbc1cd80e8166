package headway.nntp;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads CRLF (or bare LF) terminated lines as bytes from a stream through its own buffer, so a reply
 * is parsed line by line and never held whole. Not thread-safe; the line array is reused by the next
 * call, which costs nothing per line but means callers must copy what they keep. Every read is
 * bounded: a line longer than the caller's limit fails as soon as the limit is passed, without
 * reading the rest of it, so a peer cannot make the line buffer grow past that limit.
 */
final class LineReader {
    /** The bound of {@link #readLine()}, for peers that only read commands (the simulator). */
    static final int MAX_LINE = 4 << 20;

    /** A line passed the caller's limit; the rest of it was not read, so the stream is out of sync. */
    static final class LineTooLongException extends IOException {
        private static final long serialVersionUID = 1L;

        LineTooLongException(int limit) {
            super("line longer than " + limit + " bytes", null);
        }
    }

    private final InputStream in;
    private byte[] buf;
    private int pos;
    private int limit;
    private byte[] line = new byte[2048];

    LineReader(InputStream in, int bufferSize) {
        this.in = in;
        this.buf = new byte[bufferSize];
    }

    /** How many bytes are read from the stream but not yet returned as lines. */
    int buffered() {
        return limit - pos;
    }

    /** Hands over the bytes read from the stream but not yet returned as lines, and forgets them. */
    byte[] takeBuffered() {
        byte[] rest = Arrays.copyOfRange(buf, pos, limit);
        pos = limit;
        return rest;
    }

    /** Puts back bytes read past this reader (by a compressed block's own reader), to be read before the stream's. */
    void unread(byte[] bytes) {
        if (pos < limit) {
            throw new IllegalStateException("unread with " + (limit - pos) + " bytes still buffered");
        }
        if (bytes.length > buf.length) {
            buf = bytes.clone();
        } else {
            System.arraycopy(bytes, 0, buf, 0, bytes.length);
        }
        pos = 0;
        limit = bytes.length;
    }

    /** The bytes of the last line read; valid up to the length it returned. */
    byte[] line() {
        return line;
    }

    /** Reads the next line of at most {@link #MAX_LINE} bytes; see {@link #readLine(int)}. */
    int readLine() throws IOException {
        return readLine(MAX_LINE);
    }

    /**
     * Reads the next line without its terminator and returns its length, or -1 at end of stream;
     * a line of more than {@code maxLength} bytes (its CR not counted) throws {@link LineTooLongException}.
     */
    int readLine(int maxLength) throws IOException {
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
            if (len + chunk > maxLength + 1) {
                throw new LineTooLongException(maxLength);
            }
            if (len + chunk > line.length) {
                line = Arrays.copyOf(line, Math.max(line.length * 2, len + chunk));
            }
            System.arraycopy(b, start, line, len, chunk);
            len += chunk;
            if (i < end) {
                pos = i + 1;
                if (len > 0 && line[len - 1] == '\r') {
                    len--;
                }
                if (len > maxLength) {
                    throw new LineTooLongException(maxLength);
                }
                return len;
            }
            pos = end;
        }
    }
}
