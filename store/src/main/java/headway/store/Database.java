package headway.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.Objects;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension;

/**
 * Connection pools and schema migration. Migrations are append-only Flyway scripts under
 * {@code db/migration}; Flyway serializes concurrent migrations with a PostgreSQL advisory lock,
 * so a worker and a starter that both migrate at start never fail each other.
 */
public final class Database {

    private Database() {}

    /** Connection settings: the JDBC URL, credentials (may be null) and the pool's maximum size. */
    public record Settings(String jdbcUrl, String user, String password, int maxPoolSize, Duration connectTimeout) {
        public Settings {
            checkUrl(jdbcUrl, "HEADWAY_DB_URL or --db-url");
            if (maxPoolSize < 1 || maxPoolSize > 200) {
                throw new IllegalArgumentException("database pool size must be between 1 and 200, was " + maxPoolSize);
            }
            Objects.requireNonNull(connectTimeout, "connectTimeout");
        }

        @Override
        public String toString() {
            return "Settings[jdbcUrl=" + redact(jdbcUrl) + ", user=" + user + ", password="
                    + (password == null ? "none" : "***") + ", maxPoolSize=" + maxPoolSize + "]";
        }
    }

    /**
     * Throws, naming {@code setting} (where the URL came from), unless {@code jdbcUrl} is a
     * PostgreSQL JDBC URL without a user before the host; the message never shows a password.
     */
    public static void checkUrl(String jdbcUrl, String setting) {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("database URL must start with jdbc:postgresql:, was '" + redact(jdbcUrl)
                    + "' (set " + setting + ", e.g. jdbc:postgresql://localhost:5432/headway)");
        }
        if (USER_INFO.matcher(jdbcUrl).find()) {
            throw new IllegalArgumentException("database URL '" + redact(jdbcUrl)
                    + "' (" + setting + ") names a user before '@', which the PostgreSQL driver does not read (it"
                    + " takes 'user:password@host' for a host name and echoes it, password and all, in its errors):"
                    + " put the user in HEADWAY_DB_USER and the password in HEADWAY_DB_PASSWORD, and the URL as"
                    + " jdbc:postgresql://host:5432/headway");
        }
    }

    /**
     * How long the server lets a session sit idle inside a transaction before it ends it. Every
     * transaction here takes milliseconds; without a limit a worker frozen mid-transaction (SIGSTOP,
     * a long GC pause, a partition) keeps its row locks, and the take of its group, which locks the
     * lease row for update, waits until the frozen worker wakes (PostgreSQL lock semantics; not reproduced in a test).
     */
    static final String IDLE_IN_TRANSACTION_LIMIT = "set idle_in_transaction_session_timeout = '10s'";

    /** A Hikari pool; the caller closes it. */
    public static HikariDataSource pool(Settings settings, String poolName) {
        HikariConfig config = new HikariConfig();
        config.setConnectionInitSql(IDLE_IN_TRANSACTION_LIMIT);
        config.setJdbcUrl(settings.jdbcUrl());
        config.setUsername(settings.user());
        config.setPassword(settings.password());
        config.setMaximumPoolSize(settings.maxPoolSize());
        config.setMinimumIdle(1);
        config.setPoolName(poolName);
        config.setConnectionTimeout(Math.max(250, settings.connectTimeout().toMillis()));
        config.setInitializationFailTimeout(
                Math.max(1, settings.connectTimeout().toMillis()));
        return new HikariDataSource(config);
    }

    /**
     * A read-only pool for a hot standby, every wait on it bounded by {@code timeout}: taking a
     * connection (the pool's and the driver's connect and login timeouts), each statement (the
     * session's {@code statement_timeout}; a search sets a shorter one for its own transaction), and
     * silence on the socket ({@code socketTimeout}, a second longer, rounded up to whole seconds as the
     * driver takes it), because a standby that is frozen or cut off by the network sends nothing at all,
     * and a server-side timeout never fires on a server that does not run. It does not fail to open
     * when the standby is down: a front door starts and reads from the primary until the standby is back.
     */
    public static HikariDataSource readPool(Settings settings, String poolName, Duration timeout) {
        long ms = Math.max(250, timeout.toMillis());
        long seconds = Math.max(1, (ms + 1_999) / 1_000);
        HikariConfig config = new HikariConfig();
        config.setConnectionInitSql(IDLE_IN_TRANSACTION_LIMIT + "; set statement_timeout = '" + ms + "ms'");
        config.setJdbcUrl(settings.jdbcUrl());
        config.setUsername(settings.user());
        config.setPassword(settings.password());
        config.setMaximumPoolSize(settings.maxPoolSize());
        config.setMinimumIdle(1);
        config.setPoolName(poolName);
        config.setReadOnly(true);
        config.setConnectionTimeout(ms);
        config.setValidationTimeout(ms);
        config.setInitializationFailTimeout(-1);
        config.addDataSourceProperty("connectTimeout", Long.toString(seconds));
        config.addDataSourceProperty("loginTimeout", Long.toString(seconds));
        config.addDataSourceProperty("socketTimeout", Long.toString(seconds));
        return new HikariDataSource(config);
    }

    private static final java.util.regex.Pattern URL_PASSWORD =
            java.util.regex.Pattern.compile("(?i)(password=)[^&;\\s]*");

    /**
     * {@code user:password@} wherever it stands: after {@code ://} in a URL, and alone, as the driver
     * echoes such a URL's host ({@code java.net.UnknownHostException: headway:secret@db}).
     */
    private static final java.util.regex.Pattern USER_PASSWORD =
            java.util.regex.Pattern.compile("(?<![^\\s/'\"(=,:])([^\\s/:@'\"]*:)[^\\s/@'\"]*@");

    /** A user (and maybe a password) before the host of a {@code jdbc:postgresql://} URL. */
    private static final java.util.regex.Pattern USER_INFO =
            java.util.regex.Pattern.compile("^jdbc:postgresql://[^/?#]*@");

    /**
     * {@code text} with passwords in JDBC URLs ({@code password=...}, {@code user:pass@}) masked, for
     * messages and logs, also where a driver's message repeats part of the URL.
     */
    public static String redact(String text) {
        if (text == null) {
            return null;
        }
        String t = URL_PASSWORD.matcher(text).replaceAll("$1***");
        return USER_PASSWORD.matcher(t).replaceAll("$1***@");
    }

    /** True when {@code e} or a cause is PostgreSQL refusing the login (SQLSTATE class 28: wrong user or password). */
    public static boolean loginRefused(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.sql.SQLException sql
                    && sql.getSQLState() != null
                    && sql.getSQLState().startsWith("28")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Applies every pending migration; safe to run from several processes at once. Out of order,
     * because versions were handed out to parallel work and a lower one may land after a higher one.
     */
    public static MigrateResult migrate(DataSource dataSource) {
        return migrate(dataSource, "latest");
    }

    /** As {@link #migrate(DataSource)}, up to version {@code target} only (tests of a migration's data). */
    static MigrateResult migrate(DataSource dataSource, String target) {
        return migrate(dataSource, target, "classpath:db/migration");
    }

    /**
     * The migrations at {@code location} up to {@code target}. Flyway's lock is held by the session,
     * not by a transaction ({@code postgresql.transactional.lock} off): Flyway holds it on a second
     * connection of the pool, which then sits idle, and inside a transaction the pool's
     * {@code idle_in_transaction_session_timeout} (10 s) ended that session under any migration
     * that took longer (an index over a large catalog), failing the migration at its end.
     */
    static MigrateResult migrate(DataSource dataSource, String target, String location) {
        FluentConfiguration config = Flyway.configure()
                .dataSource(dataSource)
                .locations(location)
                .outOfOrder(true)
                .target(target);
        config.getConfigurationExtension(PostgreSQLConfigurationExtension.class).setTransactionalLock(false);
        return config.load().migrate();
    }
}
