package headway.store;

import java.security.SecureRandom;

/**
 * The seed of a property test in the modules on store's test classpath: a fresh one every run, or
 * the one named by {@code -Dheadway.seed=N} to replay a failure. A test puts {@link #describe}
 * into its failure messages.
 */
public final class TestSeeds {

    private TestSeeds() {}

    /** This run's seed. */
    public static long next() {
        Long replay = Long.getLong("headway.seed");
        return replay != null ? replay : new SecureRandom().nextLong();
    }

    /** What a failure prints: the seed and how to replay it. */
    public static String describe(long seed) {
        return "seed " + seed + " (replay with -Dheadway.seed=" + seed + ")";
    }
}
