package headway.nntp;

/**
 * Receives an article body line by line as {@link NntpClient#body} reads it: dot-unstuffed, without
 * its CR LF, in an array the reader reuses for the next line (copy what you keep). A sink that
 * throws stops deliveries, not the reading: the body is drained first, as for overview.
 * inspect's {@code YencDecoder::line} is one.
 */
@FunctionalInterface
public interface BodySink {
    /** One line of the body: bytes {@code off..off+len} of {@code b}. */
    void line(byte[] b, int off, int len);
}
