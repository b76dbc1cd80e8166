package headway.activity;

import java.util.List;

/**
 * One inspection run: the releases claimed, how many were named and how many flagged passworded,
 * the articles fetched in all, and the releases whose inspection failed this run (their attempts
 * are counted in the catalog; the next run past their backoff tries again, or records that it gave
 * up).
 */
public record InspectSummary(int claimed, int named, int passworded, int articles, List<String> failed) {
    public InspectSummary {
        failed = List.copyOf(failed);
    }
}
