package headway.starter;

import com.uber.m3.tally.RootScopeBuilder;
import headway.store.Database;
import headway.store.Stores;
import headway.worker.Setting;
import headway.worker.Settings;
import headway.worker.WorkerConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.common.reporter.MicrometerClientStatsReporter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The database and Temporal connections of one CLI command, opened on first use from flags or
 * the environment, and closed with the command. An unreachable database or Temporal server is
 * reported with exit code 3 and what to set.
 */
final class Connections implements AutoCloseable {

    @Option(names = "--db-url", descriptionKey = "HEADWAY_DB_URL")
    String dbUrl;

    @Option(names = "--temporal", descriptionKey = "HEADWAY_TEMPORAL")
    String temporal;

    @Option(names = "--namespace", descriptionKey = "HEADWAY_NAMESPACE")
    String namespace;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    /** When set before {@link #temporal()}, the Temporal SDK reports its metrics here (the worker's /metrics). */
    MeterRegistry metrics;

    private Stores stores;
    private WorkflowServiceStubs stubs;
    private WorkflowClient client;

    /** The environment with the flags laid over it. */
    Map<String, String> env() {
        Map<String, String> env = new HashMap<>(((Headway) mixee.root().userObject()).environment);
        if (dbUrl != null) {
            env.put(Setting.DB_URL.key(), dbUrl);
        }
        if (temporal != null) {
            env.put(Setting.TEMPORAL.key(), temporal);
        }
        if (namespace != null) {
            env.put(Setting.NAMESPACE.key(), namespace);
        }
        return env;
    }

    /** The stores over the migrated database; exit 3 when it cannot be reached. */
    Stores database() {
        if (stores == null) {
            Database.Settings settings;
            try {
                settings = WorkerConfig.databaseFromEnv(new Settings(env()));
            } catch (IllegalArgumentException e) {
                throw CliException.badInput(e.getMessage());
            }
            try {
                stores = Stores.open(
                        new Database.Settings(
                                settings.jdbcUrl(), settings.user(), settings.password(), 2, Duration.ofSeconds(5)),
                        "headway-cli");
            } catch (RuntimeException e) {
                String url = Database.redact(settings.jdbcUrl());
                if (Database.loginRefused(e)) {
                    throw new CliException(
                            Exit.UNREACHABLE,
                            "the database at " + url + " refused the login"
                                    + (settings.user() == null ? "" : " of user " + settings.user()) + ": "
                                    + Database.redact(rootMessage(e))
                                    + " (check HEADWAY_DB_USER and HEADWAY_DB_PASSWORD)",
                            e);
                }
                throw new CliException(
                        Exit.UNREACHABLE,
                        "cannot reach the database at " + url + ": " + Database.redact(rootMessage(e))
                                + " (is PostgreSQL running? set HEADWAY_DB_URL or --db-url)",
                        e);
            }
        }
        return stores;
    }

    /** A connected Temporal client; exit 3 when the server cannot be reached. */
    WorkflowClient temporal() {
        if (client == null) {
            Settings s = new Settings(env());
            String target = s.string(Setting.TEMPORAL);
            String ns = s.string(Setting.NAMESPACE);
            if (!target.matches(WorkerConfig.TEMPORAL_TARGET)) {
                throw CliException.badInput("HEADWAY_TEMPORAL=" + target + " must be host:port, e.g. "
                        + Setting.TEMPORAL.defaultValue() + " (set it or --temporal)");
            }
            try {
                WorkflowServiceStubsOptions.Builder options =
                        WorkflowServiceStubsOptions.newBuilder().setTarget(target);
                if (metrics != null) {
                    options.setMetricsScope(new RootScopeBuilder()
                            .reporter(new MicrometerClientStatsReporter(metrics))
                            .reportEvery(com.uber.m3.util.Duration.ofSeconds(10)));
                }
                stubs = WorkflowServiceStubs.newConnectedServiceStubs(options.build(), Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                throw new CliException(
                        Exit.UNREACHABLE,
                        "cannot reach Temporal at " + target + ": " + rootMessage(e)
                                + " (start it with `temporal server start-dev`, or set HEADWAY_TEMPORAL or --temporal)",
                        e);
            }
            client = WorkflowClient.newInstance(
                    stubs, WorkflowClientOptions.newBuilder().setNamespace(ns).build());
        }
        return client;
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    @Override
    public void close() {
        if (stubs != null) {
            stubs.shutdown();
        }
        if (stores != null) {
            stores.close();
        }
    }
}
