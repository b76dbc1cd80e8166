package headway.index;

import java.time.Instant;
import java.util.List;

/**
 * A binary that left the window (or was read back from the catalog): all its segments so far,
 * sorted by part number and unique per part. It is incomplete when it aged out before all parts
 * came; {@link #completionPercent()} says how much of it there is. {@code fileTotal} is the file
 * count of its release from a {@code [01/20]} counter, or -1; {@code posted} may be null when the
 * header date did not parse.
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
        List<Segment> segments) {

    public CompletedBinary {
        segments = List.copyOf(segments);
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
