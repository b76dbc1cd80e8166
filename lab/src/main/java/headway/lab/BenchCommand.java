package headway.lab;

import headway.activity.RangeIndexer;
import headway.cluster.ScaleBench;
import headway.cluster.TakeoverBench;
import headway.settings.Setting;
import headway.starter.CliException;
import headway.starter.Exit;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code headway bench <name>}: benchmarks that print their figures, the last line
 * {@code <name>: key=value ...} for scripts. Everything runs embedded and on loopback. Options
 * that mirror a setting (--batch, --range-size, --snapshot-every) default to its default in the
 * {@link Setting} catalogue.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Run a benchmark and print its figures.",
        subcommands = {
            BenchCommand.Throughput.class,
            BenchCommand.WindowCost.class,
            BenchCommand.Overhead.class,
            BenchCommand.Scale.class,
            BenchCommand.Takeover.class,
            BenchCommand.Subjects.class,
            BenchCommand.Search.class,
            BenchCommand.FrontDoor.class,
            BenchCommand.Provider.class,
            BenchCommand.Inspect.class,
            CatalogBenchCommand.class
        })
final class BenchCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(),
                "name a benchmark: throughput, overhead, scale, takeover, subjects, search, frontdoor, provider, inspect or"
                        + " catalog");
    }

    /** The catalogue's default of the setting an option mirrors, which {@code ${DEFAULT-VALUE}} shows in the help. */
    static final class SettingDefaults implements CommandLine.IDefaultValueProvider {
        private static final Map<String, Setting> MIRRORS = Map.of(
                "--batch", Setting.BATCH,
                "--range-size", Setting.RANGE_SIZE,
                "--snapshot-every", Setting.SNAPSHOT_EVERY);

        @Override
        public String defaultValue(CommandLine.Model.ArgSpec argument) {
            if (argument instanceof CommandLine.Model.OptionSpec option) {
                Setting mirrored = MIRRORS.get(option.longestName());
                return mirrored == null ? null : mirrored.defaultValue();
            }
            return null;
        }
    }

    @Command(
            name = "inspect",
            mixinStandardHelpOptions = true,
            description = "The deep index with the default schedules: obfuscated releases named from inside, the"
                    + " passworded flagged, articles read per release and seconds from a post to its real name.")
    static final class Inspect implements Runnable {
        @Spec
        CommandSpec spec;

        @Option(
                names = "--each",
                defaultValue = "2",
                description = "releases of each kind of the mixed set (default 2: 18 releases)")
        int each;

        @Option(names = "--seed", defaultValue = "41", description = "the poster's seed (default 41)")
        long seed;

        @Option(names = "--gap", defaultValue = "2s", description = "time between two posts (default 2s)")
        String gap;

        @Override
        public void run() {
            if (each < 1 || each > 20) {
                throw CliException.badInput("--each must be between 1 and 20, was " + each);
            }
            PrintWriter out = spec.commandLine().getOut();
            try {
                InspectBench.Result r = new InspectBench(
                                each,
                                seed,
                                headway.settings.Settings.parseDuration("--gap", gap),
                                Duration.ofMinutes(10),
                                out)
                        .run();
                out.println(r.line());
            } catch (IllegalArgumentException e) {
                throw CliException.badInput(e.getMessage());
            } catch (Exception e) {
                throw new CliException(Exit.FAILED, "benchmark failed: " + e, e);
            }
        }
    }

    @Command(
            name = "throughput",
            mixinStandardHelpOptions = true,
            defaultValueProvider = SettingDefaults.class,
            description = "Headers/s end to end beside the raw fetch and raw catalog write rates, measured in one run.")
    static final class Throughput implements Runnable {
        @Spec
        CommandSpec spec;

        @Option(names = "--groups", defaultValue = "4", description = "groups indexed in parallel (default 4)")
        int groups;

        @Option(names = "--articles", defaultValue = "1000000", description = "articles per group (default 1000000)")
        long articles;

        @Option(
                names = "--batch",
                description =
                        "articles per commit, for all three figures, each fetched in the indexer's pieces (default"
                                + " ${DEFAULT-VALUE}, HEADWAY_BATCH's default)")
        int batch;

        @Option(
                names = "--rounds",
                defaultValue = "3",
                description = "timed rounds, each on groups of its own; the figures are their medians (default 3)")
        int rounds;

        @Option(names = "--in-process-temporal", description = "use the in-process Temporal test server")
        boolean inProcess;

        @Option(
                names = "--inspect",
                description = "also run end to end once more per round while obfuscated releases are inspected"
                        + " (the default schedules installed, headway-inspect let loose as that phase starts),"
                        + " and print end to end with inspection off and on")
        boolean inspect;

        @Option(
                names = "--inspect-each",
                defaultValue = "4",
                description = "with --inspect, releases of each kind of the mixed set per round (default 4: 36)")
        int inspectEach;

        @Override
        public void run() {
            if (inspectEach < 1 || inspectEach > 100) {
                throw CliException.badInput("--inspect-each must be between 1 and 100, was " + inspectEach);
            }
            if (rounds < 1 || rounds > 9) {
                throw CliException.badInput("--rounds must be between 1 and 9, was " + rounds);
            }
            if (batch < 1 || batch > 100_000) {
                throw CliException.badInput("--batch must be between 1 and 100000, was " + batch);
            }
            if (groups < 1 || groups > 64) {
                throw CliException.badInput("--groups must be between 1 and 64, was " + groups);
            }
            PrintWriter out = spec.commandLine().getOut();
            try {
                ThroughputBench.Result r = new ThroughputBench(
                                groups, articles, batch, rounds, inProcess, inspect ? inspectEach : 0, out)
                        .run();
                out.printf("throughput: rate ratio (end to end / slower raw path) %.2f%n", r.ratio());
                if (r.inspecting() != null) {
                    out.println(r.inspecting().line());
                }
                out.printf(
                        java.util.Locale.ROOT,
                        "throughput: end_to_end=%.0f raw_fetch=%.0f raw_write=%.0f cpu_e2e_us=%.2f cpu_fetch_us=%.2f"
                                + " cpu_write_us=%.2f cpu_ratio=%.2f%n",
                        r.endToEnd(),
                        r.rawFetch(),
                        r.rawWrite(),
                        r.cpuE2eUs(),
                        r.cpuFetchUs(),
                        r.cpuWriteUs(),
                        r.cpuRatio());
            } catch (Exception e) {
                throw new CliException(Exit.FAILED, "benchmark failed: " + e, e);
            }
        }
    }

    @Command(
            name = "overhead",
            mixinStandardHelpOptions = true,
            defaultValueProvider = SettingDefaults.class,
            description = "Temporal's overhead per range at the default range size, from the workflow history.")
    static final class Overhead implements Runnable {
        @Spec
        CommandSpec spec;

        @Option(
                names = "--range-size",
                description = "articles per range (default ${DEFAULT-VALUE}, HEADWAY_RANGE_SIZE's default)")
        long rangeSize;

        @Option(names = "--ranges", defaultValue = "20", description = "ranges to index (default 20)")
        int ranges;

        @Option(names = "--in-process-temporal", description = "use the in-process Temporal test server")
        boolean inProcess;

        @Override
        public void run() {
            if (ranges < 2 || rangeSize < 100) {
                throw CliException.badInput("need --ranges >= 2 and --range-size >= 100");
            }
            PrintWriter out = spec.commandLine().getOut();
            try {
                OverheadBench.Result r = new OverheadBench(rangeSize, ranges, inProcess, out).run();
                out.printf(
                        "overhead: per range (median of %d): index %.1f ms, nextRange %.1f ms, dispatch %.1f ms%n",
                        r.ranges(), r.rangeMs(), r.nextRangeMs(), r.dispatchMs());
                out.printf(
                        "overhead: range_ms=%.1f temporal_ms=%.1f ratio=%.3f%n",
                        r.rangeMs(), r.temporalMs(), r.ratio());
            } catch (Exception e) {
                throw new CliException(Exit.FAILED, "benchmark failed: " + e, e);
            }
        }
    }

    @Command(
            name = "scale",
            mixinStandardHelpOptions = true,
            description =
                    "Many groups on one worker JVM against the dev server: its memory, time to caught up, history length.")
    static final class Scale implements Runnable {
        @Spec
        CommandSpec spec;

        @Option(names = "--groups", defaultValue = "1000", description = "groups (default 1000)")
        int groups;

        @Option(names = "--articles", defaultValue = "2000", description = "articles per group (default 2000)")
        long articles;

        @Option(
                names = "--max-groups",
                defaultValue = "64",
                description = "groups the worker holds at once (default 64)")
        int maxGroups;

        @Option(
                names = "--workflow-cache",
                description = "the worker's HEADWAY_WORKFLOW_CACHE (default ${DEFAULT-VALUE})")
        int workflowCache = Integer.parseInt(Setting.WORKFLOW_CACHE.defaultValue());

        @Option(
                names = "--workflow-threads",
                description = "the worker's HEADWAY_WORKFLOW_THREADS (default ${DEFAULT-VALUE})")
        int workflowThreads = Integer.parseInt(Setting.WORKFLOW_THREADS.defaultValue());

        @Override
        public void run() {
            if (groups < 1 || groups > 10_000 || maxGroups < 1) {
                throw CliException.badInput("need 1..10000 --groups and --max-groups >= 1");
            }
            try {
                Setting.WORKFLOW_CACHE.check(workflowCache);
                Setting.WORKFLOW_THREADS.check(workflowThreads);
            } catch (IllegalArgumentException e) {
                throw CliException.badInput(e.getMessage());
            }
            PrintWriter out = spec.commandLine().getOut();
            ScaleBench.Result r;
            try {
                r = new ScaleBench(groups, articles, maxGroups, workflowCache, workflowThreads, out).run();
            } catch (RuntimeException e) {
                throw new CliException(Exit.FAILED, "benchmark failed: " + e, e);
            }
            out.printf(
                    "scale: groups=%d worker_rss_mb=%d caught_up_s=%.1f max_history_events=%d%n",
                    r.groups(), r.workerRssMb(), r.caughtUpSeconds(), r.maxHistoryEvents());
        }
    }

    @Command(
            name = "takeover",
            mixinStandardHelpOptions = true,
            defaultValueProvider = SettingDefaults.class,
            description =
                    "Kill the holder of a group mid-range again and again: time to the new holder's first article, articles redone.")
    static final class Takeover implements Runnable {
        @Spec
        CommandSpec spec;

        @Option(names = "--kills", defaultValue = "10", description = "kills (default 10)")
        int kills;

        @Option(
                names = "--articles",
                description =
                        "articles in the group (default enough for every round: (kills x (snapshot-every + 1) + 2) ranges)")
        Long articles;

        @Option(
                names = "--range-size",
                description = "articles per range (default ${DEFAULT-VALUE}, HEADWAY_RANGE_SIZE's default)")
        long rangeSize;

        @Option(
                names = "--snapshot-every",
                description = "ranges between snapshots (default ${DEFAULT-VALUE}, HEADWAY_SNAPSHOT_EVERY's default)")
        int snapshotEvery;

        @Option(
                names = "--node-expiry",
                description =
                        "run the workers with the default lease TTL (30 s) and node TTL (15 s), so a killed holder's"
                                + " node row expires before its lease and frees its group; prints how soon after the row")
        boolean nodeExpiry;

        @Override
        public void run() {
            if (kills < 1 || kills > 100) {
                throw CliException.badInput("--kills must be between 1 and 100, was " + kills);
            }
            PrintWriter out = spec.commandLine().getOut();
            TakeoverBench.Result r;
            try {
                long groupArticles = articles != null ? articles : (kills * (snapshotEvery + 1L) + 2) * rangeSize;
                r = new TakeoverBench(kills, groupArticles, rangeSize, snapshotEvery, nodeExpiry, out).run();
            } catch (RuntimeException e) {
                throw new CliException(Exit.FAILED, "benchmark failed: " + e, e);
            }
            out.printf(
                    "takeover: redo articles median %d, max %d; the most a takeover can redo is snapshot-every x range-size = %d%n",
                    r.redoMedian(), r.redoMax(), snapshotEvery * rangeSize);
            out.printf(
                    "takeover: kills=%d seconds_max=%.1f seconds_median=%.1f redo_articles_max=%d ttl_s=%d",
                    r.kills(),
                    r.secondsMax(),
                    r.secondsMedian(),
                    r.redoMax(),
                    r.ttl().toSeconds());
            if (r.nodeTtl() != null) {
                out.printf(" node_ttl_s=%d row_expired_max_s=%.1f", r.nodeTtl().toSeconds(), r.rowExpiredMax());
            }
            out.println();
        }
    }

    @Command(
            name = "window",
            mixinStandardHelpOptions = true,
            description =
                    "CPU microseconds per header of the window alone (classify, assemble, age out), the work end to end"
                            + " does that neither raw path of `bench throughput` does: one group on one thread, and every group at once.")
    static final class WindowCost implements Runnable {
        @Spec
        CommandSpec spec;

        @Option(names = "--groups", defaultValue = "4", description = "groups fed at once (default 4)")
        int groups;

        @Option(
                names = "--articles",
                defaultValue = "1000000",
                description =
                        "articles per group, held in memory as overview lines (default 1000000, about 2 GB for 4 groups)")
        long articles;

        @Option(
                names = "--repetitions",
                defaultValue = "5",
                description = "counted runs after 3 warm-up runs (default 5)")
        int repetitions;

        @Override
        public void run() {
            if (groups < 1 || groups > 64) {
                throw CliException.badInput("--groups must be between 1 and 64, was " + groups);
            }
            if (articles < 1 || articles > 10_000_000) {
                throw CliException.badInput("--articles must be between 1 and 10000000, was " + articles);
            }
            if (repetitions < 1 || repetitions > 100) {
                throw CliException.badInput("--repetitions must be between 1 and 100, was " + repetitions);
            }
            PrintWriter out = spec.commandLine().getOut();
            try {
                WindowBench.Result r = new WindowBench(groups, articles, repetitions, out).run();
                out.printf(
                        java.util.Locale.ROOT,
                        "window: groups=%d headers=%d one_group_us=%.3f all_groups_us=%.3f"
                                + " allocated_bytes_per_header=%.0f snapshot_ms=%.1f snapshot_bytes=%d%n",
                        r.groups(),
                        r.headers(),
                        r.singleUs(),
                        r.parallelUs(),
                        r.allocatedBytes(),
                        r.snapshotMs(),
                        r.snapshotBytes());
            } catch (Exception e) {
                throw new CliException(Exit.FAILED, "benchmark failed: " + e, e);
            }
        }
    }

    @Command(
            name = "subjects",
            mixinStandardHelpOptions = true,
            description =
                    "Microseconds to classify one subject with the shipped rules: the mean over real-shaped subjects and the worst"
                            + " over crafted subjects of up to 1,000 characters built to stall a backtracking matcher.")
    static final class Subjects implements Runnable {
        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            PrintWriter out = spec.commandLine().getOut();
            SubjectBench.Result r = new SubjectBench(out).run();
            out.printf(
                    java.util.Locale.ROOT,
                    "subjects: per_parse_us=%.2f worst_us=%.2f crafted=%d%n",
                    r.meanMicros(),
                    r.worstMicros(),
                    r.crafted());
        }
    }

    @Command(
            name = "search",
            mixinStandardHelpOptions = true,
            description = "Milliseconds per search (words, phrases, categories, newest first, paging) on a catalog of"
                    + " synthetic releases bulk-loaded into embedded PostgreSQL.")
    static final class Search implements Runnable {
        @Spec
        CommandSpec spec;

        @Option(names = "--releases", defaultValue = "2000000", description = "releases loaded (default 2000000)")
        int releases;

        @Option(names = "--queries", defaultValue = "500", description = "timed searches (default 500)")
        int queries;

        @Option(
                names = "--shared-buffers",
                defaultValue = "2GB",
                description = "PostgreSQL's shared_buffers for the run (default 2GB, room for 2,000,000 releases with"
                        + " their indexes; the embedded default is 128MB)")
        String sharedBuffers;

        @Option(
                names = "--data-dir",
                description = "keep PostgreSQL's data directory here; a run that finds the catalog of --releases a"
                        + " previous run loaded there measures it without loading it again (default: a temporary"
                        + " directory, deleted)")
        java.nio.file.Path dataDir;

        @Override
        public void run() {
            if (releases < 1_000 || releases > 50_000_000) {
                throw CliException.badInput("--releases must be between 1000 and 50000000, was " + releases);
            }
            if (queries < 10 || queries > 100_000) {
                throw CliException.badInput("--queries must be between 10 and 100000, was " + queries);
            }
            if (!sharedBuffers.matches("[0-9]{1,6}(kB|MB|GB)")) {
                throw CliException.badInput(
                        "--shared-buffers must be a size like 128MB or 1GB, was '" + sharedBuffers + "'");
            }
            PrintWriter out = spec.commandLine().getOut();
            SearchBench.Result r;
            try {
                r = new SearchBench(releases, queries, sharedBuffers, out, dataDir).run();
            } catch (Exception e) {
                throw new CliException(Exit.FAILED, "benchmark failed: " + e, e);
            }
            out.printf(
                    java.util.Locale.ROOT,
                    "search: releases=%d p50_ms=%.1f p95_ms=%.1f queries=%d%n",
                    r.releases(),
                    r.p50Ms(),
                    r.p95Ms(),
                    r.queries());
        }
    }

    @Command(
            name = "frontdoor",
            mixinStandardHelpOptions = true,
            description = "Keyed API searches and /health while hostile clients without a key flood `serve` (a JVM of"
                    + " its own, the catalogue's limits) on loopback from many addresses, over a catalog of synthetic"
                    + " releases: the keyed and health p95, the hostile rate, the 5xx answers.")
    static final class FrontDoor implements Runnable {
        @Spec
        CommandSpec spec;

        @Option(names = "--releases", defaultValue = "2000000", description = "releases loaded (default 2000000)")
        int releases;

        @Option(
                names = "--shared-buffers",
                defaultValue = "2GB",
                description = "PostgreSQL's shared_buffers (default 2GB, as bench search)")
        String sharedBuffers;

        @Option(
                names = "--hostile-threads",
                defaultValue = "16",
                description = "hostile clients sending without pause (default 16)")
        int hostileThreads;

        @Option(
                names = "--sources",
                defaultValue = "16",
                description = "loopback addresses the hostile clients come from, 127.0.0.10 and up (default 16)")
        int sources;

        @Option(
                names = "--keyed-threads",
                defaultValue = "2",
                description = "keyed clients, each pausing 20 ms between searches (default 2)")
        int keyedThreads;

        @Option(
                names = "--requests",
                defaultValue = "100000",
                description = "hostile requests at most (default 100000)")
        long requests;

        @Option(names = "--seconds", defaultValue = "60", description = "how long at most, s (default 60)")
        int seconds;

        @Option(
                names = "--hostile-nice",
                defaultValue = "19",
                description =
                        "the hostile threads' nice value, so they take the cores only when serve leaves them idle,"
                                + " as an attacker's machine would not share them at all; 0 runs them as they are (default 19)")
        int hostileNice;

        @Option(
                names = "--set",
                description = "a setting for serve, laid over the catalogue's defaults (HEADWAY_X=value; repeatable)")
        Map<String, String> serveEnv = new java.util.LinkedHashMap<>();

        @Override
        public void run() {
            if (releases < 1_000 || releases > 50_000_000) {
                throw CliException.badInput("--releases must be between 1000 and 50000000, was " + releases);
            }
            if (!sharedBuffers.matches("[0-9]{1,6}(kB|MB|GB)")) {
                throw CliException.badInput(
                        "--shared-buffers must be a size like 128MB or 1GB, was '" + sharedBuffers + "'");
            }
            if (hostileThreads < 1 || hostileThreads > 256 || sources < 1 || sources > 200) {
                throw CliException.badInput("--hostile-threads must be 1..256 and --sources 1..200");
            }
            if (hostileNice < 0 || hostileNice > 19) {
                throw CliException.badInput("--hostile-nice must be between 0 and 19, was " + hostileNice);
            }
            if (keyedThreads < 1 || keyedThreads > 64) {
                throw CliException.badInput("--keyed-threads must be between 1 and 64, was " + keyedThreads);
            }
            if (requests < 1 || requests > 10_000_000 || seconds < 1 || seconds > 3600) {
                throw CliException.badInput("--requests must be 1..10000000 and --seconds 1..3600");
            }
            for (String k : serveEnv.keySet()) {
                if (!k.startsWith("HEADWAY_")) {
                    throw CliException.badInput("--set takes HEADWAY_X=value, was " + k);
                }
            }
            PrintWriter out = spec.commandLine().getOut();
            FrontDoorBench.Result r;
            try {
                r = new FrontDoorBench(
                                new FrontDoorBench.Options(
                                        releases,
                                        sharedBuffers,
                                        hostileThreads,
                                        sources,
                                        keyedThreads,
                                        java.time.Duration.ofMillis(20),
                                        java.time.Duration.ofMillis(50),
                                        requests,
                                        java.time.Duration.ofSeconds(10),
                                        java.time.Duration.ofSeconds(seconds),
                                        java.time.Duration.ofSeconds(15),
                                        hostileNice,
                                        serveEnv),
                                out)
                        .run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CliException(Exit.FAILED, "benchmark interrupted", e);
            } catch (Exception e) {
                throw new CliException(Exit.FAILED, "benchmark failed: " + e, e);
            }
            out.printf(
                    java.util.Locale.ROOT,
                    "frontdoor: hostile_rps=%.0f keyed_p95_ms=%.1f health_p95_ms=%.1f errors_5xx=%d%n",
                    r.hostileRps(),
                    r.keyedP95Ms(),
                    r.healthP95Ms(),
                    r.errors5xx());
        }
    }

    @Command(
            name = "provider",
            mixinStandardHelpOptions = true,
            description =
                    "Headers/s of reading one large group's overview behind a slow link (a proxy adding a round-trip"
                            + " time and a bandwidth cap per connection) at several connection counts, with and without COMPRESS"
                            + " DEFLATE, beside the bound the link allows; then the two-provider availability case.")
    static final class Provider implements Runnable {
        @Spec
        CommandSpec spec;

        @Option(names = "--rtt-ms", defaultValue = "40", description = "round-trip time added, ms (default 40)")
        int rttMs;

        @Option(
                names = "--mbit",
                defaultValue = "8",
                description = "bandwidth per connection and direction, Mbit/s (default 8)")
        double mbit;

        @Option(
                names = "--conns",
                defaultValue = "1,4,8",
                split = ",",
                description = "connection counts, comma-separated (default 1,4,8)")
        List<Integer> conns;

        @Option(
                names = "--batch",
                description = "articles per OVER command (default " + RangeIndexer.MAX_PIECE
                        + ", the most the indexer asks for in one)")
        int batch = RangeIndexer.MAX_PIECE;

        @Option(
                names = "--seconds",
                defaultValue = "10",
                description = "about how long each case reads at the link's rate, s (default 10: at 2 the last"
                        + " round of batches leaves connections idle and the ratio measures that)")
        double seconds;

        @Option(
                names = "--inn",
                description =
                        "read from the INN reader on 127.0.0.1:1119 (tools/nntp-peer.sh, as root) instead of the news"
                                + " simulator, in a group the benchmark fills by streaming to INN's feed port 1120;"
                                + " the two-provider availability case runs on INN and a second INN (1129/1130)")
        boolean inn;

        @Option(
                names = "--xfeature",
                description =
                        "compress over XFEATURE COMPRESS GZIP (overview replies only) instead of RFC 8054 COMPRESS"
                                + " DEFLATE; the news simulator serves both")
        boolean xfeature;

        @Option(
                names = "--inn-articles",
                defaultValue = "100000",
                description = "articles the INN group holds at least, fed when fewer (default 100000, at most"
                        + " 200000; a case that wants more reads the group in laps)")
        int innArticles;

        @Option(
                names = "--availability-segments",
                defaultValue = "1000",
                description = "segments of each release of the two-provider availability case, which takes known"
                        + " articles down from one provider and checks every release there with STAT (default 1000)")
        int availabilitySegments;

        @Override
        public void run() {
            if (availabilitySegments < 40 || availabilitySegments > 100_000) {
                throw CliException.badInput(
                        "--availability-segments must be between 40 and 100000, was " + availabilitySegments);
            }
            if (rttMs < 0 || rttMs > 2000) {
                throw CliException.badInput("--rtt-ms must be between 0 and 2000, was " + rttMs);
            }
            if (!(mbit >= 0.1 && mbit <= 10_000)) {
                throw CliException.badInput("--mbit must be between 0.1 and 10000, was " + mbit);
            }
            if (conns.isEmpty() || conns.stream().anyMatch(n -> n < 1 || n > 64)) {
                throw CliException.badInput("--conns must list connection counts between 1 and 64, was " + conns);
            }
            if (batch < 1 || batch > 100_000) {
                throw CliException.badInput("--batch must be between 1 and 100000, was " + batch);
            }
            if (!(seconds > 0 && seconds <= 600)) {
                throw CliException.badInput("--seconds must be between 0 and 600, was " + seconds);
            }
            if (innArticles < 1 || innArticles > 200_000) {
                // INN's timecaf spool (tools/nntp-peer.sh) fails, and innd with it, once one CAF file holds
                // 262,144 articles, and a feed this fast puts them all in one
                throw CliException.badInput("--inn-articles must be between 1 and 200000 (INN's timecaf spool takes"
                        + " at most 262144 articles at once; the cases read the group in laps), was " + innArticles);
            }
            if (inn && xfeature) {
                throw CliException.badInput("--xfeature reads from the news simulator; INN serves only RFC 8054:"
                        + " drop --inn or --xfeature");
            }
            PrintWriter out = spec.commandLine().getOut();
            ProviderBench bench =
                    new ProviderBench(java.time.Duration.ofMillis(rttMs), mbit, conns, batch, seconds, out);
            try {
                if (inn) {
                    bench.run(InnFeed.prepare(innArticles, out));
                } else {
                    bench.runOnSimulator(xfeature);
                }
                AvailabilityBench availability = new AvailabilityBench(availabilitySegments, out);
                if (inn) {
                    availability.run(InnFeed.availabilityPair());
                } else {
                    availability.run();
                }
            } catch (CliException e) {
                throw e;
            } catch (Exception e) {
                throw new CliException(Exit.FAILED, "benchmark failed: " + e, e);
            }
        }
    }
}
