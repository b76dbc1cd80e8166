package headway.coordination;

import headway.store.CatalogCap;
import headway.store.Holder;
import headway.store.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The article ranges a holder works through, with the semantics of docs/design.md. A holder asks
 * for its next range (the one it already leases, else the lowest planned one by start, claimed
 * with {@code FOR UPDATE SKIP LOCKED}), moves the range's cursor as batches commit, and marks the
 * range done. Every write is fenced by the holder's epoch ({@link Fence}), and the cursor only
 * moves forward and never past the range's end, so a retried or stale write cannot move it back
 * or skip articles.
 *
 * <p>A take and a release re-plan ranges inside the lease's own transaction ({@link LeaseStore}),
 * so those statements are here too, as methods on the caller's connection.
 */
public final class RangeStore {

    private static final String OWN_LEASED_RANGE = """
            select id, group_name, start_article, end_article, next_article, status, priority, node_id, attempts, rule_version
            from ranges where group_name = ? and status = 'leased' and node_id = ?
            order by start_article limit 1
            """;

    /**
     * The lowest planned range in the holder's band: any ({@code all}), the tail's (negative
     * priority), or the history's (priority 0 and up), which a history holder takes only while no
     * tail range is planned, so that it hands the group back to a tail worker between ranges.
     * Parameters: group, catalog cap reached, band three times.
     */
    private static final String LOWEST_PLANNED = """
            select id from ranges r
            where group_name = ? and status = 'planned' and (priority < 0 or not ?)
              and (? = 'all'
                   or (? = 'tail' and priority < 0)
                   or (? = 'history' and priority >= 0
                       and not exists (select 1 from ranges t
                                       where t.group_name = r.group_name and t.status = 'planned' and t.priority < 0)))
            order by start_article limit 1
            for update skip locked
            """;

    private static final String LEASE_RANGE = """
            update ranges
            set status = 'leased', node_id = ?, leased_at = hw_now(), heartbeat_at = hw_now(),
                attempts = attempts + 1, rule_version = ?
            where id = ?
            returning id, group_name, start_article, end_article, next_article, status, priority, node_id, attempts, rule_version
            """;

    private static final String SET_CURRENT_RANGE = """
            update group_leases set current_range_id = ?, heartbeat_at = hw_now() where group_name = ?
            """;

    /** The group's lag as the view group_lag defines it (0 for a group that is not there). */
    private static final String LAG = "select coalesce((select lag from group_lag where group_name = ?), 0)";

    private static final String CURSOR = "select next_article from ranges where id = ?";

    /** Renews the lease and moves a range's cursor, in one statement because the indexer runs it with every batch. */
    private static final String ADVANCE_RANGE = """
            with renewed as (update group_leases set heartbeat_at = hw_now() where group_name = ?)
            update ranges
            set next_article = greatest(next_article, least(?, end_article + 1)), heartbeat_at = hw_now()
            where id = ? and group_name = ? and status = 'leased' and node_id = ?
            """;

    private static final String FINISH_RANGE = """
            update ranges
            set status = 'done', next_article = end_article + 1, done_at = hw_now(), heartbeat_at = hw_now()
            where id = ? and group_name = ? and status = 'leased' and node_id = ?
            """;

    private static final String COUNT_FINISHED = """
            update group_leases
            set ranges_done = ranges_done + 1, headers = headers + ?, current_range_id = null, heartbeat_at = hw_now()
            where group_name = ?
            """;

    private static final String REPLAN_FROM_SNAPSHOT = """
            update ranges
            set status = 'planned', node_id = null, done_at = null,
                next_article = least(next_article, greatest(start_article, ?))
            where group_name = ? and end_article >= ?
              and (status <> 'planned' or next_article > greatest(start_article, ?))
              and (? = 'all' or (? = 'tail' and priority < 0) or (? = 'history' and priority >= 0))
            """;

    /** Parameters: group, article, band three times (see {@link Band}: all, or tail or history ranges alone). */
    private static final String REPLAN_TO_REBUILD_WINDOW = """
            update ranges
            set status = 'planned', node_id = null, done_at = null, next_article = start_article
            where group_name = ? and end_article >= ? and (status <> 'planned' or next_article > start_article)
              and (? = 'all' or (? = 'tail' and priority < 0) or (? = 'history' and priority >= 0))
            """;

    private static final String REPLAN_AT_CURSOR = """
            update ranges set status = 'planned', node_id = null
            where group_name = ? and status = 'leased'
            """;

    private static final String RELEASE_LEASED = """
            update ranges set status = 'planned', node_id = null where group_name = ? and status = 'leased' and node_id = ?
            """;

    private final DataSource dataSource;
    private final Fence fence;
    private final CatalogCap cap;

    /** A store over {@code dataSource}; {@code catalogCapBytes} of 0 means no cap (see {@link LeaseStore}). */
    public RangeStore(DataSource dataSource, long catalogCapBytes) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.fence = new Fence(dataSource);
        this.cap = new CatalogCap(catalogCapBytes);
    }

    /**
     * The range this holder already leases in its group, else the lowest planned range by start
     * (skipping rows another transaction has locked; history only while the catalog is under its
     * cap), leased to it; empty when caught up.
     */
    public Optional<RangeRow> nextRange(Holder holder, Integer ruleVersion) {
        return nextRange(holder, ruleVersion, Band.ALL);
    }

    /**
     * As {@link #nextRange(Holder, Integer)}, taking only ranges of {@code band}: a tail holder
     * only tail ranges, a history holder only history ranges and none while a tail range is
     * planned (then it is caught up, hands the group back, and the group leases for its tail).
     */
    public Optional<RangeRow> nextRange(Holder holder, Integer ruleVersion, Band band) {
        return fence.run(holder, "choosing the next range of " + holder.group(), c -> {
            Optional<RangeRow> own = Jdbc.first(c, OWN_LEASED_RANGE, RangeRow::read, holder.group(), holder.node());
            if (own.isPresent()) {
                return own;
            }
            String b = band.key();
            Optional<Long> id =
                    Jdbc.first(c, LOWEST_PLANNED, rs -> rs.getLong(1), holder.group(), cap.reached(c), b, b, b);
            if (id.isEmpty()) {
                return Optional.empty();
            }
            RangeRow leased = Jdbc.one(c, LEASE_RANGE, RangeRow::read, holder.node(), ruleVersion, id.get());
            Jdbc.update(c, SET_CURRENT_RANGE, id.get(), holder.group());
            return Optional.of(leased);
        });
    }

    /** Articles left in the group's unfinished ranges (the view group_lag). */
    public long lag(String group) {
        return Jdbc.inTransaction(
                dataSource, "reading the lag of " + group, c -> Jdbc.one(c, LAG, rs -> rs.getLong(1), group));
    }

    /** The range's committed cursor: where a retried attempt resumes, whatever its heartbeat said. */
    public long cursor(long rangeId) {
        return Jdbc.inTransaction(
                dataSource,
                "reading the cursor of range " + rangeId,
                c -> Jdbc.first(c, CURSOR, rs -> rs.getLong(1), rangeId)
                        .orElseThrow(() -> new IllegalArgumentException("no range with id " + rangeId)));
    }

    /** Renews the lease and moves the range's cursor forward to {@code cursor} (never back). */
    public void heartbeat(Holder holder, long rangeId, long cursor) {
        fence.run(holder, "heartbeat of " + holder.group(), c -> {
            advance(c, holder, rangeId, cursor);
            return null;
        });
    }

    /**
     * Moves a range's cursor inside the caller's fenced transaction, so catalog writes and the
     * cursor commit together; the cursor only moves forward and never past the range's end.
     */
    public void advance(Connection c, Holder holder, long rangeId, long cursor) throws SQLException {
        Jdbc.update(c, ADVANCE_RANGE, holder.group(), cursor, rangeId, holder.group(), holder.node());
    }

    /** Marks the range done and counts it on the lease; a second call for the same range changes nothing. */
    public boolean rangeDone(Holder holder, long rangeId, long headers) {
        return fence.run(holder, "finishing range " + rangeId + " of " + holder.group(), c -> {
            boolean finished = Jdbc.update(c, FINISH_RANGE, rangeId, holder.group(), holder.node()) == 1;
            if (finished) {
                Jdbc.update(c, COUNT_FINISHED, headers, holder.group());
            }
            return finished;
        });
    }

    /**
     * For a holder whose snapshot could not be read: re-plans, from their start, the group's
     * ranges that end at or after {@code article} (see {@link LeaseStore#replanToRebuildWindow}).
     */
    static int replanToRebuildWindow(Connection c, String group, long article, Band band) throws SQLException {
        String b = band.key();
        return Jdbc.update(c, REPLAN_TO_REBUILD_WINDOW, group, article, b, b, b);
    }

    /**
     * For a take with a snapshot at cursor {@code next}: every range from the snapshot's article on
     * goes back to planned, its cursor set back to {@code max(start, next)}. Returns the ranges re-planned.
     */
    static int replanFromSnapshot(Connection c, String group, long next, Band band) throws SQLException {
        String b = band.key();
        return Jdbc.update(c, REPLAN_FROM_SNAPSHOT, next, group, next, next, b, b, b);
    }

    /** For a take without a snapshot: the group's leased ranges go back to planned at their cursor. */
    static int replanAtCursor(Connection c, String group) throws SQLException {
        return Jdbc.update(c, REPLAN_AT_CURSOR, group);
    }

    /** For a release: the holder's leased ranges go back to planned at their cursor. */
    static void releaseLeased(Connection c, Holder holder) throws SQLException {
        Jdbc.update(c, RELEASE_LEASED, holder.group(), holder.node());
    }
}
