package headway.web;

import java.security.SecureRandom;

/**
 * The seed of a property test: a fresh one every run, or the one named by {@code -Dheadway.seed=N}
 * to replay a failure. A test puts {@link #describe} into its failure messages.
 */
final class Seeds {

    private Seeds() {}

    /** This run's seed. */
    static long next() {
        Long replay = Long.getLong("headway.seed");
        return replay != null ? replay : new SecureRandom().nextLong();
    }

    /** What a failure prints: the seed and how to replay it. */
    static String describe(long seed) {
        return "seed " + seed + " (replay with -Dheadway.seed=" + seed + ")";
    }
}
