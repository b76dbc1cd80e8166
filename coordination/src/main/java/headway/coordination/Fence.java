package headway.coordination;

import headway.store.Holder;
import headway.store.Jdbc;
import headway.store.LeaseLostException;
import headway.store.StoreException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The lease's fence: every write a holder makes (cursor, catalog, snapshot, release) runs in a
 * transaction that first share-locks the group's lease row and checks the holder's epoch. A take
 * locks that row for update, so it waits for the writes in flight, and a write after a take is
 * refused with {@link LeaseLostException} (naming the current holder) and recorded in
 * {@code lease_events}. The fence also names the writer's epoch in the transaction
 * ({@code headway.epoch}), so an audit trigger can compare it with the lease's. The cost is one
 * row lock and one round trip per holder transaction.
 */
public final class Fence {

    /**
     * The longest any one statement of a holder's transaction may run. A statement in progress
     * holds the share lock on the lease row for as long as it runs, and
     * {@code idle_in_transaction_session_timeout} does not end it: a holder frozen in the middle of
     * a catalog COPY (its session active, waiting for rows that never come) blocked its group's
     * takeover, and every {@code want} of its workflow, until it was thawed (StuckTest, 2026-12-07).
     * A minute is far beyond what a batch's statements take (a COPY of 20,000 binaries is under a
     * second) and what a lease survives (a renewal waits for the share lock), so only a stalled
     * statement meets it.
     */
    static final java.time.Duration STATEMENT_TIMEOUT = java.time.Duration.ofMinutes(1);

    private static final String FENCE = """
            select holder_node, epoch, set_config('statement_timeout', '%d', true)
            from group_leases where group_name = ? for share
            """.formatted(STATEMENT_TIMEOUT.toMillis());

    private static final String FENCE_AND_TAG = """
            select holder_node, epoch, set_config('headway.epoch', ?, true), set_config('statement_timeout', '%d', true)
            from group_leases where group_name = ? for share
            """.formatted(STATEMENT_TIMEOUT.toMillis());

    /** A renewal in one statement: the row lock it takes is its only lock, so it cannot deadlock with a fenced transaction. */
    private static final String RENEW_IF_HELD = """
            update group_leases set heartbeat_at = hw_now() where group_name = ? and holder_node = ? and epoch = ?
            """;

    private static final String CURRENT_LEASE = "select holder_node, epoch from group_leases where group_name = ?";

    private static final String RECORD_EVENT = """
            insert into lease_events (group_name, kind, node_id, epoch, other_node, other_epoch, detail)
            values (?, ?, ?, ?, ?, ?, ?)
            """;

    private final DataSource dataSource;

    public Fence(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * Runs {@code work} in one transaction after checking, under a share lock on the lease row,
     * that {@code holder} still holds its group at its epoch. A stale holder gets
     * {@link LeaseLostException} and the refusal is recorded in lease_events.
     */
    public <T> T run(Holder holder, String doing, Jdbc.Work<T> work) {
        try {
            return Jdbc.inTransaction(dataSource, doing, c -> {
                check(
                        holder,
                        Jdbc.first(c, FENCE_AND_TAG, Fence::lease, Long.toString(holder.epoch()), holder.group())
                                .orElse(NO_LEASE));
                return work.run(c);
            });
        } catch (LeaseLostException e) {
            recordLost(e);
            throw e;
        }
    }

    /**
     * Like {@link #run}, for a release: when the group is already free at the holder's epoch (a
     * release repeated after it succeeded, an activity retry) it does nothing and returns false.
     */
    boolean runUnlessReleased(Holder holder, String doing, Jdbc.Work<?> work) {
        try {
            return Jdbc.inTransaction(dataSource, doing, c -> {
                Lease lease = Jdbc.first(c, FENCE, Fence::lease, holder.group()).orElse(NO_LEASE);
                if (lease.holder() == null && lease.epoch() == holder.epoch()) {
                    return false;
                }
                check(holder, lease);
                work.run(c);
                return true;
            });
        } catch (LeaseLostException e) {
            recordLost(e);
            throw e;
        }
    }

    /**
     * Renews {@code holder}'s lease (its heartbeat) if it still holds its group at its epoch, else
     * refuses with {@link LeaseLostException}, recorded like any refused write. One conditional
     * update rather than {@link #run}'s share lock and then an update, because two transactions
     * that each hold the share lock and then update the row deadlock: the renewal timer's and a
     * batch commit's did, every tick while a group indexed at full speed.
     */
    public void renew(Holder holder, String doing) {
        try {
            Jdbc.inTransaction(dataSource, doing, c -> {
                if (Jdbc.update(c, RENEW_IF_HELD, holder.group(), holder.node(), holder.epoch()) == 0) {
                    check(
                            holder,
                            Jdbc.first(c, CURRENT_LEASE, Fence::lease, holder.group())
                                    .orElse(NO_LEASE));
                }
                return null;
            });
        } catch (LeaseLostException e) {
            recordLost(e);
            throw e;
        }
    }

    /** Records a take, a takeover or a refused write in lease_events, inside the caller's transaction. */
    static void recordEvent(
            Connection c,
            String group,
            String kind,
            String node,
            long epoch,
            String otherNode,
            Long otherEpoch,
            String detail)
            throws SQLException {
        Jdbc.update(c, RECORD_EVENT, group, kind, node, epoch, otherNode, otherEpoch, detail);
    }

    private record Lease(String holder, long epoch) {}

    private static final Lease NO_LEASE = new Lease(null, 0);

    private static Lease lease(ResultSet rs) throws SQLException {
        return new Lease(rs.getString(1), rs.getLong(2));
    }

    private static void check(Holder holder, Lease lease) {
        if (!holder.node().equals(lease.holder()) || holder.epoch() != lease.epoch()) {
            throw new LeaseLostException(holder, lease.holder(), lease.epoch());
        }
    }

    private void recordLost(LeaseLostException e) {
        try {
            Jdbc.inTransaction(dataSource, "recording a refused write", c -> {
                recordEvent(
                        c,
                        e.stale().group(),
                        "lease_lost",
                        e.stale().node(),
                        e.stale().epoch(),
                        e.currentHolder(),
                        e.currentEpoch(),
                        "stale write refused");
                return null;
            });
        } catch (StoreException recordFailed) {
            e.addSuppressed(recordFailed);
        }
    }
}
