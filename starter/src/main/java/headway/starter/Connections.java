package headway.starter;

import com.uber.m3.tally.Scope;
import com.uber.m3.tally.ScopeCloseException;
import headway.catalog.Stores;
import headway.coordination.FleetQueries;
import headway.coordination.GroupStore;
import headway.coordination.StatusStore;
import headway.settings.Setting;
import headway.settings.Settings;
import headway.store.Database;
import headway.worker.TemporalConnection;
import headway.worker.WorkerConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
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

    /** The groups and their ranges, over {@link #database()}. */
    GroupStore groups() {
        return new GroupStore(database().dataSource());
    }

    /** What {@code status} shows per group, over {@link #database()}. */
    StatusStore status() {
        return new StatusStore(database().dataSource());
    }

    /** The fleet's nodes and connections, over {@link #database()}. */
    FleetQueries fleet() {
        return new FleetQueries(database().dataSource());
    }

    /**
     * A connected Temporal client (HEADWAY_TEMPORAL/--temporal, TEMPORAL_* and the profile file, as
     * {@link TemporalConnection} resolves them); exit 2 for a bad setting, 3 when the server cannot
     * be reached or refuses us.
     */
    WorkflowClient temporal() {
        return temporal(Duration.ZERO, message -> {});
    }

    /**
     * As {@link #temporal()}, asking a server that is down or slow to answer again for up to
     * {@code patience} (a worker), and telling {@code waiting} once that it waits.
     */
    WorkflowClient temporal(Duration patience, java.util.function.Consumer<String> waiting) {
        if (client == null) {
            TemporalConnection connection;
            try {
                connection = TemporalConnection.fromEnv(env());
                client = connection.connect(metrics, Duration.ofSeconds(5), patience, waiting);
            } catch (IllegalArgumentException e) {
                throw CliException.badInput(e.getMessage());
            } catch (TemporalConnection.Unreachable e) {
                throw new CliException(Exit.UNREACHABLE, e.getMessage(), e);
            }
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

    /**
     * Stops the SDK's metrics scope, because its report loop runs on a thread that is no daemon
     * and outlives the stubs: an in-process worker command left one behind in the tests.
     */
    private static void closeMetrics(Scope scope) {
        try {
            scope.close();
        } catch (ScopeCloseException e) {
            // its last report failed; the loop is stopped all the same
        }
    }

    @Override
    public void close() {
        if (client != null) {
            WorkflowServiceStubs stubs = client.getWorkflowServiceStubs();
            stubs.shutdown();
            closeMetrics(stubs.getOptions().getMetricsScope());
        }
        if (stores != null) {
            stores.close();
        }
    }
}
