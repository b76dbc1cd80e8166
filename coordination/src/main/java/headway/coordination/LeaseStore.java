package headway.coordination;

import headway.store.CatalogCap;
import headway.store.Holder;
import headway.store.Jdbc;
import headway.store.StoreException;
import headway.store.UnknownGroupException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Leases on groups, with the semantics of docs/design.md. Taking a group is serialized by one
 * advisory lock because the choice reads several tables; every take adds one to the group's epoch
 * and re-plans what the window's snapshot does not cover ({@link RangeStore} holds those
 * statements). Every other holder write goes through the lease's {@link Fence}. When the catalog
 * has reached its size cap, only tail ranges (negative priority) count as work to lease for, so
 * the newest articles keep flowing while history waits.
 */
public final class LeaseStore {

    private static final long LEASE_LOCK_KEY = 0x6865616477617931L; // "headway1"

    private static final String ADVISORY_LOCK = "select pg_advisory_xact_lock(?)";

    /**
     * Whether lease row {@code l}'s holder has a registry row that expired (V24): its leases end
     * with it, so its groups are free at once instead of after the lease TTL. A holder with no row
     * (deregistered, pruned, or a row an older build wrote, without an expiry) frees nothing early.
     */
    private static final String NODE_EXPIRED =
            "exists (select 1 from nodes n where n.id = l.holder_node and n.expires_at <= hw_now())";

    /**
     * Whether range {@code r} lies in the band of the snapshot of lease row {@code lease} (V26):
     * a snapshot covers the window of the band it was taken in, so only that band's ranges done
     * past it are work to redo; another band's are covered by its own take, which rebuilds its
     * window. A snapshot from before roles (no band) is every band's.
     */
    private static String inSnapshotBand(String lease) {
        return ("(coalesce(%1$s.snapshot_band, 'all') = 'all'"
                        + " or (%1$s.snapshot_band = 'tail') = (r.priority < 0))")
                .formatted(lease);
    }

    private static final String GROUP_ACTIVE = "select active from groups where name = ?";

    private static final String ENSURE_LEASE_ROW = """
            insert into group_leases (group_name) values (?) on conflict (group_name) do nothing
            """;

    /**
     * The lease row, locked for the take, with whether its holder is live and when it will be free:
     * its lease's expiry or its node row's (V24), whichever comes first ({@code least} ignores a
     * holder with no row), so a group refused to a taker is asked for again once its frozen
     * holder's row has expired, not a lease TTL later.
     */
    private static final String LOCK_LEASE_FOR_TAKE = """
            select holder_node, epoch, snapshot_next,
                   heartbeat_at > hw_now() - ? * interval '1 millisecond' and not %1$s as live,
                   coalesce(snapshot_band, 'all') as snapshot_band,
                   greatest(0, extract(epoch from least(
                           heartbeat_at + ? * interval '1 millisecond',
                           (select n.expires_at from nodes n where n.id = l.holder_node)) - hw_now()) * 1000)::bigint
                       as free_in
            from group_leases l where group_name = ? for update of l
            """.formatted(NODE_EXPIRED);

    /**
     * Records a want without waiting: a lease row that a holder's fenced write has share-locked is
     * skipped. The want is a hint to the leasing order (the asking group counts itself whatever it
     * says), and a holder frozen mid-statement keeps its lock until {@link Fence}'s statement
     * timeout, so a want that waited for it held its outlook activity past every retry and delayed
     * the takeover it was asking for (StuckTest).
     */
    private static final String WANT = """
            update group_leases set wanted_at = hw_now()
            where group_name = (select group_name from group_leases where group_name = ? for no key update skip locked)
            """;

    /**
     * Where the group stands in the leasing order among the groups that want a lease now (asked
     * within the want window), the group first in that order, how many of those ahead have a more
     * urgent range, and the fleet's free slots (the
     * live nodes' capacities less the live leases, at least 1). No row: the group has no work
     * that the order counts.
     */
    /**
     * The groups that want a lease now, ranked as the lease source serves them: active, with
     * planned or leased work or ranges done past their snapshot (the redo a take replans, as the
     * outlook counts it), not held by a live holder, and asking (their workflow asked within
     * the want window; {@code g.name = ?} counts the asking group itself), ranked among the groups
     * whose most urgent range is in the taker's band (a tail worker's among the tail's, a history
     * worker's among the history's: a tail group waiting for a tail worker does not hold a history
     * group back from a history worker). Groups equal in urgency, time unheld and priority share a
     * place (rank, not row number), because the name is no reason to refuse one: each refusal costs
     * an outlook, a lease call and a timer, and with thousands of never-held groups waiting for a
     * freed slot, the lease tasks Temporal handed out in arrival order were refused until the first
     * by name came round. Parameters: catalog cap reached, lease TTL, the asking group (or null),
     * the want window, the band twice.
     */
    private static final String WAITING = """
            with waiting as (
                select g.name, min(r.priority) as urgency, g.priority,
                       case when l.holder_node is null then l.free_since else l.heartbeat_at end as unheld_since
                from groups g
                join group_leases l on l.group_name = g.name
                join ranges r on r.group_name = g.name
                             and ((r.status = 'planned' and (r.priority < 0 or not ?)) or r.status = 'leased'
                                  or (r.status = 'done' and r.end_article >= coalesce(l.snapshot_next, 0)
                                      and %2$s))
                where g.active
                  and (l.holder_node is null or l.heartbeat_at <= hw_now() - ? * interval '1 millisecond'
                       or %1$s)
                  and (g.name = ? or l.wanted_at > hw_now() - ? * interval '1 millisecond')
                group by g.name, g.priority, l.holder_node, l.free_since, l.heartbeat_at
            ), ranked as (
                select name, urgency,
                       rank() over (order by urgency, unheld_since asc nulls first, priority) as place
                from waiting
                where ? = 'all' or (? = 'tail') = (urgency < 0)
            )
            """.formatted(NODE_EXPIRED, inSnapshotBand("l"));

    /** The fleet's free slots: the live nodes' capacities less the live leases, at least 1. Parameters: lease TTL twice. */
    private static final String FREE_SLOTS = """
            greatest(1,
                coalesce((select sum(max_groups) from nodes
                          where heartbeat_at > hw_now() - ? * interval '1 millisecond'), 0)
                - (select count(*) from group_leases l
                   where holder_node is not null and heartbeat_at > hw_now() - ? * interval '1 millisecond'
                     and not %1$s))
            """.formatted(NODE_EXPIRED);

    private static final String TURN = WAITING + """
            select r.place,
                   (select name from ranked where place = 1 order by name limit 1),
                   (select count(*) from ranked a where a.urgency < r.urgency),
            """ + FREE_SLOTS + """
            from ranked r where r.name = ?
            """;

    /** The asking groups in their places, with the free slots, for {@code status}. */
    private static final String ASKING = WAITING + """
            select r.name,
            """ + FREE_SLOTS + """
            from ranked r order by r.place, r.name limit ?
            """;

    private static final String TAKE = """
            update group_leases
            set holder_node = ?, epoch = epoch + 1, leased_at = hw_now(), heartbeat_at = hw_now(),
                free_since = null, current_range_id = null, wanted_at = null, holder_band = ?
            where group_name = ?
            returning epoch
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
              and (l.holder_node is null or l.heartbeat_at <= hw_now() - ? * interval '1 millisecond'
                   or %1$s)
            group by g.name, g.priority, l.holder_node, l.free_since, l.heartbeat_at
            order by urgency,
                     case when l.holder_node is null then l.free_since else l.heartbeat_at end asc nulls first,
                     g.priority, g.name
            limit ?
            """.formatted(NODE_EXPIRED);

    private static final String CLEAR_HOLDER = """
            update group_leases set holder_node = null, free_since = hw_now(), current_range_id = null, wanted_at = null
            where group_name = ?
            """;

    private static final String RECORD_SNAPSHOT = """
            update group_leases set snapshot_next = ?, snapshot_at = hw_now(), snapshot_band = holder_band
            where group_name = ?
            """;

    /**
     * Work as the leasing order counts it, and ranges to redo: done past the group's last snapshot
     * (the holder that finished them died before it snapshotted, so the binaries they left open
     * lived only in its memory, and a take re-plans them from the snapshot); and the group's lag as
     * the view group_lag defines it.
     */
    private static final String OUTLOOK = """
            with work as (
                select r.id, r.priority
                from ranges r left join group_leases gl on gl.group_name = r.group_name
                where r.group_name = ?
                  and ((r.status = 'planned' and (r.priority < 0 or not ?)) or r.status = 'leased'
                       or (r.status = 'done' and r.end_article >= coalesce(gl.snapshot_next, 0)
                           and %s))
            )
            select g.active, (select count(*) from work), l.lag, (select min(priority) from work)
            from groups g
            join group_lag l on l.group_name = g.name
            where g.name = ?
            """.formatted(inSnapshotBand("gl"));

    /** Parameters: group, band three times. */
    private static final String INDEXED_TO = """
            select max(case when status = 'done' then end_article + 1 else next_article end)
            from ranges
            where group_name = ? and (status = 'done' or next_article > start_article)
              and (? = 'all' or (? = 'tail' and priority < 0) or (? = 'history' and priority >= 0))
            """;

    private static final String CATALOGED_TO = """
            select coalesce(max(last_article), 0) from rule_spans where group_name = ?
            """;

    private final DataSource dataSource;
    private final Fence fence;
    private final CatalogCap cap;

    /** A store over {@code dataSource}; {@code catalogCapBytes} of 0 means no cap. */
    public LeaseStore(DataSource dataSource, long catalogCapBytes) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.fence = new Fence(dataSource);
        this.cap = new CatalogCap(catalogCapBytes);
    }

    /** The fence every holder write goes through. */
    public Fence fence() {
        return fence;
    }

    /**
     * Takes {@code group} for {@code node} when it is free or its holder has been quiet for longer
     * than {@code ttl}; refused (naming the live holder) otherwise. A node that already holds the
     * group takes it again with a new epoch, which fences its own earlier attempts.
     */
    public LeaseOutcome lease(String group, String node, Duration ttl) {
        return Jdbc.inTransaction(dataSource, "leasing " + group, c -> {
            lockLeasing(c);
            return take(c, group, node, ttl, Band.ALL);
        });
    }

    /**
     * Takes {@code group} for {@code node} as {@link #lease} does, but only in its turn: among the
     * groups whose workflows want a lease (asked within two TTLs), the group must be one of the
     * first n in the leasing order, n being the fleet's free slots, with no group of a more urgent
     * range ahead of it. Otherwise it is refused with
     * the group first in the order and {@link #TURN_WAIT}, and its want is recorded, so a worker's
     * slot goes to the most urgent waiting group whichever lease task reached it first.
     */
    public LeaseOutcome leaseInTurn(String group, String node, Duration ttl) {
        return leaseInTurn(group, node, ttl, Band.ALL);
    }

    /**
     * As {@link #leaseInTurn(String, String, Duration)} for a worker of {@code band}: its turn is
     * counted among the waiting groups whose most urgent range lies in that band.
     */
    public LeaseOutcome leaseInTurn(String group, String node, Duration ttl, Band band) {
        return Jdbc.inTransaction(dataSource, "leasing " + group + " in its turn", c -> {
            lockLeasing(c);
            if (Jdbc.first(c, GROUP_ACTIVE, rs -> true, group).isEmpty()) {
                throw new UnknownGroupException(group);
            }
            Jdbc.update(c, ENSURE_LEASE_ROW, group);
            Jdbc.update(c, WANT, group);
            long window = ttl.multipliedBy(2).toMillis();
            Optional<Turn> turn = Jdbc.first(
                    c,
                    TURN,
                    rs -> new Turn(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4)),
                    cap.reached(c),
                    ttl.toMillis(),
                    group,
                    window,
                    band.key(),
                    band.key(),
                    ttl.toMillis(),
                    ttl.toMillis(),
                    group);
            if (turn.isPresent() && !turn.get().mine()) {
                return LeaseOutcome.notYourTurn(turn.get().first(), turn.get().place(), TURN_WAIT);
            }
            return take(c, group, node, ttl, band);
        });
    }

    /**
     * Records that the group's workflow is about to ask for a lease (its outlook found work), so
     * the leasing order counts it before its lease task reaches a worker.
     */
    public void want(String group) {
        Jdbc.inTransaction(dataSource, "recording that " + group + " wants a lease", c -> {
            Jdbc.update(c, ENSURE_LEASE_ROW, group);
            return Jdbc.update(c, WANT, group);
        });
    }

    /** How long a group refused for its turn waits before it asks again. */
    public static final Duration TURN_WAIT = Duration.ofSeconds(2);

    /**
     * A group's turn: its place must be within the free slots, and no group with a more urgent
     * range may be waiting ahead of it, because tail work is served before history whatever the
     * slots (a tail group between two of its asks must not lose its slot to a history group).
     */
    private record Turn(long place, String first, long moreUrgentAhead, long freeSlots) {
        boolean mine() {
            return place <= freeSlots && moreUrgentAhead == 0;
        }
    }

    /** Takes the first group in the leasing order for {@code node}, if any is free. */
    public Optional<LeaseOutcome> leaseNext(String node, Duration ttl) {
        return Jdbc.inTransaction(dataSource, "leasing the next group", c -> {
            lockLeasing(c);
            List<String> order = leasingOrder(c, ttl, 1);
            if (order.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(take(c, order.get(0), node, ttl, Band.ALL));
        });
    }

    /** The groups that could be leased now, most urgent first (the order {@link #leaseNext} follows). */
    public List<String> leasingOrder(Duration ttl, int limit) {
        return Jdbc.inTransaction(dataSource, "reading the leasing order", c -> leasingOrder(c, ttl, limit));
    }

    /** The groups asking for a lease in the order the lease source serves them, and the fleet's free slots. */
    public record Asking(List<String> order, long freeSlots) {}

    /**
     * What {@link #leaseInTurn} will apply, from its own query: the groups whose workflows asked
     * for a lease within the want window (two TTLs), in their places, at most {@code limit}, and
     * the free slots the first of them get. A paused, parked or backing-off group asks for nothing,
     * so it is not in it.
     */
    public Asking asking(Duration ttl, int limit) {
        return Jdbc.inTransaction(dataSource, "reading the groups asking for a lease", c -> {
            long[] free = {-1};
            List<String> order = Jdbc.list(
                    c,
                    ASKING,
                    rs -> {
                        free[0] = rs.getLong(2);
                        return rs.getString(1);
                    },
                    cap.reached(c),
                    ttl.toMillis(),
                    null,
                    ttl.multipliedBy(2).toMillis(),
                    Band.ALL.key(),
                    Band.ALL.key(),
                    ttl.toMillis(),
                    ttl.toMillis(),
                    limit);
            return new Asking(order, order.isEmpty() ? freeSlots(c, ttl) : free[0]);
        });
    }

    private static long freeSlots(Connection c, Duration ttl) throws SQLException {
        return Jdbc.one(c, "select " + FREE_SLOTS, rs -> rs.getLong(1), ttl.toMillis(), ttl.toMillis());
    }

    /**
     * Puts the holder's leased ranges back to planned at their cursor and clears the holder. A
     * release repeated after it succeeded (an activity retry) changes nothing.
     */
    public void release(Holder holder) {
        fence.runUnlessReleased(holder, "releasing " + holder.group(), c -> {
            RangeStore.releaseLeased(c, holder);
            return Jdbc.update(c, CLEAR_HOLDER, holder.group());
        });
    }

    /**
     * Renews the holder's lease (its heartbeat) through the fence ({@link Fence#renew}), so a holder busy in a slow
     * fetch or a long snapshot keeps its group; a stale holder gets {@link LeaseLostException},
     * recorded as a refused write like any other.
     */
    public void renew(Holder holder) {
        fence.renew(holder, "renewing the lease of " + holder.group());
    }

    /**
     * Re-plans, from their start, the group's ranges that end at or after {@code article}, for a
     * holder whose snapshot could not be read. A window at cursor N holds only binaries first seen
     * at N - 1 minus its maximum age or later, so indexing again from there rebuilds it, where
     * starting empty at N would lose the parts of every binary still open at N; the idempotent
     * catalog keys make the redo harmless, and starting at a range's start keeps the batches (and
     * so the missing runs) aligned with the first pass.
     */
    public int replanToRebuildWindow(Holder holder, long article) {
        return replanToRebuildWindow(holder, article, Band.ALL);
    }

    /** As {@link #replanToRebuildWindow(Holder, long)}, for the ranges of {@code band} alone. */
    public int replanToRebuildWindow(Holder holder, long article, Band band) {
        return fence.run(
                holder,
                "re-planning " + holder.group() + " from " + article + " to rebuild its window",
                c -> RangeStore.replanToRebuildWindow(c, holder.group(), article, band));
    }

    /**
     * How far the group's ranges have been indexed: the article after the furthest cursor (a done
     * range counts to its end), or null when nothing has been indexed yet. A take without a
     * snapshot rebuilds the window from here minus its maximum age, because the previous holder
     * committed its cursor with each batch while the binaries still open in its window, with parts
     * before that cursor, lived only in its memory.
     */
    public Long indexedTo(String group) {
        return indexedTo(group, Band.ALL);
    }

    /** As {@link #indexedTo(String)}, over the ranges of {@code band} alone. */
    public Long indexedTo(String group, Band band) {
        try (Connection c = dataSource.getConnection()) {
            String b = band.key();
            return Jdbc.one(c, INDEXED_TO, rs -> Jdbc.nullableLong(rs, 1), group, b, b, b);
        } catch (SQLException e) {
            throw new StoreException("reading how far " + group + " was indexed", e);
        }
    }

    /**
     * The last article of any binary of the group in the catalog (its rule spans, every version
     * and keying), or 0: read by a new holder after its take, when no one else may write the
     * group's binaries, so that its window can tell binaries the catalog cannot hold.
     */
    public long catalogedTo(String group) {
        try (Connection c = dataSource.getConnection()) {
            return Jdbc.one(c, CATALOGED_TO, rs -> rs.getLong(1), group);
        } catch (SQLException e) {
            throw new StoreException("reading how far the catalog holds " + group, e);
        }
    }

    /** Records, inside the holder's fenced transaction, the cursor its stored snapshot covers: the next take re-plans from it. */
    public void recordSnapshot(Connection c, Holder holder, long next) throws SQLException {
        Jdbc.update(c, RECORD_SNAPSHOT, next, holder.group());
    }

    /**
     * What the group has to do now (the catalog cap applied): planned ranges, and ranges still
     * leased (a holder that died leaves its range leased until the group is taken again, so that
     * range is work the group must lease for), with its lag and most urgent priority.
     */
    public Outlook outlook(String group) {
        return Jdbc.inTransaction(dataSource, "reading the outlook of " + group, c -> {
            boolean full = cap.reached(c);
            return Jdbc.first(
                            c,
                            OUTLOOK,
                            rs -> new Outlook(
                                    group, rs.getBoolean(1), rs.getInt(2), rs.getLong(3), Jdbc.nullableInt(rs, 4)),
                            group,
                            full,
                            group)
                    .orElseThrow(() -> new UnknownGroupException(group));
        });
    }

    /** Whether the catalog has reached its cap, so only tail ranges are leased. */
    public boolean catalogFull() {
        return Jdbc.inTransaction(dataSource, "reading the catalog size", cap::reached);
    }

    private static void lockLeasing(Connection c) throws SQLException {
        Jdbc.one(c, ADVISORY_LOCK, rs -> null, LEASE_LOCK_KEY);
    }

    private record Current(
            String holder, long epoch, Long snapshotNext, boolean live, String snapshotBand, long freeInMillis) {}

    /**
     * Takes the group for {@code node}, a worker of {@code band}. A snapshot taken in another band
     * covers another part of the group (V26), so this take re-plans as a take without a snapshot
     * does, and the new holder rebuilds its own band's window.
     */
    private LeaseOutcome take(Connection c, String group, String node, Duration ttl, Band band) throws SQLException {
        if (Jdbc.first(c, GROUP_ACTIVE, rs -> true, group).isEmpty()) {
            throw new UnknownGroupException(group);
        }
        Jdbc.update(c, ENSURE_LEASE_ROW, group);
        Current current = Jdbc.one(
                c,
                LOCK_LEASE_FOR_TAKE,
                rs -> new Current(
                        rs.getString(1),
                        rs.getLong(2),
                        Jdbc.nullableLong(rs, 3),
                        rs.getBoolean(4),
                        rs.getString(5),
                        rs.getLong(6)),
                ttl.toMillis(),
                ttl.toMillis(),
                group);
        String previous = current.holder();
        if (previous != null && !previous.equals(node) && current.live()) {
            return LeaseOutcome.refused(previous, Duration.ofMillis(current.freeInMillis()));
        }
        Long snapshotNext = band.key().equals(current.snapshotBand()) ? current.snapshotNext() : null;
        int replanned = snapshotNext != null
                ? RangeStore.replanFromSnapshot(c, group, snapshotNext, band) + RangeStore.replanAtCursor(c, group)
                : RangeStore.replanAtCursor(c, group);
        long epoch = Jdbc.one(c, TAKE, rs -> rs.getLong(1), node, band.key(), group);
        boolean takeover = previous != null && !previous.equals(node);
        Fence.recordEvent(
                c,
                group,
                takeover ? "takeover" : "take",
                node,
                epoch,
                previous,
                previous == null ? null : current.epoch(),
                "replanned " + replanned + (snapshotNext == null ? " at cursor" : " from snapshot " + snapshotNext));
        return new LeaseOutcome(
                true, new Holder(group, node, epoch), null, takeover, previous, snapshotNext, replanned, null);
    }

    private List<String> leasingOrder(Connection c, Duration ttl, int limit) throws SQLException {
        return Jdbc.list(c, LEASING_ORDER, rs -> rs.getString(1), cap.reached(c), ttl.toMillis(), limit);
    }
}
