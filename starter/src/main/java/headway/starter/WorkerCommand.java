package headway.starter;

import headway.catalog.Stores;
import headway.settings.Setting;
import headway.store.Database;
import headway.worker.HeadwayWorker;
import headway.worker.WorkerConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.temporal.client.WorkflowClient;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code headway worker}: runs a worker until SIGTERM or Ctrl-C (or an interrupt of the calling
 * thread), then stops polling, gives activities in flight HEADWAY_SHUTDOWN_GRACE, interrupts the
 * rest (an index activity stops after its current batch commits), hands back the groups it holds
 * (snapshot, release) and leaves the node registry. With {@code --versioning} it polls as version
 * {@code --build-id} of Worker Deployment {@code --deployment} (docs/deploy.md).
 */
@Command(name = "worker", mixinStandardHelpOptions = true, description = "Run a worker (until SIGTERM).")
final class WorkerCommand implements Runnable {
    /**
     * How long a worker asks again for a Temporal server that is down or slow to answer before it
     * exits 3: long enough for a server started beside it (compose, a service manager) to come up.
     */
    static final Duration TEMPORAL_PATIENCE = Duration.ofSeconds(60);

    @Mixin
    Connections connections;

    @Spec
    CommandSpec spec;

    @Option(names = "--task-queue", descriptionKey = "HEADWAY_TASK_QUEUE")
    String taskQueue;

    @Option(names = "--node-id", descriptionKey = "HEADWAY_NODE_ID")
    String nodeId;

    @Option(names = "--concurrency", descriptionKey = "HEADWAY_ACTIVITY_CONCURRENCY")
    Integer concurrency;

    @Option(names = "--max-groups", descriptionKey = "HEADWAY_MAX_GROUPS")
    Integer maxGroups;

    @Option(names = "--metrics-port", descriptionKey = "HEADWAY_METRICS_PORT")
    Integer metricsPort;

    @Option(names = "--versioning", arity = "0..1", fallbackValue = "true", descriptionKey = "HEADWAY_VERSIONING")
    Boolean versioning;

    @Option(names = "--deployment", descriptionKey = "HEADWAY_DEPLOYMENT")
    String deployment;

    @Option(names = "--build-id", descriptionKey = "HEADWAY_BUILD_ID")
    String buildId;

    @Option(names = "--shutdown-grace", descriptionKey = "HEADWAY_SHUTDOWN_GRACE")
    String shutdownGrace;

    @Option(names = "--role", descriptionKey = "HEADWAY_WORKER_ROLE")
    String role;

    @Override
    public void run() {
        Map<String, String> env = connections.env();
        putIf(env, Setting.TASK_QUEUE, taskQueue);
        putIf(env, Setting.NODE_ID, nodeId);
        putIf(env, Setting.ACTIVITY_CONCURRENCY, concurrency);
        putIf(env, Setting.MAX_GROUPS, maxGroups);
        putIf(env, Setting.METRICS_PORT, metricsPort);
        putIf(env, Setting.VERSIONING, versioning);
        putIf(env, Setting.DEPLOYMENT, deployment);
        putIf(env, Setting.BUILD_ID, buildId);
        putIf(env, Setting.SHUTDOWN_GRACE, shutdownGrace);
        putIf(env, Setting.WORKER_ROLE, role);
        WorkerConfig config;
        try {
            config = WorkerConfig.fromEnv(env);
        } catch (IllegalArgumentException e) {
            throw CliException.badInput(e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        try (Connections open = connections;
                Stores stores = openDatabase(config)) {
            PrometheusMeterRegistry registry = HeadwayWorker.newRegistry();
            connections.metrics = registry;
            // a worker started beside its server (compose, a busy host) waits for it a while instead of exiting
            WorkflowClient client = connections.temporal(
                    TEMPORAL_PATIENCE, waiting -> spec.commandLine().getErr().println("headway: " + waiting));
            HeadwayWorker worker = HeadwayWorker.start(config, client, stores, registry);
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
    private static Stores openDatabase(WorkerConfig config) {
        try {
            return HeadwayWorker.openDatabase(config);
        } catch (RuntimeException e) {
            throw new CliException(
                    Exit.UNREACHABLE,
                    "cannot reach the database at "
                            + Database.redact(config.database().jdbcUrl()) + ": "
                            + Database.redact(Connections.rootMessage(e))
                            + (Database.loginRefused(e)
                                    ? " (the login was refused: check HEADWAY_DB_USER and HEADWAY_DB_PASSWORD)"
                                    : " (is PostgreSQL running? set HEADWAY_DB_URL or --db-url)"),
                    e);
        }
    }

    private static void putIf(Map<String, String> env, Setting setting, Object value) {
        if (value != null) {
            env.put(setting.key(), value.toString());
        }
    }
}
