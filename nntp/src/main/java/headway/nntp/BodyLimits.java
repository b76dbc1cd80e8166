package headway.nntp;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounds a BODY reply must keep, besides the read timeout of each read: its bytes (as sent,
 * dot-stuffed lines and their CR LF counted), the length of each line, and a deadline of the read
 * timeout plus {@code deadlinePerKib} for each KiB the body may have. A body's byte bound is
 * {@code maxBytes} when its size is not known, else the article size its overview line gave (head
 * and body, so more than the body) plus an eighth and 64 KiB of slack, never past {@link #MAX_BODY},
 * because an overview line may lie too.
 *
 * @param maxBytes       most bytes of a body whose posted size is not known
 * @param lineBytes      longest line of a body
 * @param deadlinePerKib time a body may take per KiB of its byte bound, beyond the read timeout
 */
public record BodyLimits(long maxBytes, int lineBytes, Duration deadlinePerKib) {

    /** The most bytes any body may have, whatever its overview line says: 16 MiB, past any article a server keeps. */
    public static final long MAX_BODY = 16L << 20;

    /**
     * 2 MiB when the size is not known (posters' parts are 250 KiB to 1 MiB of yEnc), 16 KiB lines
     * (posters write 128 to 1,000 bytes, inspect's decoder reads 16 KiB at most) and 10 ms per KiB:
     * a 2 MiB body may take 20 s past the read timeout, 100 KiB/s.
     */
    public static final BodyLimits DEFAULT = new BodyLimits(2L << 20, 16 * 1024, Duration.ofMillis(10));

    public BodyLimits {
        if (maxBytes < 1024 || maxBytes > MAX_BODY) {
            throw new IllegalArgumentException("maxBytes must be between 1024 and " + MAX_BODY + ", was " + maxBytes);
        }
        if (lineBytes < 64 || lineBytes > 16 << 20) {
            throw new IllegalArgumentException("lineBytes must be between 64 and " + (16 << 20) + ", was " + lineBytes);
        }
        Objects.requireNonNull(deadlinePerKib, "deadlinePerKib");
        if (deadlinePerKib.isNegative() || deadlinePerKib.compareTo(Duration.ofSeconds(1)) > 0) {
            throw new IllegalArgumentException("deadlinePerKib must be between 0 and 1s, was " + deadlinePerKib);
        }
    }

    /** The byte bound of a body whose overview line gave {@code postedBytes} (0 or less: not known). */
    public long bytesFor(long postedBytes) {
        if (postedBytes <= 0) {
            return maxBytes;
        }
        long posted = Math.min(MAX_BODY, postedBytes);
        return Math.min(MAX_BODY, posted + posted / 8 + 64 * 1024);
    }

    /** The time a body of at most {@code bytes} bytes may take beyond the read timeout. */
    public Duration allowanceFor(long bytes) {
        return deadlinePerKib.multipliedBy(Math.max(1, (bytes + 1023) / 1024));
    }
}
