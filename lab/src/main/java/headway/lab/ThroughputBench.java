package headway.lab;

import com.zaxxer.hikari.HikariDataSource;
import headway.index.CompletedBinary;
import headway.index.RuleSet;
import headway.index.Window;
import headway.nntp.NntpClient;
import headway.nntp.NntpServer;
import headway.nntp.OverviewLine;
import headway.nntp.OverviewSink;
import headway.rig.EmbeddedDatabase;
import headway.simulator.NewsSimulator;
import headway.store.CatalogStore;
import headway.store.Database;
import headway.store.GroupStore;
import headway.worker.HeadwayWorker;
import headway.worker.Setting;
import java.io.PrintWriter;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Headers per second end to end (news simulator -> worker -> catalog) beside the two raw limits
 * measured in the same run on the same data: the simulator's OVER stream read and parsed with no
 * Temporal and no database, and the catalog write rate alone. All three use the same number of
 * groups in parallel, so the ratio compares like with like, and all three are steady rates of a
 * warm JVM: each path first runs untimed over as many warm-up groups of the same size (at
 * 250,000 articles per group, JIT compilation of the end-to-end path still took a fifth of the
 * machine during the timed phase; after warm-up groups of half the size, 1 to 1.8 CPU seconds
 * of each phase's 5 to 12). CPU per header leaves out the JIT compilers' threads ({@link CpuMeter}).
 */
public final class ThroughputBench {

    /** Untimed rounds over the warm-up groups before the fetch-and-window figure (see {@link #rawWindow}). */
    private static final int WINDOW_WARM_UP = 3;

    /** The benchmarks' in-process worker: room for every group at once. */
    static final Map<String, String> BENCH_WORKER = Map.of(
            Setting.NODE_ID.key(), "bench-worker",
            Setting.MAX_GROUPS.key(), "64",
            Setting.NNTP_CONNECTIONS.key(), "16",
            Setting.ACTIVITY_CONCURRENCY.key(), "64");

    /**
     * What the benchmark measured: the three rates, and the CPU microseconds per header of each
     * path (this JVM, its child processes and PostgreSQL's processes together).
     */
    public record Result(
            long headers,
            double endToEnd,
            double rawFetch,
            double rawWrite,
            double seconds,
            double cpuE2eUs,
            double cpuFetchUs,
            double cpuWriteUs) {
        public double ratio() {
            return endToEnd / Math.min(rawFetch, rawWrite);
        }

        /** End to end's CPU per header against the raw fetch's and raw write's added up. */
        public double cpuRatio() {
            return cpuE2eUs / (cpuFetchUs + cpuWriteUs);
        }
    }

    /** A raw path's rate and CPU per header. */
    private record Raw(double rate, double cpuUs) {}

    private final int groups;
    private final long articles;
    private final int batch;
    private final boolean inProcessTemporal;
    private final PrintWriter out;

    public ThroughputBench(int groups, long articles, int batch, boolean inProcessTemporal, PrintWriter out) {
        this.groups = groups;
        this.articles = articles;
        this.batch = batch;
        this.inProcessTemporal = inProcessTemporal;
        this.out = out;
    }

    public Result run() throws Exception {
        List<NewsSimulator.GroupSpec> specs = specs("t", 77, articles);
        List<NewsSimulator.GroupSpec> warmUp = specs("w", 177, Math.max(20_000, articles));
        List<NewsSimulator.GroupSpec> all = new ArrayList<>(warmUp);
        all.addAll(specs);
        try (Rig rig = Rig.builder()
                .groups(all)
                .database("e2e")
                .poolSize(30)
                .webUi()
                .temporal(
                        inProcessTemporal
                                ? TemporalServer.Kind.IN_PROCESS
                                : TemporalServer.Kind.DEV_SERVER_OR_IN_PROCESS)
                .temporalLater()
                .say(msg -> out.println("throughput: " + msg))
                .start()) {
            int pg = rig.postgres().port();
            Raw fetch = rawFetch(rig.nntpServer(), warmUp, specs, pg);
            out.printf(
                    "throughput: raw fetch %.0f headers/s (%d groups x %d articles, parsed, no Temporal, no database),"
                            + " cpu_us_per_header=%.2f%n",
                    fetch.rate(), groups, articles, fetch.cpuUs());
            Raw window = rawWindow(rig.nntpServer(), warmUp, specs, pg);
            out.printf(
                    "throughput: fetch and window (no Temporal, no database) cpu_us_per_header=%.2f; less the raw"
                            + " fetch, the window's %.2f is in neither raw path%n",
                    window.cpuUs(), window.cpuUs() - fetch.cpuUs());
            Raw write = rawWrite(rig.postgres(), rig.nntpServer(), warmUp, specs, pg);
            out.printf(
                    "throughput: raw catalog write %.0f headers/s, cpu_us_per_header=%.2f%n",
                    write.rate(), write.cpuUs());
            rig.startTemporal();
            Map<String, String> env = new HashMap<>(BENCH_WORKER);
            env.put(Setting.BATCH.key(), Integer.toString(batch));
            HeadwayWorker worker = rig.startWorker(env);
            long rangeSize = Setting.RANGE_SIZE.longDefault();
            Duration ttl = worker.config().leaseTtl();
            Rig.Indexed warm = rig.indexAll(warmUp, rangeSize, ttl, Duration.ofMinutes(20));
            out.printf(
                    "throughput: warm-up end to end %.0f headers/s (not counted)%n", warm.headers() / warm.seconds());
            PostgresActivity wrote = PostgresActivity.of(rig.postgres().postgresDatabase());
            CpuMeter.Sample before = CpuMeter.sample(pg);
            Rig.Indexed e2e = rig.indexAll(specs, rangeSize, ttl, Duration.ofMinutes(20));
            CpuMeter.Sample after = CpuMeter.sample(pg);
            out.println("throughput: end to end took " + after.since(before));
            out.println("throughput: end to end, this JVM's CPU s by thread: " + after.byThreadSince(before));
            out.println("throughput: end to end, postgres "
                    + PostgresActivity.of(rig.postgres().postgresDatabase()).since(wrote, e2e.headers()));
            double endToEnd = e2e.headers() / e2e.seconds();
            double cpuE2e = after.cpuSince(before) * 1e6 / e2e.headers();
            out.printf(
                    "throughput: end to end %.0f headers/s (%d headers in %.1f s), cpu_us_per_header=%.2f"
                            + " (postgres %.2f)%n",
                    endToEnd, e2e.headers(), e2e.seconds(), cpuE2e, after.postgresSince(before) * 1e6 / e2e.headers());
            return new Result(
                    e2e.headers(),
                    endToEnd,
                    fetch.rate(),
                    write.rate(),
                    e2e.seconds(),
                    cpuE2e,
                    fetch.cpuUs(),
                    write.cpuUs());
        }
    }

    private List<NewsSimulator.GroupSpec> specs(String prefix, long seed, long perGroup) {
        List<NewsSimulator.GroupSpec> out = new ArrayList<>();
        for (int i = 0; i < groups; i++) {
            out.add(NewsSimulator.GroupSpec.of("alt.binaries.bench." + prefix + i, seed + i, perGroup));
        }
        return out;
    }

    /** The OVER streams of every group, read and parsed in parallel, one connection per group; the warm-up groups first, untimed. */
    private Raw rawFetch(
            NntpServer simulator, List<NewsSimulator.GroupSpec> warmUp, List<NewsSimulator.GroupSpec> specs, int pg)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(specs.size());
        try {
            inParallel(pool, warmUp, g -> fetch(simulator, g));
            CpuMeter.Sample before = CpuMeter.sample(pg);
            long lines = inParallel(pool, specs, g -> fetch(simulator, g));
            CpuMeter.Sample after = CpuMeter.sample(pg);
            out.println("throughput: raw fetch took " + after.since(before));
            out.println("throughput: raw fetch, this JVM's CPU s by thread: " + after.byThreadSince(before));
            return new Raw(
                    lines / ((after.wallNanos() - before.wallNanos()) / 1e9), after.cpuSince(before) * 1e6 / lines);
        } finally {
            pool.shutdown();
        }
    }

    private long fetch(NntpServer simulator, NewsSimulator.GroupSpec g) throws Exception {
        long lines = 0;
        try (NntpClient client = NntpClient.connect(simulator, Duration.ofSeconds(5), Duration.ofSeconds(60))) {
            client.group(g.name());
            for (long lo = 1; lo <= g.initialArticles(); lo += batch) {
                lines += client.over(lo, Math.min(g.initialArticles(), lo + batch - 1), new CountingSink());
            }
        }
        return lines;
    }

    /**
     * The raw fetch with each group's window fed and drained as the indexer does it, the
     * binaries dropped: less the raw fetch, the window's CPU per header, which the end-to-end run
     * spends and neither raw path does. The warm-up groups first, untimed, {@link #WINDOW_WARM_UP}
     * times: the subject parser runs once per file, so its methods reach the JIT's last tier
     * later than the per-header code does, and after one round the figure was still a third above
     * its steady value (1.77, 1.58, 1.47 us per header for fetch and window in successive rounds of
     * one JVM).
     */
    private Raw rawWindow(
            NntpServer simulator, List<NewsSimulator.GroupSpec> warmUp, List<NewsSimulator.GroupSpec> specs, int pg)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(specs.size());
        try {
            for (int round = 0; round < WINDOW_WARM_UP; round++) {
                inParallel(pool, warmUp, g -> assemble(simulator, g, batch -> {}));
            }
            CpuMeter.Sample before = CpuMeter.sample(pg);
            long lines = inParallel(pool, specs, g -> assemble(simulator, g, batch -> {}));
            CpuMeter.Sample after = CpuMeter.sample(pg);
            out.println("throughput: fetch and window, this JVM's CPU s by thread: " + after.byThreadSince(before));
            return new Raw(
                    lines / ((after.wallNanos() - before.wallNanos()) / 1e9), after.cpuSince(before) * 1e6 / lines);
        } finally {
            pool.shutdown();
        }
    }

    /**
     * The catalog write rate alone: the binaries the groups' windows produce (computed first,
     * untimed) written with the same batching as the indexer, one transaction per batch, groups
     * in parallel; the warm-up groups' binaries first, untimed, so that the figure is the
     * steady rate of a warm JVM as the end-to-end figure is.
     */
    private Raw rawWrite(
            EmbeddedDatabase postgres,
            NntpServer simulator,
            List<NewsSimulator.GroupSpec> warmUp,
            List<NewsSimulator.GroupSpec> specs,
            int pg)
            throws Exception {
        List<NewsSimulator.GroupSpec> all = new ArrayList<>(warmUp);
        all.addAll(specs);
        Map<String, List<List<CompletedBinary>>> batches = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(specs.size());
        String url = postgres.createDatabase("rawwrite");
        try (HikariDataSource ds = Database.pool(
                new Database.Settings(url, "postgres", null, specs.size() + 2, Duration.ofSeconds(10)),
                "bench-write")) {
            inParallel(pool, all, g -> {
                List<List<CompletedBinary>> out = new ArrayList<>();
                assemble(simulator, g, out::add);
                batches.put(g.name(), out);
                return 0;
            });
            Database.migrate(ds);
            GroupStore groupStore = new GroupStore(ds);
            all.forEach(g -> groupStore.add(g.name(), 0));
            CatalogStore catalog = new CatalogStore();
            inParallel(pool, warmUp, g -> write(ds, catalog, batches.remove(g.name())));
            PostgresActivity wrote = PostgresActivity.of(postgres.postgresDatabase());
            CpuMeter.Sample before = CpuMeter.sample(pg);
            long segments = inParallel(pool, specs, g -> write(ds, catalog, batches.remove(g.name())));
            CpuMeter.Sample after = CpuMeter.sample(pg);
            out.println("throughput: raw catalog write took " + after.since(before));
            out.println("throughput: raw catalog write, this JVM's CPU s by thread: " + after.byThreadSince(before));
            out.printf(
                    "throughput: raw catalog write, postgres cpu_us_per_header=%.2f (%s)%n",
                    after.postgresSince(before) * 1e6 / segments,
                    PostgresActivity.of(postgres.postgresDatabase()).since(wrote, segments));
            return new Raw(
                    segments / ((after.wallNanos() - before.wallNanos()) / 1e9),
                    after.cpuSince(before) * 1e6 / segments);
        } finally {
            pool.shutdown();
        }
    }

    /** Hands {@code out} a group's binaries as the indexer's window hands them over, one list per batch; returns the headers read. */
    private long assemble(NntpServer simulator, NewsSimulator.GroupSpec g, Consumer<List<CompletedBinary>> out)
            throws Exception {
        long headers = 0;
        Window window = new Window(g.name(), Setting.WINDOW_MAX_AGE.longDefault());
        window.catalogHoldsUpTo(0); // an empty catalog, as the end-to-end run starts with
        RuleSet rules = RuleSet.defaults(0);
        try (NntpClient client = NntpClient.connect(simulator, Duration.ofSeconds(5), Duration.ofSeconds(60))) {
            client.group(g.name());
            for (long lo = 1; lo <= g.initialArticles(); lo += batch) {
                long hi = Math.min(g.initialArticles(), lo + batch - 1);
                headers += client.over(lo, hi, new CountingSink() {
                    @Override
                    public void header(OverviewLine line) {
                        window.accept(line, rules);
                    }
                });
                window.ageTo(hi);
                out.accept(window.drain());
            }
        }
        return headers;
    }

    /** Writes a group's batches, one transaction each; returns the segments written. */
    private static long write(HikariDataSource ds, CatalogStore catalog, List<List<CompletedBinary>> batches)
            throws Exception {
        long segments = 0;
        for (List<CompletedBinary> batch : batches) {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                catalog.writeBinaries(c, batch);
                c.commit();
            }
            segments += batch.stream().mapToLong(CompletedBinary::partsPresent).sum();
        }
        return segments;
    }

    /** Runs {@code work} for every group at once and sums what it returns. */
    private static long inParallel(ExecutorService pool, List<NewsSimulator.GroupSpec> groups, GroupWork work)
            throws Exception {
        List<Future<Long>> done = new ArrayList<>();
        for (NewsSimulator.GroupSpec g : groups) {
            done.add(pool.submit(() -> work.run(g)));
        }
        long sum = 0;
        for (Future<Long> f : done) {
            sum += f.get();
        }
        return sum;
    }

    @FunctionalInterface
    private interface GroupWork {
        long run(NewsSimulator.GroupSpec group) throws Exception;
    }

    /** Counts nothing itself; the client returns the number of good headers. */
    private static class CountingSink implements OverviewSink {
        @Override
        public void header(OverviewLine line) {}

        @Override
        public void malformed(long article, String reason) {}

        @Override
        public void missing(long fromInclusive, long toInclusive) {}
    }
}
