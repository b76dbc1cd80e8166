package headway.index;

import java.time.Instant;
import java.util.List;

/**
 * A binary that left the window (or was read back from the catalog): all its segments so far,
 * sorted by part number and unique per part. It is incomplete when it aged out before all parts
 * came; {@link #completionPercent()} says how much of it there is. {@code fileTotal} is the file
 * count of its release from a {@code [01/20]} counter, or -1; {@code posted} may be null when the
 * header date did not parse. {@code fresh} is the window's word that the catalog holds no copy of
 * it (see {@link Window#catalogHoldsUpTo}): a hint that lets the catalog insert it without looking
 * for a row to merge into, never trusted for correctness, and false wherever nobody knows.
 */
public record CompletedBinary(
        String group,
        String poster,
        String fileName,
        int totalParts,
        String releaseName,
        int fileTotal,
        String subject,
        Instant posted,
        long firstArticle,
        long lastArticle,
        int ruleVersion,
        List<Segment> segments,
        boolean fresh) {

    public CompletedBinary {
        segments = List.copyOf(segments);
    }

    /** A binary not known to be fresh, e.g. one read back from the catalog or merged from copies. */
    public CompletedBinary(
            String group,
            String poster,
            String fileName,
            int totalParts,
            String releaseName,
            int fileTotal,
            String subject,
            Instant posted,
            long firstArticle,
            long lastArticle,
            int ruleVersion,
            List<Segment> segments) {
        this(
                group,
                poster,
                fileName,
                totalParts,
                releaseName,
                fileTotal,
                subject,
                posted,
                firstArticle,
                lastArticle,
                ruleVersion,
                segments,
                false);
    }

    public int partsPresent() {
        return segments.size();
    }

    public long bytes() {
        long sum = 0;
        for (Segment s : segments) {
            sum += s.bytes();
        }
        return sum;
    }

    /** Complete when there are as many distinct parts as the total, because posters counting from 0 never send part N. */
    public boolean complete() {
        return segments.size() >= totalParts;
    }

    public double completionPercent() {
        return Math.min(100.0, 100.0 * segments.size() / totalParts);
    }
}
