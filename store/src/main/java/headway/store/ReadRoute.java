package headway.store;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where reads that may be a little stale go: a hot standby while it is reachable and at most
 * {@code maxLag} behind the primary, else the primary. A probe every second measures the lag from
 * write-ahead-log positions, not from {@code pg_last_xact_replay_timestamp()}: that timestamp stops
 * when the primary has nothing to write, so an idle pair would look ever further behind. The probe
 * notes the primary's {@code pg_current_wal_lsn()} with the time it read it, and the standby is as
 * far behind as the oldest noted position it has not replayed ({@code pg_last_wal_replay_lsn()}),
 * give or take one probe interval; a standby cut off from its primary stops replaying and so falls
 * behind by this measure too, where a receive-equals-replay check would call it current.
 *
 * <p>A read that fails on the standby for a reason of the standby's (it cannot be reached, its
 * socket went silent past the pool's timeout, it was shut down, or replay cancelled the query) is
 * run again on the primary at once, and the standby is left alone until the probe finds it usable
 * again, so while it is away a read costs one bounded wait at most once. The trade-off: a read may
 * go to the primary for up to a probe interval after the standby is usable again, and a standby
 * that answers but is wrong in some other way (a different database) is not detected.
 */
public final class ReadRoute implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReadRoute.class);

    /** The primary's position in its write-ahead log. */
    private static final String PRIMARY_POSITION = "select pg_current_wal_lsn()::text";

    /** Whether the server is a standby, and how far it has replayed the log. */
    private static final String REPLAYED = "select pg_is_in_recovery(), pg_last_wal_replay_lsn()::text";

    /** How often the probe measures the standby. */
    public static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);

    /** The most primary positions kept while the standby has not replayed them (an hour of probes). */
    private static final int MAX_NOTED = 3_600;

    /** Where reads go now and why. */
    public record State(boolean replica, String reason) {}

    private record Noted(long lsn, long nanos) {}

    private final DataSource primary;
    private final HikariDataSource replica;
    private final String replicaName;
    private final Duration maxLag;
    private final LongSupplier nanos;
    private final ArrayDeque<Noted> noted = new ArrayDeque<>();
    private final ScheduledExecutorService probes;
    private final ScheduledFuture<?> probing;
    private volatile State state;

    private ReadRoute(
            DataSource primary,
            HikariDataSource replica,
            String replicaName,
            Duration maxLag,
            LongSupplier nanos,
            boolean probeInBackground) {
        this.primary = Objects.requireNonNull(primary, "primary");
        this.replica = replica;
        this.replicaName = replicaName;
        this.maxLag = maxLag;
        this.nanos = nanos;
        this.state = replica == null
                ? new State(false, "no read URL: every read goes to the primary")
                : new State(false, "the replica at " + replicaName + " has not been measured yet");
        if (replica != null && probeInBackground) {
            probes = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "headway-read-probe");
                t.setDaemon(true);
                return t;
            });
            probing = probes.scheduleWithFixedDelay(
                    this::probeQuietly, 0, PROBE_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        } else {
            probes = null;
            probing = null;
        }
    }

    /** Every read on the primary. */
    public static ReadRoute primaryOnly(DataSource primary) {
        return new ReadRoute(primary, null, null, Duration.ZERO, System::nanoTime, false);
    }

    /**
     * Reads on {@code replica} (a {@link Database#readPool}, closed with this route) while it is at
     * most {@code maxLag} behind {@code primary}, measured in the background every
     * {@link #PROBE_INTERVAL}.
     */
    public static ReadRoute withReplica(DataSource primary, HikariDataSource replica, Duration maxLag) {
        return new ReadRoute(primary, replica, Database.redact(replica.getJdbcUrl()), maxLag, System::nanoTime, true);
    }

    /** As {@link #withReplica}, measured only when a test calls {@link #probe()}, on its clock. */
    static ReadRoute probedByCaller(DataSource primary, HikariDataSource replica, Duration maxLag, LongSupplier nanos) {
        return new ReadRoute(primary, replica, Database.redact(replica.getJdbcUrl()), maxLag, nanos, false);
    }

    /** Where reads go now, and why. */
    public State state() {
        return state;
    }

    /**
     * {@code read} on the replica when it is usable, else on the primary; a failure of the
     * replica's own (see the class) runs it again on the primary. Any other failure is the caller's.
     */
    public <T> T read(Function<DataSource, T> read) {
        if (replica == null || !state.replica()) {
            return read.apply(primary);
        }
        try {
            return read.apply(replica);
        } catch (RuntimeException e) {
            if (!replicaFault(e)) {
                throw e;
            }
            away("a read failed on it: " + Database.redact(rootMessage(e)));
            return read.apply(primary);
        }
    }

    /** {@code read} on the primary: for what must not be stale (a row a replica may not have yet). */
    public <T> T readPrimary(Function<DataSource, T> read) {
        return read.apply(primary);
    }

    /** True when reads would go to the replica now. */
    public boolean onReplica() {
        return replica != null && state.replica();
    }

    /** One measurement: the primary's position noted, the replica's replay compared with what was noted. */
    public void probe() {
        if (replica == null) {
            return;
        }
        long now = nanos.getAsLong();
        try {
            long position = position(primary, PRIMARY_POSITION, false);
            synchronized (noted) {
                Noted last = noted.peekLast();
                if ((last == null || position > last.lsn()) && noted.size() < MAX_NOTED) {
                    noted.addLast(new Noted(position, now));
                }
            }
        } catch (SQLException | NotStandby | RuntimeException e) {
            LOG.debug(
                    "read probe: the primary's position is unknown ({}); the lag is judged on what was noted",
                    e.toString());
        }
        long replayed;
        try {
            replayed = position(replica, REPLAYED, true);
        } catch (NotStandby e) {
            away("it is not a standby (pg_is_in_recovery() is false), so how far behind it is cannot be measured");
            return;
        } catch (SQLException | RuntimeException e) {
            away("it cannot be reached: " + Database.redact(rootMessage(e)));
            return;
        }
        Duration lag;
        synchronized (noted) {
            while (!noted.isEmpty() && noted.peekFirst().lsn() <= replayed) {
                noted.removeFirst();
            }
            lag = noted.isEmpty()
                    ? Duration.ZERO
                    : Duration.ofNanos(now - noted.peekFirst().nanos());
        }
        if (lag.compareTo(maxLag) > 0) {
            away("it is " + lag.toMillis() + " ms behind the primary (HEADWAY_DB_READ_MAX_LAG is " + maxLag.toMillis()
                    + " ms)");
        } else {
            back(lag);
        }
    }

    private void probeQuietly() {
        try {
            probe();
        } catch (RuntimeException e) {
            LOG.warn("read probe failed: {}", Database.redact(e.toString()));
        }
    }

    private void away(String why) {
        State was = state;
        state = new State(false, "reading from the primary: the replica at " + replicaName + " is not used, " + why);
        if (was.replica()) {
            LOG.warn("{}", state.reason());
        }
    }

    private void back(Duration lag) {
        State was = state;
        state = new State(true, "reading from the replica at " + replicaName + ", " + lag.toMillis() + " ms behind");
        if (!was.replica()) {
            LOG.info("{}", state.reason());
        }
    }

    private static final class NotStandby extends Exception {
        private static final long serialVersionUID = 1L;

        NotStandby() {
            super("not a standby", null, false, false);
        }
    }

    /** The log position a probe statement reads: the first column, or (for a standby) the second when the first is true. */
    private static long position(DataSource ds, String sql, boolean standby) throws SQLException, NotStandby {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            if (standby && !rs.getBoolean(1)) {
                throw new NotStandby();
            }
            return lsn(rs.getString(standby ? 2 : 1));
        }
    }

    /** A {@code pg_lsn} as text ({@code 16/B374D848}) as one unsigned number; null (nothing replayed yet) is 0. */
    static long lsn(String text) {
        if (text == null) {
            return 0;
        }
        int slash = text.indexOf('/');
        if (slash < 1) {
            throw new IllegalArgumentException("not a log position: " + text);
        }
        return (Long.parseLong(text.substring(0, slash), 16) << 32) | Long.parseLong(text.substring(slash + 1), 16);
    }

    /**
     * True when {@code e} is the replica's doing, so the primary may answer instead: no connection
     * (SQLSTATE class 08, or the pool's wait for one ran out), the server going away (57P01-57P03),
     * replay cancelling the query (40001, as a standby does when replay must remove rows the query
     * still sees), or the session's statement timeout (57014 outside a search; a search stopped by
     * its own timeout is a {@code SearchTimeoutException}, which is not a {@link StoreException}).
     */
    static boolean replicaFault(Throwable e) {
        if (!(e instanceof StoreException)) {
            return false;
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLTransientConnectionException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                if (state.startsWith("08")
                        || state.startsWith("57P")
                        || state.equals("40001")
                        || state.equals("57014")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    /** Stops the probe and closes the replica's pool (the primary is the caller's). */
    @Override
    public void close() {
        if (probes != null) {
            probing.cancel(true);
            probes.shutdownNow();
        }
        if (replica != null) {
            replica.close();
        }
    }
}
