package headway.lab;

import headway.nntp.Availability;
import headway.nntp.NntpPool;
import headway.nntp.NntpServer;
import headway.settings.Setting;
import headway.simulator.Article;
import headway.simulator.NewsSimulator;
import headway.simulator.NewsSimulator.GroupSpec;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The two-provider case of {@code bench provider}: the same releases posted to two news
 * simulators, known articles taken down from the second (as a takedown would: a contiguous stretch
 * of a release's posts), and each release checked there with {@link Availability#check} within a
 * budget of {@link #BUDGET} STATs. A release's class is what the bench took down: nothing
 * (complete), no more segments than its PAR2 recovery volumes hold (repairable), more (broken);
 * agree counts the releases the check classed the same. Prints one line:
 * {@code availability: releases=<n> checked=<n> stat_per_release_median=<m> agree=<n>}.
 */
public final class AvailabilityBench {
    /** The sample's STAT budget per release and provider: HEADWAY_CHECK_STATS's default. */
    public static final int BUDGET = Setting.CHECK_STATS.intDefault();

    private static final String GROUP = "alt.binaries.availability";

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

    /** Runs the case and prints its line. */
    public Outcome run() throws Exception {
        try (NewsSimulator first =
                        NewsSimulator.start(NewsSimulator.Options.defaults(), List.of(GroupSpec.posted(GROUP)));
                NewsSimulator second =
                        NewsSimulator.start(NewsSimulator.Options.defaults(), List.of(GroupSpec.posted(GROUP)));
                NntpPool pool = new NntpPool(NntpPool.Config.defaults(NntpServer.plain(second.host(), second.port()))
                        .withMaxConnections(1))) {
            int recovery = segments / 10;
            int stratum = (segments + BUDGET - 1) / BUDGET;
            int agree = 0;
            int[] stats = new int[PLAN.size()];
            for (int r = 0; r < PLAN.size(); r++) {
                List<String> ids = post(first, second, r);
                Takedown t = PLAN.get(r);
                // a stretch the sample always finds (at least a stratum), and within or beyond the recovery
                int removed = switch (t) {
                    case NONE -> 0;
                    case WITHIN_RECOVERY -> Math.max(stratum, recovery / 2);
                    case BEYOND_RECOVERY -> recovery * 3;
                };
                int at = (r * 7919) % Math.max(1, segments - removed);
                for (int i = at; i < at + removed; i++) {
                    second.takeDown(ids.get(i));
                }
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

    /** Posts release {@code r} to both simulators: data segments, then the PAR2 index, then its recovery volumes. */
    private List<String> post(NewsSimulator first, NewsSimulator second, int r) {
        List<String> ids = new ArrayList<>(segments);
        int recovery = segments / 10;
        for (int i = 0; i < segments; i++) {
            String file = i < segments - recovery - 1
                    ? "release" + r + ".7z.001"
                    : i == segments - recovery - 1
                            ? "release" + r + ".par2"
                            : "release" + r + ".vol00+" + recovery + ".par2";
            String id = "<r" + r + "s" + i + "@bench.test>";
            Article a = Article.of(
                    id,
                    "poster <poster@bench.test>",
                    GROUP,
                    "[" + r + "] \"" + file + "\" yEnc (" + (i + 1) + "/" + segments + ")",
                    "Mon, 7 Dec 2026 12:00:00 +0000",
                    ("segment " + i + "\r\n").getBytes(StandardCharsets.US_ASCII));
            first.postArticle(GROUP, a);
            second.postArticle(GROUP, a);
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
