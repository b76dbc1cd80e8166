package headway.worker;

import headway.activity.Planner;
import headway.store.Database;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Everything a worker process needs, read once in main from the environment (and CLI flags that
 * override it), validated here. Every setting has a row in the README.
 *
 * @param temporalTarget      Temporal frontend host:port (HEADWAY_TEMPORAL, default 127.0.0.1:7233)
 * @param namespace           Temporal namespace (HEADWAY_NAMESPACE, default "default")
 * @param taskQueue           the shared task queue (HEADWAY_TASK_QUEUE, default "headway")
 * @param nodeId              this process's node id, unique per start (HEADWAY_NODE_ID)
 * @param advertiseAddress    address peers and status show for this node (HEADWAY_ADVERTISE)
 * @param database            PostgreSQL connection (HEADWAY_DB_URL, HEADWAY_DB_USER, HEADWAY_DB_PASSWORD, HEADWAY_DB_POOL)
 * @param leaseTtl            a holder quiet this long loses its group (HEADWAY_LEASE_TTL, default 30s)
 * @param nodeTtl             a node row older than this is not a peer; 3x this and it is pruned (HEADWAY_NODE_TTL, default 15s)
 * @param nodeHeartbeat       how often the node row is renewed (HEADWAY_NODE_HEARTBEAT, default 5s)
 * @param maxGroups           groups this worker holds at once (HEADWAY_MAX_GROUPS, default 8)
 * @param activityConcurrency activity slots per task queue (HEADWAY_ACTIVITY_CONCURRENCY, default 16)
 * @param metricsPort         Prometheus endpoint port, 0 = off (HEADWAY_METRICS_PORT, default 9464)
 * @param nntp                the NNTP server to read (HEADWAY_NNTP_*)
 * @param snapshotDir         snapshots on a shared volume instead of PostgreSQL (HEADWAY_SNAPSHOT_DIR, default unset)
 * @param catalogCapBytes     catalog size cap; at the cap only tail ranges are leased (HEADWAY_CATALOG_CAP, default 0 = none)
 * @param batchArticles       articles per fenced catalog transaction (HEADWAY_BATCH, default 5000)
 * @param windowMaxAge        a binary older than this many articles leaves the window incomplete (HEADWAY_WINDOW_MAX_AGE, default 50000)
 * @param rangeSize           articles per planned range (HEADWAY_RANGE_SIZE, default {@value #DEFAULT_RANGE_SIZE})
 * @param backfill            history is planned this many articles below the high-water mark (HEADWAY_BACKFILL, default 1000000)
 * @param planMaxJump         the planner refuses a high-water mark more than this many articles past the highest planned article (HEADWAY_PLAN_MAX_JUMP, default 100000000)
 * @param stuckRange          a leased range whose cursor has not moved for this long is stuck (HEADWAY_STUCK_RANGE, default 5m)
 * @param stuckGroup          a group whose lag has not shrunk for this long is stuck (HEADWAY_STUCK_GROUP, default 15m)
 */
public record WorkerConfig(
        String temporalTarget,
        String namespace,
        String taskQueue,
        String nodeId,
        String advertiseAddress,
        Database.Settings database,
        Duration leaseTtl,
        Duration nodeTtl,
        Duration nodeHeartbeat,
        int maxGroups,
        int activityConcurrency,
        int metricsPort,
        NntpServer nntp,
        Path snapshotDir,
        long catalogCapBytes,
        int batchArticles,
        long windowMaxAge,
        long rangeSize,
        long backfill,
        long planMaxJump,
        Duration stuckRange,
        Duration stuckGroup) {

    /** Articles per planned range unless HEADWAY_RANGE_SIZE says otherwise; see the overhead benchmark in the README. */
    public static final long DEFAULT_RANGE_SIZE = 200_000;
    /** An NNTP server and how many connections this worker may open to it. Credentials are never logged. */
    public record NntpServer(
            String host, int port, boolean tls, String user, String password, int maxConnections, Duration timeout) {
        public NntpServer {
            Objects.requireNonNull(host, "HEADWAY_NNTP_HOST");
            Settings.checkRange("HEADWAY_NNTP_PORT", port, 1, 65535);
            Settings.checkRange("HEADWAY_NNTP_CONNECTIONS", maxConnections, 1, 64);
            requirePositive("HEADWAY_NNTP_TIMEOUT", timeout);
        }

        @Override
        public String toString() {
            return "NntpServer[" + host + ":" + port + (tls ? " tls" : "") + ", user=" + (user == null ? "none" : "***")
                    + ", maxConnections=" + maxConnections + "]";
        }
    }

    /** What HEADWAY_TEMPORAL must look like: host:port. */
    public static final String TEMPORAL_TARGET = "[^:/\\s]+:\\d{1,5}";

    public WorkerConfig {
        Objects.requireNonNull(temporalTarget, "HEADWAY_TEMPORAL");
        if (!temporalTarget.matches(TEMPORAL_TARGET)) {
            throw new IllegalArgumentException(
                    "HEADWAY_TEMPORAL=" + temporalTarget + " must be host:port, e.g. 127.0.0.1:7233");
        }
        Objects.requireNonNull(namespace, "HEADWAY_NAMESPACE");
        Objects.requireNonNull(taskQueue, "HEADWAY_TASK_QUEUE");
        if (nodeId == null || !nodeId.matches("[A-Za-z0-9._-]{1,100}")) {
            throw new IllegalArgumentException(
                    "HEADWAY_NODE_ID=" + nodeId + " must be 1-100 letters, digits, '.', '_' or '-'");
        }
        Objects.requireNonNull(advertiseAddress, "HEADWAY_ADVERTISE");
        Objects.requireNonNull(database, "HEADWAY_DB_URL");
        requirePositive("HEADWAY_LEASE_TTL", leaseTtl);
        requirePositive("HEADWAY_NODE_TTL", nodeTtl);
        requirePositive("HEADWAY_NODE_HEARTBEAT", nodeHeartbeat);
        if (nodeHeartbeat.compareTo(nodeTtl) >= 0) {
            throw new IllegalArgumentException("HEADWAY_NODE_HEARTBEAT (" + nodeHeartbeat
                    + ") must be shorter than HEADWAY_NODE_TTL (" + nodeTtl + "), or live nodes would look dead");
        }
        if (leaseTtl.compareTo(Duration.ofSeconds(2)) < 0) {
            throw new IllegalArgumentException(
                    "HEADWAY_LEASE_TTL=" + Settings.show(leaseTtl) + " is too short: use at least 2s");
        }
        Settings.checkRange("HEADWAY_MAX_GROUPS", maxGroups, 1, 10_000);
        Settings.checkRange("HEADWAY_ACTIVITY_CONCURRENCY", activityConcurrency, 1, 1_000);
        Settings.checkRange("HEADWAY_METRICS_PORT", metricsPort, 0, 65535);
        Objects.requireNonNull(nntp, "nntp");
        if (catalogCapBytes < 0) {
            throw new IllegalArgumentException("HEADWAY_CATALOG_CAP=" + catalogCapBytes + " must be >= 0 (0 = no cap)");
        }
        Settings.checkRange("HEADWAY_BATCH", batchArticles, 1, 1_000_000);
        if (windowMaxAge < 1) {
            throw new IllegalArgumentException("HEADWAY_WINDOW_MAX_AGE=" + windowMaxAge + " must be >= 1 article");
        }
        if (rangeSize < 1) {
            throw new IllegalArgumentException("HEADWAY_RANGE_SIZE=" + rangeSize + " must be >= 1 article");
        }
        if (backfill < 0) {
            throw new IllegalArgumentException("HEADWAY_BACKFILL=" + backfill + " must be >= 0 articles");
        }
        if (planMaxJump < 1) {
            throw new IllegalArgumentException("HEADWAY_PLAN_MAX_JUMP=" + planMaxJump + " must be >= 1 article");
        }
        requirePositive("HEADWAY_STUCK_RANGE", stuckRange);
        requirePositive("HEADWAY_STUCK_GROUP", stuckGroup);
    }

    /** The task queue of this worker's own: the groups it holds run their window activities there. */
    public String ownTaskQueue() {
        return taskQueue + "/node/" + nodeId;
    }

    /** Reads the configuration from environment variables. */
    public static WorkerConfig fromEnv(Map<String, String> env) {
        Settings s = new Settings(env);
        int metricsPort = s.integer("HEADWAY_METRICS_PORT", 9464, 0, 65535);
        String nodeId = s.string("HEADWAY_NODE_ID", defaultNodeId());
        String snapshotDir = s.string("HEADWAY_SNAPSHOT_DIR", null);
        return new WorkerConfig(
                s.string("HEADWAY_TEMPORAL", "127.0.0.1:7233"),
                s.string("HEADWAY_NAMESPACE", "default"),
                s.string("HEADWAY_TASK_QUEUE", "headway"),
                nodeId,
                s.string("HEADWAY_ADVERTISE", hostName() + ":" + metricsPort),
                databaseFromEnv(s),
                s.duration("HEADWAY_LEASE_TTL", Duration.ofSeconds(30)),
                s.duration("HEADWAY_NODE_TTL", Duration.ofSeconds(15)),
                s.duration("HEADWAY_NODE_HEARTBEAT", Duration.ofSeconds(5)),
                s.integer("HEADWAY_MAX_GROUPS", 8, 1, 10_000),
                s.integer("HEADWAY_ACTIVITY_CONCURRENCY", 16, 1, 1_000),
                metricsPort,
                fromEnvNntp(env),
                snapshotDir == null ? null : Path.of(snapshotDir),
                s.longValue("HEADWAY_CATALOG_CAP", 0, 0, Long.MAX_VALUE),
                s.integer("HEADWAY_BATCH", 5000, 1, 1_000_000),
                s.longValue("HEADWAY_WINDOW_MAX_AGE", 50_000, 1, Long.MAX_VALUE),
                s.longValue("HEADWAY_RANGE_SIZE", DEFAULT_RANGE_SIZE, 1, Long.MAX_VALUE),
                s.longValue("HEADWAY_BACKFILL", 1_000_000, 0, Long.MAX_VALUE),
                s.longValue("HEADWAY_PLAN_MAX_JUMP", Planner.DEFAULT_MAX_JUMP, 1, Long.MAX_VALUE),
                s.duration("HEADWAY_STUCK_RANGE", Duration.ofMinutes(5)),
                s.duration("HEADWAY_STUCK_GROUP", Duration.ofMinutes(15)));
    }

    /** The NNTP server from HEADWAY_NNTP_HOST, _PORT, _TLS, _USER, _PASSWORD, _CONNECTIONS and _TIMEOUT. */
    public static NntpServer fromEnvNntp(Map<String, String> env) {
        Settings s = new Settings(env);
        return new NntpServer(
                s.string("HEADWAY_NNTP_HOST", "127.0.0.1"),
                s.integer("HEADWAY_NNTP_PORT", 119, 1, 65535),
                s.bool("HEADWAY_NNTP_TLS", false),
                s.string("HEADWAY_NNTP_USER", null),
                s.string("HEADWAY_NNTP_PASSWORD", null),
                s.integer("HEADWAY_NNTP_CONNECTIONS", 4, 1, 64),
                s.duration("HEADWAY_NNTP_TIMEOUT", Duration.ofSeconds(30)));
    }

    /** The database settings from HEADWAY_DB_URL (required), HEADWAY_DB_USER, HEADWAY_DB_PASSWORD, HEADWAY_DB_POOL. */
    public static Database.Settings databaseFromEnv(Settings s) {
        String url = s.string("HEADWAY_DB_URL", null);
        if (url == null) {
            throw new IllegalArgumentException(
                    "HEADWAY_DB_URL is not set: set it (or --db-url) to a PostgreSQL JDBC URL, "
                            + "e.g. jdbc:postgresql://localhost:5432/headway; `headway demo` runs on an embedded database instead");
        }
        return new Database.Settings(
                url,
                s.string("HEADWAY_DB_USER", null),
                s.string("HEADWAY_DB_PASSWORD", null),
                s.integer("HEADWAY_DB_POOL", 20, 1, 200),
                s.duration("HEADWAY_DB_CONNECT_TIMEOUT", Duration.ofSeconds(10)));
    }

    private static void requirePositive(String name, Duration d) {
        Objects.requireNonNull(d, name);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + "=" + d + " must be positive");
        }
    }

    private static String defaultNodeId() {
        String host = hostName().replaceAll("[^A-Za-z0-9.-]", "-");
        return host + "-" + ProcessHandle.current().pid() + "-"
                + UUID.randomUUID().toString().substring(0, 4);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
