package headway.cluster;

import com.zaxxer.hikari.HikariDataSource;
import headway.activity.Planner;
import headway.lab.Rig;
import headway.lab.TemporalServer;
import headway.settings.Setting;
import headway.simulator.NewsSimulator;
import headway.starter.Headway;
import headway.worker.Schedules;
import io.temporal.client.WorkflowClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The cross-process bed for tests, benchmarks and chaos runs: a {@link Rig} on the real Temporal
 * dev server (embedded PostgreSQL whose data lives under the cluster's directory so it can be
 * restarted, the news simulator, the dev server with one partition per task queue and headway's
 * search attributes), and worker JVMs as child processes, {@code headway worker} on this JVM's
 * class path, configured only by HEADWAY_* variables with short TTLs, each logging to a file
 * under target/cluster/. {@link #close()} kills every child it started (thawing frozen ones
 * first) even when the run failed, and a shutdown hook does the same when this JVM itself is
 * stopped. Everything listens on loopback.
 */
public final class Cluster implements AutoCloseable {

    /** The TTLs every worker gets unless a test overrides them. */
    public static final Duration LEASE_TTL = Duration.ofSeconds(5);

    public static final Duration NODE_TTL = Duration.ofSeconds(3);

    private static final Duration WORKER_READY = Duration.ofSeconds(60);

    /** What every child worker gets besides the rig's own environment: short TTLs, small pools. */
    private static final Map<String, String> WORKER = Map.of(
            Setting.DB_POOL.key(), "5",
            Setting.NNTP_CONNECTIONS.key(), "2",
            Setting.ADVERTISE.key(), "127.0.0.1:0",
            Setting.LEASE_TTL.key(), LEASE_TTL.toSeconds() + "s",
            Setting.NODE_TTL.key(), NODE_TTL.toSeconds() + "s",
            Setting.NODE_HEARTBEAT.key(), "1s",
            Setting.ACTIVITY_CONCURRENCY.key(), "4");

    private final Path dir;
    private final Map<String, Worker> workers = new LinkedHashMap<>();
    private final Thread hook = new Thread(this::killAll, "cluster-cleanup");
    private Rig rig;

    /** A worker child process and its log. */
    public record Worker(String id, Process process, Path log) {
        public long pid() {
            return process.pid();
        }
    }

    /** What a CLI call printed and returned. */
    public record CliResult(int exit, String out, String err) {}

    private Cluster(String name) {
        this.dir =
                Paths.get(System.getProperty("user.dir"), "target", "cluster", name + "-" + System.currentTimeMillis());
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Starts PostgreSQL, the simulator with {@code groups} and the Temporal dev server; closes what started when one fails. */
    public static Cluster start(String name, List<NewsSimulator.GroupSpec> groups) {
        return start(name, groups, NewsSimulator.Options.defaults());
    }

    /** As {@link #start(String, List)}, with the simulator's options (e.g. a latency per OVER). */
    public static Cluster start(
            String name, List<NewsSimulator.GroupSpec> groups, NewsSimulator.Options simulatorOptions) {
        Cluster c = new Cluster(name);
        try {
            c.rig = Rig.builder()
                    .groups(groups)
                    .simulatorOptions(simulatorOptions)
                    .postgresDir(c.dir.resolve("postgres"))
                    .poolSize(4)
                    .temporal(TemporalServer.Kind.DEV_SERVER)
                    .temporalLog(c.dir.resolve("temporal-dev.log"))
                    .start();
            WORKER.forEach(c.rig::workerEnv);
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw new IllegalStateException("cluster " + name + " did not start: " + e.getMessage(), e);
        }
    }

    public Path dir() {
        return dir;
    }

    public Rig rig() {
        return rig;
    }

    public NewsSimulator simulator() {
        return rig.simulator();
    }

    public TemporalServer temporal() {
        return rig.temporal();
    }

    public WorkflowClient client() {
        return rig.client();
    }

    public HikariDataSource dataSource() {
        return rig.dataSource();
    }

    public String dbUrl() {
        return rig.dbUrl();
    }

    /** Sets a HEADWAY_* variable for every worker started from now on. */
    public Cluster workerEnv(String name, String value) {
        rig.workerEnv(name, value);
        return this;
    }

    /** The environment a worker gets (and what the schedules installer reads intervals from). */
    public Map<String, String> env() {
        return rig.env();
    }

    // ------------------------------------------------------------------ worker processes

    /** Starts {@code headway worker} as node {@code id} and waits until it polls. */
    public Worker startWorker(String id) {
        return startWorker(id, Map.of());
    }

    /** Starts a worker with extra JVM options (they come after the defaults, so e.g. -Xmx1g wins). */
    public Worker startWorker(String id, List<String> jvmOptions) {
        return startWorker(id, Map.of(), jvmOptions);
    }

    public Worker startWorker(String id, Map<String, String> extraEnv) {
        return startWorker(id, extraEnv, List.of());
    }

    /**
     * Starts a worker whose class path begins with {@code classesFirst}: classes there replace this
     * JVM's own (an upgrade test runs a second build of the workflow code this way).
     */
    public Worker startWorker(String id, Map<String, String> extraEnv, Path classesFirst) {
        return startWorker(id, extraEnv, List.of(), classesFirst + java.io.File.pathSeparator);
    }

    private Worker startWorker(String id, Map<String, String> extraEnv, List<String> jvmOptions) {
        return startWorker(id, extraEnv, jvmOptions, "");
    }

    private Worker startWorker(
            String id, Map<String, String> extraEnv, List<String> jvmOptions, String classPathPrefix) {
        if (workers.containsKey(id) && workers.get(id).process().isAlive()) {
            throw new IllegalStateException("worker " + id + " is already running");
        }
        Path log = dir.resolve("worker-" + id + (workers.containsKey(id) ? "-" + System.nanoTime() : "") + ".log");
        List<String> cmd =
                new ArrayList<>(List.of(javaBinary(), "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", classPathPrefix + System.getProperty("java.class.path")));
        var logback = Cluster.class.getClassLoader().getResource("logback.xml");
        if (logback != null) {
            cmd.add("-Dlogback.configurationFile=" + logback);
        }
        cmd.addAll(List.of(Headway.class.getName(), "worker"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("HEADWAY_"));
        pb.environment().putAll(rig.env());
        pb.environment().put(Setting.NODE_ID.key(), id);
        pb.environment().putAll(extraEnv);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start worker " + id, e);
        }
        Worker w = new Worker(id, p, log);
        workers.put(id, w);
        long deadline = System.nanoTime() + WORKER_READY.toNanos();
        while (!read(log).contains("worker " + id + " running")) {
            if (!p.isAlive()) {
                throw new IllegalStateException(
                        "worker " + id + " exited with " + p.exitValue() + " before it ran:\n" + tail(id, 40));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "worker " + id + " not running after " + WORKER_READY + ":\n" + tail(id, 40));
            }
            sleep(100);
        }
        return w;
    }

    public Worker worker(String id) {
        Worker w = workers.get(id);
        if (w == null) {
            throw new IllegalArgumentException("no worker " + id + " was started");
        }
        return w;
    }

    /** SIGKILL: the worker gets no chance to hand back or deregister. */
    public void kill9(String id) {
        Process p = worker(id).process();
        p.destroyForcibly();
        waitFor(p, Duration.ofSeconds(10), id);
    }

    /** SIGTERM, then waits for the clean shutdown; returns the exit code. */
    public int stop(String id) {
        Process p = worker(id).process();
        p.destroy();
        waitFor(p, Duration.ofSeconds(30), id);
        return p.exitValue();
    }

    /** SIGSTOP: the JVM keeps its sockets and leases but does nothing. */
    public void freeze(String id) {
        signal(worker(id).pid(), "STOP");
    }

    /** SIGCONT after {@link #freeze}. */
    public void thaw(String id) {
        signal(worker(id).pid(), "CONT");
    }

    /** A live worker's thread dump ({@code jcmd PID Thread.print}), for a test's diagnostics; the error when it cannot be had. */
    public String threadDump(String id) {
        try {
            Process p = new ProcessBuilder("jcmd", Long.toString(worker(id).pid()), "Thread.print")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
            return out;
        } catch (IOException e) {
            return "no thread dump of " + id + ": " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "no thread dump of " + id + ": interrupted";
        }
    }

    /** The last {@code lines} lines of a worker's log. */
    public String tail(String id, int lines) {
        List<String> all = Arrays.asList(read(worker(id).log()).split("\n"));
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    public String log(String id) {
        return read(worker(id).log());
    }

    // ------------------------------------------------------------------ the product's own paths

    /** Runs the CLI in this JVM; database and Temporal flags are added after the last subcommand word. */
    public CliResult cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Headway.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliResult(exit, out.toString(), err.toString());
    }

    /** {@code --db-url URL --temporal TARGET}. */
    public List<String> connectionFlags() {
        return List.of("--db-url", dbUrl(), "--temporal", temporal().target());
    }

    /** Adds the group and plans it from the simulator's marks (what `headway plan` does). */
    public Planner.Planned addAndPlan(String group, long rangeSize) {
        return rig.addAndPlan(group, rangeSize);
    }

    public Planner.Planned plan(String group, long rangeSize) {
        return rig.plan(group, rangeSize);
    }

    /** `headway start GROUP` with the cluster's lease TTL. */
    public void startGroup(String group, int snapshotEvery, Duration idleWait) {
        startGroup(group, snapshotEvery, idleWait, LEASE_TTL);
    }

    /** `headway start GROUP` with another lease TTL (give the workers the same HEADWAY_LEASE_TTL), on this JVM's client. */
    public void startGroup(String group, int snapshotEvery, Duration idleWait, Duration leaseTtl) {
        rig.startGroup(rig.groupConfig(group, leaseTtl, snapshotEvery, idleWait));
    }

    /** `headway start GROUP` run through the CLI, as a user would. */
    public void startGroupWithCli(String group, int snapshotEvery, Duration idleWait, Duration leaseTtl) {
        List<String> args = new ArrayList<>(List.of(
                "start",
                group,
                "--lease-ttl",
                leaseTtl.toSeconds() + "s",
                "--snapshot-every",
                Integer.toString(snapshotEvery),
                "--idle-wait",
                idleWait.toSeconds() + "s"));
        args.addAll(connectionFlags());
        CliResult r = cli(args.toArray(String[]::new));
        if (r.exit() != 0) {
            throw new IllegalStateException("headway start " + group + " exited " + r.exit() + ": " + r.err());
        }
    }

    /** Installs headway's schedules with the given intervals (what `headway schedules install` does). */
    public void installSchedules(Duration prune, Duration plan, Duration watch) {
        rig.installSchedules(new Schedules.Intervals(prune, plan, watch));
    }

    /**
     * Stops PostgreSQL and starts it again on the same port and data: the workers' pools see their
     * connections fail and reconnect, as after a database restart in production.
     */
    public void restartPostgres() {
        rig.restartPostgres();
    }

    /** Runs SQL statements (a script) on the cluster's database. */
    public void execute(String sql) {
        try (Connection c = dataSource().getConnection();
                java.sql.Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("executing SQL: " + e.getMessage(), e);
        }
    }

    // ------------------------------------------------------------------ database reads

    /** One row of a query, column label to value; empty map when there is no row. */
    public Map<String, Object> row(String sql, Object... args) {
        List<Map<String, Object>> rows = rows(sql, args);
        return rows.isEmpty() ? Map.of() : rows.get(0);
    }

    public List<Map<String, Object>> rows(String sql, Object... args) {
        try (Connection c = dataSource().getConnection();
                PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            List<Map<String, Object>> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    Map<String, Object> row = new HashMap<>();
                    for (int i = 1; i <= n; i++) {
                        row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
                    }
                    rows.add(row);
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** The first column of the first row as a long; {@code null} when there is no row or it is null. */
    public Long queryLong(String sql, Object... args) {
        List<Map<String, Object>> rows = rows(sql, args);
        if (rows.isEmpty()) {
            return null;
        }
        Object v = rows.get(0).values().iterator().next();
        return v == null ? null : ((Number) v).longValue();
    }

    public String queryString(String sql, Object... args) {
        List<Map<String, Object>> rows = rows(sql, args);
        if (rows.isEmpty()) {
            return null;
        }
        Object v = rows.get(0).values().iterator().next();
        return v == null ? null : v.toString();
    }

    /** Polls {@code condition} every {@code every} until it holds; fails naming {@code what} after {@code limit}. */
    public static void await(Duration limit, Duration every, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + limit + ": " + what);
            }
            sleep(every.toMillis());
        }
    }

    // ------------------------------------------------------------------ cleanup

    /** Kills every child (thawing frozen ones), stops the rig: Temporal, the simulator and PostgreSQL. Safe to call twice. */
    @Override
    public void close() {
        killAll();
        if (rig != null) {
            rig.close();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to: it only kills children, which is idempotent
        }
    }

    private synchronized void killAll() {
        for (Worker w : workers.values()) {
            Process p = w.process();
            if (p.isAlive()) {
                signal(p.pid(), "CONT");
                p.destroyForcibly();
                try {
                    p.waitFor(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private static void signal(long pid, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(5, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("kill -" + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void waitFor(Process p, Duration limit, String id) {
        try {
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("worker " + id + " did not exit within " + limit);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for worker " + id);
        }
    }

    private static String javaBinary() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.ISO_8859_1) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** Sleeps, turning an interrupt into a failure of the run. */
    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }
}
