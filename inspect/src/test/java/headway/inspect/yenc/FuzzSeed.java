package headway.inspect.yenc;

import java.lang.management.ManagementFactory;
import java.util.Random;

/**
 * The seed of a fuzz run: fresh each run, or the one {@code -Dheadway.fuzz.seed=N} replays. A
 * failing fuzz test names it in its message, so {@code mvn ... -Dheadway.fuzz.seed=N} runs the same
 * inputs again.
 */
public final class FuzzSeed {

    private FuzzSeed() {}

    /** The seed for this run. */
    public static long seed() {
        String replay = System.getProperty("headway.fuzz.seed");
        return replay != null ? Long.parseLong(replay.strip()) : new Random().nextLong();
    }

    /** The text that names a seed in an assertion message. */
    public static String replay(long seed) {
        return "seed " + seed + " (replay with -Dheadway.fuzz.seed=" + seed + ")";
    }

    /** Bytes this thread has allocated so far: HotSpot counts them per thread. */
    public static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
