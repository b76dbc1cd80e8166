package headway.coordination;

import headway.store.Jdbc;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.sql.DataSource;

/** Read-only summaries for {@code headway status} and the demo: one row per group, and the conflict record. */
public final class StatusStore {

    private static final String GROUPS = """
            select g.name, g.priority, g.active, l.holder_node, coalesce(l.epoch, 0),
                   l.heartbeat_at > hw_now() - ? * interval '1 millisecond' as live,
                   count(r.id) filter (where r.status = 'planned'),
                   count(r.id) filter (where r.status = 'leased'),
                   count(r.id) filter (where r.status = 'done'),
                   gl.lag,
                   min(r.next_article) filter (where r.status <> 'done'),
                   max(r.end_article),
                   coalesce(l.headers, 0), coalesce(l.ranges_done, 0), l.snapshot_next, l.snapshot_at,
                   (select (d.end_article - d.start_article + 1)
                               / greatest(extract(epoch from d.done_at - d.leased_at), 0.001)
                    from ranges d
                    where d.group_name = g.name and d.status = 'done' and d.done_at > hw_now() - interval '1 minute'
                    order by d.done_at desc limit 1) as rate,
                   (select count(*) from stuck_moves m where m.group_name = g.name and m.moved_at is null) as stuck
            from groups g
            join group_lag gl on gl.group_name = g.name
            left join group_leases l on l.group_name = g.name
            left join ranges r on r.group_name = g.name
            group by g.name, g.priority, g.active, gl.lag, l.holder_node, l.epoch, l.heartbeat_at, l.headers, l.ranges_done,
                     l.snapshot_next, l.snapshot_at
            order by g.priority, g.name
            """;

    private static final String REJECTED = """
            select group_name, count(*) from rejected_articles group by group_name
            """;

    private static final String CONFLICTS = """
            select group_name, kind, node_id, epoch, other_node, other_epoch, detail, at
            from lease_events where kind in ('takeover', 'lease_lost') order by id desc limit ?
            """;

    private static final String CONFLICTS_SINCE = """
            select group_name, kind, node_id, epoch, other_node, other_epoch, detail, at
            from lease_events
            where kind in ('takeover', 'lease_lost') and at >= ?
            order by id
            """;

    /**
     * A group's coordination state. {@code cursor} is the lowest cursor of its unfinished ranges
     * (null when caught up); {@code articlesPerSecond} is the rate of its last range finished in
     * the past minute (0 when none); {@code openStuck} counts the watchman's open stuck records.
     */
    public record GroupStatus(
            String name,
            int priority,
            boolean active,
            String holder,
            long epoch,
            boolean holderLive,
            long planned,
            long leased,
            long done,
            long lag,
            Long cursor,
            Long highestPlanned,
            long headers,
            long rangesDone,
            Long snapshotNext,
            Instant snapshotAt,
            double articlesPerSecond,
            long openStuck) {}

    /** A takeover or a refused stale write. */
    public record Conflict(
            String group,
            String kind,
            String node,
            long epoch,
            String otherNode,
            Long otherEpoch,
            String detail,
            Instant at) {}

    private final DataSource dataSource;

    public StatusStore(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** Every group with its coordination state, by group priority then name. */
    public List<GroupStatus> groups(Duration leaseTtl) {
        return Jdbc.inTransaction(
                dataSource,
                "reading group status",
                c -> Jdbc.list(c, GROUPS, StatusStore::groupStatus, leaseTtl.toMillis()));
    }

    /** How many articles of each group are in the {@code rejected_articles} ledger; groups with none are left out. */
    public Map<String, Long> rejectedPerGroup() {
        Map<String, Long> out = new TreeMap<>();
        for (Map.Entry<String, Long> e : Jdbc.inTransaction(
                dataSource,
                "counting rejected articles",
                c -> Jdbc.list(c, REJECTED, rs -> Map.entry(rs.getString(1), rs.getLong(2))))) {
            out.put(e.getKey(), e.getValue());
        }
        return out;
    }

    /** The latest {@code limit} takeovers and refused stale writes, newest first. */
    public List<Conflict> conflicts(int limit) {
        return Jdbc.inTransaction(
                dataSource, "reading conflicts", c -> Jdbc.list(c, CONFLICTS, StatusStore::conflict, limit));
    }

    /**
     * Takeovers and refused stale writes recorded at or after {@code since}, oldest first; pass a
     * database time because event times are database times.
     */
    public List<Conflict> conflictsSince(Instant since) {
        Objects.requireNonNull(since, "since");
        return Jdbc.inTransaction(
                dataSource,
                "reading conflicts since " + since,
                c -> Jdbc.list(
                        c, CONFLICTS_SINCE, StatusStore::conflict, OffsetDateTime.ofInstant(since, ZoneOffset.UTC)));
    }

    private static GroupStatus groupStatus(ResultSet rs) throws SQLException {
        return new GroupStatus(
                rs.getString(1),
                rs.getInt(2),
                rs.getBoolean(3),
                rs.getString(4),
                rs.getLong(5),
                rs.getBoolean(6),
                rs.getLong(7),
                rs.getLong(8),
                rs.getLong(9),
                rs.getLong(10),
                Jdbc.nullableLong(rs, 11),
                Jdbc.nullableLong(rs, 12),
                rs.getLong(13),
                rs.getLong(14),
                Jdbc.nullableLong(rs, 15),
                Jdbc.instant(rs, 16),
                rs.getDouble(17),
                rs.getLong(18));
    }

    private static Conflict conflict(ResultSet rs) throws SQLException {
        return new Conflict(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getLong(4),
                rs.getString(5),
                Jdbc.nullableLong(rs, 6),
                rs.getString(7),
                Jdbc.instant(rs, 8));
    }
}
