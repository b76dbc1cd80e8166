package headway.lab;

import headway.activity.Planner;
import headway.catalog.Stores;
import headway.coordination.StatusStore;
import headway.settings.Setting;
import headway.settings.Settings;
import headway.simulator.NewsSimulator;
import headway.starter.CliException;
import headway.starter.Exit;
import headway.store.Database;
import headway.web.FrontDoor;
import headway.web.ServeConfig;
import headway.worker.HeadwayWorker;
import headway.worker.Schedules;
import headway.workflow.GroupState;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code headway demo}: the whole pipeline on a {@link Rig}: embedded PostgreSQL, the Temporal
 * CLI's dev server with its Web UI (the in-process test server when there is no {@code temporal}
 * binary, or with {@code --in-process-temporal}), the news simulator and a worker in this JVM. It
 * prints the Web UI's address, adds demo groups, plans them from the simulator's marks, starts
 * their workflows and the schedules, shows their progress live, and when every group is caught up
 * writes an NZB and prints its summary line. Ctrl-C (SIGINT) or SIGTERM stops it at any time, in
 * the reverse order it started ({@link StopSignals}): the front door, the worker (drained, its
 * groups handed back, its node row deleted), Temporal, the simulator, PostgreSQL.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Run the whole pipeline on embedded defaults, then stop.")
final class DemoCommand implements Runnable {

    /** Short TTLs, so that the demo's schedules and status show a takeover within seconds. */
    private static final Map<String, String> WORKER = Map.of(
            Setting.NODE_ID.key(), "demo-worker",
            Setting.LEASE_TTL.key(), "10s",
            Setting.NODE_TTL.key(), "10s",
            Setting.NODE_HEARTBEAT.key(), "3s",
            Setting.PLAN_EVERY.key(), "20s",
            Setting.WATCH_EVERY.key(), "10s");

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

    @Option(
            names = "--serve",
            description = "then serve the newznab API and the search page on the demo catalog until Ctrl-C")
    boolean serve;

    @Option(
            names = "--port",
            defaultValue = "0",
            description = "the port of --serve (default 0: a free one; the demo line shows it)")
    int port;

    @Option(names = "--timeout", defaultValue = "10m", description = "give up when not caught up by then (default 10m)")
    String timeout;

    @Option(
            names = "--in-process-temporal",
            description = "use the in-process Temporal test server even when a temporal binary is found")
    boolean inProcess;

    private Rig rig;
    private Stores serving;
    private FrontDoor door;
    private volatile boolean stopping;

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
        Thread hook = new Thread(this::closeRig, "demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try (StopSignals signals = StopSignals.install(signal -> stop(o, signal))) {
            runDemo(o, limit);
        } catch (RuntimeException e) {
            if (stopping) {
                awaitExit(); // a signal is stopping the rig under this thread, and exits when it is done
            }
            throw e;
        } finally {
            closeRig();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is already stopping: the hook closes the rig, which is idempotent
            }
        }
    }

    private void runDemo(PrintWriter o, Duration limit) {
        long t0 = System.nanoTime();
        List<NewsSimulator.GroupSpec> specs = new ArrayList<>();
        for (int i = 0; i < groups; i++) {
            specs.add(NewsSimulator.GroupSpec.of(
                    "alt.binaries.demo." + (char) ('a' + i % 26) + (i >= 26 ? i : ""), 1000 + i, articles));
        }
        o.println("demo: starting embedded PostgreSQL, the news simulator and Temporal ...");
        Rig started;
        try {
            started = Rig.builder()
                    .groups(specs)
                    .webUi()
                    .temporal(inProcess ? TemporalServer.Kind.IN_PROCESS : TemporalServer.Kind.DEV_SERVER_OR_IN_PROCESS)
                    .say(msg -> o.println("demo: " + msg))
                    .start();
        } catch (IllegalStateException e) {
            throw new CliException(Exit.FAILED, "the demo could not start: " + e.getMessage(), e);
        }
        synchronized (this) {
            rig = started;
        }
        WORKER.forEach(rig::workerEnv);
        o.println("demo: database " + rig.dbUrl());
        o.println("demo: news simulator on " + rig.simulator().host() + ":"
                + rig.simulator().port() + " with " + groups + " groups of " + articles + " articles");
        TemporalServer temporal = rig.temporal();
        if (temporal.uiUrl() != null) {
            o.println("demo: web ui " + temporal.uiUrl() + "/namespaces/default/workflows");
        }

        HeadwayWorker worker = rig.startWorker(Map.of(Setting.MAX_GROUPS.key(), Integer.toString(groups)));
        for (NewsSimulator.GroupSpec g : specs) {
            Planner.Planned p = rig.addAndPlan(g.name(), rangeSize);
            o.printf(
                    "demo: planned %s articles %d..%d: %d tail + %d history ranges%n",
                    g.name(), p.low(), p.high(), p.tailRanges(), p.historyRanges());
        }
        for (NewsSimulator.GroupSpec g : specs) {
            rig.startGroup(rig.groupConfig(g.name(), worker.config().leaseTtl(), 3, Duration.ofMinutes(1)));
        }
        if (temporal.hasSchedules()) {
            for (Schedules.Installed s : rig.installSchedules(Schedules.Intervals.fromEnv(rig.env()))) {
                o.println("demo: schedule " + s.id() + " every " + Settings.show(s.every()));
            }
        } else {
            o.println(
                    "demo: the in-process Temporal server has no Schedules; planner, watchman and prune are not scheduled");
        }

        StatusStore status = new StatusStore(rig.dataSource());
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
            for (StatusStore.GroupStatus g : status.groups(worker.config().leaseTtl())) {
                GroupState state = GroupStates.state(rig.client(), g.name());
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
        DemoSummary summary = DemoSummary.write(rig, out);
        o.printf(
                "demo: caught up in %.1f s; %d binaries, %d releases in the catalog%n",
                (System.nanoTime() - t0) / 1e9, summary.binaries(), summary.releases());
        o.printf(
                "demo: groups=%d articles=%d releases=%d nzb=%s%n",
                groups,
                summary.articles(),
                summary.releases(),
                summary.nzb() == null ? "-" : summary.nzb().toAbsolutePath());
        if (serve) {
            serve(o);
            sleep(Duration.ofDays(365));
        }
    }

    /** Starts {@code serve} on the demo catalog with a fresh key and prints the line scripts read. */
    private void serve(PrintWriter o) {
        if (port < 0 || port > 65_535) {
            throw CliException.badInput("--port must be between 0 and 65535, was " + port);
        }
        synchronized (this) {
            serving = Stores.open(
                    new Database.Settings(rig.dbUrl(), "postgres", null, 8, Duration.ofSeconds(10)), "demo-serve");
            String key = serving.apiKeys().add("demo-" + Long.toHexString(System.nanoTime()), null, null);
            try {
                // the demo's page offers its NZBs without a key (a deployment's default is off): it
                // serves loopback only, to the person who started it
                ServeConfig.Limits limits =
                        ServeConfig.Limits.defaults().withPageNzb(true, Setting.HTTP_PAGE_NZB_PER_DAY.intDefault());
                door = FrontDoor.start(
                        serving,
                        new ServeConfig("127.0.0.1", port, true, "headway demo", null, limits),
                        HeadwayWorker.newRegistry());
            } catch (IllegalStateException e) {
                throw CliException.badInput(e.getMessage());
            }
            String base = "http://127.0.0.1:" + door.port();
            o.println("demo: api=" + base + "/api apikey=" + key + " web=" + base + "/");
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(Exit.FAILED, "interrupted");
        }
    }

    /** Stops everything on a signal, newest first, saying so; the signal's handler then exits. */
    private void stop(PrintWriter o, String signal) {
        stopping = true;
        o.println("demo: stopping (" + signal + "): serve, worker, Temporal, simulator, PostgreSQL ...");
        closeRig();
        o.println("demo: stopped");
    }

    private static void awaitExit() {
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops the rig (worker, Temporal, simulator, PostgreSQL), once. An interrupted thread (the demo
     * thread of a caller that stops it with {@link Thread#interrupt()}) closes it too: its flag is
     * cleared while the rig closes and set again after, because the worker's and the test server's
     * shutdowns wait for their threads, and an interrupted wait returns at once and left the
     * Temporal pollers running.
     */
    private synchronized void closeRig() {
        boolean interrupted = Thread.interrupted();
        try {
            if (door != null) {
                door.close();
                door = null;
            }
            if (serving != null) {
                serving.close();
                serving = null;
            }
            if (rig != null) {
                rig.close();
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
