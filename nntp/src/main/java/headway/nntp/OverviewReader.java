package headway.nntp;

import headway.overview.MalformedOverviewException;
import headway.overview.OverviewLine;
import headway.overview.OverviewParser;
import java.io.IOException;

/**
 * One OVER/XOVER reply for articles {@code lo..hi}, read line by line into an {@link OverviewSink}
 * under the bounds of what was asked ({@link NntpClient.Limits}): at most {@code hi-lo+1} lines,
 * their bytes, article numbers inside the range and increasing. A line that breaks a bound is a
 * {@link MisbehavingServerException} before the sink sees it. A sink that throws stops deliveries
 * but not the reading: the reply is drained to its end first, so the connection stays usable, and
 * the sink's failure is thrown after.
 */
final class OverviewReader {

    private final long lo;
    private final long hi;
    private final NntpClient.Limits limits;
    private final LineReader in;
    private final Replies.Lines conn;

    OverviewReader(long lo, long hi, NntpClient.Limits limits, LineReader in, Replies.Lines conn) {
        this.lo = lo;
        this.hi = hi;
        this.limits = limits;
        this.in = in;
        this.conn = conn;
    }

    /**
     * Reads the reply's lines to its terminating dot into {@code sink}; returns the headers
     * delivered. Checks each line's bounds before the sink sees it, because a line that breaks them
     * (say article 10^15 in a reply for 1-10) would move the window's clock and the missing runs past
     * articles that arrive later. {@code last} is the highest article delivered, so gaps are
     * reported up to it and never past it.
     */
    long read(OverviewParser p, OverviewSink sink) throws IOException {
        long maxLines = hi - lo + 1;
        long maxBytes =
                Math.max(limits.lineBytes(), Replies.saturatedMultiply(maxLines, limits.overviewBytesPerArticle()));
        int lineBytes = limits.lineBytes();
        long last = lo - 1;
        long headers = 0;
        long lines = 0;
        long bytes = 0;
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
                if (lines > maxLines) {
                    throw conn.violation(
                            MisbehavingServerException.Bound.REPLY_LINES,
                            "more than " + maxLines + " lines for " + maxLines + " articles asked for");
                }
                if (bytes > maxBytes) {
                    throw conn.violation(
                            MisbehavingServerException.Bound.REPLY_BYTES,
                            "more than " + maxBytes + " bytes after " + lines + " lines");
                }
                if (failure != null) {
                    continue;
                }
                OverviewLine line = null;
                long article;
                String reason = null;
                try {
                    line = p.parse(b, off, len - off);
                    article = line.article();
                } catch (MalformedOverviewException m) {
                    article = m.article();
                    reason = m.getMessage();
                }
                if (article >= 0) {
                    if (article < lo || article > hi) {
                        throw conn.violation(
                                MisbehavingServerException.Bound.ARTICLE_RANGE,
                                "article " + article + " outside " + lo + "-" + hi + " (line " + lines + ")");
                    }
                    if (article <= last) {
                        throw conn.violation(
                                MisbehavingServerException.Bound.ARTICLE_ORDER,
                                "article " + article + " after article " + last + " (line " + lines + ")");
                    }
                }
                try {
                    if (article > last + 1) {
                        sink.missing(last + 1, article - 1);
                    }
                    if (line != null) {
                        sink.header(line);
                        headers++;
                    } else {
                        sink.malformed(article, reason);
                    }
                } catch (RuntimeException e) {
                    failure = e;
                }
                if (article >= 0) {
                    last = article;
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
        if (last < hi) {
            sink.missing(last + 1, hi);
        }
        return headers;
    }
}
