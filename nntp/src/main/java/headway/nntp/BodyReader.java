package headway.nntp;

import java.io.IOException;

/**
 * One BODY (or ARTICLE) reply's data block, read line by line to its terminating dot into a
 * {@link BodySink} under the body's bounds: each line at most {@code lineBytes}, all lines at most
 * {@code maxBytes} as sent. A line is checked before the sink sees it, so an endless body stops at
 * its bound with the sink having seen only what fit. The sink's failure, like a sink that wants
 * no more, does not stop the reading: the rest is drained within the same bounds, because a
 * drained connection is reused, and a body is cheap beside a new connection (TLS, AUTHINFO).
 */
final class BodyReader {

    private final long maxBytes;
    private final int lineBytes;
    private final LineReader in;
    private final Replies.Lines conn;

    BodyReader(long maxBytes, int lineBytes, LineReader in, Replies.Lines conn) {
        this.maxBytes = maxBytes;
        this.lineBytes = lineBytes;
        this.in = in;
        this.conn = conn;
    }

    /** Reads the data block to its terminating dot and returns its bytes as sent (stuffing and CR LF counted). */
    long read(BodySink sink) throws IOException {
        long bytes = 0;
        long lines = 0;
        RuntimeException failure = null;
        boolean drained = false;
        try {
            while (true) {
                int len = conn.readLine(in, lineBytes, MisbehavingServerException.Bound.LINE_BYTES);
                byte[] b = in.line();
                int off = 0;
                if (len > 0 && b[0] == '.') {
                    if (len == 1) {
                        break;
                    }
                    off = 1;
                }
                lines++;
                bytes += len + 2;
                if (bytes > maxBytes) {
                    throw conn.violation(
                            MisbehavingServerException.Bound.REPLY_BYTES,
                            "more than " + maxBytes + " bytes of body after " + lines + " lines");
                }
                if (failure == null) {
                    try {
                        sink.line(b, off, len - off);
                    } catch (RuntimeException e) {
                        failure = e;
                    }
                }
            }
            drained = true;
        } finally {
            if (!drained) {
                conn.undrained();
            }
        }
        if (failure != null) {
            throw failure;
        }
        return bytes;
    }
}
