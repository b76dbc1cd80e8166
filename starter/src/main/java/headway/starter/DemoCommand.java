package headway.starter;

import com.zaxxer.hikari.HikariDataSource;
import headway.activity.HeaderSource;
import headway.activity.NntpHeaderSource;
import headway.activity.Planner;
import headway.nntp.NewsSimulator;
import headway.nntp.NntpPool;
import headway.store.Database;
import headway.store.EmbeddedDatabase;
import headway.store.GroupStore;
import headway.store.StatusStore;
import headway.worker.HeadwayWorker;
import headway.worker.Settings;
import headway.worker.WorkerConfig;
import headway.workflow.GroupConfig;
import headway.workflow.GroupState;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code headway demo}: the whole pipeline on embedded defaults. It starts PostgreSQL (embedded),
 * Temporal (the CLI's dev server when a {@code temporal} binary is found, else the in-process test
 * server), the news simulator and a worker; adds demo groups, plans them from the simulator's
 * marks, starts their workflows, shows their progress live, and when every group is caught up
 * writes an NZB and prints its summary line. Ctrl-C stops it cleanly at any time.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Run the whole pipeline on embedded defaults, then stop.")
final class DemoCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = "--groups", defaultValue = "3", description = "demo groups (default 3)")
    int groups;

    @Option(names = "--articles", defaultValue = "20000", description = "articles per demo group (default 20000)")
    long articles;

    @Option(names = "--range-size", defaultValue = "2000", description = "articles per range (default 2000)")
    long rangeSize;

    @Option(names = "--out", defaultValue = "demo-out", description = "where the NZB goes (default ./demo-out)")
    Path out;

    @Option(names = "--serve", description = "keep running after the groups are caught up (Ctrl-C stops)")
    boolean serve;

    @Option(names = "--timeout", defaultValue = "10m", description = "give up when not caught up by then (default 10m)")
    String timeout;

    @Option(
            names = "--in-process-temporal",
            description = "use the in-process Temporal test server even when a temporal binary is found")
    boolean inProcess;

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    @Override
    public void run() {
        if (groups < 1 || groups > 100) {
            throw CliException.badInput("--groups must be between 1 and 100, was " + groups);
        }
        if (articles < 100 || articles > 10_000_000) {
            throw CliException.badInput("--articles must be between 100 and 10000000, was " + articles);
        }
        Duration limit = Settings.parseDuration("--timeout", timeout);
        PrintWriter o = spec.commandLine().getOut();
        Thread hook = new Thread(this::closeAll, "demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            runDemo(o, limit);
        } finally {
            closeAll();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is already stopping: the hook runs closeAll, which is idempotent
            }
        }
    }

    private void runDemo(PrintWriter o, Duration limit) {
        long t0 = System.nanoTime();
        o.println("demo: starting embedded PostgreSQL ...");
        EmbeddedDatabase postgres = EmbeddedDatabase.start(null);
        opened.push(postgres);
        String url = postgres.createDatabase("headway");
        HikariDataSource ds =
                Database.pool(new Database.Settings(url, "postgres", null, 20, Duration.ofSeconds(10)), "demo");
        opened.push(ds);
        Database.migrate(ds);

        List<NewsSimulator.GroupSpec> specs = new ArrayList<>();
        for (int i = 0; i < groups; i++) {
            specs.add(NewsSimulator.GroupSpec.of(
                    "alt.binaries.demo." + (char) ('a' + i % 26) + (i >= 26 ? i : ""), 1000 + i, articles));
        }
        NewsSimulator simulator;
        try {
            simulator = NewsSimulator.start(NewsSimulator.Options.defaults(), specs);
        } catch (java.io.IOException e) {
            throw new CliException(Exit.FAILED, "cannot start the news simulator: " + e.getMessage(), e);
        }
        opened.push(simulator);
        o.println("demo: news simulator on 127.0.0.1:" + simulator.port() + " with " + groups + " groups of " + articles
                + " articles");

        TemporalServer temporal = TemporalServer.startForDemo(inProcess, msg -> o.println("demo: " + msg));
        opened.push(temporal);

        Map<String, String> env = new HashMap<>();
        env.put("HEADWAY_DB_URL", url);
        env.put("HEADWAY_DB_USER", "postgres");
        env.put("HEADWAY_TEMPORAL", temporal.target());
        env.put("HEADWAY_NNTP_HOST", "127.0.0.1");
        env.put("HEADWAY_NNTP_PORT", Integer.toString(simulator.port()));
        env.put("HEADWAY_NODE_ID", "demo-worker");
        env.put("HEADWAY_METRICS_PORT", "0");
        env.put("HEADWAY_LEASE_TTL", "10s");
        env.put("HEADWAY_NODE_TTL", "10s");
        env.put("HEADWAY_NODE_HEARTBEAT", "3s");
        env.put("HEADWAY_MAX_GROUPS", Integer.toString(Math.max(groups, 1)));
        WorkerConfig config = WorkerConfig.fromEnv(env);
        HeadwayWorker worker = HeadwayWorker.start(config, temporal.client(), ds, HeadwayWorker.newRegistry());
        opened.push(worker);

        GroupStore groupStore = new GroupStore(ds);
        try (NntpPool pool = new NntpPool(HeadwayWorker.nntpConfig(config.nntp()))) {
            HeaderSource source = new NntpHeaderSource(pool);
            Planner planner = new Planner(groupStore, source, new Planner.Settings(rangeSize, Long.MAX_VALUE / 4));
            for (NewsSimulator.GroupSpec g : specs) {
                groupStore.add(g.name(), 0);
                Planner.Planned p = planner.plan(g.name());
                o.printf(
                        "demo: planned %s articles %d..%d: %d tail + %d history ranges%n",
                        g.name(), p.low(), p.high(), p.tailRanges(), p.historyRanges());
            }
        } catch (java.io.IOException e) {
            throw new CliException(Exit.FAILED, "planning from the simulator failed: " + e.getMessage(), e);
        }
        for (NewsSimulator.GroupSpec g : specs) {
            GroupConfig gc = new GroupConfig(
                    g.name(),
                    config.leaseTtl(),
                    3,
                    Duration.ofMinutes(1),
                    5,
                    GroupConfig.DEFAULT_HISTORY_EVENT_BUDGET,
                    config.taskQueue());
            GroupStarter.start(temporal.client(), gc);
        }
        if (temporal.hasSchedules()) {
            Map<String, String> scheduleEnv = new HashMap<>(env);
            scheduleEnv.put("HEADWAY_PLAN_EVERY", "20s");
            scheduleEnv.put("HEADWAY_WATCH_EVERY", "10s");
            for (headway.worker.Schedules.Installed s : headway.worker.Schedules.install(
                    temporal.client(), config.taskQueue(), headway.worker.Schedules.Intervals.fromEnv(scheduleEnv))) {
                o.println("demo: schedule " + s.id() + " every " + Settings.show(s.every()));
            }
        } else {
            o.println(
                    "demo: the in-process Temporal server has no Schedules; planner, watchman and prune are not scheduled");
        }
        if (temporal.uiUrl() != null) {
            o.println("demo: Web UI: " + temporal.uiUrl() + "/namespaces/default/workflows?query="
                    + java.net.URLEncoder.encode(
                                    "HeadwayGroup STARTS_WITH \"alt.binaries.demo\"",
                                    java.nio.charset.StandardCharsets.UTF_8)
                            .replace("+", "%20"));
        }

        StatusStore status = new StatusStore(ds);
        long deadline = System.nanoTime() + limit.toNanos();
        boolean caughtUp = false;
        while (!caughtUp) {
            if (System.nanoTime() > deadline) {
                throw new CliException(
                        Exit.FAILED,
                        "the demo groups were not caught up within " + limit
                                + "; see `headway status` or the worker log above");
            }
            sleep(Duration.ofSeconds(2));
            caughtUp = true;
            StringBuilder line = new StringBuilder("demo:");
            for (StatusStore.GroupStatus g : status.groups(config.leaseTtl())) {
                GroupState state = GroupStates.state(temporal.client(), g.name());
                line.append(String.format(
                        " | %s cursor=%s lag=%d %.0f/s %s",
                        g.name().substring("alt.binaries.".length()),
                        g.cursor() == null ? "end" : g.cursor(),
                        g.lag(),
                        g.articlesPerSecond(),
                        state));
                caughtUp &= g.lag() == 0 && g.leased() == 0 && state == GroupState.IDLE;
            }
            o.println(line);
        }
        DemoSummary summary = DemoSummary.write(ds, out);
        o.printf(
                "demo: caught up in %.1f s; %d binaries, %d releases in the catalog%n",
                (System.nanoTime() - t0) / 1e9, summary.binaries(), summary.releases());
        if (serve) {
            o.println("demo: serving (--serve); Ctrl-C stops");
            sleep(Duration.ofDays(365));
        }
        o.printf(
                "demo: groups=%d articles=%d releases=%d nzb=%s%n",
                groups,
                summary.articles(),
                summary.releases(),
                summary.nzb() == null ? "-" : summary.nzb().toAbsolutePath());
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(Exit.FAILED, "interrupted");
        }
    }

    /** Closes what the demo opened, newest first, once. */
    private synchronized void closeAll() {
        while (!opened.isEmpty()) {
            AutoCloseable c = opened.pop();
            try {
                c.close();
            } catch (Exception e) {
                System.err.println("demo: closing " + c.getClass().getSimpleName() + ": " + e);
            }
        }
    }

    static Path ensureDir(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw CliException.badInput(
                    "cannot create " + dir + ": " + e.getMessage() + " (give --out a writable directory)");
        }
    }
}
