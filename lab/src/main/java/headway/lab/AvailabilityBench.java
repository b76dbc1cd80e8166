package headway.lab;

import headway.nntp.Availability;
import headway.nntp.NntpPool;
import headway.nntp.NntpServer;
import headway.settings.Setting;
import headway.simulator.Article;
import headway.simulator.NewsSimulator;
import headway.simulator.NewsSimulator.GroupSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The two-provider case of {@code bench provider}: the same releases posted to two news
 * simulators (or, with {@code --inn}, two INN servers: {@link InnFeed#availabilityPair}), known
 * articles taken down from the second (as a takedown would: a contiguous stretch of a release's
 * posts; on INN never fed to the second, because INN's timecaf spool keeps serving a cancelled
 * article), and each release checked there with {@link Availability#check} within a
 * budget of {@link #BUDGET} STATs. A release's class is what the bench took down: nothing
 * (complete), no more segments than its PAR2 recovery volumes hold (repairable), more (broken);
 * agree counts the releases the check classed the same. Prints one line:
 * {@code availability: releases=<n> checked=<n> stat_per_release_median=<m> agree=<n>}.
 */
public final class AvailabilityBench {
    /** The sample's STAT budget per release and provider: HEADWAY_CHECK_STATS's default. */
    public static final int BUDGET = Setting.CHECK_STATS.intDefault();

    static final String GROUP = "alt.binaries.availability";

    /** What the bench does to one release on the second provider. */
    enum Takedown {
        NONE,
        WITHIN_RECOVERY,
        BEYOND_RECOVERY
    }

    /** Releases of the case: most are left whole, as most releases are, so the median is a sample's. */
    static final List<Takedown> PLAN = List.of(
            Takedown.NONE,
            Takedown.WITHIN_RECOVERY,
            Takedown.NONE,
            Takedown.BEYOND_RECOVERY,
            Takedown.NONE,
            Takedown.WITHIN_RECOVERY,
            Takedown.NONE,
            Takedown.BEYOND_RECOVERY,
            Takedown.NONE);

    private final int segments;
    private final PrintWriter out;

    /** A case of releases of {@code segments} segments each, a tenth of them PAR2 recovery. */
    public AvailabilityBench(int segments, PrintWriter out) {
        if (segments < 40 || segments > 100_000) {
            throw new IllegalArgumentException("segments must be between 40 and 100000, was " + segments);
        }
        this.segments = segments;
        this.out = Objects.requireNonNull(out, "out");
    }

    /** The outcome: releases posted, releases checked, the median STATs per release, and how many agree. */
    public record Outcome(int releases, int checked, double statPerReleaseMedian, int agree) {}

    /** Two providers holding the case's posts; the second is the one checked. */
    interface Providers extends AutoCloseable {
        /** Posts a segment to both, and takes it down from the second when {@code removed}. */
        void post(String group, String id, String subject, byte[] body, boolean removed) throws IOException;

        /** Sends what {@link #post} may have held back, before a check. */
        default void flush() throws IOException {}

        /** The second provider's reader. */
        NntpServer second();

        @Override
        void close();
    }

    /** Runs the case on two news simulators and prints its line. */
    public Outcome run() throws Exception {
        NewsSimulator first = NewsSimulator.start(NewsSimulator.Options.defaults(), List.of(GroupSpec.posted(GROUP)));
        NewsSimulator second = NewsSimulator.start(NewsSimulator.Options.defaults(), List.of(GroupSpec.posted(GROUP)));
        return run(new Providers() {
            @Override
            public void post(String group, String id, String subject, byte[] body, boolean removed) {
                Article a = Article.of(
                        id, "poster <poster@bench.test>", group, subject, "Mon, 7 Dec 2026 12:00:00 +0000", body);
                first.postArticle(group, a);
                second.postArticle(group, a);
                if (removed) {
                    second.takeDown(id);
                }
            }

            @Override
            public NntpServer second() {
                return NntpServer.plain(second.host(), second.port());
            }

            @Override
            public void close() {
                first.close();
                second.close();
            }
        });
    }

    /** Runs the case on {@code providers} (closed at the end) and prints its line. */
    public Outcome run(Providers providers) throws Exception {
        try (Providers both = providers;
                NntpPool pool =
                        new NntpPool(NntpPool.Config.defaults(both.second()).withMaxConnections(1))) {
            int recovery = segments / 10;
            int stratum = (segments + BUDGET - 1) / BUDGET;
            int agree = 0;
            int[] stats = new int[PLAN.size()];
            String run = Long.toString(System.nanoTime(), 36);
            for (int r = 0; r < PLAN.size(); r++) {
                Takedown t = PLAN.get(r);
                // a stretch the sample always finds (at least a stratum), and within or beyond the recovery
                int removed = switch (t) {
                    case NONE -> 0;
                    case WITHIN_RECOVERY -> Math.max(stratum, recovery / 2);
                    case BEYOND_RECOVERY -> recovery * 3;
                };
                int at = (r * 7919) % Math.max(1, segments - removed);
                List<String> ids = post(both, run, r, at, at + removed);
                both.flush();
                Availability.Result result = Availability.check(pool, ids, recovery, BUDGET);
                stats[r] = result.asked();
                Availability.Verdict expected = Availability.classify(removed, recovery);
                if (result.verdict() == expected && result.missing() == removed) {
                    agree++;
                }
            }
            Outcome o = new Outcome(PLAN.size(), PLAN.size(), median(stats), agree);
            out.printf(
                    Locale.ROOT,
                    "availability: releases=%d checked=%d stat_per_release_median=%s agree=%d%n",
                    o.releases(),
                    o.checked(),
                    fmt(o.statPerReleaseMedian()),
                    o.agree());
            out.flush();
            return o;
        }
    }

    /**
     * Posts release {@code r} to both providers: data segments, then the PAR2 index, then its
     * recovery volumes; segments {@code [from, to)} are taken down from the second.
     */
    private List<String> post(Providers both, String run, int r, int from, int to) throws IOException {
        List<String> ids = new ArrayList<>(segments);
        int recovery = segments / 10;
        for (int i = 0; i < segments; i++) {
            String file = i < segments - recovery - 1
                    ? "release" + r + ".7z.001"
                    : i == segments - recovery - 1
                            ? "release" + r + ".par2"
                            : "release" + r + ".vol00+" + recovery + ".par2";
            String id = "<r" + r + "s" + i + "." + run + "@bench.test>";
            both.post(
                    GROUP,
                    id,
                    "[" + r + "] \"" + file + "\" yEnc (" + (i + 1) + "/" + segments + ")",
                    ("segment " + i + "\r\n").getBytes(StandardCharsets.US_ASCII),
                    i >= from && i < to);
            ids.add(id);
        }
        return ids;
    }

    static double median(int[] values) {
        int[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.1f", d);
    }
}
