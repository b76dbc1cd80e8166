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

    /** {@code n} characters drawn from {@code alphabet} with {@code r}. */
    public static String text(java.util.Random r, String alphabet, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return sb.toString();
    }
}
