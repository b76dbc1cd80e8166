package headway.rig;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * A PostgreSQL server run from the embedded binaries, for the tests, the demo and the benchmarks.
 * It listens on loopback on a free port; {@link #createDatabase} gives each test class a database
 * of its own. Durability is off (no fsync), which is what makes it fast and why it never holds
 * data anyone keeps. A server in a temporary directory removes it when closed, with {@code rm -rf}
 * in the background: the library deleted it file by file in a shutdown hook, and a test JVM's
 * shared server, holding a database per test class, took more than Surefire's 30 s to go on a
 * busy machine (Surefire then killed the JVM); nothing waits for the files.
 */
public final class EmbeddedDatabase implements AutoCloseable {
    private final EmbeddedPostgres postgres;
    private final Path dataDir;
    private final Path temporaryDir;

    private EmbeddedDatabase(EmbeddedPostgres postgres, Path dataDir, Path temporaryDir) {
        this.postgres = postgres;
        this.dataDir = dataDir;
        this.temporaryDir = temporaryDir;
    }

    /** Starts a server with its data in a fresh temporary directory (or {@code dataDir} when not null). */
    public static EmbeddedDatabase start(Path dataDir) {
        return start(dataDir, 0);
    }

    /** Starts a server on {@code port} (0: a free one) with its data in {@code dataDir} (null: a fresh temporary directory). */
    public static EmbeddedDatabase start(Path dataDir, int port) {
        Path temporaryDir = null;
        try {
            // A fresh server creates each WAL segment it fills and writes 16 MB of zeros into it first,
            // which a long-running one does not: it recycles the segments a checkpoint frees. Without
            // zero-filling, a new server's CPU per write is the steady figure (0.3 us less per header
            // written in the throughput benchmark, measured); neither holds data worth a crash-safe WAL.
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .setServerConfig("full_page_writes", "off")
                    .setServerConfig("wal_init_zero", "off")
                    .setServerConfig("max_connections", "300");
            if (dataDir == null) {
                temporaryDir = Files.createTempDirectory("embedded-pg-");
            }
            builder.setDataDirectory(dataDir != null ? dataDir : temporaryDir).setCleanDataDirectory(false);
            if (port != 0) {
                builder.setPort(port);
            }
            return new EmbeddedDatabase(builder.start(), dataDir, temporaryDir);
        } catch (IOException e) {
            removeInBackground(temporaryDir);
            throw new UncheckedIOException("could not start embedded PostgreSQL", e);
        }
    }

    /**
     * Starts a server that also accepts TLS ({@code ssl=on}) with the given certificate and key
     * (PEM; the key readable by its owner only), in a fresh temporary directory. Clients choose
     * TLS with {@code sslmode=verify-full&sslrootcert=<CA file>} in the JDBC URL.
     */
    public static EmbeddedDatabase startWithTls(Path certFile, Path keyFile) {
        try {
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setServerConfig("fsync", "off")
                    .setServerConfig("ssl", "on")
                    .setServerConfig("ssl_cert_file", certFile.toAbsolutePath().toString())
                    .setServerConfig("ssl_key_file", keyFile.toAbsolutePath().toString())
                    .start();
            return new EmbeddedDatabase(postgres, null, null);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded PostgreSQL with TLS", e);
        }
    }

    /**
     * Stops the server and starts it again on the same port and data directory, as a database
     * restart looks to its clients (chaos runs use it); needs a server started with a data directory.
     */
    public EmbeddedDatabase restart() {
        if (dataDir == null) {
            throw new IllegalStateException("only a server started with a data directory can be restarted");
        }
        int port = port();
        close();
        return start(dataDir, port);
    }

    public int port() {
        return postgres.getPort();
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/" + database;
    }

    public DataSource postgresDatabase() {
        return postgres.getPostgresDatabase();
    }

    /** Creates an empty database and returns its JDBC URL (user postgres, no password). */
    public String createDatabase(String name) {
        try (Connection c = postgres.getPostgresDatabase().getConnection();
                Statement s = c.createStatement()) {
            s.execute("create database \"" + name.replace("\"", "") + "\"");
            return jdbcUrl(name);
        } catch (SQLException e) {
            throw new IllegalStateException("creating database " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * The JDBC URL of database {@code name}, created empty when the server does not hold it yet: a
     * server started on a data directory a previous run kept may hold it already.
     */
    public String createDatabaseIfAbsent(String name) {
        try (Connection c = postgres.getPostgresDatabase().getConnection();
                PreparedStatement s = c.prepareStatement("select 1 from pg_database where datname = ?")) {
            s.setString(1, name.replace("\"", ""));
            try (ResultSet rs = s.executeQuery()) {
                if (rs.next()) {
                    return jdbcUrl(name);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("looking for database " + name + ": " + e.getMessage(), e);
        }
        return createDatabase(name);
    }

    /** Stops the server; a temporary data directory is then removed in the background. */
    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop embedded PostgreSQL", e);
        } finally {
            removeInBackground(temporaryDir);
        }
    }

    private static void removeInBackground(Path dir) {
        if (dir == null) {
            return;
        }
        try {
            new ProcessBuilder("rm", "-rf", "--", dir.toString())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            // no rm: the directory stays in the temporary directory, as a killed JVM leaves it
        }
    }
}
