package headway.lab;

import com.zaxxer.hikari.HikariDataSource;
import headway.activity.RangeIndexer;
import headway.catalog.CatalogStore;
import headway.coordination.GroupStore;
import headway.index.CompletedBinary;
import headway.index.RuleSet;
import headway.index.Window;
import headway.nntp.NntpClient;
import headway.nntp.NntpServer;
import headway.nntp.OverviewSink;
import headway.overview.OverviewLine;
import headway.settings.Setting;
import headway.simulator.NewsSimulator;
import headway.store.Database;
import headway.worker.HeadwayWorker;
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
 * Temporal and no database, and the catalog write rate alone; and the same read with each group's
 * window fed and drained, whose CPU less the raw read's is the window's, which the end-to-end run
 * spends and neither raw path does. All use the same number of groups in parallel, so the ratio
 * compares like with like, and all are steady rates of a warm JVM: each path first runs untimed
 * over as many warm-up groups of the same size (at 250,000 articles per group, JIT compilation of
 * the end-to-end path still took a fifth of the machine during the timed phase; after warm-up
 * groups of half the size, 1 to 1.8 CPU seconds of each phase's 5 to 12). CPU per header leaves
 * out the JIT compilers' threads ({@link CpuMeter}).
 *
 * <p>The timed paths run in rounds, each on groups of its own, one path after the other, and the
 * figures are the medians of the rounds: on these shared machines one path's CPU per header
 * swung by a fifth from one run to the next (PostgreSQL's by a third), so a ratio of two single
 * measurements moved by ±0.25.
 */
public final class ThroughputBench {

    /**
     * Untimed passes of the fetch and window over the warm-up groups: the subject parser runs once
     * per file, so its methods reach the JIT's last tier later than the per-header code does, and
     * after one pass the figure was still a third above its steady value (1.77, 1.58, 1.47 us per
     * header for fetch and window in successive passes of one JVM).
     */
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
            double cpuWriteUs,
            Inspecting inspecting) {
        public double ratio() {
            return endToEnd / Math.min(rawFetch, rawWrite);
        }

        /** End to end's CPU per header against the raw fetch's and raw write's added up. */
        public double cpuRatio() {
            return cpuE2eUs / (cpuFetchUs + cpuWriteUs);
        }
    }

    /**
     * With {@code --inspect}: end to end's median rate in the phase with inspection off (the
     * round's end-to-end phase) and in the phase after it with inspection on, on groups of its own;
     * the median over the rounds of their ratio; and what inspection did during and after the on
     * phases, summed over the rounds.
     *
     * @param bodies bodies the simulator served during the on phases: inspection's reads overlapped them
     */
    public record Inspecting(
            double endToEndOff, double endToEndOn, double ratio, int releases, int named, long bodies) {
        String line() {
            return String.format(
                    java.util.Locale.ROOT,
                    "throughput: end_to_end_inspect_off=%.0f end_to_end_inspect_on=%.0f inspect_ratio=%.3f"
                            + " releases_inspected=%d named=%d bodies_during=%d",
                    endToEndOff,
                    endToEndOn,
                    ratio,
                    releases,
                    named,
                    bodies);
        }
    }

    private final int groups;
    private final long articles;
    private final int batch;
    private final int rounds;
    private final boolean inProcessTemporal;
    private final InspectLoad inspect;
    private final PrintWriter out;

    /**
     * @param inspectEach with {@code --inspect}, how many of each kind of {@link
     *     headway.poster.ReleaseSpec#mixed} release every round's inspection phase gets; 0 runs no
     *     inspection and installs no schedules, as before
     */
    public ThroughputBench(
            int groups,
            long articles,
            int batch,
            int rounds,
            boolean inProcessTemporal,
            int inspectEach,
            PrintWriter out) {
        this.groups = groups;
        this.rounds = rounds;
        this.articles = articles;
        this.batch = batch;
        this.inProcessTemporal = inProcessTemporal;
        this.inspect = inspectEach > 0 ? new InspectLoad(rounds, inspectEach, 41) : null;
        this.out = out;
    }

    public Result run() throws Exception {
        List<NewsSimulator.GroupSpec> warmUp = specs("w", 177, Math.max(20_000, articles));
        List<List<NewsSimulator.GroupSpec>> timed = new ArrayList<>();
        List<NewsSimulator.GroupSpec> all = new ArrayList<>(warmUp);
        for (int r = 0; r < rounds; r++) {
            timed.add(specs("t" + r + "-", 77 + 100L * r, articles));
            all.addAll(timed.get(r));
        }
        List<List<NewsSimulator.GroupSpec>> inspecting = new ArrayList<>();
        if (inspect != null) {
            for (int r = 0; r < rounds; r++) {
                inspecting.add(specs("i" + r + "-", 7077 + 100L * r, articles));
                all.addAll(inspecting.get(r));
            }
            all.addAll(inspect.groups());
            inspect.build();
        }
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
            NntpServer simulator = rig.nntpServer();
            ExecutorService pool = Executors.newFixedThreadPool(groups);
            String url = rig.postgres().createDatabase("rawwrite");
            try (HikariDataSource rawDb = Database.pool(
                    new Database.Settings(url, "postgres", null, groups + 2, Duration.ofSeconds(10)), "bench-write")) {
                Database.migrate(rawDb);
                GroupStore groupStore = new GroupStore(rawDb);
                all.forEach(g -> groupStore.add(g.name(), 0));
                CatalogStore catalog = new CatalogStore();

                // the warm-ups, untimed: each path over the warm-up groups, the window several times
                inParallel(pool, warmUp, g -> fetch(simulator, g));
                for (int pass = 0; pass < WINDOW_WARM_UP; pass++) {
                    inParallel(pool, warmUp, g -> assemble(simulator, g, batch -> {}));
                }
                Map<String, List<List<CompletedBinary>>> warmBatches = assembleAll(pool, simulator, warmUp);
                inParallel(pool, warmUp, g -> write(rawDb, catalog, warmBatches.remove(g.name())));
                rig.startTemporal();
                Map<String, String> env = new HashMap<>(BENCH_WORKER);
                env.put(Setting.BATCH.key(), Integer.toString(batch));
                HeadwayWorker worker = rig.startWorker(env);
                long rangeSize = Setting.RANGE_SIZE.longDefault();
                Duration ttl = worker.config().leaseTtl();
                Rig.Indexed warm = rig.indexAll(warmUp, rangeSize, ttl, Duration.ofMinutes(20));
                out.printf(
                        "throughput: warm-up end to end %.0f headers/s (not counted)%n",
                        warm.headers() / warm.seconds());

                Rounds ctx = new Rounds(rig, pg, simulator, pool, rawDb, catalog, rangeSize, ttl);
                if (inspect != null) {
                    inspect.install(rig);
                }
                List<Round> done = new ArrayList<>();
                List<InspectedRound> inspected = new ArrayList<>();
                for (int r = 0; r < rounds; r++) {
                    done.add(round(ctx, r + 1, timed.get(r)));
                    if (inspect != null) {
                        inspected.add(inspectedRound(ctx, r, inspecting.get(r), done.get(r)));
                    }
                }
                Result result = new Result(
                        done.get(0).endToEnd.count(),
                        median(done, Round::endToEndRate),
                        median(done, x -> x.fetch.rate()),
                        median(done, x -> x.write.rate()),
                        median(done, Round::seconds),
                        median(done, x -> x.endToEnd.cpuUs()),
                        median(done, x -> x.fetch.cpuUs()),
                        median(done, x -> x.write.cpuUs()),
                        inspect == null ? null : inspecting(done, inspected));
                out.printf(
                        java.util.Locale.ROOT,
                        "throughput: medians of %d rounds (%d groups x %d articles each): end to end %.0f headers/s,"
                                + " cpu_us_per_header=%.2f (postgres %.2f); raw fetch %.0f headers/s, %.2f; window"
                                + " %.2f; raw write %.0f headers/s, %.2f (postgres %.2f); beyond the raw paths and the"
                                + " window %.2f%n",
                        rounds,
                        groups,
                        articles,
                        result.endToEnd(),
                        result.cpuE2eUs(),
                        median(done, x -> x.endToEnd.postgresUs()),
                        result.rawFetch(),
                        result.cpuFetchUs(),
                        median(done, x -> x.window.cpuUs() - x.fetch.cpuUs()),
                        result.rawWrite(),
                        result.cpuWriteUs(),
                        median(done, x -> x.write.postgresUs()),
                        median(done, Round::beyond));
                return result;
            } finally {
                pool.shutdown();
            }
        }
    }

    /** The phase with inspection on, and how its end to end compares with the round's. */
    private record InspectedRound(double endToEndOn, double ratio, InspectLoad.Settled settled) {}

    /**
     * End to end again on groups of its own while the round's obfuscated releases are inspected:
     * posted and indexed first (untimed), their inspection let loose as the phase starts, then
     * waited for until settled so that none of it runs into the next round.
     */
    private InspectedRound inspectedRound(Rounds c, int round, List<NewsSimulator.GroupSpec> specs, Round off)
            throws Exception {
        String at = "throughput: round " + (round + 1) + ", ";
        inspect.prepare(c.rig(), round, Duration.ofMinutes(5));
        long bodies = InspectLoad.bodies(c.rig());
        inspect.start();
        CpuMeter.Sample start = CpuMeter.sample(c.pg());
        Rig.Indexed e2e = c.rig().indexAll(specs, c.rangeSize(), c.ttl(), Duration.ofMinutes(20));
        Phase on = new Phase(e2e.headers(), start, CpuMeter.sample(c.pg()));
        long during = InspectLoad.bodies(c.rig()) - bodies;
        out.println(
                at + "end to end with inspection on took " + on.took() + "; " + during + " bodies served during it");
        InspectLoad.Settled s = inspect.settle(c.rig(), round, bodies, Duration.ofMinutes(10));
        double rate = e2e.headers() / e2e.seconds();
        out.printf(
                java.util.Locale.ROOT,
                "%sinspection: %d obfuscated releases, %d named, %d not settled, %d bodies, all settled within %.1f s of"
                        + " the trigger (looked at once the phase ended); end to end %.0f headers/s with it on, %.0f off (ratio %.3f)%n",
                at,
                s.releases(),
                s.named(),
                s.unsettled(),
                s.bodies(),
                s.seconds(),
                rate,
                off.endToEndRate(),
                rate / off.endToEndRate());
        return new InspectedRound(
                rate,
                rate / off.endToEndRate(),
                new InspectLoad.Settled(s.releases(), s.named(), s.unsettled(), during, s.seconds()));
    }

    private static Inspecting inspecting(List<Round> done, List<InspectedRound> inspected) {
        return new Inspecting(
                median(done, Round::endToEndRate),
                Medians.of(inspected.stream()
                        .mapToDouble(InspectedRound::endToEndOn)
                        .toArray()),
                Medians.of(inspected.stream().mapToDouble(InspectedRound::ratio).toArray()),
                inspected.stream().mapToInt(i -> i.settled().releases()).sum(),
                inspected.stream().mapToInt(i -> i.settled().named()).sum(),
                inspected.stream().mapToLong(i -> i.settled().bodies()).sum());
    }

    /** What every round uses: the rig, the raw write's database and catalog, the pool the raw paths run on. */
    private record Rounds(
            Rig rig,
            int pg,
            NntpServer simulator,
            ExecutorService pool,
            HikariDataSource rawDb,
            CatalogStore catalog,
            long rangeSize,
            Duration ttl) {}

    /** One round on {@code specs}: the raw fetch, the fetch and window, the raw write and end to end, one after the other. */
    private Round round(Rounds c, int number, List<NewsSimulator.GroupSpec> specs) throws Exception {
        String at = "throughput: round " + number + ", ";
        Phase fetch = measure(c.pg(), () -> inParallel(c.pool(), specs, g -> fetch(c.simulator(), g)));
        out.println(at + "raw fetch took " + fetch.took());
        Phase window = measure(c.pg(), () -> inParallel(c.pool(), specs, g -> assemble(c.simulator(), g, b -> {})));
        out.println(at + "fetch and window took " + window.took());
        Map<String, List<List<CompletedBinary>>> batches = assembleAll(c.pool(), c.simulator(), specs);
        PostgresActivity before = PostgresActivity.of(c.rig().postgres().postgresDatabase());
        Phase write = measure(
                c.pg(),
                () -> inParallel(c.pool(), specs, g -> write(c.rawDb(), c.catalog(), batches.remove(g.name()))));
        out.println(at + "raw catalog write took " + write.took() + "; postgres "
                + PostgresActivity.of(c.rig().postgres().postgresDatabase()).since(before, write.count()));
        PostgresActivity wrote = PostgresActivity.of(c.rig().postgres().postgresDatabase());
        CpuMeter.Sample start = CpuMeter.sample(c.pg());
        Rig.Indexed e2e = c.rig().indexAll(specs, c.rangeSize(), c.ttl(), Duration.ofMinutes(20));
        Phase endToEnd = new Phase(e2e.headers(), start, CpuMeter.sample(c.pg()));
        out.println(at + "end to end took " + endToEnd.took() + "; postgres "
                + PostgresActivity.of(c.rig().postgres().postgresDatabase()).since(wrote, e2e.headers()));
        Round round = new Round(fetch, window, write, endToEnd, e2e.seconds());
        out.printf(
                java.util.Locale.ROOT,
                "%sCPU us per header: end to end %.2f (postgres %.2f), raw fetch %.2f, fetch and window %.2f"
                        + " (the window's %.2f is in neither raw path), raw write %.2f (postgres %.2f);"
                        + " cpu_ratio %.2f; beyond the raw paths and the window %.2f%n",
                at,
                endToEnd.cpuUs(),
                endToEnd.postgresUs(),
                fetch.cpuUs(),
                window.cpuUs(),
                window.cpuUs() - fetch.cpuUs(),
                write.cpuUs(),
                write.postgresUs(),
                endToEnd.cpuUs() / (fetch.cpuUs() + write.cpuUs()),
                round.beyond());
        return round;
    }

    /** One path's run within a round: what it counted (headers or segments) and the CPU samples around it. */
    private record Phase(long count, CpuMeter.Sample before, CpuMeter.Sample after) {
        double rate() {
            return count / ((after.wallNanos() - before.wallNanos()) / 1e9);
        }

        double cpuUs() {
            return after.cpuSince(before) * 1e6 / count;
        }

        double postgresUs() {
            return after.postgresSince(before) * 1e6 / count;
        }

        String took() {
            return after.since(before) + "; this JVM's CPU s by thread: " + after.byThreadSince(before);
        }
    }

    /** One round of the four paths, on groups of its own. */
    private record Round(Phase fetch, Phase window, Phase write, Phase endToEnd, double seconds) {
        double endToEndRate() {
            return endToEnd.count() / seconds;
        }

        /**
         * What end to end spent per header beyond the fetch and window and the raw write: Temporal,
         * the snapshots, the coordination writes (cursor, lease, missing runs), more garbage
         * collection.
         */
        double beyond() {
            return endToEnd.cpuUs() - window.cpuUs() - write.cpuUs();
        }
    }

    @FunctionalInterface
    private interface Counted {
        long run() throws Exception;
    }

    private static Phase measure(int pg, Counted work) throws Exception {
        CpuMeter.Sample before = CpuMeter.sample(pg);
        long count = work.run();
        return new Phase(count, before, CpuMeter.sample(pg));
    }

    /** The median of {@code figure} over the rounds. */
    private static double median(List<Round> rounds, java.util.function.ToDoubleFunction<Round> figure) {
        return Medians.of(rounds.stream().mapToDouble(figure).toArray());
    }

    /** Every group's binaries as the window hands them over, one list per batch, by group (untimed). */
    private Map<String, List<List<CompletedBinary>>> assembleAll(
            ExecutorService pool, NntpServer simulator, List<NewsSimulator.GroupSpec> specs) throws Exception {
        Map<String, List<List<CompletedBinary>>> batches = new ConcurrentHashMap<>();
        inParallel(pool, specs, g -> {
            List<List<CompletedBinary>> out = new ArrayList<>();
            assemble(simulator, g, out::add);
            batches.put(g.name(), out);
            return 0;
        });
        return batches;
    }

    private List<NewsSimulator.GroupSpec> specs(String prefix, long seed, long perGroup) {
        List<NewsSimulator.GroupSpec> out = new ArrayList<>();
        for (int i = 0; i < groups; i++) {
            out.add(NewsSimulator.GroupSpec.of("alt.binaries.bench." + prefix + i, seed + i, perGroup));
        }
        return out;
    }

    private long fetch(NntpServer simulator, NewsSimulator.GroupSpec g) throws Exception {
        long lines = 0;
        try (NntpClient client = NntpClient.connect(simulator, Duration.ofSeconds(5), Duration.ofSeconds(60))) {
            client.group(g.name());
            int piece = RangeIndexer.pieceArticles(batch);
            for (long lo = 1; lo <= g.initialArticles(); lo += piece) {
                lines += client.over(lo, Math.min(g.initialArticles(), lo + piece - 1), new CountingSink());
            }
        }
        return lines;
    }

    /** Hands {@code out} a group's binaries as the indexer's window hands them over, one list per batch (fetched in the indexer's pieces); returns the headers read. */
    private long assemble(NntpServer simulator, NewsSimulator.GroupSpec g, Consumer<List<CompletedBinary>> out)
            throws Exception {
        long headers = 0;
        Window window = new Window(g.name(), Setting.WINDOW_MAX_AGE.longDefault());
        window.catalogHoldsUpTo(0); // an empty catalog, as the end-to-end run starts with
        RuleSet rules = RuleSet.defaults(0);
        try (NntpClient client = NntpClient.connect(simulator, Duration.ofSeconds(5), Duration.ofSeconds(60))) {
            client.group(g.name());
            int piece = RangeIndexer.pieceArticles(batch);
            int perBatch = (batch + piece - 1) / piece;
            long pieces = 0;
            for (long lo = 1; lo <= g.initialArticles(); lo += piece) {
                long hi = Math.min(g.initialArticles(), lo + piece - 1);
                headers += client.over(lo, hi, new CountingSink() {
                    @Override
                    public void header(OverviewLine line) {
                        window.accept(line, rules);
                    }
                });
                window.ageTo(hi);
                if (++pieces % perBatch == 0 || hi == g.initialArticles()) {
                    out.accept(window.drain());
                }
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
