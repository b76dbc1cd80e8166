package headway.starter;

import com.zaxxer.hikari.HikariDataSource;
import headway.worker.HeadwayWorker;
import headway.worker.WorkerConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.temporal.client.WorkflowClient;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code headway worker}: runs a worker until SIGTERM or Ctrl-C (or an interrupt of the calling
 * thread), then stops polling, hands back the groups it holds (snapshot, release) and leaves the
 * node registry.
 */
@Command(name = "worker", mixinStandardHelpOptions = true, description = "Run a worker (until SIGTERM).")
final class WorkerCommand implements Runnable {
    @Mixin
    Connections connections;

    @Spec
    CommandSpec spec;

    @Option(names = "--task-queue", description = "the shared task queue (env HEADWAY_TASK_QUEUE, default headway)")
    String taskQueue;

    @Option(
            names = "--node-id",
            description = "this node's id, unique per process (env HEADWAY_NODE_ID, default host-pid-random)")
    String nodeId;

    @Option(
            names = "--concurrency",
            description = "activity slots per task queue (env HEADWAY_ACTIVITY_CONCURRENCY, default 16)")
    Integer concurrency;

    @Option(names = "--max-groups", description = "groups held at once (env HEADWAY_MAX_GROUPS, default 8)")
    Integer maxGroups;

    @Option(names = "--metrics-port", description = "Prometheus port, 0 = off (env HEADWAY_METRICS_PORT, default 9464)")
    Integer metricsPort;

    @Override
    public void run() {
        Map<String, String> env = connections.env();
        putIf(env, "HEADWAY_TASK_QUEUE", taskQueue);
        putIf(env, "HEADWAY_NODE_ID", nodeId);
        putIf(env, "HEADWAY_ACTIVITY_CONCURRENCY", concurrency);
        putIf(env, "HEADWAY_MAX_GROUPS", maxGroups);
        putIf(env, "HEADWAY_METRICS_PORT", metricsPort);
        WorkerConfig config;
        try {
            config = WorkerConfig.fromEnv(env);
        } catch (IllegalArgumentException e) {
            throw CliException.badInput(e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        try (Connections open = connections;
                HikariDataSource ds = openDatabase(config)) {
            PrometheusMeterRegistry registry = HeadwayWorker.newRegistry();
            connections.metrics = registry;
            WorkflowClient client = connections.temporal();
            HeadwayWorker worker = HeadwayWorker.start(config, client, ds, registry);
            Thread hook = new Thread(
                    () -> {
                        worker.close();
                        stopped.countDown();
                    },
                    "worker-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            spec.commandLine()
                    .getOut()
                    .println("worker " + config.nodeId() + " running; SIGTERM or Ctrl-C stops it cleanly");
            try {
                stopped.await();
            } catch (InterruptedException e) {
                // an embedding caller stops the worker by interrupting it: hand the groups back now, not at JVM exit
                Runtime.getRuntime().removeShutdownHook(hook);
                worker.close();
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The worker's own pool, sized by HEADWAY_DB_POOL, because the CLI's pool has two connections:
     * a worker on it ran out of connections (all busy, calls waiting 5 s) while a peer was frozen.
     */
    private static HikariDataSource openDatabase(WorkerConfig config) {
        try {
            return HeadwayWorker.openDatabase(config);
        } catch (RuntimeException e) {
            throw new CliException(
                    Exit.UNREACHABLE,
                    "cannot reach the database at " + config.database().jdbcUrl() + ": " + Connections.rootMessage(e)
                            + " (is PostgreSQL running? set HEADWAY_DB_URL or --db-url)",
                    e);
        }
    }

    private static void putIf(Map<String, String> env, String name, Object value) {
        if (value != null) {
            env.put(name, value.toString());
        }
    }
}
