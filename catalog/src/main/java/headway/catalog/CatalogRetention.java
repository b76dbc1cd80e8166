package headway.catalog;

import headway.store.Jdbc;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;

/**
 * Retention: what leaves the catalog once it was posted longer ago than the deployment keeps, and
 * what the catalog holds (its bytes, its oldest and newest post). The unit removed is a release with
 * every binary of it, never part of one: a release goes only when each of its binaries was posted
 * before the horizon and none lies where a holder may still write to it, namely within {@code
 * HEADWAY_WINDOW_MAX_AGE} articles of a range not done (articles not indexed yet may still join it)
 * or of the group's furthest cursor (a window holds only binaries first seen at most that many
 * articles behind the newest article it was fed). A release without a posting time is kept: its age
 * is not known. The missing runs and rejected articles of a group go when they lie below both the
 * articles of the releases removed and every article the catalog keeps for the group; article numbers
 * grow with arrival, so they were posted before the horizon too. They carry no time of their own, so
 * a group whose catalog never held a binary keeps them.
 *
 * <p>The purge reads the releases posted before the horizon oldest first along {@code releases_posted}
 * with a keyset cursor, in transactions of at most {@code batch} candidates, so a batch costs its own
 * rows, never those earlier batches deleted or kept. Each transaction locks the lease rows of the
 * groups its candidates belong to for no-key update, in name order: a holder's fenced write holds
 * its group's row for share, so the purge waits for the writes in flight and holds the next ones off
 * for one batch, and nothing a holder writes can interleave with the check and the delete. A lock is
 * waited for at most five seconds; the releases of a group busier than that are left to the next run
 * (the group counted as busy). Unchecked: a database error is a
 * {@link headway.store.StoreException}.
 */
public final class CatalogRetention {

    /** The horizon by the database's clock, so that every node agrees on it. */
    private static final String HORIZON = "select hw_now() - make_interval(days => ?)";

    private static final String LOCK_TIMEOUT = "set local lock_timeout = '5s'";

    private static final String LOCK_GROUP = "select 1 from group_leases where group_name = ? for no key update";

    /**
     * The next releases posted before the horizon, oldest first, after the keyset cursor (posted,
     * group, poster, name): read along {@code releases_posted}, so a batch costs its own rows and
     * never the ones earlier batches deleted or kept.
     */
    private static final String CANDIDATES = """
            select group_name, poster, name, posted
            from releases
            where posted < ? and posted >= ? and (posted, group_name, poster, name) > (?, ?, ?, ?)
            order by posted, group_name, poster, name
            limit ?
            """;

    /** The first batch's candidates: the oldest releases. */
    private static final String FIRST_CANDIDATES = """
            select group_name, poster, name, posted
            from releases
            where posted < ?
            order by posted, group_name, poster, name
            limit ?
            """;

    /**
     * Removes, of the candidates, the releases (with their binaries and grab counts) whose every
     * binary was posted before the horizon and lies out of every holder's reach; per group, the
     * releases and binaries removed and the highest article of those binaries. The binaries in the
     * months given (partitions wholly before the horizon) are not deleted row by row: their
     * partitions are dropped after the releases ({@link CatalogMonths}).
     */
    private static final String PURGE_RELEASES = """
            with candidate as (
                select * from unnest(?::text[], ?::text[], ?::text[]) as c(group_name, poster, name)
            ),
            reach as (
                select group_name, max(next_article) - 1 - ?::bigint as held_from
                from ranges where group_name = any(?::text[]) group by group_name
            ),
            doomed as (
                select r.group_name, r.poster, r.name, r.guid
                from releases r join candidate c using (group_name, poster, name)
                where r.posted < ?
                  and not exists (
                    select 1 from binaries b left join reach h on h.group_name = b.group_name
                    where b.group_name = r.group_name and b.poster = r.poster and b.release_name = r.name
                      and (b.posted is null or b.posted >= ? or b.last_article >= h.held_from
                           or exists (select 1 from ranges g
                                      where g.group_name = b.group_name and g.status <> 'done'
                                        and g.start_article <= b.last_article + ?
                                        and g.end_article >= b.first_article - ?)))
            ),
            doomed_binaries as (
                select b.group_name, b.last_article
                from binaries b join doomed d
                  on b.group_name = d.group_name and b.poster = d.poster and b.release_name = d.name
            ),
            gone_binaries as (
                delete from binaries b using doomed d
                where b.group_name = d.group_name and b.poster = d.poster and b.release_name = d.name
                  and b.posted_month <> all(?::date[])
                returning 1
            ),
            gone_grabs as (
                delete from release_grabs g using doomed d where g.guid = d.guid returning 1
            ),
            gone as (
                delete from releases r using doomed d
                where r.group_name = d.group_name and r.poster = d.poster and r.name = d.name
                returning r.group_name
            )
            select group_name, coalesce(r.n, 0), coalesce(b.n, 0), b.highest
            from (select group_name, count(*) as n, max(last_article) as highest from doomed_binaries group by 1) b
            full join (select group_name, count(*) as n from gone group by 1) r using (group_name)
            """;

    /** The lowest article the group's catalog still holds, or null. */
    private static final String LOWEST_KEPT = "select min(first_article) from binaries where group_name = ?";

    private static final String PURGE_RUNS = "delete from missing_runs where group_name = ? and to_article < ?";

    private static final String PURGE_OLD_RUNS =
            "delete from missing_articles where group_name = ? and last_article < ?";

    private static final String PURGE_REJECTED = "delete from rejected_articles where group_name = ? and article < ?";

    private static final String OVERVIEW = "select catalog_bytes(), min(posted), max(posted) from releases";

    private final DataSource dataSource;
    private final CatalogMonths months;

    public CatalogRetention(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.months = new CatalogMonths(dataSource);
    }

    /**
     * What one purge removed, how many groups were too busy to wait for, and the monthly partitions
     * it made and dropped whole (a month whose lock was not granted in time counts as busy).
     */
    public record Purged(
            Instant horizon,
            long releases,
            long binaries,
            long missingRuns,
            long rejected,
            int busy,
            boolean finished,
            int monthsMade,
            int monthsDropped) {}

    /** The catalog's bytes ({@code catalog_bytes()}) and its oldest and newest release by posting time (null when empty). */
    public record Overview(long bytes, Instant oldest, Instant newest) {}

    /**
     * Removes what was posted more than {@code days} days ago, group by group in transactions of at most
     * {@code batch} releases, leaving alone what lies within {@code windowMaxAge} articles of a holder's
     * reach. Idempotent: a second run with the same horizon removes nothing.
     */
    public Purged purge(int days, long windowMaxAge, int batch) {
        return purge(days, windowMaxAge, batch, () -> true);
    }

    /**
     * As {@link #purge(int, long, int)}, asking {@code keepGoing} before each transaction and stopping
     * when it says no ({@link Purged#finished()} false: the next run goes on, the purge is idempotent).
     */
    public Purged purge(int days, long windowMaxAge, int batch, BooleanSupplier keepGoing) {
        if (days < 1 || windowMaxAge < 1 || batch < 1) {
            throw new IllegalArgumentException("retention days, window max age and batch must be positive, were " + days
                    + ", " + windowMaxAge + ", " + batch);
        }
        Instant horizon = Jdbc.inTransaction(
                dataSource,
                "reading the retention horizon",
                c -> Jdbc.one(c, HORIZON, rs -> Jdbc.instant(rs, 1), days));
        int made = months.prepare(horizon);
        List<LocalDate> whole = months.before(horizon);
        Key after = null;
        Totals totals = new Totals();
        Set<String> busy = new TreeSet<>();
        boolean finished = true;
        while (true) {
            if (!keepGoing.getAsBoolean()) {
                finished = false;
                break;
            }
            Key from = after;
            Key last = Jdbc.inTransaction(
                    dataSource,
                    "purging releases",
                    c -> purgeBatch(c, horizon, whole, from, batch, windowMaxAge, totals, busy));
            if (last == null) {
                break;
            }
            after = last;
        }
        int dropped = 0;
        // a month's drop moves back the rows of every release kept: after a finished purge with no
        // group left busy, only the few a holder may still write to
        if (finished && busy.isEmpty()) {
            for (LocalDate month : whole) {
                Long kept = months.drop(month);
                if (kept == null) {
                    busy.add("binaries_" + month);
                } else if (kept >= 0) {
                    dropped++;
                }
            }
        }
        for (Map.Entry<String, Long> below : totals.highest.entrySet()) {
            long[] misses = purgeMisses(below.getKey(), below.getValue());
            totals.runs += misses[0];
            totals.rejected += misses[1];
        }
        return new Purged(
                horizon,
                totals.releases,
                totals.binaries,
                totals.runs,
                totals.rejected,
                busy.size(),
                finished,
                made,
                dropped);
    }

    /** Makes the monthly partitions of the current month and {@value CatalogMonths#AHEAD} ahead that are missing, with retention off. */
    public int prepareMonths() {
        return months.prepare(null);
    }

    /** The catalog's size and the span of its posting times. */
    public Overview overview() {
        return Jdbc.inTransaction(
                dataSource,
                "reading the catalog's size and age",
                c -> Jdbc.one(
                        c, OVERVIEW, rs -> new Overview(rs.getLong(1), Jdbc.instant(rs, 2), Jdbc.instant(rs, 3))));
    }

    /** A release's place in the purge's order. */
    private record Key(Instant posted, String group, String poster, String name) {}

    /** What a run removed so far, and per group the highest article of the binaries removed. */
    private static final class Totals {
        long releases;
        long binaries;
        long runs;
        long rejected;
        final Map<String, Long> highest = new TreeMap<>();
    }

    /**
     * One transaction: the next candidates after {@code after}, their groups' lease rows locked (a
     * group whose holder keeps its row past the timeout is left out, its releases to the next run),
     * and the purge of those that qualify; returns the last candidate read, or null when none was left.
     * {@code after} null starts at the oldest release.
     */
    private static Key purgeBatch(
            Connection c,
            Instant horizon,
            List<LocalDate> whole,
            Key after,
            int limit,
            long windowMaxAge,
            Totals totals,
            Set<String> busy)
            throws SQLException {
        Timestamp at = Timestamp.from(horizon);
        Jdbc.Row<Key> key = rs -> new Key(Jdbc.instant(rs, 4), rs.getString(1), rs.getString(2), rs.getString(3));
        List<Key> candidates = after == null
                ? Jdbc.list(c, FIRST_CANDIDATES, key, at, limit)
                : Jdbc.list(
                        c,
                        CANDIDATES,
                        key,
                        at,
                        Timestamp.from(after.posted()),
                        Timestamp.from(after.posted()),
                        after.group(),
                        after.poster(),
                        after.name(),
                        limit);
        if (candidates.isEmpty()) {
            return null;
        }
        Set<String> locked = new TreeSet<>();
        for (String group : new TreeSet<>(candidates.stream().map(Key::group).toList())) {
            if (lockGroup(c, group)) {
                locked.add(group);
            } else {
                busy.add(group);
            }
        }
        List<Key> mine =
                candidates.stream().filter(k -> locked.contains(k.group())).toList();
        if (!mine.isEmpty()) {
            try (PreparedStatement s = c.prepareStatement(PURGE_RELEASES)) {
                s.setArray(
                        1, c.createArrayOf("text", mine.stream().map(Key::group).toArray()));
                s.setArray(
                        2,
                        c.createArrayOf("text", mine.stream().map(Key::poster).toArray()));
                s.setArray(
                        3, c.createArrayOf("text", mine.stream().map(Key::name).toArray()));
                s.setLong(4, windowMaxAge);
                s.setArray(5, c.createArrayOf("text", locked.toArray()));
                s.setTimestamp(6, at);
                s.setTimestamp(7, at);
                s.setLong(8, windowMaxAge);
                s.setLong(9, windowMaxAge);
                s.setArray(
                        10,
                        c.createArrayOf(
                                "date", whole.stream().map(LocalDate::toString).toArray()));
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        totals.releases += rs.getLong(2);
                        totals.binaries += rs.getLong(3);
                        Long highest = Jdbc.nullableLong(rs, 4);
                        if (highest != null) {
                            totals.highest.merge(rs.getString(1), highest, Math::max);
                        }
                    }
                }
            }
        }
        return candidates.get(candidates.size() - 1);
    }

    /** Deletes the group's missing runs and rejected articles below {@code below} and below what it keeps. */
    private long[] purgeMisses(String group, long below) {
        return Jdbc.inTransaction(dataSource, "purging missing runs of " + group, c -> {
            if (!lockGroup(c, group)) {
                return new long[] {0, 0};
            }
            Long kept = Jdbc.one(c, LOWEST_KEPT, rs -> Jdbc.nullableLong(rs, 1), group);
            long bound = kept == null ? below : Math.min(below, kept);
            long runs = (long) Jdbc.update(c, PURGE_RUNS, group, bound) + Jdbc.update(c, PURGE_OLD_RUNS, group, bound);
            long rejected = Jdbc.update(c, PURGE_REJECTED, group, bound);
            return new long[] {runs, rejected};
        });
    }

    /** Locks the group's lease row against holders' writes; false when a holder kept it past the timeout. */
    private static boolean lockGroup(Connection c, String group) throws SQLException {
        Jdbc.update(c, LOCK_TIMEOUT);
        try (var savepointed = c.createStatement()) {
            savepointed.execute("savepoint lock_group");
        }
        try {
            Jdbc.first(c, LOCK_GROUP, rs -> 1, group);
            return true;
        } catch (SQLException e) {
            if ("55P03".equals(e.getSQLState())) {
                try (var undo = c.createStatement()) {
                    undo.execute("rollback to savepoint lock_group");
                }
                return false;
            }
            throw e;
        }
    }
}
