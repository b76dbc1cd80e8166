package headway.catalog;

import headway.store.Jdbc;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The monthly partitions of {@code binaries} (V33): made ahead of the writes and back to the
 * retention horizon, and dropped whole once the horizon has passed their month. Making a month
 * locks the parent only SHARE UPDATE EXCLUSIVE (writers go on) and {@code binaries_default}
 * briefly; dropping one locks {@code binaries} ACCESS EXCLUSIVE for the detach and the move of the
 * rows of releases retention kept (the drop of the detached table follows in a transaction of its
 * own), each wait bounded by {@value #LOCK_TIMEOUT} so that writers queue behind it at most that
 * long; a month that could not be locked is tried again by the next run. Unchecked: a database error is a {@link headway.store.StoreException}.
 */
public final class CatalogMonths {

    /** Months made ahead of the current one (by the database's clock): a quarter of runs that may fail before a write has no partition of its month. */
    public static final int AHEAD = 3;

    /** How long a run waits for a lock before it leaves the month to the next run. */
    static final String LOCK_TIMEOUT = "2s";

    private static final String SET_LOCK_TIMEOUT = "set local lock_timeout = '" + LOCK_TIMEOUT + "'";

    private static final String LOCK_NOT_AVAILABLE = "55P03";

    /** The first day of the current month by the database's clock. */
    private static final String THIS_MONTH = "select date_trunc('month', hw_now() at time zone 'UTC')::date";

    private static final String MAKE = "select binaries_month(?::date)";

    private static final String DETACH = "select binaries_detach_month(?::date)";

    private static final String DROP_DETACHED = "select binaries_drop_detached()";

    /** The monthly partitions, oldest first. */
    private static final String MONTHS = """
            select to_date(substr(c.relname, 10), 'YYYY_MM')
            from pg_inherits i join pg_class c on c.oid = i.inhrelid
            where i.inhparent = 'binaries'::regclass and c.relname ~ '^binaries_[0-9]{4}_[0-9]{2}$'
            order by 1
            """;

    private final DataSource dataSource;

    public CatalogMonths(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** The months that have a partition, oldest first. */
    public List<LocalDate> months() {
        return Jdbc.inTransaction(
                dataSource,
                "listing the catalog's months",
                c -> Jdbc.list(c, MONTHS, rs -> rs.getObject(1, LocalDate.class)));
    }

    /**
     * Makes the partitions from the month of {@code back} (null: the current month) to {@value
     * #AHEAD} months ahead that are missing, each in a transaction of its own; returns how many it
     * made. A month whose lock was not granted in time is left to the next run. The months there are
     * are read once, so a run that makes nothing costs one query, not a transaction a month (a
     * three-year horizon was 40 of them: 0.87 of the 0.98 s `bench catalog` gave a purge).
     */
    public int prepare(Instant back) {
        LocalDate now = Jdbc.inTransaction(
                dataSource,
                "reading the current month",
                c -> Jdbc.one(c, THIS_MONTH, rs -> rs.getObject(1, LocalDate.class)));
        LocalDate from =
                back == null ? now : back.atZone(ZoneOffset.UTC).toLocalDate().withDayOfMonth(1);
        Set<LocalDate> there = new HashSet<>(months());
        int made = 0;
        for (LocalDate m = from; !m.isAfter(now.plusMonths(AHEAD)); m = m.plusMonths(1)) {
            LocalDate month = m;
            if (there.contains(month)) {
                continue;
            }
            Boolean done = locked(
                    "making the catalog's month " + month, c -> Jdbc.one(c, MAKE, rs -> rs.getBoolean(1), month));
            made += Boolean.TRUE.equals(done) ? 1 : 0;
        }
        return made;
    }

    /** The months whose partitions lie wholly before {@code horizon}, oldest first: what {@link #drop} may take. */
    List<LocalDate> before(Instant horizon) {
        return months().stream()
                .filter(m -> !m.plusMonths(1)
                        .atStartOfDay(ZoneOffset.UTC)
                        .toInstant()
                        .isAfter(horizon))
                .toList();
    }

    /**
     * Drops month {@code month}'s partition, keeping (in {@code binaries_default}) the binaries of
     * every release still in the catalog: detached in one transaction under {@code binaries}' lock,
     * dropped in another that locks nothing writers use. Returns the rows kept, -1 when the month
     * has no partition, or null when its lock was not granted in time.
     */
    Long drop(LocalDate month) {
        Long kept =
                locked("detaching the catalog's month " + month, c -> Jdbc.one(c, DETACH, rs -> rs.getLong(1), month));
        Jdbc.inTransaction(dataSource, "dropping detached months", c -> Jdbc.one(c, DROP_DETACHED, rs -> rs.getInt(1)));
        return kept;
    }

    /** Runs {@code work} in a transaction that waits at most {@link #LOCK_TIMEOUT} for a lock; null when one was not granted. */
    private <T> T locked(String doing, Jdbc.Work<T> work) {
        return Jdbc.inTransaction(dataSource, doing, c -> {
            Jdbc.update(c, SET_LOCK_TIMEOUT);
            try (var s = c.createStatement()) {
                s.execute("savepoint months");
            }
            try {
                return work.run(c);
            } catch (SQLException e) {
                if (!LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                    throw e;
                }
                try (var undo = c.createStatement()) {
                    undo.execute("rollback to savepoint months");
                }
                return null;
            }
        });
    }
}
