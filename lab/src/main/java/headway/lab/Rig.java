package headway.lab;

import com.zaxxer.hikari.HikariDataSource;
import headway.activity.NntpHeaderSource;
import headway.activity.Planner;
import headway.coordination.GroupStore;
import headway.coordination.ProgressQueries;
import headway.nntp.NntpPool;
import headway.nntp.NntpServer;
import headway.rig.EmbeddedDatabase;
import headway.settings.Setting;
import headway.settings.Settings;
import headway.simulator.NewsSimulator;
import headway.starter.GroupStarter;
import headway.store.Database;
import headway.worker.HeadwayWorker;
import headway.worker.Schedules;
import headway.worker.WorkerConfig;
import headway.workflow.GroupConfig;
import io.temporal.client.WorkflowClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The one rig the demo, the benchmarks, chaos runs and the cross-process tests run on: an
 * embedded PostgreSQL with a fresh migrated database, the news simulator and a Temporal server,
 * all on loopback, and the HEADWAY_* environment a worker needs to reach them. Workers run in
 * this JVM ({@link #startWorker}) or, through {@link headway.cluster.Cluster}, as child
 * processes configured only by that environment. Closing the rig stops everything it started,
 * newest first, also when starting failed half way.
 */
public final class Rig implements AutoCloseable {

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    private final Builder options;
    private EmbeddedDatabase postgres;
    private String dbUrl;
    private HikariDataSource dataSource;
    private NewsSimulator simulator;
    private TemporalServer temporal;

    /** What to start; {@link #start()} starts it. */
    public static final class Builder {
        private List<NewsSimulator.GroupSpec> groups = List.of();
        private NewsSimulator.Options simulatorOptions = NewsSimulator.Options.defaults();
        private Path postgresDir;
        private String database = "headway";
        private int poolSize = 20;
        private TemporalServer.Kind temporal = TemporalServer.Kind.DEV_SERVER_OR_IN_PROCESS;
        private boolean startTemporal = true;
        private boolean webUi;
        private Path temporalLog;
        private Consumer<String> say = message -> {};

        private Builder() {}

        /** The simulator's groups. */
        public Builder groups(List<NewsSimulator.GroupSpec> specs) {
            this.groups = List.copyOf(specs);
            return this;
        }

        public Builder simulatorOptions(NewsSimulator.Options options) {
            this.simulatorOptions = options;
            return this;
        }

        /** Keep PostgreSQL's data in {@code dir}, which lets {@link Rig#restartPostgres()} restart it on the same data. */
        public Builder postgresDir(Path dir) {
            this.postgresDir = dir;
            return this;
        }

        public Builder database(String name) {
            this.database = name;
            return this;
        }

        /** Connections of the rig's own pool (its planner, queries and in-process workers). */
        public Builder poolSize(int size) {
            this.poolSize = size;
            return this;
        }

        public Builder temporal(TemporalServer.Kind kind) {
            this.temporal = kind;
            return this;
        }

        /** Start Temporal only when {@link #startTemporal()} is called (a benchmark's raw phases run without it). */
        public Builder temporalLater() {
            this.startTemporal = false;
            return this;
        }

        public Builder webUi() {
            this.webUi = true;
            return this;
        }

        public Builder temporalLog(Path log) {
            this.temporalLog = log;
            return this;
        }

        /** Where the rig says what it started (which Temporal server, and why not the dev server). */
        public Builder say(Consumer<String> say) {
            this.say = say;
            return this;
        }

        /** Starts PostgreSQL (creating and migrating the database), the simulator and, unless later, Temporal. */
        public Rig start() {
            Rig rig = new Rig(this);
            try {
                rig.startAll();
                return rig;
            } catch (IOException | RuntimeException e) {
                rig.close();
                throw new IllegalStateException("the rig did not start: " + e.getMessage(), e);
            }
        }
    }

    private Rig(Builder options) {
        this.options = options;
    }

    public static Builder builder() {
        return new Builder();
    }

    private void startAll() throws IOException {
        postgres = EmbeddedDatabase.start(options.postgresDir, 0);
        opened.push(() -> postgres.close());
        dbUrl = postgres.createDatabaseIfAbsent(options.database) + "?user=postgres";
        dataSource = Database.pool(
                new Database.Settings(dbUrl, "postgres", null, options.poolSize, Duration.ofSeconds(10)), "rig");
        opened.push(dataSource);
        Database.migrate(dataSource);
        simulator = NewsSimulator.start(options.simulatorOptions, options.groups);
        opened.push(simulator);
        env.put(Setting.DB_URL.key(), dbUrl);
        env.put(Setting.DB_USER.key(), "postgres");
        env.put(Setting.NNTP_HOST.key(), simulator.host());
        env.put(Setting.NNTP_PORT.key(), Integer.toString(simulator.port()));
        env.put(Setting.METRICS_PORT.key(), "0");
        if (options.startTemporal) {
            startTemporal();
        }
    }

    /** Starts the Temporal server of the builder's kind (once). */
    public TemporalServer startTemporal() {
        if (temporal == null) {
            temporal = TemporalServer.start(options.temporal, options.webUi, options.temporalLog, options.say);
            opened.push(temporal);
            env.put(Setting.TEMPORAL.key(), temporal.target());
        }
        return temporal;
    }

    public EmbeddedDatabase postgres() {
        return postgres;
    }

    /** The rig's database: a JDBC URL for user postgres without a password. */
    public String dbUrl() {
        return dbUrl;
    }

    public HikariDataSource dataSource() {
        return dataSource;
    }

    public NewsSimulator simulator() {
        return simulator;
    }

    /** The simulator as the NNTP client sees it. */
    public NntpServer nntpServer() {
        return NntpServer.plain(simulator.host(), simulator.port());
    }

    public TemporalServer temporal() {
        if (temporal == null) {
            throw new IllegalStateException("Temporal was not started yet: call startTemporal()");
        }
        return temporal;
    }

    public WorkflowClient client() {
        return temporal().client();
    }

    public ProgressQueries progress() {
        return new ProgressQueries(dataSource);
    }

    /** Sets a HEADWAY_* variable of the environment workers get from now on. */
    public Rig workerEnv(String name, String value) {
        env.put(name, value);
        return this;
    }

    /** The environment a worker gets: how to reach the rig's database, simulator and Temporal, and what was set. */
    public Map<String, String> env() {
        return new LinkedHashMap<>(env);
    }

    /** A worker in this JVM, configured by {@link #env()} with {@code overrides} laid over it; closed with the rig. */
    public HeadwayWorker startWorker(Map<String, String> overrides) {
        Map<String, String> workerEnv = env();
        workerEnv.putAll(overrides);
        HeadwayWorker worker =
                HeadwayWorker.start(WorkerConfig.fromEnv(workerEnv), client(), dataSource, HeadwayWorker.newRegistry());
        opened.push(worker);
        return worker;
    }

    /** Adds the group (when new) and plans it from the simulator's marks, as the planner does. */
    public Planner.Planned addAndPlan(String group, long rangeSize) {
        GroupStore store = new GroupStore(dataSource);
        if (!store.exists(group)) {
            store.add(group, 0);
        }
        return plan(group, rangeSize);
    }

    /** Plans the group from the simulator's marks, the whole group as history and tail. */
    public Planner.Planned plan(String group, long rangeSize) {
        try (NntpPool pool = new NntpPool(HeadwayWorker.nntpConfig(WorkerConfig.fromEnvNntp(env)))) {
            return new Planner(
                            new GroupStore(dataSource),
                            new NntpHeaderSource(pool),
                            new Planner.Settings(rangeSize, Long.MAX_VALUE / 4, Long.MAX_VALUE))
                    .plan(group);
        } catch (IOException e) {
            throw new UncheckedIOException("planning " + group + " from the simulator", e);
        }
    }

    /** Adds every group and plans its initial articles as tail ranges of {@code rangeSize}, without asking the simulator. */
    private void planWhole(List<NewsSimulator.GroupSpec> specs, long rangeSize) {
        GroupStore store = new GroupStore(dataSource);
        for (NewsSimulator.GroupSpec g : specs) {
            store.add(g.name(), 0);
            store.plan(g.name(), 1, g.initialArticles(), rangeSize, -1);
        }
    }

    /** A group config on the rig's task queue and node TTL (HEADWAY_TASK_QUEUE, HEADWAY_NODE_TTL of {@link #env()}). */
    public GroupConfig groupConfig(String group, Duration leaseTtl, int snapshotEvery, Duration idleWait) {
        return GroupConfig.of(group, leaseTtl, snapshotEvery, idleWait, taskQueue())
                .withNodeTtl(new Settings(env).duration(Setting.NODE_TTL));
    }

    /** Starts (or finds) the group's workflow, as {@code headway start} does. */
    public void startGroup(GroupConfig config) {
        GroupStarter.start(client(), config);
    }

    /** Installs headway's schedules on the rig's task queue (what {@code headway schedules install} does). */
    public List<Schedules.Installed> installSchedules(Schedules.Intervals intervals) {
        return Schedules.install(client(), taskQueue(), intervals);
    }

    /** What indexing took: headers indexed and wall seconds from the first start to every group caught up. */
    public record Indexed(long headers, double seconds) {}

    /**
     * Plans every group whole ({@link #planWhole}), starts their workflows (a snapshot every 2
     * ranges) and waits until all are caught up: how the benchmarks index.
     */
    public Indexed indexAll(List<NewsSimulator.GroupSpec> specs, long rangeSize, Duration leaseTtl, Duration limit) {
        planWhole(specs, rangeSize);
        List<String> names = specs.stream().map(NewsSimulator.GroupSpec::name).toList();
        long t0 = System.nanoTime();
        for (String g : names) {
            startGroup(groupConfig(g, leaseTtl, 2, Duration.ofMinutes(10)));
        }
        waitCaughtUp(names, limit);
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new Indexed(progress().headersIndexed(names), seconds);
    }

    /** Polls until no range is open and every group's workflow is idle; fails after {@code limit}. */
    public void waitCaughtUp(List<String> groups, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            long open = progress().openRanges();
            if (GroupStates.caughtUp(client(), open, groups)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(open + " ranges still open after " + limit);
            }
            try {
                Thread.sleep(open == 0 ? 50 : 200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    /**
     * Stops PostgreSQL and starts it again on the same port and data: pools see their connections
     * fail and reconnect, as after a database restart in production. Needs {@link Builder#postgresDir}.
     */
    public void restartPostgres() {
        postgres = postgres.restart();
    }

    private String taskQueue() {
        return WorkerConfig.taskQueueFromEnv(env);
    }

    /** Stops what the rig started, newest first; safe to call twice. */
    @Override
    public synchronized void close() {
        while (!opened.isEmpty()) {
            AutoCloseable c = opened.pop();
            try {
                c.close();
            } catch (Exception e) {
                System.err.println("rig: closing " + c.getClass().getSimpleName() + ": " + e);
            }
        }
    }
}
