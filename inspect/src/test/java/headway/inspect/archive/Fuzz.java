package headway.inspect.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The fuzz tests' harness: a fresh seed each run (or the one in the system property
 * {@value #SEED_PROPERTY}, to replay), named in any failure; and the invariants every listing
 * keeps whatever the bytes: no exception, entries within bounds and within the bytes given,
 * names clean and bounded, a bounded reason, and allocation within the reader's caps, measured
 * on the calling thread.
 */
final class Fuzz {

    static final String SEED_PROPERTY = "headway.fuzz.seed";

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static long cases;
    private static long mostAllocated;
    private static long mostAllocatedInput;

    static {
        warmUp();
    }

    private Fuzz() {}

    /** Loads every reader's classes and charsets, so a case's allocation is the case's own. */
    private static void warmUp() {
        for (String fixture : new String[] {"rar/rar3-subdirs.rar", "rar/unicode.rar", "rar/rar5-subdirs.rar"}) {
            byte[] b = TestTools.resource(fixture);
            Archives.list(b, b, 0);
        }
        Archives.sevenZip(new byte[64], new byte[64], 64);
        Archives.zip(new byte[64], new byte[64], 64);
        Names.utf8OrCp437(new byte[] {(byte) 0x81}, 0, 1);
        Names.decode(new byte[] {'a', 0}, 0, 2, java.nio.charset.StandardCharsets.UTF_16LE);
    }

    /** Runs {@code body} with a seeded Random; a failure names the seed and how to replay it. */
    static void run(String what, Consumer<Random> body) {
        Long fixed = Long.getLong(SEED_PROPERTY);
        long seed = fixed != null ? fixed : ThreadLocalRandom.current().nextLong();
        try {
            body.accept(new Random(seed));
        } catch (RuntimeException | AssertionError e) {
            throw new AssertionError(
                    what + " failed with seed " + seed + " (replay: mvn ... -D" + SEED_PROPERTY + "=" + seed + ")", e);
        }
    }

    /**
     * Reads with {@code reader} and checks the invariants: {@code bytes} is how many bytes it was
     * given (an entry takes at least one), {@code maxAllocation} the allocation it may make.
     */
    static Listing check(String what, long bytes, long maxAllocation, Supplier<Listing> reader) {
        long[] allocated = new long[1];
        Listing l = measured(what, reader, allocated);
        if (allocated[0] > maxAllocation) {
            l = measured(what, reader, allocated);
        }
        assertThat(allocated[0])
                .as("%s: bytes allocated (reason: %s)", what, l.reason())
                .isLessThanOrEqualTo(maxAllocation);
        cases++;
        if (allocated[0] > mostAllocated) {
            mostAllocated = allocated[0];
            mostAllocatedInput = bytes;
        }
        assertThat(l.entries().size()).as(what).isLessThanOrEqualTo((int) Math.min(Archives.MAX_ENTRIES, bytes));
        assertThat(l.reason() == null || l.reason().length() <= Listing.MAX_REASON_CHARS)
                .as(what)
                .isTrue();
        assertThat(!l.headersEncrypted() || l.entries().isEmpty()).as(what).isTrue();
        for (Listing.Entry e : l.entries()) {
            assertThat(e.name().length()).as(what).isLessThanOrEqualTo(Archives.MAX_NAME_CHARS);
            assertThat(e.name().chars().noneMatch(Character::isISOControl))
                    .as(what)
                    .isTrue();
            assertThat(e.size().orElse(0)).as(what).isNotNegative();
            assertThat(e.packedSize().orElse(0)).as(what).isNotNegative();
        }
        return l;
    }

    /**
     * Runs the reader once, its allocation in {@code allocated[0]}. A case over its bound runs
     * again before it fails: the first run of a code path also pays the JVM's one-time costs
     * (class loading, the bootstrap of each string concatenation), which are not the case's.
     */
    private static Listing measured(String what, Supplier<Listing> reader, long[] allocated) {
        long thread = Thread.currentThread().getId();
        long before = THREADS.getThreadAllocatedBytes(thread);
        try {
            Listing l = reader.get();
            allocated[0] = THREADS.getThreadAllocatedBytes(thread) - before;
            return l;
        } catch (RuntimeException e) {
            throw new AssertionError(what + ": the reader threw", e);
        }
    }

    /** Prints the cases checked since the last summary and the most one allocated, then resets. */
    static void summary(String format) {
        System.out.printf(
                "fuzz: %s: %,d cases, no exception, most allocated by one case %,d bytes (given %,d bytes)%n",
                format, cases, mostAllocated, mostAllocatedInput);
        cases = 0;
        mostAllocated = 0;
        mostAllocatedInput = 0;
    }

    /** {@code n} random bytes. */
    static byte[] bytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** A copy of {@code b} with 1 to {@code max} random bytes in {@code [from, to)} flipped by a random bit. */
    static byte[] flip(Random random, byte[] b, int from, int to, int max) {
        byte[] m = b.clone();
        if (to <= from) {
            return m;
        }
        int n = 1 + random.nextInt(max);
        for (int i = 0; i < n; i++) {
            int at = from + random.nextInt(to - from);
            m[at] ^= (byte) (1 << random.nextInt(8));
        }
        return m;
    }

    /** A value a lying length field would hold: around 2^31, 2^32, 2^60, all ones, zero, one. */
    static long lie(Random random) {
        long[] lies = {0, 1, 0x7FFFFFFFL, 0x80000000L, 0xFFFFFFFFL, 1L << 60, -1L, Long.MAX_VALUE, 0xFFFFL, 7};
        return lies[random.nextInt(lies.length)];
    }

    static void putLe(byte[] b, int at, long v, int width) {
        for (int i = 0; i < width && at + i < b.length; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }
}
