package headway.starter;

import headway.catalog.Stores;
import headway.settings.Setting;
import headway.settings.Settings;
import headway.store.Database;
import headway.store.ReadRoute;
import headway.web.FrontDoor;
import headway.web.ServeConfig;
import headway.worker.HeadwayWorker;
import headway.worker.WorkerConfig;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code headway serve}: the newznab API and the search page over the catalog, until SIGTERM. */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        description = "Serve the newznab API (/api) and the search page (/) until SIGTERM.")
final class ServeCommand implements Runnable {
    @Mixin
    Connections connections;

    @Spec
    CommandSpec spec;

    @Option(names = "--port", descriptionKey = "HEADWAY_HTTP_PORT")
    Integer port;

    @Option(names = "--bind", descriptionKey = "HEADWAY_HTTP_BIND")
    String bind;

    /** The line {@code serve} prints once it listens: the API, and the page only when it is served. */
    static String started(ServeConfig config, int port) {
        String at = "http://" + config.bind() + ":" + port;
        return "serve: api=" + at + "/api" + (config.page() ? " web=" + at + "/" : "") + " (SIGTERM or Ctrl-C stops)";
    }

    /**
     * The replica of HEADWAY_DB_READ_URL (null when unset), with the primary's user, password and
     * pool size, validated: its URL as the primary's, HEADWAY_DB_READ_MAX_LAG and HEADWAY_DB_READ_TIMEOUT
     * at least their minimum, and the timeout at least the search timeout, because a search that
     * the replica's socket timeout cut short would run again on the primary.
     */
    static Stores.Replica replica(Settings s, Database.Settings primary, Duration searchTimeout) {
        String url = s.string(Setting.DB_READ_URL);
        if (url == null) {
            return null;
        }
        Database.checkUrl(url.strip(), Setting.DB_READ_URL.key());
        Duration maxLag = atLeast(s, Setting.DB_READ_MAX_LAG);
        Duration timeout = atLeast(s, Setting.DB_READ_TIMEOUT);
        if (timeout.compareTo(searchTimeout) < 0) {
            throw new IllegalArgumentException(Setting.DB_READ_TIMEOUT.key() + "=" + timeout.toMillis()
                    + "ms is shorter"
                    + " than " + Setting.HTTP_SEARCH_TIMEOUT.key() + "=" + searchTimeout.toMillis() + "ms: a search the"
                    + " replica is still allowed to run would be cut off; set it to at least the search timeout");
        }
        return new Stores.Replica(
                new Database.Settings(url.strip(), primary.user(), primary.password(), primary.maxPoolSize(), timeout),
                maxLag,
                timeout);
    }

    private static Duration atLeast(Settings s, Setting setting) {
        Duration d = s.duration(setting);
        if (d.compareTo(setting.minDuration()) < 0) {
            throw new IllegalArgumentException(setting.key() + "=" + d.toMillis() + "ms is too short: use "
                    + setting.minDuration().toMillis() + "ms or more (the default is " + setting.defaultValue() + ")");
        }
        return d;
    }

    /** Where reads go, once the probe has measured the replica (or after two probe intervals). */
    private static String firstWhere(Stores stores) {
        long until = System.nanoTime() + 2 * ReadRoute.PROBE_INTERVAL.toNanos();
        while (!stores.reads().onReplica() && System.nanoTime() - until < 0) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return stores.reads().where();
    }

    @Override
    public void run() {
        Map<String, String> env = connections.env();
        if (port != null) {
            env.put(Setting.HTTP_PORT.key(), port.toString());
        }
        if (bind != null) {
            env.put(Setting.HTTP_BIND.key(), bind);
        }
        ServeConfig config;
        Database.Settings db;
        Stores.Replica replica;
        try {
            Settings settings = new Settings(env);
            config = ServeConfig.fromEnv(settings);
            db = WorkerConfig.databaseFromEnv(settings);
            replica = replica(settings, db, config.limits().searchTimeout());
        } catch (IllegalArgumentException e) {
            throw CliException.badInput(e.getMessage());
        }
        Stores stores;
        try {
            stores = Stores.open(db, replica, "headway-serve");
        } catch (RuntimeException e) {
            throw new CliException(
                    Exit.UNREACHABLE,
                    "cannot reach the database at " + Database.redact(db.jdbcUrl()) + ": "
                            + Database.redact(Connections.rootMessage(e))
                            + " (is PostgreSQL running? set HEADWAY_DB_URL or --db-url)",
                    e);
        }
        CountDownLatch stopped = new CountDownLatch(1);
        try (Stores open = stores) {
            FrontDoor door;
            try {
                door = FrontDoor.start(stores, config, HeadwayWorker.newRegistry());
            } catch (IllegalStateException e) {
                throw CliException.badInput(e.getMessage());
            }
            Thread hook = new Thread(
                    () -> {
                        door.close();
                        stopped.countDown();
                    },
                    "serve-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            spec.commandLine().getOut().println(started(config, door.port()));
            if (replica != null) {
                spec.commandLine().getOut().println("serve: " + firstWhere(stores));
            }
            try {
                stopped.await();
            } catch (InterruptedException e) {
                Runtime.getRuntime().removeShutdownHook(hook);
                door.close();
                Thread.currentThread().interrupt();
            }
        }
    }
}
