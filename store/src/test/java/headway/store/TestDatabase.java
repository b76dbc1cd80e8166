package headway.store;

import com.zaxxer.hikari.HikariDataSource;
import headway.rig.EmbeddedDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * One embedded PostgreSQL server per test JVM, and a fresh migrated database per caller, so test
 * classes never see each other's rows. The database's clock can be moved forward (hw_now()).
 */
public final class TestDatabase {

    private static final AtomicInteger counter = new AtomicInteger();
    private static EmbeddedDatabase server;

    private TestDatabase() {}

    /** The shared server, started on first use and stopped when the JVM exits. */
    public static synchronized EmbeddedDatabase server() {
        if (server == null) {
            server = EmbeddedDatabase.start(null);
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "embedded-postgres-stop"));
        }
        return server;
    }

    /** A new empty database (not migrated); returns its JDBC URL. */
    public static String emptyDatabase(String prefix) {
        String name = (prefix + "_" + ProcessHandle.current().pid() + "_" + counter.incrementAndGet())
                .toLowerCase(Locale.ROOT);
        return server().createDatabase(name);
    }

    /** A pool over a new database with every migration applied; the caller closes it. */
    public static HikariDataSource migrated(String prefix) {
        HikariDataSource ds = pool(emptyDatabase(prefix), 12);
        Database.migrate(ds);
        return ds;
    }

    /** A pool of two over a new database migrated up to {@code version} only, to test a later migration on; the caller closes it. */
    public static HikariDataSource migratedTo(String prefix, String version) {
        HikariDataSource ds = pool(emptyDatabase(prefix), 2);
        Database.migrate(ds, version);
        return ds;
    }

    /** Migrates {@code ds} on up to {@code version} only (a later migration tested on what the ones before it left). */
    public static void migrateTo(DataSource ds, String version) {
        Database.migrate(ds, version);
    }

    public static HikariDataSource pool(String jdbcUrl, int size) {
        return Database.pool(new Database.Settings(jdbcUrl, "postgres", null, size, Duration.ofSeconds(10)), "test");
    }

    /** Moves the database's clock (hw_now()) to {@code skew} ahead of real time. */
    public static void setClockSkew(DataSource ds, Duration skew) {
        execute(
                ds,
                "insert into clock_skew (id, skew) values (true, interval '" + skew.toMillis()
                        + " milliseconds') on conflict (id) do update set skew = excluded.skew");
    }

    public static void execute(DataSource ds, String sql) {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new StoreException(sql, e);
        }
    }

    public static long queryLong(DataSource ds, String sql) {
        return queryOne(ds, sql, rs -> rs.getLong(1));
    }

    public static String queryString(DataSource ds, String sql) {
        return queryOne(ds, sql, rs -> rs.getString(1));
    }

    /** The first row of {@code sql}, read by {@code row}. */
    private static <T> T queryOne(DataSource ds, String sql, Jdbc.Row<T> row) {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement();
                var rs = s.executeQuery(sql)) {
            rs.next();
            return row.read(rs);
        } catch (SQLException e) {
            throw new StoreException(sql, e);
        }
    }
}
