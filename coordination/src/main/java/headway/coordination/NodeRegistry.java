package headway.coordination;

import headway.store.Jdbc;
import headway.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node registry: each worker upserts its row every few seconds; peers are the other rows
 * fresher than the TTL. The TTL bounds staleness both ways: a silent node counts as live for up
 * to a TTL, and a new node may take a TTL to be seen, because the peer list is cached for the
 * TTL. On a database error the last known peer list is served, so a short database outage does
 * not make a worker believe it is alone. Joining is an explicit {@link #register} call.
 */
public final class NodeRegistry {

    private static final Logger log = LoggerFactory.getLogger(NodeRegistry.class);

    private static final String UPSERT = """
            insert into nodes (id, address, started_at, heartbeat_at, expires_at, max_groups, connections, max_connections,
                               provider_limit)
            values (?, ?, hw_now(), hw_now(), hw_now() + ? * interval '1 millisecond', ?, ?, ?, ?)
            on conflict (id) do update set address = excluded.address, heartbeat_at = excluded.heartbeat_at,
                expires_at = excluded.expires_at,
                max_groups = excluded.max_groups, connections = excluded.connections,
                max_connections = excluded.max_connections, provider_limit = excluded.provider_limit
            """;

    private static final String DELETE_PROVIDERS = "delete from node_providers where node_id = ?";

    private static final String INSERT_PROVIDER = """
            insert into node_providers (node_id, provider, label, connections, max_connections, fleet_limit)
            values (?, ?, ?, ?, ?, ?)
            """;

    private static final String PEERS = """
            select id, address, heartbeat_at from nodes
            where id <> ? and heartbeat_at > hw_now() - ? * interval '1 millisecond'
            order by id
            """;

    private static final String ALL = """
            select id, address, heartbeat_at, heartbeat_at > hw_now() - ? * interval '1 millisecond' from nodes order by id
            """;

    private static final String PRUNE =
            "delete from nodes where heartbeat_at < hw_now() - ? * interval '1 millisecond'";

    private static final String DELETE = "delete from nodes where id = ?";

    private static final String ACTIVE_GROUPS = "select count(*) from groups where active";

    /**
     * What a node reports with each heartbeat: how many groups it may hold, its open NNTP
     * connections, how many it may open, and the provider's connection limit for the whole fleet
     * (null: not reported or not known).
     */
    public record Report(Integer maxGroups, Integer connections, Integer maxConnections, Integer providerLimit) {
        public static final Report NONE = new Report(null, null, null, null);
    }

    /**
     * What a node reports per news provider: its label (index, role, address: never credentials),
     * the connections it has open to it, how many it may open, and the connections the provider's
     * account allows the whole fleet (null: not known).
     */
    public record ProviderReport(int provider, String label, int connections, int maxConnections, Integer fleetLimit) {
        public ProviderReport {
            Objects.requireNonNull(label, "label");
        }
    }

    /** A node row: its id, advertise address, last heartbeat (database time) and whether it is fresher than the TTL. */
    public record Node(String id, String address, Instant heartbeatAt, boolean live) {}

    private final DataSource dataSource;
    private final String nodeId;
    private final String address;
    private final Duration ttl;
    private final Clock clock;

    private volatile Supplier<Report> report = () -> Report.NONE;
    private volatile Supplier<List<ProviderReport>> providers = List::of;
    private List<Node> cachedPeers = List.of();
    private Instant cachedAt = Instant.MIN;
    private boolean everLoaded;

    public NodeRegistry(DataSource dataSource, String nodeId, String address, Duration ttl, Clock clock) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.nodeId = Objects.requireNonNull(nodeId, "nodeId");
        this.address = Objects.requireNonNull(address, "address");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        if (ttl.isZero() || ttl.isNegative()) {
            throw new IllegalArgumentException("node TTL must be positive, was " + ttl);
        }
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public String nodeId() {
        return nodeId;
    }

    public Duration ttl() {
        return ttl;
    }

    /** Joins the registry (or renews the row): the same statement as a heartbeat. */
    public void register() {
        heartbeat();
    }

    /** Reports {@code report}'s answer with every heartbeat from now on. */
    public NodeRegistry reporting(Supplier<Report> report) {
        this.report = Objects.requireNonNull(report, "report");
        return this;
    }

    /** Reports each news provider's connections with every heartbeat from now on. */
    public NodeRegistry reportingProviders(Supplier<List<ProviderReport>> providers) {
        this.providers = Objects.requireNonNull(providers, "providers");
        return this;
    }

    /** Upserts this node's row with the database's time and what it reports, and replaces its provider rows. */
    public void heartbeat() {
        Report r = report.get();
        List<ProviderReport> perProvider = providers.get();
        Jdbc.inTransaction(dataSource, "heartbeat of node " + nodeId, c -> {
            int n = Jdbc.update(
                    c,
                    UPSERT,
                    nodeId,
                    address,
                    ttl.toMillis(),
                    r.maxGroups(),
                    r.connections(),
                    r.maxConnections(),
                    r.providerLimit());
            if (!perProvider.isEmpty()) {
                Jdbc.update(c, DELETE_PROVIDERS, nodeId);
                for (ProviderReport p : perProvider) {
                    Jdbc.update(
                            c,
                            INSERT_PROVIDER,
                            nodeId,
                            p.provider(),
                            p.label(),
                            p.connections(),
                            p.maxConnections(),
                            p.fleetLimit());
                }
            }
            return n;
        });
    }

    /**
     * The other live nodes, cached for the TTL; the last known list when the database fails, and
     * StoreException when it fails before any read succeeded (an empty list would claim the node
     * is alone).
     */
    public synchronized List<Node> peers() {
        Instant now = clock.instant();
        if (everLoaded && now.isBefore(cachedAt.plus(ttl))) {
            return cachedPeers;
        }
        try {
            cachedPeers = Jdbc.inTransaction(
                    dataSource,
                    "reading peers",
                    c -> List.copyOf(Jdbc.list(
                            c,
                            PEERS,
                            rs -> new Node(rs.getString(1), rs.getString(2), Jdbc.instant(rs, 3), true),
                            nodeId,
                            ttl.toMillis())));
            cachedAt = now;
            everLoaded = true;
        } catch (StoreException e) {
            if (!everLoaded) {
                throw new StoreException("reading peers of node " + nodeId + " (no list read yet to fall back on)", e);
            }
            log.warn(
                    "node {}: reading peers failed, serving the last known {} peer(s): {}",
                    nodeId,
                    cachedPeers.size(),
                    e.getMessage());
        }
        return cachedPeers;
    }

    /** The number of active groups, which the fleet shares out. */
    public int activeGroups() {
        return Jdbc.inTransaction(
                dataSource, "counting active groups", c -> Jdbc.one(c, ACTIVE_GROUPS, rs -> rs.getInt(1)));
    }

    /** Every node row with whether it is live (fresher than the TTL), for status. */
    public List<Node> all() {
        return Jdbc.inTransaction(
                dataSource,
                "listing nodes",
                c -> Jdbc.list(
                        c,
                        ALL,
                        rs -> new Node(rs.getString(1), rs.getString(2), Jdbc.instant(rs, 3), rs.getBoolean(4)),
                        ttl.toMillis()));
    }

    /** Deletes rows whose heartbeat is older than 3x TTL; exactly one actor (a Schedule) calls this. */
    public int prune() {
        return prune(dataSource, ttl);
    }

    /** {@link #prune()} without a registered node, for the scheduled prune. */
    public static int prune(DataSource dataSource, Duration ttl) {
        return Jdbc.inTransaction(
                dataSource,
                "pruning nodes",
                c -> Jdbc.update(c, PRUNE, ttl.multipliedBy(3).toMillis()));
    }

    /** Leaves the registry on clean shutdown. */
    public void deregister() {
        Jdbc.inTransaction(dataSource, "deregistering node " + nodeId, c -> Jdbc.update(c, DELETE, nodeId));
    }
}
