package headway.nntp;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Whether a release can be fetched from a provider: a stratified sample of its segments is asked
 * with pipelined STAT ({@link StatPipeline}), and a sample that finds a hole is followed by a STAT
 * of every segment, so a release is classed on its true count of missing segments whenever the
 * sample saw any.
 *
 * <p>The sampling plan: the segments (in the release's order: file by file, part by part) are cut
 * into {@code k = min(budget, n)} strata of equal length (give or take one), and one segment is
 * asked from each, at the same place in every stratum, fixed by the first message-id's hash (so a
 * check again asks the same segments, and no clock or random source is read). Its error: a contiguous run of missing segments at least
 * {@code ceil(n / k)} long (a takedown of a file or of a stretch of posts) is always found; {@code
 * m} segments missing at scattered places escape the sample with probability about {@code
 * (1 - m/n)^k} (for {@code n = 1,000} and {@code k = 20}: 0.98 for one segment, 0.36 for 5 %, 0.12
 * for 10 %), and such a release is then classed complete. A release classed broken or repairable
 * is never wrong about what the full check counted.
 */
public final class Availability {
    /** STAT commands on the wire at once per connection. */
    public static final int WINDOW = 50;

    private Availability() {}

    /** What a release's segments tell of it on one provider. */
    public enum Verdict {
        /** Every segment asked was there (and, when the sample found a hole, every segment was asked). */
        COMPLETE,
        /** Segments are missing, no more than its PAR2 recovery can repair. */
        REPAIRABLE,
        /** More segments are missing than its PAR2 recovery can repair (or its recovery is not known). */
        BROKEN;

        /** The name the catalog and the API write. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One check's outcome on a provider.
     *
     * @param segments    segments of the release
     * @param asked       STATs sent (the sample, plus every segment when the sample found a hole)
     * @param missing     segments asked and not held
     * @param recoverable segments its PAR2 recovery can stand in for, -1 when not known
     */
    public record Result(int segments, int asked, int missing, int recoverable, Verdict verdict) {
        public Result {
            Objects.requireNonNull(verdict, "verdict");
        }
    }

    /** The segment indexes the sample asks: one per stratum, at the place the first message-id's hash picks. */
    public static List<Integer> sample(List<String> messageIds, int budget) {
        int n = messageIds.size();
        if (budget < 1) {
            throw new IllegalArgumentException("budget must be at least 1, was " + budget);
        }
        int k = Math.min(budget, n);
        List<Integer> picks = new ArrayList<>(k);
        if (k == 0) {
            return picks;
        }
        // the same place in every stratum (systematic sampling), so no two picks are more than a stratum apart
        int offset = Math.floorMod(messageIds.get(0).hashCode(), n / k);
        for (int i = 0; i < k; i++) {
            picks.add((int) ((long) i * n / k) + offset);
        }
        return picks;
    }

    /** The class of a release with {@code missing} segments gone and {@code recoverable} segments of recovery (-1: not known). */
    public static Verdict classify(int missing, int recoverable) {
        if (missing == 0) {
            return Verdict.COMPLETE;
        }
        return recoverable >= 0 && missing <= recoverable ? Verdict.REPAIRABLE : Verdict.BROKEN;
    }

    /**
     * Checks a release of {@code messageIds} (its segments in order) on the provider of {@code pool}:
     * at most {@code budget} STATs for the sample, then all segments when it found a hole.
     */
    public static Result check(NntpPool pool, List<String> messageIds, int recoverable, int budget) throws IOException {
        List<Integer> picks = sample(messageIds, budget);
        List<String> asked = new ArrayList<>(picks.size());
        for (int i : picks) {
            asked.add(messageIds.get(i));
        }
        int missing = count(pool, asked);
        int sent = asked.size();
        if (missing > 0 && asked.size() < messageIds.size()) {
            missing = count(pool, messageIds);
            sent += messageIds.size();
        }
        return new Result(messageIds.size(), sent, missing, recoverable, classify(missing, recoverable));
    }

    private static int count(NntpPool pool, List<String> ids) throws IOException {
        boolean[] held = pool.withConnection(c -> StatPipeline.stat(c, ids, Math.min(WINDOW, Math.max(1, ids.size()))));
        int missing = 0;
        for (boolean h : held) {
            missing += h ? 0 : 1;
        }
        return missing;
    }
}
