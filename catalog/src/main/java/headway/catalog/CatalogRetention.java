package headway.catalog;

import headway.store.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
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
 * <p>Each group is purged in transactions of at most {@code batch} releases, each holding the group's
 * lease row for no-key update: a holder's fenced write holds that row for share, so the purge waits
 * for the writes in flight and holds the next ones off for one batch, and nothing a holder writes can
 * interleave with the check and the delete. The lock is waited for at most five seconds; a group busier
 * than that is left to the next run (counted as busy). Unchecked: a database error is a
 * {@link headway.store.StoreException}.
 */
public final class CatalogRetention {

    /** The horizon by the database's clock, so that every node agrees on it. */
    private static final String HORIZON = "select hw_now() - make_interval(days => ?)";

    private static final String GROUPS = "select name from groups order by name";

    private static final String LOCK_TIMEOUT = "set local lock_timeout = '5s'";

    private static final String LOCK_GROUP = "select 1 from group_leases where group_name = ? for no key update";

    /**
     * Removes at most {@code limit} releases of one group (and their binaries and grab counts) that are
     * wholly before the horizon and out of every holder's reach; returns the releases, the binaries
     * and the highest article of the binaries removed.
     */
    private static final String PURGE_RELEASES = """
            with reach as (
                select coalesce(max(next_article), 0) - 1 - ?::bigint as held_from
                from ranges where group_name = ?
            ),
            doomed as (
                select r.group_name, r.poster, r.name, r.guid
                from releases r
                where r.group_name = ? and r.posted < ?
                  and not exists (
                    select 1 from binaries b, reach
                    where b.group_name = r.group_name and b.poster = r.poster and b.release_name = r.name
                      and (b.posted is null or b.posted >= ? or b.last_article >= reach.held_from
                           or exists (select 1 from ranges g
                                      where g.group_name = b.group_name and g.status <> 'done'
                                        and g.start_article <= b.last_article + ?
                                        and g.end_article >= b.first_article - ?)))
                order by r.posted
                limit ?
            ),
            gone_binaries as (
                delete from binaries b using doomed d
                where b.group_name = d.group_name and b.poster = d.poster and b.release_name = d.name
                returning b.last_article
            ),
            gone_grabs as (
                delete from release_grabs g using doomed d where g.guid = d.guid returning 1
            ),
            gone as (
                delete from releases r using doomed d
                where r.group_name = d.group_name and r.poster = d.poster and r.name = d.name
                returning 1
            )
            select (select count(*) from gone), (select count(*) from gone_binaries),
                   (select max(last_article) from gone_binaries), (select count(*) from gone_grabs)
            """;

    /** The lowest article the group's catalog still holds, or null. */
    private static final String LOWEST_KEPT = "select min(first_article) from binaries where group_name = ?";

    private static final String PURGE_RUNS = "delete from missing_runs where group_name = ? and to_article < ?";

    private static final String PURGE_OLD_RUNS = "delete from missing_articles where group_name = ? and last_article < ?";

    private static final String PURGE_REJECTED = "delete from rejected_articles where group_name = ? and article < ?";

    private static final String OVERVIEW = "select catalog_bytes(), min(posted), max(posted) from releases";

    private final DataSource dataSource;

    public CatalogRetention(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** What one purge removed, and how many groups were too busy to wait for. */
    public record Purged(
            Instant horizon, long releases, long binaries, long missingRuns, long rejected, int busy, boolean finished) {}

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
            throw new IllegalArgumentException("retention days, window max age and batch must be positive, were "
                    + days + ", " + windowMaxAge + ", " + batch);
        }
        Instant horizon = Jdbc.inTransaction(
                dataSource, "reading the retention horizon", c -> Jdbc.one(c, HORIZON, rs -> Jdbc.instant(rs, 1), days));
        List<String> groups = Jdbc.inTransaction(
                dataSource, "listing groups for retention", c -> Jdbc.list(c, GROUPS, rs -> rs.getString(1)));
        long releases = 0;
        long binaries = 0;
        long runs = 0;
        long rejected = 0;
        int busy = 0;
        boolean finished = true;
        for (String group : groups) {
            Long below = null;
            while (true) {
                if (!keepGoing.getAsBoolean()) {
                    finished = false;
                    break;
                }
                Batch b = purgeBatch(group, horizon, windowMaxAge, batch);
                if (b == null) {
                    busy++;
                    break;
                }
                releases += b.releases();
                binaries += b.binaries();
                if (b.highest() != null) {
                    below = below == null ? b.highest() : Math.max(below, b.highest());
                }
                if (b.releases() < batch) {
                    break;
                }
            }
            if (below != null) {
                long[] misses = purgeMisses(group, below);
                runs += misses[0];
                rejected += misses[1];
            }
            if (!finished) {
                break;
            }
        }
        return new Purged(horizon, releases, binaries, runs, rejected, busy, finished);
    }

    /** The catalog's size and the span of its posting times. */
    public Overview overview() {
        return Jdbc.inTransaction(
                dataSource,
                "reading the catalog's size and age",
                c -> Jdbc.one(
                        c, OVERVIEW, rs -> new Overview(rs.getLong(1), Jdbc.instant(rs, 2), Jdbc.instant(rs, 3))));
    }

    private record Batch(long releases, long binaries, Long highest) {}

    /** One transaction of one group, or null when its lease row stayed locked past the timeout. */
    private Batch purgeBatch(String group, Instant horizon, long windowMaxAge, int limit) {
        return Jdbc.inTransaction(dataSource, "purging releases of " + group, c -> {
            if (!lockGroup(c, group)) {
                return null;
            }
            java.sql.Timestamp at = java.sql.Timestamp.from(horizon);
            return Jdbc.one(
                    c,
                    PURGE_RELEASES,
                    rs -> new Batch(rs.getLong(1), rs.getLong(2), Jdbc.nullableLong(rs, 3)),
                    windowMaxAge,
                    group,
                    group,
                    at,
                    at,
                    windowMaxAge,
                    windowMaxAge,
                    limit);
        });
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
