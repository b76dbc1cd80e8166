package headway.starter;

import com.zaxxer.hikari.HikariDataSource;
import headway.nntp.NewsSimulator;
import headway.store.Database;
import headway.store.EmbeddedDatabase;
import headway.store.GroupStore;
import headway.worker.HeadwayWorker;
import headway.worker.WorkerConfig;
import headway.workflow.GroupConfig;
import io.temporal.client.WorkflowClient;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One worker in this JVM on a fresh database of an embedded PostgreSQL, against a Temporal
 * server of its own, reading a news simulator: what the benchmarks index through.
 */
final class BenchRig implements AutoCloseable {
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    final HikariDataSource ds;
    final TemporalServer temporal;
    final HeadwayWorker worker;
    final WorkerConfig config;

    /** What indexing took: headers indexed and wall seconds from start to every group caught up. */
    record Run(long headers, double seconds) {}

    private BenchRig(HikariDataSource ds, TemporalServer temporal, HeadwayWorker worker, WorkerConfig config) {
        this.ds = ds;
        this.temporal = temporal;
        this.worker = worker;
        this.config = config;
    }

    static BenchRig start(
            EmbeddedDatabase postgres,
            String database,
            NewsSimulator simulator,
            boolean inProcessTemporal,
            PrintWriter out,
            Map<String, String> overrides) {
        String url = postgres.createDatabase(database);
        HikariDataSource ds =
                Database.pool(new Database.Settings(url, "postgres", null, 30, Duration.ofSeconds(10)), "bench");
        Database.migrate(ds);
        TemporalServer temporal = TemporalServer.startForDemo(inProcessTemporal, msg -> out.println("bench: " + msg));
        Map<String, String> env = new HashMap<>();
        env.put("HEADWAY_DB_URL", url);
        env.put("HEADWAY_TEMPORAL", temporal.target());
        env.put("HEADWAY_NNTP_HOST", "127.0.0.1");
        env.put("HEADWAY_NNTP_PORT", Integer.toString(simulator.port()));
        env.put("HEADWAY_NODE_ID", "bench-worker");
        env.put("HEADWAY_METRICS_PORT", "0");
        env.put("HEADWAY_MAX_GROUPS", "64");
        env.put("HEADWAY_NNTP_CONNECTIONS", "16");
        env.put("HEADWAY_ACTIVITY_CONCURRENCY", "64");
        env.putAll(overrides);
        WorkerConfig config = WorkerConfig.fromEnv(env);
        HeadwayWorker worker = HeadwayWorker.start(config, temporal.client(), ds, HeadwayWorker.newRegistry());
        BenchRig rig = new BenchRig(ds, temporal, worker, config);
        rig.opened.push(ds);
        rig.opened.push(temporal);
        rig.opened.push(worker);
        return rig;
    }

    WorkflowClient client() {
        return temporal.client();
    }

    /** Plans every group whole in ranges of {@code rangeSize}, starts their workflows and waits until all are caught up. */
    Run indexAll(List<NewsSimulator.GroupSpec> specs, long rangeSize, Duration limit) {
        GroupStore groups = new GroupStore(ds);
        for (NewsSimulator.GroupSpec g : specs) {
            groups.add(g.name(), 0);
            groups.plan(g.name(), 1, g.initialArticles(), rangeSize, -1);
        }
        long t0 = System.nanoTime();
        for (NewsSimulator.GroupSpec g : specs) {
            GroupStarter.start(
                    client(),
                    new GroupConfig(
                            g.name(),
                            config.leaseTtl(),
                            2,
                            Duration.ofMinutes(10),
                            5,
                            GroupConfig.DEFAULT_HISTORY_EVENT_BUDGET,
                            config.taskQueue()));
        }
        waitCaughtUp(specs.stream().map(NewsSimulator.GroupSpec::name).toList(), limit);
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new Run(headers(specs), seconds);
    }

    /** Headers indexed in {@code specs}' groups, as their leases counted them. */
    private long headers(List<NewsSimulator.GroupSpec> specs) {
        String[] names = specs.stream().map(NewsSimulator.GroupSpec::name).toArray(String[]::new);
        try (Connection c = ds.getConnection();
                PreparedStatement s = c.prepareStatement(
                        "select coalesce(sum(headers), 0) from group_leases where group_name = any(?)")) {
            s.setArray(1, c.createArrayOf("text", names));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("counting indexed headers: " + e.getMessage(), e);
        }
    }

    /** Polls until every group has no unfinished range and its workflow is idle. */
    void waitCaughtUp(List<String> groups, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            long open = queryLong("select count(*) from ranges where status <> 'done'");
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
                throw new IllegalStateException("interrupted");
            }
        }
    }

    long queryLong(String sql) {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                System.err.println("bench: closing: " + e);
            }
        }
    }
}
