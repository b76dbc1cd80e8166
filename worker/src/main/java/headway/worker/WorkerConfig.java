package headway.worker;

import headway.coordination.Band;
import headway.nntp.NntpServer.Security;
import headway.nntp.NntpServer.StartTls;
import headway.nntp.TrustedCertificates;
import headway.settings.Providers;
import headway.settings.Providers.Provider;
import headway.settings.Setting;
import headway.settings.Settings;
import headway.store.Database;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Everything a worker process needs, read once in main from the environment (and CLI flags that
 * override it), validated here. Each component is a {@link Setting} of the same name, where its
 * variable, default, range and meaning are defined; every setting has a row in docs/configuration.md.
 *
 * @param database PostgreSQL connection (HEADWAY_DB_URL, _USER, _PASSWORD, _POOL, _CONNECT_TIMEOUT)
 * @param nntp     the NNTP server to read (HEADWAY_NNTP_*): provider 0
 * @param providers the other news providers, 1..N (HEADWAY_NNTP_<N>_*), each with the security,
 *                 timeout and pipelining of provider 0
 * @param checkConnections connections per checked provider for availability checks (HEADWAY_CHECK_CONNECTIONS, 0 = none)
 * @param checkStats STATs one release's sample may send per provider (HEADWAY_CHECK_STATS)
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
        String metricsBind,
        NntpServer nntp,
        Path snapshotDir,
        long catalogCapBytes,
        int batchArticles,
        long windowMaxAge,
        long rangeSize,
        long backfill,
        long planMaxJump,
        Duration stuckRange,
        Duration stuckGroup,
        Deployment deployment,
        int retentionDays,
        List<Provider> providers,
        int checkConnections,
        int checkStats,
        Inspection inspection,
        Workflows workflows) {

    /**
     * How many workflows this worker keeps in memory between their tasks (HEADWAY_WORKFLOW_CACHE)
     * and the threads they run on (HEADWAY_WORKFLOW_THREADS). With thousands of groups most wait
     * on the server for a lease, so a cache smaller than the groups costs replays, not failures.
     */
    public record Workflows(int cacheSize, int threads) {
        public Workflows {
            Setting.WORKFLOW_CACHE.check(cacheSize);
            Setting.WORKFLOW_THREADS.check(threads);
        }

        /** The catalogue's defaults (Temporal's own). */
        public static Workflows defaults() {
            return new Workflows(
                    Integer.parseInt(Setting.WORKFLOW_CACHE.defaultValue()),
                    Integer.parseInt(Setting.WORKFLOW_THREADS.defaultValue()));
        }
    }

    /**
     * The deep index on this worker (HEADWAY_INSPECT_CONNECTIONS, _ARTICLES, _ATTEMPTS): body slots
     * of the NNTP pool (0: this worker reads no bodies), articles per release, attempts before it
     * gives up on a release.
     */
    public record Inspection(int connections, int articles, int attempts) {
        public Inspection {
            Setting.INSPECT_CONNECTIONS.check(connections);
            Setting.INSPECT_ARTICLES.check(articles);
            Setting.INSPECT_ATTEMPTS.check(attempts);
        }

        /** The catalogue's defaults for a pool of {@code nntpConnections}. */
        public static Inspection defaults(int nntpConnections) {
            return new Inspection(
                    Math.min(Setting.INSPECT_CONNECTIONS.intDefault(), nntpConnections - 1),
                    Setting.INSPECT_ARTICLES.intDefault(),
                    Setting.INSPECT_ATTEMPTS.intDefault());
        }

        /** From HEADWAY_INSPECT_CONNECTIONS (checked against HEADWAY_NNTP_CONNECTIONS), _ARTICLES and _ATTEMPTS. */
        public static Inspection fromEnv(Settings s) {
            return new Inspection(
                    s.inspectConnections(), s.integer(Setting.INSPECT_ARTICLES), s.integer(Setting.INSPECT_ATTEMPTS));
        }
    }

    /**
     * How this worker takes part in a deployment: whether it polls as a Worker Deployment Version
     * (HEADWAY_VERSIONING, HEADWAY_DEPLOYMENT, HEADWAY_BUILD_ID), how long SIGTERM lets activities
     * in flight finish (HEADWAY_SHUTDOWN_GRACE), and which ranges it indexes (HEADWAY_WORKER_ROLE:
     * tail, history or all), so tail and history workers can run as deployments of their own.
     */
    public record Deployment(boolean versioning, String name, String buildId, Duration shutdownGrace, Band role) {
        public Deployment {
            Objects.requireNonNull(role, Setting.WORKER_ROLE.key());
            if (name == null || !name.matches("[A-Za-z0-9._-]{1,200}")) {
                throw new IllegalArgumentException(
                        Setting.DEPLOYMENT.key() + "=" + name + " must be 1-200 letters, digits, '.', '_' or '-'");
            }
            if (buildId == null || !buildId.matches("[A-Za-z0-9._+-]{1,200}")) {
                throw new IllegalArgumentException(Setting.BUILD_ID.key() + "=" + buildId
                        + " must be 1-200 letters, digits, '.', '_', '+' or '-'");
            }
            requirePositive(Setting.SHUTDOWN_GRACE, shutdownGrace);
        }

        /** Unversioned, the default grace: what a worker is unless told otherwise. */
        public static Deployment unversioned() {
            return new Deployment(
                    false,
                    Setting.DEPLOYMENT.defaultValue(),
                    jarVersion(),
                    Setting.SHUTDOWN_GRACE.durationDefault(),
                    Band.ALL);
        }

        /** The version of the jar this class was loaded from ({@code dev} when run from classes). */
        public static String jarVersion() {
            String v = WorkerConfig.class.getPackage().getImplementationVersion();
            return v == null || v.isBlank() ? "dev" : v;
        }
    }

    /**
     * An NNTP server, how many connections this worker may open to it, how it is secured, and how
     * many connections the provider allows the whole fleet (0: not known). Credentials are never
     * logged.
     */
    public record NntpServer(
            String host,
            int port,
            boolean tls,
            String user,
            String password,
            int maxConnections,
            Duration timeout,
            Security security,
            int providerLimit,
            int groupConnections,
            boolean pipeline) {
        public NntpServer {
            Objects.requireNonNull(host, Setting.NNTP_HOST.key());
            Setting.NNTP_PORT.check(port);
            Setting.NNTP_CONNECTIONS.check(maxConnections);
            requirePositive(Setting.NNTP_TIMEOUT, timeout);
            if ((user == null) != (password == null)) {
                throw new IllegalArgumentException((user == null ? Setting.NNTP_PASSWORD : Setting.NNTP_USER).key()
                        + " is set but " + (user == null ? Setting.NNTP_USER : Setting.NNTP_PASSWORD).key()
                        + " is not: set both for AUTHINFO, or neither");
            }
            if (user != null
                    && (user.isEmpty()
                            || user.contains("\r")
                            || user.contains("\n")
                            || password.contains("\r")
                            || password.contains("\n"))) {
                throw new IllegalArgumentException(Setting.NNTP_USER.key() + " must not be empty, and neither it nor "
                        + Setting.NNTP_PASSWORD.key() + " may hold a line break");
            }
            Objects.requireNonNull(security, "security");
            Setting.NNTP_PROVIDER_LIMIT.check(providerLimit);
            Setting.NNTP_GROUP_CONNECTIONS.check(groupConnections);
        }

        /** The connections one group reads over at once: HEADWAY_NNTP_GROUP_CONNECTIONS, at most the worker's. */
        public int readAhead() {
            return Math.min(groupConnections, maxConnections);
        }

        /** A server with the default security: STARTTLS where offered, the JVM's trust store, compression where offered. */
        public NntpServer(
                String host,
                int port,
                boolean tls,
                String user,
                String password,
                int maxConnections,
                Duration timeout) {
            this(
                    host,
                    port,
                    tls,
                    user,
                    password,
                    maxConnections,
                    timeout,
                    Security.DEFAULT,
                    0,
                    Integer.parseInt(Setting.NNTP_GROUP_CONNECTIONS.defaultValue()),
                    Boolean.parseBoolean(Setting.NNTP_PIPELINE.defaultValue()));
        }

        @Override
        public String toString() {
            return "NntpServer[" + host + ":" + port + (tls ? " tls" : "") + ", user=" + (user == null ? "none" : "***")
                    + ", maxConnections=" + maxConnections + "]";
        }
    }

    /** What the Temporal address must look like: host:port. */
    public static final String TEMPORAL_TARGET = TemporalConnection.ADDRESS;

    public WorkerConfig {
        Objects.requireNonNull(temporalTarget, Setting.TEMPORAL.key());
        if (!temporalTarget.matches(TEMPORAL_TARGET)) {
            throw new IllegalArgumentException("HEADWAY_TEMPORAL=" + temporalTarget + " must be host:port, e.g. "
                    + Setting.TEMPORAL.defaultValue());
        }
        Objects.requireNonNull(namespace, Setting.NAMESPACE.key());
        Objects.requireNonNull(taskQueue, Setting.TASK_QUEUE.key());
        if (nodeId == null || !nodeId.matches("[A-Za-z0-9._-]{1,100}")) {
            throw new IllegalArgumentException(
                    "HEADWAY_NODE_ID=" + nodeId + " must be 1-100 letters, digits, '.', '_' or '-'");
        }
        Objects.requireNonNull(advertiseAddress, Setting.ADVERTISE.key());
        Objects.requireNonNull(database, Setting.DB_URL.key());
        requirePositive(Setting.LEASE_TTL, leaseTtl);
        requirePositive(Setting.NODE_TTL, nodeTtl);
        requirePositive(Setting.NODE_HEARTBEAT, nodeHeartbeat);
        if (nodeHeartbeat.compareTo(nodeTtl) >= 0) {
            throw new IllegalArgumentException("HEADWAY_NODE_HEARTBEAT (" + nodeHeartbeat
                    + ") must be shorter than HEADWAY_NODE_TTL (" + nodeTtl + "), or live nodes would look dead");
        }
        Duration shortestTtl = Setting.LEASE_TTL.minDuration();
        if (leaseTtl.compareTo(shortestTtl) < 0) {
            throw new IllegalArgumentException(Setting.LEASE_TTL.key() + "=" + Settings.show(leaseTtl)
                    + " is too short: use at least " + Settings.show(shortestTtl));
        }
        Setting.MAX_GROUPS.check(maxGroups);
        Setting.ACTIVITY_CONCURRENCY.check(activityConcurrency);
        Setting.METRICS_PORT.check(metricsPort);
        if (metricsBind == null || metricsBind.isBlank() || metricsBind.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException(Setting.METRICS_BIND.key() + "='" + metricsBind
                    + "' is not an address: use an IP address such as 127.0.0.1 (the default) or 0.0.0.0");
        }
        Objects.requireNonNull(nntp, "nntp");
        Setting.CATALOG_CAP.check(catalogCapBytes);
        Setting.BATCH.check(batchArticles);
        Setting.WINDOW_MAX_AGE.check(windowMaxAge);
        Setting.RANGE_SIZE.check(rangeSize);
        Setting.BACKFILL.check(backfill);
        Setting.PLAN_MAX_JUMP.check(planMaxJump);
        requirePositive(Setting.STUCK_RANGE, stuckRange);
        requirePositive(Setting.STUCK_GROUP, stuckGroup);
        Objects.requireNonNull(deployment, "deployment");
        Setting.RETENTION_DAYS.check(retentionDays);
        Setting.CHECK_CONNECTIONS.check(checkConnections);
        Setting.CHECK_STATS.check(checkStats);
        providers = List.copyOf(providers);
        for (int i = 0; i < providers.size(); i++) {
            if (providers.get(i).index() != i + 1) {
                throw new IllegalArgumentException(
                        "provider " + providers.get(i).label() + " is listed at " + (i + 1)
                                + ": number providers 1, 2, 3 ... without a gap");
            }
        }
        Objects.requireNonNull(inspection, "inspection");
        if (inspection.connections() > 0) {
            Setting.inspectConnections(inspection.connections(), nntp.maxConnections());
        }
    }

    /** Every provider, provider 0 (HEADWAY_NNTP_*) first. */
    public List<Provider> allProviders() {
        List<Provider> all = new ArrayList<>();
        all.add(new Provider(
                0,
                nntp.host(),
                nntp.port(),
                nntp.tls(),
                nntp.user(),
                nntp.password(),
                nntp.maxConnections(),
                nntp.providerLimit(),
                Providers.Role.PRIMARY));
        all.addAll(providers);
        return List.copyOf(all);
    }

    /** The task queue of this worker's own: the groups it holds run their window activities there. */
    public String ownTaskQueue() {
        return taskQueue + "/node/" + nodeId;
    }

    /**
     * Reads the configuration from environment variables; the Temporal address and namespace as
     * {@link TemporalConnection} resolves them (HEADWAY_*, then TEMPORAL_*, then the profile file).
     */
    public static WorkerConfig fromEnv(Map<String, String> env) {
        Settings s = new Settings(env);
        TemporalConnection temporal = TemporalConnection.fromEnv(env);
        int metricsPort = s.integer(Setting.METRICS_PORT);
        String nodeId = s.string(Setting.NODE_ID);
        String advertise = s.string(Setting.ADVERTISE);
        String snapshotDir = s.string(Setting.SNAPSHOT_DIR);
        return new WorkerConfig(
                temporal.address(),
                temporal.namespace(),
                s.string(Setting.TASK_QUEUE),
                nodeId != null ? nodeId : defaultNodeId(),
                advertise != null ? advertise : hostName() + ":" + metricsPort,
                databaseFromEnv(s),
                s.duration(Setting.LEASE_TTL),
                s.duration(Setting.NODE_TTL),
                s.duration(Setting.NODE_HEARTBEAT),
                s.integer(Setting.MAX_GROUPS),
                s.integer(Setting.ACTIVITY_CONCURRENCY),
                metricsPort,
                s.string(Setting.METRICS_BIND),
                fromEnvNntp(env),
                snapshotDir == null ? null : Path.of(snapshotDir),
                s.longValue(Setting.CATALOG_CAP),
                s.integer(Setting.BATCH),
                s.longValue(Setting.WINDOW_MAX_AGE),
                s.longValue(Setting.RANGE_SIZE),
                s.longValue(Setting.BACKFILL),
                s.longValue(Setting.PLAN_MAX_JUMP),
                s.duration(Setting.STUCK_RANGE),
                s.duration(Setting.STUCK_GROUP),
                deploymentFromEnv(s),
                s.integer(Setting.RETENTION_DAYS),
                otherProviders(env),
                s.integer(Setting.CHECK_CONNECTIONS),
                s.integer(Setting.CHECK_STATS),
                Inspection.fromEnv(s),
                new Workflows(s.integer(Setting.WORKFLOW_CACHE), s.integer(Setting.WORKFLOW_THREADS)));
    }

    /** Providers 1..N of HEADWAY_NNTP_<N>_* (provider 0 is {@link #fromEnvNntp}). */
    public static List<Provider> otherProviders(Map<String, String> env) {
        List<Provider> all = Providers.fromEnv(env);
        return all.subList(1, all.size());
    }

    /** The deployment settings from HEADWAY_VERSIONING, _DEPLOYMENT, _BUILD_ID (default: the jar's version), _SHUTDOWN_GRACE and _WORKER_ROLE. */
    public static Deployment deploymentFromEnv(Settings s) {
        String buildId = s.string(Setting.BUILD_ID);
        return new Deployment(
                s.bool(Setting.VERSIONING),
                s.string(Setting.DEPLOYMENT),
                buildId != null ? buildId : Deployment.jarVersion(),
                s.duration(Setting.SHUTDOWN_GRACE),
                Band.parse(Setting.WORKER_ROLE.key(), s.string(Setting.WORKER_ROLE)));
    }

    /** The NNTP server from HEADWAY_NNTP_HOST, _PORT, _TLS, _USER, _PASSWORD, _CONNECTIONS, _TIMEOUT, _PROVIDER_LIMIT, _GROUP_CONNECTIONS and _PIPELINE. */
    public static NntpServer fromEnvNntp(Map<String, String> env) {
        Provider primary = Providers.primary(env);
        Settings s = new Settings(env);
        return new NntpServer(
                primary.host(),
                primary.port(),
                primary.tls(),
                primary.user(),
                primary.password(),
                primary.connections(),
                s.duration(Setting.NNTP_TIMEOUT),
                new Security(
                        startTls(s.string(Setting.NNTP_STARTTLS)),
                        caFile(s.string(Setting.NNTP_CA)),
                        s.bool(Setting.NNTP_PLAIN_AUTH),
                        s.bool(Setting.NNTP_COMPRESS)),
                primary.fleetLimit(),
                s.integer(Setting.NNTP_GROUP_CONNECTIONS),
                s.bool(Setting.NNTP_PIPELINE));
    }

    private static StartTls startTls(String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "auto" -> StartTls.AUTO;
            case "require" -> StartTls.REQUIRE;
            case "off" -> StartTls.OFF;
            default ->
                throw new IllegalArgumentException(
                        Setting.NNTP_STARTTLS.key() + "=" + value + " is not one of auto, require, off");
        };
    }

    /** The CA file, read now so that a bad one is reported with its setting before anything connects. */
    private static Path caFile(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        Path file = Path.of(value.strip());
        try {
            TrustedCertificates.check(file);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Setting.NNTP_CA.key() + "=" + value + ": " + e.getMessage(), e);
        }
        return file;
    }

    /** The shared task queue of HEADWAY_TASK_QUEUE (what the CLI starts workflows and installs schedules on). */
    public static String taskQueueFromEnv(Map<String, String> env) {
        return new Settings(env).string(Setting.TASK_QUEUE);
    }

    /** The database settings from HEADWAY_DB_URL (required), _USER, _PASSWORD, _POOL and _CONNECT_TIMEOUT. */
    public static Database.Settings databaseFromEnv(Settings s) {
        String url = s.string(Setting.DB_URL);
        if (url == null) {
            throw new IllegalArgumentException(
                    "HEADWAY_DB_URL is not set: set it (or --db-url) to a PostgreSQL JDBC URL, "
                            + "e.g. jdbc:postgresql://localhost:5432/headway; `headway demo` runs on an embedded database instead");
        }
        return new Database.Settings(
                url,
                s.string(Setting.DB_USER),
                s.string(Setting.DB_PASSWORD),
                s.integer(Setting.DB_POOL),
                s.duration(Setting.DB_CONNECT_TIMEOUT));
    }

    private static void requirePositive(Setting setting, Duration d) {
        Objects.requireNonNull(d, setting.key());
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(setting.key() + "=" + d + " must be positive");
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
