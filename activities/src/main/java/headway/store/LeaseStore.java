package headway.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Leases on groups and the ranges a holder works through, with the semantics of DESIGN.md.
 *
 * <p>Taking a group is serialized by one advisory lock because the choice reads several tables;
 * every take adds one to the group's epoch and re-plans what the window's snapshot does not cover.
 * Every other holder write goes through {@link #fenced}: it share-locks the lease row and checks
 * the epoch first, so a take (which locks the row for update) waits for writes in flight, and a
 * write after a take is refused with {@link LeaseLostException}. The cost is one extra row lock
 * per holder transaction.
 *
 * <p>When the catalog has reached its size cap, only tail ranges (negative priority) are leased,
 * so the newest articles keep flowing while history waits.
 */
public final class LeaseStore {

    private static final long LEASE_LOCK_KEY = 0x6865616477617931L; // "headway1"

    private static final String ADVISORY_LOCK = "select pg_advisory_xact_lock(?)";

    private static final String GROUP_ACTIVE = "select active from groups where name = ?";

    private static final String ENSURE_LEASE_ROW = """
            insert into group_leases (group_name) values (?) on conflict (group_name) do nothing
            """;

    private static final String LOCK_LEASE_FOR_TAKE = """
            select holder_node, epoch, snapshot_next,
                   heartbeat_at > hw_now() - ? * interval '1 millisecond' as live,
                   greatest(0, extract(epoch from heartbeat_at + ? * interval '1 millisecond' - hw_now()) * 1000)::bigint as free_in
            from group_leases where group_name = ? for update
            """;

    private static final String REPLAN_FROM_SNAPSHOT = """
            update ranges
            set status = 'planned', node_id = null, done_at = null,
                next_article = least(next_article, greatest(start_article, ?))
            where group_name = ? and end_article >= ?
              and (status <> 'planned' or next_article > greatest(start_article, ?))
            """;

    private static final String REPLAN_TO_REBUILD_WINDOW = """
            update ranges
            set status = 'planned', node_id = null, done_at = null, next_article = start_article
            where group_name = ? and end_article >= ? and (status <> 'planned' or next_article > start_article)
            """;

    private static final String REPLAN_AT_CURSOR = """
            update ranges set status = 'planned', node_id = null
            where group_name = ? and status = 'leased'
            """;

    private static final String TAKE = """
            update group_leases
            set holder_node = ?, epoch = epoch + 1, leased_at = hw_now(), heartbeat_at = hw_now(),
                free_since = null, current_range_id = null
            where group_name = ?
            returning epoch
            """;

    private static final String RECORD_EVENT = """
            insert into lease_events (group_name, kind, node_id, epoch, other_node, other_epoch, detail)
            values (?, ?, ?, ?, ?, ?, ?)
            """;

    /**
     * The leasing order: most urgent planned range, then longest unheld (never held first), then
     * group priority. A range still leased by a quiet holder counts as planned work, because only
     * a take puts it back to planned.
     */
    private static final String LEASING_ORDER = """
            select g.name, min(r.priority) as urgency
            from groups g
            join ranges r on r.group_name = g.name
                         and ((r.status = 'planned' and (r.priority < 0 or not ?)) or r.status = 'leased')
            left join group_leases l on l.group_name = g.name
            where g.active
              and (l.holder_node is null or l.heartbeat_at <= hw_now() - ? * interval '1 millisecond')
            group by g.name, g.priority, l.holder_node, l.free_since, l.heartbeat_at
            order by urgency,
                     case when l.holder_node is null then l.free_since else l.heartbeat_at end asc nulls first,
                     g.priority, g.name
            limit ?
            """;

    private static final String FENCE = "select holder_node, epoch from group_leases where group_name = ? for share";

    /** The fence that also names the writer's epoch in the transaction, for audits (a trigger may compare it with the lease's). */
    private static final String FENCE_AND_TAG = """
            select holder_node, epoch, set_config('headway.epoch', ?, true)
            from group_leases where group_name = ? for share
            """;

    private static final String OWN_LEASED_RANGE = """
            select id, group_name, start_article, end_article, next_article, status, priority, node_id, attempts, rule_version
            from ranges where group_name = ? and status = 'leased' and node_id = ?
            order by start_article limit 1
            """;

    private static final String LOWEST_PLANNED = """
            select id from ranges
            where group_name = ? and status = 'planned' and (priority < 0 or not ?)
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

    private static final String LAG = """
            select coalesce(sum(end_article - next_article + 1), 0) from ranges
            where group_name = ? and status <> 'done'
            """;

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

    private static final String RELEASE_RANGES = """
            update ranges set status = 'planned', node_id = null where group_name = ? and status = 'leased' and node_id = ?
            """;

    private static final String CLEAR_HOLDER = """
            update group_leases set holder_node = null, free_since = hw_now(), current_range_id = null where group_name = ?
            """;

    private static final String RECORD_SNAPSHOT = """
            update group_leases set snapshot_next = ?, snapshot_at = hw_now() where group_name = ?
            """;

    private static final String OUTLOOK = """
            select g.active,
                   count(*) filter (where (r.status = 'planned' and (r.priority < 0 or not ?)) or r.status = 'leased'),
                   coalesce(sum(r.end_article - r.next_article + 1) filter (where r.status <> 'done'), 0),
                   min(r.priority) filter (where (r.status = 'planned' and (r.priority < 0 or not ?)) or r.status = 'leased')
            from groups g left join ranges r on r.group_name = g.name
            where g.name = ?
            group by g.active
            """;

    private static final String CATALOG_BYTES = """
            select coalesce(sum(pg_total_relation_size(t.oid)), 0)
            from unnest(array['binaries', 'releases']) as n(name)
            join pg_class t on t.oid = to_regclass(n.name)
            """;

    private final DataSource dataSource;
    private final long catalogCapBytes;

    /** A store over {@code dataSource}; {@code catalogCapBytes} of 0 means no cap. */
    public LeaseStore(DataSource dataSource, long catalogCapBytes) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        if (catalogCapBytes < 0) {
            throw new IllegalArgumentException("catalog cap must be >= 0 bytes (0 = no cap), was " + catalogCapBytes);
        }
        this.catalogCapBytes = catalogCapBytes;
    }

    /** Work a holder does inside its fenced transaction. */
    @FunctionalInterface
    public interface FencedWork<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Takes {@code group} for {@code node} when it is free or its holder has been quiet for longer
     * than {@code ttl}; refused (naming the live holder) otherwise. A node that already holds the
     * group takes it again with a new epoch, which fences its own earlier attempts.
     */
    public LeaseOutcome lease(String group, String node, Duration ttl) {
        return Transactions.inTransaction(dataSource, "leasing " + group, c -> {
            lockLeasing(c);
            return take(c, group, node, ttl);
        });
    }

    /** Takes the first group in the leasing order for {@code node}, if any is free. */
    public Optional<LeaseOutcome> leaseNext(String node, Duration ttl) {
        return Transactions.inTransaction(dataSource, "leasing the next group", c -> {
            lockLeasing(c);
            List<String> order = leasingOrder(c, ttl, 1);
            if (order.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(take(c, order.get(0), node, ttl));
        });
    }

    /** The groups that could be leased now, most urgent first (the order {@link #leaseNext} follows). */
    public List<String> leasingOrder(Duration ttl, int limit) {
        return Transactions.inTransaction(dataSource, "reading the leasing order", c -> leasingOrder(c, ttl, limit));
    }

    /**
     * The range this holder already leases in its group, else the lowest planned range by start
     * (skipping rows another transaction has locked), leased to it; empty when caught up.
     */
    public Optional<RangeRow> nextRange(Holder holder, Integer ruleVersion) {
        return fenced(holder, "choosing the next range of " + holder.group(), c -> {
            Optional<RangeRow> own = queryRange(c, OWN_LEASED_RANGE, holder.group(), holder.node());
            if (own.isPresent()) {
                return own;
            }
            Long id = null;
            try (PreparedStatement s = c.prepareStatement(LOWEST_PLANNED)) {
                s.setString(1, holder.group());
                s.setBoolean(2, catalogFull(c));
                try (ResultSet rs = s.executeQuery()) {
                    if (rs.next()) {
                        id = rs.getLong(1);
                    }
                }
            }
            if (id == null) {
                return Optional.empty();
            }
            Optional<RangeRow> leased;
            try (PreparedStatement s = c.prepareStatement(LEASE_RANGE)) {
                s.setString(1, holder.node());
                setNullableInt(s, 2, ruleVersion);
                s.setLong(3, id);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    leased = Optional.of(rangeRow(rs));
                }
            }
            update(c, SET_CURRENT_RANGE, id, holder.group());
            return leased;
        });
    }

    /** Articles left in the group's unfinished ranges. */
    public long lag(String group) {
        return Transactions.inTransaction(dataSource, "reading the lag of " + group, c -> lag(c, group));
    }

    /** The range's committed cursor: where a retried attempt resumes, whatever its heartbeat said. */
    public long cursor(long rangeId) {
        return Transactions.inTransaction(dataSource, "reading the cursor of range " + rangeId, c -> {
            try (PreparedStatement s = c.prepareStatement(CURSOR)) {
                s.setLong(1, rangeId);
                try (ResultSet rs = s.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalArgumentException("no range with id " + rangeId);
                    }
                    return rs.getLong(1);
                }
            }
        });
    }

    /** Renews the lease and moves the range's cursor forward to {@code cursor} (never back). */
    public void heartbeat(Holder holder, long rangeId, long cursor) {
        fenced(holder, "heartbeat of " + holder.group(), c -> {
            advance(c, holder, rangeId, cursor);
            return null;
        });
    }

    /**
     * Moves a range's cursor inside the caller's fenced transaction, so catalog writes and the
     * cursor commit together; the cursor only moves forward and never past the range's end.
     */
    public void advance(Connection c, Holder holder, long rangeId, long cursor) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(ADVANCE_RANGE)) {
            s.setString(1, holder.group());
            s.setLong(2, cursor);
            s.setLong(3, rangeId);
            s.setString(4, holder.group());
            s.setString(5, holder.node());
            s.executeUpdate();
        }
    }

    /** Marks the range done and counts it on the lease; a second call for the same range changes nothing. */
    public boolean rangeDone(Holder holder, long rangeId, long headers) {
        return fenced(holder, "finishing range " + rangeId + " of " + holder.group(), c -> {
            int finished;
            try (PreparedStatement s = c.prepareStatement(FINISH_RANGE)) {
                s.setLong(1, rangeId);
                s.setString(2, holder.group());
                s.setString(3, holder.node());
                finished = s.executeUpdate();
            }
            if (finished == 1) {
                update(c, COUNT_FINISHED, headers, holder.group());
            }
            return finished == 1;
        });
    }

    /**
     * Puts the holder's leased ranges back to planned at their cursor and clears the holder. A
     * release repeated after it succeeded (an activity retry) changes nothing.
     */
    public void release(Holder holder) {
        try {
            Transactions.inTransaction(dataSource, "releasing " + holder.group(), c -> {
                LeaseState state = currentLease(c, holder.group(), FENCE);
                boolean alreadyReleased = state.holder() == null && state.epoch() == holder.epoch();
                if (alreadyReleased) {
                    return null;
                }
                checkEpoch(holder, state);
                update(c, RELEASE_RANGES, holder.group(), holder.node());
                update(c, CLEAR_HOLDER, holder.group());
                return null;
            });
        } catch (LeaseLostException e) {
            recordLeaseLost(e);
            throw e;
        }
    }

    /**
     * Runs {@code work} in one transaction after checking, under a share lock on the lease row,
     * that {@code holder} still holds its group at its epoch. A stale holder gets
     * {@link LeaseLostException} and the refusal is recorded in lease_events.
     */
    public <T> T fenced(Holder holder, String doing, FencedWork<T> work) {
        try {
            return Transactions.inTransaction(dataSource, doing, c -> {
                checkEpoch(holder, fenceAndTag(c, holder));
                return work.run(c);
            });
        } catch (LeaseLostException e) {
            recordLeaseLost(e);
            throw e;
        }
    }

    /**
     * Re-plans, from their start, the group's ranges that end at or after {@code article}, for a
     * holder whose snapshot could not be read. A window at cursor N holds only binaries first seen
     * at N - 1 minus its maximum age or later, so indexing again from there rebuilds it, where starting
     * empty at N would lose the parts of every binary still open at N; the idempotent catalog keys
     * make the redo harmless, and starting at a range's start keeps the batches (and so the
     * missing runs) aligned with the first pass.
     */
    public int replanToRebuildWindow(Holder holder, long article) {
        return fenced(
                holder,
                "re-planning " + holder.group() + " from " + article + " to rebuild its window",
                c -> update(c, REPLAN_TO_REBUILD_WINDOW, holder.group(), article));
    }

    /** Records, inside the holder's fenced transaction, the cursor its stored snapshot covers: the next take re-plans from it. */
    public void recordSnapshot(Connection c, Holder holder, long next) throws SQLException {
        update(c, RECORD_SNAPSHOT, next, holder.group());
    }

    /**
     * What the group has to do now (the catalog cap applied): planned ranges, and ranges still
     * leased (a holder that died leaves its range leased until the group is taken again, so that
     * range is work the group must lease for).
     */
    public Outlook outlook(String group) {
        return Transactions.inTransaction(dataSource, "reading the outlook of " + group, c -> {
            boolean full = catalogFull(c);
            try (PreparedStatement s = c.prepareStatement(OUTLOOK)) {
                s.setBoolean(1, full);
                s.setBoolean(2, full);
                s.setString(3, group);
                try (ResultSet rs = s.executeQuery()) {
                    if (!rs.next()) {
                        throw new UnknownGroupException(group);
                    }
                    int urgency = rs.getInt(4);
                    Integer u = rs.wasNull() ? null : urgency;
                    return new Outlook(group, rs.getBoolean(1), rs.getInt(2), rs.getLong(3), u);
                }
            }
        });
    }

    /** Whether the catalog has reached its cap, so only tail ranges are leased. */
    public boolean catalogFull() {
        return Transactions.inTransaction(dataSource, "reading the catalog size", this::catalogFull);
    }

    private boolean catalogFull(Connection c) throws SQLException {
        if (catalogCapBytes == 0) {
            return false;
        }
        try (PreparedStatement s = c.prepareStatement(CATALOG_BYTES);
                ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1) >= catalogCapBytes;
        }
    }

    private static void lockLeasing(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(ADVISORY_LOCK)) {
            s.setLong(1, LEASE_LOCK_KEY);
            s.execute();
        }
    }

    private LeaseOutcome take(Connection c, String group, String node, Duration ttl) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(GROUP_ACTIVE)) {
            s.setString(1, group);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new UnknownGroupException(group);
                }
            }
        }
        update(c, ENSURE_LEASE_ROW, group);
        String previous;
        long previousEpoch;
        Long snapshotNext;
        boolean live;
        long freeInMillis;
        try (PreparedStatement s = c.prepareStatement(LOCK_LEASE_FOR_TAKE)) {
            s.setLong(1, ttl.toMillis());
            s.setLong(2, ttl.toMillis());
            s.setString(3, group);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                previous = rs.getString(1);
                previousEpoch = rs.getLong(2);
                long sn = rs.getLong(3);
                snapshotNext = rs.wasNull() ? null : sn;
                live = rs.getBoolean(4);
                freeInMillis = rs.getLong(5);
            }
        }
        if (previous != null && !previous.equals(node) && live) {
            return LeaseOutcome.refused(previous, Duration.ofMillis(freeInMillis));
        }
        int replanned = snapshotNext != null
                ? update(c, REPLAN_FROM_SNAPSHOT, snapshotNext, group, snapshotNext, snapshotNext)
                : update(c, REPLAN_AT_CURSOR, group);
        long epoch;
        try (PreparedStatement s = c.prepareStatement(TAKE)) {
            s.setString(1, node);
            s.setString(2, group);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                epoch = rs.getLong(1);
            }
        }
        boolean takeover = previous != null && !previous.equals(node);
        update(
                c,
                RECORD_EVENT,
                group,
                takeover ? "takeover" : "take",
                node,
                epoch,
                previous,
                previous == null ? null : previousEpoch,
                "replanned " + replanned + (snapshotNext == null ? " at cursor" : " from snapshot " + snapshotNext));
        return new LeaseOutcome(
                true, new Holder(group, node, epoch), null, takeover, previous, snapshotNext, replanned, null);
    }

    private List<String> leasingOrder(Connection c, Duration ttl, int limit) throws SQLException {
        List<String> groups = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(LEASING_ORDER)) {
            s.setBoolean(1, catalogFull(c));
            s.setLong(2, ttl.toMillis());
            s.setInt(3, limit);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    groups.add(rs.getString(1));
                }
            }
        }
        return groups;
    }

    private record LeaseState(String holder, long epoch) {}

    private static LeaseState currentLease(Connection c, String group, String query) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(query)) {
            s.setString(1, group);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return new LeaseState(null, 0);
                }
                return new LeaseState(rs.getString(1), rs.getLong(2));
            }
        }
    }

    private static LeaseState fenceAndTag(Connection c, Holder holder) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(FENCE_AND_TAG)) {
            s.setString(1, Long.toString(holder.epoch()));
            s.setString(2, holder.group());
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? new LeaseState(rs.getString(1), rs.getLong(2)) : new LeaseState(null, 0);
            }
        }
    }

    private static void checkEpoch(Holder holder, LeaseState state) {
        if (!holder.node().equals(state.holder()) || holder.epoch() != state.epoch()) {
            throw new LeaseLostException(holder, state.holder(), state.epoch());
        }
    }

    private void recordLeaseLost(LeaseLostException e) {
        try {
            Transactions.inTransaction(
                    dataSource,
                    "recording a refused write",
                    c -> update(
                            c,
                            RECORD_EVENT,
                            e.stale().group(),
                            "lease_lost",
                            e.stale().node(),
                            e.stale().epoch(),
                            e.currentHolder(),
                            e.currentEpoch(),
                            "stale write refused"));
        } catch (StoreException recordFailed) {
            e.addSuppressed(recordFailed);
        }
    }

    private static long lag(Connection c, String group) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(LAG)) {
            s.setString(1, group);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static Optional<RangeRow> queryRange(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, params);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(rangeRow(rs)) : Optional.empty();
            }
        }
    }

    static RangeRow rangeRow(ResultSet rs) throws SQLException {
        int rule = rs.getInt(10);
        Integer ruleVersion = rs.wasNull() ? null : rule;
        return new RangeRow(
                rs.getLong(1),
                rs.getString(2),
                rs.getLong(3),
                rs.getLong(4),
                rs.getLong(5),
                rs.getString(6),
                rs.getInt(7),
                rs.getString(8),
                rs.getInt(9),
                ruleVersion);
    }

    static int update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, params);
            return s.executeUpdate();
        }
    }

    static void bind(PreparedStatement s, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            s.setObject(i + 1, params[i]);
        }
    }

    private static void setNullableInt(PreparedStatement s, int index, Integer value) throws SQLException {
        if (value == null) {
            s.setNull(index, java.sql.Types.INTEGER);
        } else {
            s.setInt(index, value);
        }
    }
}
