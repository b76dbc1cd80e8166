package headway.watchman;

import headway.store.Jdbc;
import headway.store.StoreException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds moves that stopped moving and marks them moved when they move again (docs/design.md, Watchman).
 * A move is a leased range whose cursor should advance (its progress time is the heartbeat that
 * came with the last cursor change the scans saw, kept in {@code range_progress}) or an active
 * group with lag whose lag should shrink (its progress time is the last scan that saw the lag
 * shrink, kept in {@code group_progress}).
 * A move's pulse lives {@code bound - age}; a move older than its bound is stuck, and gets one
 * open {@code stuck_moves} record (a partial unique index) that is closed, never deleted, when the
 * move moves.
 *
 * <p>Invariant: every scan rebuilds its view from the tables and keeps nothing in memory, so a
 * restart loses nothing and a move that happened while the watchman was away is seen as moved and
 * writes no stuck record. The cost is a read of the leased ranges, the active groups and the node
 * registry and one small write per move per scan, and a group's progress is dated to the scan
 * that saw it, so a group is reported up to one scan interval late. Every record is written in its own transaction: a failed
 * write is logged, counted and skipped, and the next scan tries it again.
 */
public final class Watchman {

    /**
     * Counts the conflicts not counted yet and flags them counted, in one statement: an event
     * committed after a scan has its flag clear for the next scan, and of two overlapping scans the
     * second finds the first's flags set (its update waits on the first's row locks and then skips
     * them), so every event is counted exactly once (V23; a mark of the highest id counted missed an
     * event whose id was drawn before a scan and committed after it).
     */
    private static final String COUNT_NEW_CONFLICTS = """
            with fresh as (update lease_events set counted = true
                           where not counted and kind in ('takeover', 'lease_lost')
                           returning id)
            select count(*) from fresh
            """;

    private static final Logger log = LoggerFactory.getLogger(Watchman.class);

    private static final String KIND_RANGE = "range";
    private static final String KIND_GROUP = "group";

    private static final String STUCK_COLUMNS =
            "id, kind, subject, group_name, waited_for, since, detected_at, moved_at, moved_how, detail";

    private static final String SCAN_AT = "select hw_now()";

    private static final String RANGE_MOVES = """
            select r.id, r.group_name from ranges r where r.status = 'leased' order by r.id
            """;

    /**
     * A range's progress time is its heartbeat when the scan sees its cursor (or its lease) changed,
     * else the time stored before, because a heartbeat renews ranges.heartbeat_at even when the
     * cursor stays put; the first sighting takes the heartbeat, so a range already quiet for longer
     * than the bound is stuck at once.
     */
    private static final String RECORD_RANGE_PROGRESS = """
            insert into range_progress as p (range_id, next_article, leased_at, changed_at)
            select r.id, r.next_article, r.leased_at, coalesce(r.heartbeat_at, r.leased_at, hw_now())
            from ranges r
            where r.id = ? and r.status = 'leased'
            on conflict (range_id) do update
            set next_article = excluded.next_article,
                leased_at = excluded.leased_at,
                changed_at = case when excluded.next_article <> p.next_article or excluded.leased_at is distinct from p.leased_at
                                  then greatest(excluded.changed_at, p.changed_at) else p.changed_at end
            returning changed_at, (extract(epoch from hw_now() - changed_at) * 1000)::bigint
            """;

    private static final String FORGET_IDLE_RANGES = """
            delete from range_progress p using ranges r where r.id = p.range_id and r.status <> 'leased'
            """;

    private static final String MOVED_RANGES = """
            select s.id,
                   case when r.id is null then 'range gone'
                        when r.status = 'done' then 'range done'
                        when r.status = 'planned' then 'range released'
                        when r.leased_at > s.since then 'range leased again'
                        else 'cursor moved' end
            from stuck_moves s
            left join ranges r on r.id::text = s.subject
            left join range_progress p on p.range_id = r.id
            where s.kind = 'range' and s.moved_at is null
              and (r.id is null or r.status <> 'leased' or p.changed_at > s.since)
            order by s.id
            """;

    private static final String OPEN_RANGE = """
            insert into stuck_moves (kind, subject, group_name, waited_for, since, detail)
            select 'range', r.id::text, r.group_name,
                   format('the cursor of range %s [%s, %s] of %s to move past article %s',
                          r.id, r.start_article, r.end_article, r.group_name, r.next_article),
                   p.changed_at,
                   format('leased by node %s, attempt %s, last heartbeat %s',
                          coalesce(r.node_id, 'none'), r.attempts, r.heartbeat_at)
            from ranges r
            join range_progress p on p.range_id = r.id
            where r.id = ? and r.status = 'leased' and p.changed_at < hw_now() - ? * interval '1 millisecond'
            on conflict (kind, subject) where moved_at is null do nothing
            returning id, kind, subject, group_name, waited_for, since, detected_at, moved_at, moved_how, detail
            """;

    /** The lag of every active group, as the view group_lag defines it. */
    private static final String GROUP_LAGS = """
            select l.group_name, l.lag
            from group_lag l
            join groups g on g.name = l.group_name
            where g.active
            order by l.group_name
            """;

    /**
     * First sighting dates the group's progress to its latest range heartbeat, so a group already
     * quiet for longer than the bound is stuck at once; afterwards only a shrinking lag (or a start
     * from zero) moves it, because planning more ranges or re-planning after a takeover is no progress.
     */
    private static final String RECORD_GROUP_PROGRESS = """
            insert into group_progress as p (group_name, lag, changed_at)
            values (?, ?, coalesce((select max(r.heartbeat_at) from ranges r where r.group_name = ?), hw_now()))
            on conflict (group_name) do update
            set lag = excluded.lag,
                changed_at = case when excluded.lag < p.lag or p.lag = 0 then hw_now() else p.changed_at end
            returning changed_at, (extract(epoch from hw_now() - changed_at) * 1000)::bigint
            """;

    private static final String MOVED_GROUPS = """
            select s.id,
                   case when g.name is null then 'group removed'
                        when not g.active then 'group deactivated'
                        when coalesce(p.lag, 0) = 0 then 'caught up'
                        else 'lag shrank' end
            from stuck_moves s
            left join groups g on g.name = s.subject
            left join group_progress p on p.group_name = s.subject
            where s.kind = 'group' and s.moved_at is null
              and (g.name is null or not g.active or coalesce(p.lag, 0) = 0 or p.changed_at > s.since)
            order by s.id
            """;

    private static final String OPEN_GROUP = """
            insert into stuck_moves (kind, subject, group_name, waited_for, since, detail)
            select 'group', p.group_name, p.group_name,
                   format('the lag of %s (%s articles) to shrink', p.group_name, p.lag),
                   p.changed_at,
                   case when l.holder_node is null then 'not held'
                        else format('held by node %s at epoch %s', l.holder_node, l.epoch) end
            from group_progress p
            join groups g on g.name = p.group_name and g.active
            left join group_leases l on l.group_name = p.group_name
            where p.group_name = ? and p.lag > 0 and p.changed_at < hw_now() - ? * interval '1 millisecond'
            on conflict (kind, subject) where moved_at is null do nothing
            returning id, kind, subject, group_name, waited_for, since, detected_at, moved_at, moved_how, detail
            """;

    private static final String CLOSE = """
            update stuck_moves set moved_at = hw_now(), moved_how = ?
            where id = ? and moved_at is null
            returning id, kind, subject, group_name, waited_for, since, detected_at, moved_at, moved_how, detail
            """;

    /** Registry rows with their freshness, plus online presence rows whose node row is gone (pruned or deregistered). */
    private static final String NODE_SIGHTINGS = """
            select n.id, n.heartbeat_at > hw_now() - ? * interval '1 millisecond'
            from nodes n
            union all
            select p.subject_id, false
            from presence p
            where p.subject_kind = 'node' and p.online and not exists (select 1 from nodes n where n.id = p.subject_id)
            order by 1
            """;

    private static final String RECORD_PRESENCE = """
            with before as (select online from presence where subject_kind = 'node' and subject_id = ?)
            insert into presence as p (subject_kind, subject_id, online, since, last_seen)
            values ('node', ?, ?, hw_now(), (select n.heartbeat_at from nodes n where n.id = ?))
            on conflict (subject_kind, subject_id) do update
            set online = excluded.online,
                since = case when p.online <> excluded.online then hw_now() else p.since end,
                last_seen = greatest(p.last_seen, excluded.last_seen)
            returning online, since, last_seen, (select online from before)
            """;

    private static final String OPEN_STUCK =
            "select " + STUCK_COLUMNS + " from stuck_moves where moved_at is null order by since, id";

    private static final String HISTORY = "select " + STUCK_COLUMNS + " from stuck_moves order by id desc limit ?";

    /**
     * How long each kind of move may go without moving before it is stuck, and how fresh a node's
     * heartbeat must be for it to count as online.
     */
    public record Bounds(Duration range, Duration group, Duration nodeTtl) {
        public Bounds {
            requirePositive("range bound", range, "longer than the index activity's heartbeat interval, e.g. 5m");
            requirePositive("group bound", group, "longer than the planner's schedule interval, e.g. 30m");
            requirePositive("node TTL", nodeTtl, "the registry's TTL, e.g. 15s");
        }

        private static void requirePositive(String name, Duration value, String hint) {
            if (value == null || value.isZero() || value.isNegative()) {
                throw new IllegalArgumentException(
                        "watchman " + name + " must be a positive duration (" + hint + "), was " + value);
            }
        }
    }

    /** A stuck record: open while {@code movedAt} is null, closed (never deleted) once the move moved. */
    public record StuckMove(
            long id,
            String kind,
            String subject,
            String group,
            String waitedFor,
            Instant since,
            Instant detectedAt,
            Instant movedAt,
            String movedHow,
            String detail) {
        public boolean open() {
            return movedAt == null;
        }
    }

    /** A move still inside its bound: it is stuck in {@code ttl} unless it moves. */
    public record Pulse(String kind, String subject, String group, Instant since, Duration ttl) {}

    /** A presence change: a first sighting or a flip between online and offline at {@code since}. */
    public record Presence(
            String kind, String id, boolean online, Instant since, Instant lastSeen, boolean firstSeen) {}

    /**
     * What one scan saw and did: the stuck records it opened and closed, every open record after
     * it, the pulses still alive, the presence changes, how many writes failed (logged and
     * skipped), and the claim conflicts recorded since the last scan that counted them. {@code at} is the database time of the open records, read after the scan's writes
     * in the same transaction, so of two overlapping scans the one with the later {@code at} saw
     * the later state; the watchman's signals carry it because they reach group workflows in any
     * order.
     */
    public record ScanResult(
            Instant at,
            List<StuckMove> opened,
            List<StuckMove> closed,
            List<StuckMove> open,
            List<Pulse> pulses,
            List<Presence> presenceChanges,
            int writeFailures,
            int conflicts) {
        public ScanResult {
            opened = List.copyOf(opened);
            closed = List.copyOf(closed);
            open = List.copyOf(open);
            pulses = List.copyOf(pulses);
            presenceChanges = List.copyOf(presenceChanges);
        }
    }

    private final DataSource dataSource;

    public Watchman(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * Rebuilds the view from the tables and records what changed; a failed read fails the scan
     * (there is nothing to judge without it), a failed write is logged and counted.
     */
    public ScanResult scan(Bounds bounds) {
        Objects.requireNonNull(bounds, "bounds");
        Scan scan = new Scan();
        List<Pulse> rangeMoves = recordRangeProgress(scan, bounds.range());
        closeMoved(scan, MOVED_RANGES, "range");
        openStuck(scan, rangeMoves, OPEN_RANGE, bounds.range());
        List<GroupLag> lags = read(
                "reading group lags",
                c -> Jdbc.list(c, GROUP_LAGS, rs -> new GroupLag(rs.getString(1), rs.getLong(2))));
        List<Pulse> groupPulses = recordGroupProgress(scan, lags, bounds.group());
        closeMoved(scan, MOVED_GROUPS, "group");
        openStuck(scan, groupPulses, OPEN_GROUP, bounds.group());
        scanPresence(scan, bounds.nodeTtl());
        int conflicts = write(scan, "counting new conflicts", c -> Jdbc.one(c, COUNT_NEW_CONFLICTS, rs -> rs.getInt(1)))
                .orElse(0);
        return read("reading open stuck records", c -> {
            Instant at = Jdbc.one(c, SCAN_AT, rs -> Jdbc.instant(rs, 1));
            return new ScanResult(
                    at,
                    scan.opened,
                    scan.closed,
                    stuckMoves(c, OPEN_STUCK),
                    scan.pulses,
                    scan.presence,
                    scan.failures,
                    conflicts);
        });
    }

    /** The open stuck records, longest stuck first. */
    public List<StuckMove> open() {
        return read("reading open stuck records", c -> stuckMoves(c, OPEN_STUCK));
    }

    /** The latest {@code limit} stuck records, open and moved, newest first. */
    public List<StuckMove> history(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("history limit must be at least 1, was " + limit);
        }
        return read("reading stuck history", c -> stuckMoves(c, HISTORY, limit));
    }

    private void closeMoved(Scan scan, String candidatesQuery, String kind) {
        List<Moved> moved = read(
                "finding moved " + kind + " moves",
                c -> Jdbc.list(c, candidatesQuery, rs -> new Moved(rs.getLong(1), rs.getString(2))));
        for (Moved m : moved) {
            write(
                            scan,
                            "closing stuck record " + m.id() + " (" + kind + ", " + m.how() + ")",
                            c -> single(c, CLOSE, m.how(), m.id()))
                    .ifPresent(scan.closed::add);
        }
    }

    private List<Pulse> recordRangeProgress(Scan scan, Duration bound) {
        List<RangeMove> leased = read(
                "reading leased ranges",
                c -> Jdbc.list(c, RANGE_MOVES, rs -> new RangeMove(rs.getLong(1), rs.getString(2))));
        List<Pulse> moves = new ArrayList<>();
        for (RangeMove r : leased) {
            write(
                            scan,
                            "recording the cursor of range " + r.id() + " of " + r.group(),
                            c -> Jdbc.first(
                                            c,
                                            RECORD_RANGE_PROGRESS,
                                            rs -> new Pulse(
                                                    KIND_RANGE,
                                                    Long.toString(r.id()),
                                                    r.group(),
                                                    Jdbc.instant(rs, 1),
                                                    bound.minus(Duration.ofMillis(rs.getLong(2)))),
                                            r.id())
                                    .orElse(null))
                    .ifPresent(moves::add);
        }
        write(scan, "forgetting the cursors of ranges no longer leased", c -> Jdbc.update(c, FORGET_IDLE_RANGES));
        return moves;
    }

    private List<Pulse> recordGroupProgress(Scan scan, List<GroupLag> lags, Duration bound) {
        List<Pulse> moves = new ArrayList<>();
        for (GroupLag g : lags) {
            write(
                            scan,
                            "recording the lag of " + g.group() + " (" + g.lag() + " articles)",
                            c -> Jdbc.one(
                                    c,
                                    RECORD_GROUP_PROGRESS,
                                    rs -> new Pulse(
                                            KIND_GROUP,
                                            g.group(),
                                            g.group(),
                                            Jdbc.instant(rs, 1),
                                            bound.minus(Duration.ofMillis(rs.getLong(2)))),
                                    g.group(),
                                    g.lag(),
                                    g.group()))
                    .filter(p -> g.lag() > 0)
                    .ifPresent(moves::add);
        }
        return moves;
    }

    private void openStuck(Scan scan, List<Pulse> moves, String openQuery, Duration bound) {
        for (Pulse m : moves) {
            if (!m.ttl().isNegative()) {
                scan.pulses.add(m);
                continue;
            }
            write(
                            scan,
                            "opening a stuck record for " + m.kind() + " " + m.subject() + " of " + m.group(),
                            c -> single(
                                    c,
                                    openQuery,
                                    m.kind().equals(KIND_RANGE) ? Long.parseLong(m.subject()) : m.subject(),
                                    bound.toMillis()))
                    .ifPresent(scan.opened::add);
        }
    }

    private void scanPresence(Scan scan, Duration nodeTtl) {
        List<Sighting> sightings = read(
                "reading the node registry",
                c -> Jdbc.list(
                        c, NODE_SIGHTINGS, rs -> new Sighting(rs.getString(1), rs.getBoolean(2)), nodeTtl.toMillis()));
        for (Sighting n : sightings) {
            write(
                            scan,
                            "recording node " + n.node() + " as " + (n.online() ? "online" : "offline"),
                            c -> Jdbc.one(
                                    c,
                                    RECORD_PRESENCE,
                                    rs -> {
                                        boolean online = rs.getBoolean(1);
                                        boolean before = rs.getBoolean(4);
                                        boolean firstSeen = rs.wasNull();
                                        if (!firstSeen && before == online) {
                                            return null;
                                        }
                                        return new Presence(
                                                "node",
                                                n.node(),
                                                online,
                                                Jdbc.instant(rs, 2),
                                                Jdbc.instant(rs, 3),
                                                firstSeen);
                                    },
                                    n.node(),
                                    n.node(),
                                    n.online(),
                                    n.node()))
                    .ifPresent(scan.presence::add);
        }
    }

    private <T> T read(String doing, Jdbc.Work<T> work) {
        return Jdbc.inTransaction(dataSource, "watchman: " + doing, work);
    }

    /** Runs one record's write in its own transaction; a failure is logged with its context and counted, because one bad record must not hide the others. */
    private <T> Optional<T> write(Scan scan, String doing, Jdbc.Work<T> work) {
        try {
            return Optional.ofNullable(Jdbc.inTransaction(dataSource, "watchman: " + doing, work));
        } catch (StoreException e) {
            scan.failures++;
            log.warn("{}; skipped, the next scan tries again", e.getMessage());
            return Optional.empty();
        }
    }

    private static StuckMove single(Connection c, String sql, Object... params) throws SQLException {
        List<StuckMove> rows = stuckMoves(c, sql, params);
        return rows.isEmpty() ? null : rows.get(0);
    }

    private static List<StuckMove> stuckMoves(Connection c, String sql, Object... params) throws SQLException {
        return Jdbc.list(
                c,
                sql,
                rs -> new StuckMove(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        Jdbc.instant(rs, 6),
                        Jdbc.instant(rs, 7),
                        Jdbc.instant(rs, 8),
                        rs.getString(9),
                        rs.getString(10)),
                params);
    }

    private static final class Scan {
        final List<StuckMove> opened = new ArrayList<>();
        final List<StuckMove> closed = new ArrayList<>();
        final List<Pulse> pulses = new ArrayList<>();
        final List<Presence> presence = new ArrayList<>();
        int failures;
    }

    private record Moved(long id, String how) {}

    private record RangeMove(long id, String group) {}

    private record GroupLag(String group, long lag) {}

    private record Sighting(String node, boolean online) {}
}
