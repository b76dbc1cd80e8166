package headway.starter;

import headway.catalog.Stores;
import headway.settings.Setting;
import headway.settings.Settings;
import headway.store.Database;
import headway.web.FrontDoor;
import headway.web.ServeConfig;
import headway.worker.HeadwayWorker;
import headway.worker.WorkerConfig;
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
        try {
            Settings settings = new Settings(env);
            config = ServeConfig.fromEnv(settings);
            db = WorkerConfig.databaseFromEnv(settings);
        } catch (IllegalArgumentException e) {
            throw CliException.badInput(e.getMessage());
        }
        Stores stores;
        try {
            stores = Stores.open(db, "headway-serve");
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
