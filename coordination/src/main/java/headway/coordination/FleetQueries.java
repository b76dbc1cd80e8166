package headway.coordination;

import headway.store.Jdbc;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Read-only views of the fleet for {@code headway status}: each node's presence (online or
 * offline, since when), the groups it holds and its NNTP connections against the provider's
 * limit, and the leasing order of the groups waiting for a slot. A node's "since" is the
 * watchman's presence record when it agrees with the node's heartbeat, else the node's start
 * (online) or the moment its heartbeat went stale (offline), because the watchman may not have
 * scanned since the change.
 */
public final class FleetQueries {

    private static final String NODES = """
            select n.id, n.address, n.live,
                   case when p.online is not distinct from n.live then p.since
                        when n.live then n.started_at
                        else n.heartbeat_at + ? * interval '1 millisecond' end as since,
                   n.heartbeat_at,
                   (select count(*) from group_leases l
                    where l.holder_node = n.id and l.heartbeat_at > hw_now() - ? * interval '1 millisecond'),
                   n.max_groups, n.connections, n.max_connections, n.provider_limit
            from (select *, heartbeat_at > hw_now() - ? * interval '1 millisecond' as live from nodes) n
            left join presence p on p.subject_kind = 'node' and p.subject_id = n.id
            order by n.id
            """;

    private static final String PROVIDERS = """
            select p.provider, min(p.label), count(distinct p.label), sum(p.connections), sum(p.max_connections),
                   max(p.fleet_limit), count(*)
            from node_providers p join nodes n on n.id = p.node_id
            where n.heartbeat_at > hw_now() - ? * interval '1 millisecond'
            group by p.provider
            order by p.provider
            """;

    /**
     * One news provider across the online nodes that report it: its label ({@code labels} > 1 when
     * the nodes' configurations disagree), connections in use, how many they may open together, and
     * the account's fleet-wide limit (null: not known).
     */
    public record ProviderConnections(
            int provider, String label, int labels, long inUse, long mayOpen, Integer fleetLimit, int nodes) {

        /** Whether the online workers together may open more connections than the account allows. */
        public boolean overLimit() {
            return fleetLimit != null && mayOpen > fleetLimit;
        }
    }

    /**
     * A node as status shows it: online or offline since when, the groups it holds (live leases)
     * of at most {@code maxGroups}, its open NNTP connections of at most {@code maxConnections},
     * and the provider's fleet-wide limit it was told (the reported numbers are null when the
     * node does not report them).
     */
    public record NodeStatus(
            String id,
            String address,
            boolean online,
            Instant since,
            Instant lastHeartbeat,
            long heldGroups,
            Integer maxGroups,
            Integer connections,
            Integer maxConnections,
            Integer providerLimit) {}

    /** The online nodes' open connections, what they may open, and the provider's limit (null: not known). */
    public record Connections(int online, int nodes, long open, long mayOpen, Integer providerLimit) {

        /** Whether the online workers together may open more connections than the provider allows. */
        public boolean overLimit() {
            return providerLimit != null && mayOpen > providerLimit;
        }
    }

    private final DataSource dataSource;

    public FleetQueries(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** Every node row with its presence, holdings and connections, by id. */
    public List<NodeStatus> nodes(Duration nodeTtl, Duration leaseTtl) {
        return Jdbc.inTransaction(
                dataSource,
                "reading the fleet",
                c -> Jdbc.list(
                        c, NODES, FleetQueries::node, nodeTtl.toMillis(), leaseTtl.toMillis(), nodeTtl.toMillis()));
    }

    /** Each provider's connections in use against its limit across the online nodes, by provider index. */
    public List<ProviderConnections> providers(Duration nodeTtl) {
        return Jdbc.inTransaction(
                dataSource,
                "reading the providers' connections",
                c -> Jdbc.list(
                        c,
                        PROVIDERS,
                        rs -> new ProviderConnections(
                                rs.getInt(1),
                                rs.getString(2),
                                rs.getInt(3),
                                rs.getLong(4),
                                rs.getLong(5),
                                Jdbc.nullableInt(rs, 6),
                                rs.getInt(7)),
                        nodeTtl.toMillis()));
    }

    /** The fleet's connections from {@code nodes}: online nodes only; the provider limit is the highest any reports. */
    public static Connections connections(List<NodeStatus> nodes) {
        int online = 0;
        long open = 0;
        long mayOpen = 0;
        Integer limit = null;
        for (NodeStatus n : nodes) {
            if (!n.online()) {
                continue;
            }
            online++;
            open += n.connections() == null ? 0 : n.connections();
            mayOpen += n.maxConnections() == null ? 0 : n.maxConnections();
            if (n.providerLimit() != null && (limit == null || n.providerLimit() > limit)) {
                limit = n.providerLimit();
            }
        }
        return new Connections(online, nodes.size(), open, mayOpen, limit);
    }

    /**
     * The groups asking for a lease in the order the lease source serves them, and the free slots
     * (the catalog cap of {@code catalogCapBytes} applied; 0: none): {@link LeaseStore#asking}.
     */
    public LeaseStore.Asking asking(Duration leaseTtl, long catalogCapBytes, int limit) {
        return new LeaseStore(dataSource, catalogCapBytes).asking(leaseTtl, limit);
    }

    private static NodeStatus node(ResultSet rs) throws SQLException {
        return new NodeStatus(
                rs.getString(1),
                rs.getString(2),
                rs.getBoolean(3),
                Jdbc.instant(rs, 4),
                Jdbc.instant(rs, 5),
                rs.getLong(6),
                Jdbc.nullableInt(rs, 7),
                Jdbc.nullableInt(rs, 8),
                Jdbc.nullableInt(rs, 9),
                Jdbc.nullableInt(rs, 10));
    }
}
