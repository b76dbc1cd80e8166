package headway.lab;

import headway.index.RuleSet;
import headway.index.Window;
import headway.nntp.NntpClient;
import headway.nntp.NntpServer;
import headway.nntp.OverviewSink;
import headway.overview.OverviewLine;
import headway.settings.Setting;
import headway.simulator.NewsSimulator;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The window's CPU per header alone: the simulator's overview lines of each group read into
 * memory first, then fed to a fresh window per group (the shipped rules, drained every batch as
 * the indexer does) with nothing else running: one group on one thread (that thread's CPU), and
 * every group at once on a thread each (the process's CPU, garbage collection included, JIT
 * compilers left out as in {@link CpuMeter}). Each is repeated; the first repetitions warm the
 * JIT and are not counted, and the median of the rest is reported. This is the work the
 * end-to-end run does and neither raw path of {@link ThroughputBench} does.
 */
final class WindowBench {

    /**
     * Medians of the counted repetitions: CPU microseconds per header, one group and all at once;
     * bytes allocated per header by the one group's thread; and a snapshot's CPU and size.
     */
    record Result(
            int groups,
            long headers,
            double singleUs,
            double parallelUs,
            double allocatedBytes,
            double snapshotMs,
            long snapshotBytes) {}

    private static final int WARM_UP = 3;
    private static final int BATCH = 5_000;

    private final int groups;
    private final long articles;
    private final int repetitions;
    private final PrintWriter out;

    WindowBench(int groups, long articles, int repetitions, PrintWriter out) {
        this.groups = groups;
        this.articles = articles;
        this.repetitions = repetitions;
        this.out = out;
    }

    Result run() throws Exception {
        List<NewsSimulator.GroupSpec> specs = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            specs.add(NewsSimulator.GroupSpec.of("alt.binaries.bench.t" + g, 77 + g, articles));
        }
        List<List<OverviewLine>> lines = new ArrayList<>();
        try (NewsSimulator sim = NewsSimulator.start(NewsSimulator.Options.defaults(), specs)) {
            for (NewsSimulator.GroupSpec g : specs) {
                lines.add(read(NntpServer.plain(sim.host(), sim.port()), g.name()));
            }
        }
        long total = lines.stream().mapToLong(List::size).sum();
        out.printf("window: %d groups, %d overview lines in memory%n", groups, total);
        double[] single = new double[repetitions];
        double[] parallel = new double[repetitions];
        double[] allocatedBytes = new double[repetitions];
        ExecutorService pool = Executors.newFixedThreadPool(groups);
        try {
            for (int r = 0; r < WARM_UP + repetitions; r++) {
                com.sun.management.ThreadMXBean threads =
                        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
                long a0 = threads.getCurrentThreadAllocatedBytes();
                long t0 = threads.getCurrentThreadCpuTime();
                feed(specs.get(0).name(), lines.get(0));
                double s = (threads.getCurrentThreadCpuTime() - t0)
                        / 1e3
                        / lines.get(0).size();
                double allocated = (threads.getCurrentThreadAllocatedBytes() - a0)
                        / (double) lines.get(0).size();
                CpuMeter.Sample before = CpuMeter.sample(-1);
                List<Future<Long>> done = new ArrayList<>();
                for (int g = 0; g < groups; g++) {
                    String name = specs.get(g).name();
                    List<OverviewLine> own = lines.get(g);
                    done.add(pool.submit(() -> feed(name, own)));
                }
                for (Future<Long> f : done) {
                    f.get();
                }
                double p = CpuMeter.sample(-1).cpuSince(before) * 1e6 / total;
                out.printf(
                        "window: %s one group %.3f us and %.0f bytes allocated per header, %d groups at once %.3f%n",
                        r < WARM_UP ? "warm-up" : "run", s, allocated, groups, p);
                if (r >= WARM_UP) {
                    single[r - WARM_UP] = s;
                    allocatedBytes[r - WARM_UP] = allocated;
                    parallel[r - WARM_UP] = p;
                }
            }
        } finally {
            pool.shutdown();
        }
        Window last = new Window(specs.get(0).name(), Setting.WINDOW_MAX_AGE.longDefault());
        feed(last, lines.get(0));
        double[] snapshot = new double[WARM_UP + repetitions];
        long bytes = 0;
        for (int r = 0; r < snapshot.length; r++) {
            ByteArrayOutputStream to = new ByteArrayOutputStream();
            long t0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            last.writeTo(to);
            snapshot[r] = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - t0) / 1e6;
            bytes = to.size();
        }
        double snapshotMs = Medians.of(Arrays.copyOfRange(snapshot, WARM_UP, snapshot.length));
        out.printf(
                "window: a snapshot of one group's window after its last article (%d open binaries) %d bytes,"
                        + " %.1f ms of CPU%n",
                last.stats().binaries(), bytes, snapshotMs);
        return new Result(
                groups, total, Medians.of(single), Medians.of(parallel), Medians.of(allocatedBytes), snapshotMs, bytes);
    }

    /** A fresh window over {@code lines}, drained every batch; returns the binaries it handed over. */
    private static long feed(String group, List<OverviewLine> lines) {
        return feed(new Window(group, Setting.WINDOW_MAX_AGE.longDefault()), lines);
    }

    /** Feeds {@code window} as {@link #feed(String, List)} does, and leaves it holding what is still open. */
    private static long feed(Window window, List<OverviewLine> lines) {
        window.catalogHoldsUpTo(0);
        RuleSet rules = RuleSet.defaults(0);
        long binaries = 0;
        int i = 0;
        while (i < lines.size()) {
            long hi = lines.get(i).article() / BATCH * BATCH + BATCH - 1;
            for (; i < lines.size() && lines.get(i).article() <= hi; i++) {
                window.accept(lines.get(i), rules);
            }
            window.ageTo(hi);
            binaries += window.drain().size();
            window.drainRejected();
            window.drainMisses();
            window.drainLongNames();
        }
        return binaries;
    }

    private List<OverviewLine> read(NntpServer server, String group) throws Exception {
        List<OverviewLine> lines = new ArrayList<>();
        try (NntpClient client = NntpClient.connect(server, Duration.ofSeconds(5), Duration.ofSeconds(60))) {
            client.group(group);
            for (long lo = 1; lo <= articles; lo += BATCH) {
                client.over(lo, Math.min(articles, lo + BATCH - 1), new OverviewSink() {
                    @Override
                    public void header(OverviewLine line) {
                        lines.add(line);
                    }

                    @Override
                    public void malformed(long article, String reason) {}

                    @Override
                    public void missing(long fromInclusive, long toInclusive) {}
                });
            }
        }
        return lines;
    }
}
