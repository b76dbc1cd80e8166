package headway.settings;

import java.time.Duration;
import java.util.ListResourceBundle;
import java.util.Locale;
import java.util.ResourceBundle;
import java.util.stream.Stream;

/**
 * The catalogue of headway's settings: each HEADWAY_* variable with its default, its range and
 * what it means, defined here once. The worker's config, every CLI command (their flags' help
 * comes from {@link #helpBundle()}), the demo and the benchmarks read their defaults from it;
 * docker/compose.yaml leaves unset variables empty so these defaults apply; docs/configuration.md's
 * configuration table is {@link #markdownTable()} (a test compares them).
 */
public enum Setting {
    DB_URL(Type.TEXT, null, Setting.REQUIRED, null, null, "PostgreSQL JDBC URL (required except for `demo`)"),
    DB_USER(Type.TEXT, null, "none", null, null, "database user"),
    DB_PASSWORD(Type.TEXT, null, "none", null, null, "database password"),
    DB_POOL(
            Type.INTEGER,
            "20",
            null,
            "1",
            "200",
            "connections per worker (a held group uses up to two: its activity and its catalog writer)"),
    DB_CONNECT_TIMEOUT(Type.DURATION, "10s", null, "1ms", null, "give up connecting after"),
    DB_READ_URL(
            Type.TEXT,
            null,
            "none",
            null,
            null,
            "`serve`: JDBC URL of a hot standby (a streaming replica of HEADWAY_DB_URL, same user and password)"
                    + " that searches, caps, details and NZBs read from while it is reachable and at most"
                    + " HEADWAY_DB_READ_MAX_LAG behind; keys, request and grab counts stay on the primary"),
    DB_READ_MAX_LAG(
            Type.DURATION,
            "30s",
            null,
            "1s",
            null,
            "`serve`: a replica further behind the primary than this (measured every second from WAL positions)"
                    + " is not read; reads go to the primary until it catches up"),
    DB_READ_TIMEOUT(
            Type.DURATION,
            "2s",
            null,
            "250ms",
            null,
            "`serve`: every wait on the replica is bounded by this (taking a connection, a statement, a silent"
                    + " socket: one second more, in whole seconds); past it the read is answered by the primary. At"
                    + " least HEADWAY_HTTP_SEARCH_TIMEOUT"),
    TEMPORAL(
            Type.TEXT,
            "127.0.0.1:7233",
            null,
            null,
            null,
            "Temporal frontend host:port; wins over `TEMPORAL_ADDRESS` and the profile file (TLS, mTLS and API"
                    + " keys: the `TEMPORAL_*` variables, see docs/deploy.md)"),
    NAMESPACE(
            Type.TEXT,
            "default",
            null,
            null,
            null,
            "Temporal namespace; wins over `TEMPORAL_NAMESPACE` and the profile"),
    TASK_QUEUE(
            Type.TEXT,
            Pinned.SHARED_TASK_QUEUE,
            null,
            null,
            null,
            "the shared task queue; each worker also polls `<queue>/node/<node id>`"),
    NODE_ID(Type.TEXT, null, "host-pid-random", null, null, "this process's node id (unique per start)"),
    ADVERTISE(Type.TEXT, null, "host:metrics port", null, null, "the address `status` shows for this node"),
    LEASE_TTL(
            Type.DURATION,
            "30s",
            null,
            "2s",
            null,
            "a holder quiet this long loses its group; `start` gives it to each group workflow, which takes, renews"
                    + " and judges the database lease with it and derives every holder timeout from it"),
    NODE_TTL(
            Type.DURATION,
            "15s",
            null,
            "1s",
            null,
            "a node row older than this is not a peer; 3x and it is pruned; the prune schedule's interval"),
    NODE_HEARTBEAT(Type.DURATION, "5s", null, "1ms", null, "how often a worker renews its node row"),
    MAX_GROUPS(Type.INTEGER, "8", null, "1", "10000", "groups one worker holds at once"),
    WORKER_ROLE(
            Type.TEXT,
            "all",
            null,
            null,
            null,
            "which ranges this worker indexes: `tail` only the newest (tail ranges), `history` only the backfill"
                    + " (history ranges, handing a group back to a tail worker between ranges while it has tail"
                    + " work), `all` both; run tail and history workers as separate deployments to scale them"
                    + " apart (docs/deploy.md)"),
    ACTIVITY_CONCURRENCY(Type.INTEGER, "16", null, "1", "1000", "activity slots per task queue"),
    WORKFLOW_CACHE(
            Type.INTEGER,
            "600",
            null,
            "1",
            "100000",
            "workflows a worker keeps in memory between their tasks (Temporal's sticky cache); one evicted is"
                    + " replayed from its history at its next task, which costs the server a history read and the"
                    + " worker the replay; at most HEADWAY_WORKFLOW_THREADS are kept"),
    WORKFLOW_THREADS(
            Type.INTEGER,
            "600",
            null,
            "2",
            "100000",
            "threads for workflow code: each cached workflow waiting on an activity or timer holds one (its stack"
                    + " is the worker's largest memory per cached workflow)"),
    METRICS_PORT(Type.INTEGER, "9464", null, "0", "65535", "Prometheus endpoint (`/metrics`), 0 = off"),
    METRICS_BIND(
            Type.TEXT,
            "127.0.0.1",
            null,
            null,
            null,
            "the address the metrics endpoint listens on; `0.0.0.0` for every interface (docker/compose.yaml sets it"
                    + " inside its network)"),
    NNTP_HOST(Type.TEXT, "127.0.0.1", null, null, null, "the news server's host"),
    NNTP_PORT(Type.INTEGER, "119", null, "1", "65535", "the news server's port"),
    NNTP_TLS(Type.BOOLEAN, "false", null, null, null, "connect with TLS (NNTPS, usually port 563)"),
    NNTP_STARTTLS(
            Type.TEXT,
            "auto",
            null,
            null,
            null,
            "on a plain connection: `auto` upgrades with STARTTLS when the server offers it, `require` fails"
                    + " when it does not, `off` never upgrades"),
    NNTP_CA(
            Type.TEXT,
            null,
            "the JVM's trust store",
            null,
            null,
            "a PEM file of the CA certificates to trust for the news server's TLS certificate"),
    NNTP_PLAIN_AUTH(
            Type.BOOLEAN,
            "false",
            null,
            null,
            null,
            "allow AUTHINFO to send the password over a connection that is not encrypted"),
    NNTP_COMPRESS(
            Type.BOOLEAN,
            "true",
            null,
            null,
            null,
            "use RFC 8054 COMPRESS DEFLATE when the server offers it, else XFEATURE COMPRESS GZIP for overview"
                    + " replies when its CAPABILITIES list XFEATURE-COMPRESS GZIP"),
    NNTP_USER(Type.TEXT, null, "none", null, null, "AUTHINFO user (never logged)"),
    NNTP_PASSWORD(Type.TEXT, null, "none", null, null, "AUTHINFO password (never logged)"),
    NNTP_CONNECTIONS(Type.INTEGER, "4", null, "1", "64", "connections per worker, shared by all its groups"),
    NNTP_GROUP_CONNECTIONS(
            Type.INTEGER,
            "2",
            null,
            "1",
            "64",
            "connections one group reads over at once: its next batches are fetched ahead, each connection"
                    + " keeping its next OVER on the wire while it reads a reply (at most HEADWAY_NNTP_CONNECTIONS;"
                    + " up to three batches of overview per connection asked for ahead of the window)"),
    NNTP_PIPELINE(
            Type.BOOLEAN,
            "true",
            null,
            null,
            null,
            "send each connection's next OVER while the reply before it is still arriving (RFC 3977"
                    + " pipelining), so a distant server's link does not idle a round trip per batch; a reply that"
                    + " fails while a command is sent ahead turns it off until the worker restarts, and false"
                    + " starts that way"),
    NNTP_PROVIDER_LIMIT(
            Type.INTEGER,
            "0",
            null,
            "0",
            "10000",
            "connections the news provider allows the whole fleet, 0 = not known; each worker reports it with its"
                    + " open connections, and `status` compares the fleet's total with it"),
    NNTP_TIMEOUT(
            Type.DURATION,
            "30s",
            null,
            "1ms",
            null,
            "read timeout; a command's whole reply must also arrive within it, plus 5 ms per overview line"
                    + " asked for (a server that trickles is cut off)"),
    INSPECT_CONNECTIONS(
            Type.INTEGER,
            "1",
            null,
            "0",
            "63",
            "connections of HEADWAY_NNTP_CONNECTIONS that may read article bodies for the deep index at once;"
                    + " fewer than HEADWAY_NNTP_CONNECTIONS, so header indexing always keeps one (unset with"
                    + " HEADWAY_NNTP_CONNECTIONS=1 it is 0); 0 = read no bodies"),
    INSPECT_ARTICLES(
            Type.INTEGER,
            "3",
            null,
            "1",
            "1000",
            "articles the deep index may read per release (its PAR2 index, NFO, first archive volume) before it"
                    + " gives up on naming it from inside"),
    CHECK_CONNECTIONS(
            Type.INTEGER,
            "1",
            null,
            "0",
            "16",
            "connections per worker and checked provider kept for STAT availability checks, in a pool of their own"
                    + " beside HEADWAY_NNTP_CONNECTIONS, so checks never take a connection from headers or bodies;"
                    + " 0 = check nothing"),
    CHECK_STATS(
            Type.INTEGER,
            "20",
            null,
            "1",
            "100000",
            "STAT commands one availability check of a release may send to one provider for its sample; a"
                    + " sample that finds a hole then asks every segment"),
    INSPECT_ATTEMPTS(
            Type.INTEGER,
            "5",
            null,
            "1",
            "100",
            "times the deep index claims a release whose bodies cannot be read (missing, damaged, a server that"
                    + " breaks a bound) before it records that it gave up; `headway status` counts those"),
    SNAPSHOT_DIR(
            Type.TEXT,
            null,
            "unset",
            null,
            null,
            "keep snapshots as files on this shared volume instead of in PostgreSQL"),
    CATALOG_CAP(
            Type.LONG,
            "0",
            null,
            "0",
            null,
            "catalog size cap in bytes; at the cap only tail ranges are leased; 0 = none"),
    RETENTION_DAYS(
            Type.INTEGER,
            "0",
            null,
            "0",
            "36500",
            "keep releases posted within this many days: the `headway-retention` schedule removes older releases"
                    + " with their binaries, and the missing runs and rejected articles below them; caps states it;"
                    + " 0 = keep everything"),
    RETENTION_EVERY(Type.DURATION, "1h", null, "1s", null, "the retention schedule's interval"),
    BATCH(
            Type.INTEGER,
            "20000",
            null,
            "1",
            "1000000",
            String.format(
                    Locale.ROOT,
                    "articles per fenced catalog transaction, fetched in pieces of at most %,d articles",
                    Pinned.MAX_PIECE)),
    WINDOW_MAX_AGE(
            Type.LONG,
            "50000",
            null,
            "1",
            null,
            "a binary older than this many articles leaves the window as incomplete"),
    RANGE_SIZE(
            Type.LONG,
            "200000",
            null,
            "1",
            null,
            "articles per planned range (an activity should do a few hundred ms of work, so that Temporal's"
                    + " per-range cost stays small; see the overhead benchmark)"),
    BACKFILL(Type.LONG, "1000000", null, "0", null, "history is planned this many articles below the high-water mark"),
    PLAN_MAX_JUMP(
            Type.LONG,
            "100000000",
            null,
            "1",
            null,
            "the planner refuses (plans nothing, says why) a high-water mark more than this many articles past"
                    + " the group's highest planned article; raise it when a server really jumped"),
    STUCK_RANGE(Type.DURATION, "5m", null, "1ms", null, "a leased range whose cursor has not moved this long is stuck"),
    STUCK_GROUP(Type.DURATION, "15m", null, "1ms", null, "a group whose lag has not shrunk this long is stuck"),
    PLAN_EVERY(Type.DURATION, "1m", null, "1s", null, "the planner schedule's interval"),
    WATCH_EVERY(Type.DURATION, "30s", null, "1s", null, "the watchman schedule's interval"),
    INSPECT_EVERY(
            Type.DURATION,
            "15s",
            null,
            "1s",
            null,
            "the deep index schedule's interval: each run claims the releases due and reads inside them, so an"
                    + " obfuscated release is named about this long after its last article is indexed"),
    SNAPSHOT_EVERY(
            Type.INTEGER,
            "2",
            null,
            "1",
            "1000000",
            "ranges between snapshots (set on `start`); bounds what a takeover redoes"),
    IDLE_WAIT(
            Type.DURATION,
            "5m",
            null,
            "1s",
            null,
            "a caught-up group looks for work again after this (set on `start`)"),
    HTTP_PORT(
            Type.INTEGER,
            "8080",
            null,
            "0",
            "65535",
            "`serve`: the port of the newznab API and the search page (0 picks a free one)"),
    HTTP_BIND(
            Type.TEXT,
            "127.0.0.1",
            null,
            null,
            null,
            "`serve`: the address to listen on (0.0.0.0 for every interface, e.g. behind a load balancer)"),
    HTTP_PUBLIC_URL(
            Type.TEXT,
            null,
            "the address the connection reached",
            null,
            null,
            "`serve`: the URL clients reach it at behind a reverse proxy or a port mapping"
                    + " (https://indexer.example.org), for the links in feeds; without it a request's Host header is"
                    + " used only when it names this server (a loopback name or address, this host's name, the"
                    + " address the connection reached)"),
    HTTP_PAGE(
            Type.BOOLEAN,
            "true",
            null,
            null,
            null,
            "`serve`: serve the search page without a key (rate-limited per client address, its NZBs only with"
                    + " HEADWAY_HTTP_PAGE_NZB); set false when others can reach the port (the API always needs a key)"),
    HTTP_PAGE_NZB(
            Type.BOOLEAN,
            "false",
            null,
            null,
            null,
            "`serve`: the search page links to NZBs that download without a key, counted against"
                    + " HEADWAY_HTTP_PAGE_NZB_PER_DAY (and not as the releases' grabs)"),
    HTTP_PAGE_NZB_PER_DAY(
            Type.INTEGER,
            "100",
            null,
            "0",
            "1000000000",
            "`serve`: NZB downloads from the page without a key per UTC day, all clients together, counted in"
                    + " PostgreSQL"),
    HTTP_SEARCH_TIMEOUT(
            Type.DURATION,
            "500ms",
            null,
            "10ms",
            null,
            "`serve`: PostgreSQL cancels a statement of a search (API or page) that runs longer; the client gets"
                    + " newznab error 900 with HTTP 429 and Retry-After (the page a message), never a 500"),
    HTTP_ANON_PER_MINUTE(
            Type.INTEGER,
            "60",
            null,
            "1",
            "1000000",
            "`serve`: requests a minute per client address that no key limits (the page, caps, no key or a"
                    + " malformed one), after a burst of HEADWAY_HTTP_ANON_BURST; wrong keys have a bucket of their"
                    + " own of the same size; past it HTTP 429 with Retry-After"),
    HTTP_ANON_BURST(
            Type.INTEGER,
            "20",
            null,
            "1",
            "1000000",
            "`serve`: requests a client address may make at once before HEADWAY_HTTP_ANON_PER_MINUTE applies"),
    HTTP_ANON_AT_ONCE(
            Type.INTEGER,
            "1",
            null,
            "1",
            "1000",
            "`serve`: requests without a key that read the catalog at once (the page, caps), all addresses"
                    + " together; more are answered HTTP 429 at once, so keyed searches and /health keep the rest of"
                    + " the pool and the cores"),
    HTTP_TRUSTED_PROXIES(
            Type.TEXT,
            null,
            "none",
            null,
            null,
            "`serve`: reverse proxies (addresses or CIDR ranges, comma-separated) whose X-Forwarded-For names the"
                    + " client for the per-address limits; without it every client behind a proxy counts as the"
                    + " proxy"),
    SHUTDOWN_GRACE(
            Type.DURATION,
            "10s",
            null,
            "1ms",
            null,
            "on SIGTERM, activities in flight get this long to finish; then an index activity stops after its"
                    + " current batch commits, the groups are handed back and the node leaves (give the orchestrator"
                    + " this plus HEADWAY_NNTP_TIMEOUT and ~10 s)"),
    VERSIONING(
            Type.BOOLEAN,
            "false",
            null,
            null,
            null,
            "poll as a Worker Deployment Version (rolling upgrades: docs/deploy.md); such a worker gets workflow"
                    + " tasks only once its version is current or ramping"),
    DEPLOYMENT(Type.TEXT, "headway", null, null, null, "the Worker Deployment's name (with HEADWAY_VERSIONING)"),
    BUILD_ID(
            Type.TEXT,
            null,
            "the jar's version",
            null,
            null,
            "this build's id in the Worker Deployment (with HEADWAY_VERSIONING); use the image tag"),
    LOG_LEVEL(Type.TEXT, "INFO", null, null, null, "headway's log level");

    /** How docs/configuration.md shows the default of a setting that has to be set. */
    private static final String REQUIRED = "-";

    /** How a value is written. */
    public enum Type {
        TEXT,
        INTEGER,
        LONG,
        BOOLEAN,
        /** {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h} or ISO-8601. */
        DURATION
    }

    private final Type type;
    private final String defaultValue;
    private final String shownDefault;
    private final String min;
    private final String max;
    private final String meaning;

    Setting(Type type, String defaultValue, String shownDefault, String min, String max, String meaning) {
        this.type = type;
        this.defaultValue = defaultValue;
        this.shownDefault = shownDefault;
        this.min = min;
        this.max = max;
        this.meaning = meaning;
    }

    /** The environment variable, {@code HEADWAY_<NAME>}. */
    public String key() {
        return "HEADWAY_" + name();
    }

    public Type type() {
        return type;
    }

    /** The default as written, or null when there is none (or it depends on the machine). */
    public String defaultValue() {
        return defaultValue;
    }

    public String meaning() {
        return meaning;
    }

    /** The default as docs/configuration.md and the help show it. */
    public String shownDefault() {
        return defaultValue != null ? defaultValue : shownDefault;
    }

    public int intDefault() {
        return Integer.parseInt(requireDefault(Type.INTEGER));
    }

    public long longDefault() {
        return Long.parseLong(requireDefault(Type.LONG));
    }

    public boolean booleanDefault() {
        return Boolean.parseBoolean(requireDefault(Type.BOOLEAN));
    }

    public Duration durationDefault() {
        return Settings.parseDuration(key(), requireDefault(Type.DURATION));
    }

    /** The smallest value accepted (numbers). */
    public long min() {
        return min == null ? Long.MIN_VALUE : Long.parseLong(min);
    }

    /** The largest value accepted (numbers). */
    public long max() {
        return max == null ? (type == Type.INTEGER ? Integer.MAX_VALUE : Long.MAX_VALUE) : Long.parseLong(max);
    }

    /** The shortest duration accepted. */
    public Duration minDuration() {
        return Settings.parseDuration(key(), min);
    }

    /** The value itself when it is in range, else an error naming the setting and its range. */
    public long check(long value) {
        if (value < min() || value > max()) {
            throw new IllegalArgumentException(key() + "=" + value + " is out of range: use " + min() + ".." + max());
        }
        return value;
    }

    /**
     * HEADWAY_INSPECT_CONNECTIONS checked against HEADWAY_NNTP_CONNECTIONS: bodies may take fewer
     * connections than the pool holds, because a pool all reading bodies would stop header indexing.
     * {@code inspect} is in its own range already.
     */
    public static int inspectConnections(int inspect, int nntpConnections) {
        if (inspect > 0 && inspect >= nntpConnections) {
            throw new IllegalArgumentException(INSPECT_CONNECTIONS.key() + "=" + inspect + " leaves header indexing"
                    + " no connection of " + NNTP_CONNECTIONS.key() + "=" + nntpConnections + ": set "
                    + INSPECT_CONNECTIONS.key() + " to at most " + (nntpConnections - 1) + " (0 reads no bodies)"
                    + " or raise " + NNTP_CONNECTIONS.key() + " to at least " + (inspect + 1));
        }
        return inspect;
    }

    /** One line of help: what it means, its variable and its default (when it has one). */
    public String help() {
        String shown = shownDefault();
        return meaning + " (env " + key() + (shown.equals(REQUIRED) ? "" : ", default " + shown) + ")";
    }

    /** The table of docs/configuration.md. */
    public static String markdownTable() {
        StringBuilder table = new StringBuilder("| variable | meaning | default |\n|---|---|---|\n");
        for (Setting s : values()) {
            table.append("| `")
                    .append(s.key())
                    .append("` | ")
                    .append(s.meaning)
                    .append(" | ")
                    .append(s.shownDefault())
                    .append(" |\n");
        }
        return table.toString();
    }

    /**
     * The help of every setting keyed by its variable: a CLI option with {@code descriptionKey =
     * "HEADWAY_X"} shows it (picocli reads option descriptions from a command's resource bundle).
     */
    public static ResourceBundle helpBundle() {
        return new ListResourceBundle() {
            @Override
            protected Object[][] getContents() {
                return Stream.of(values())
                        .map(s -> new Object[] {s.key(), s.help()})
                        .toArray(Object[][]::new);
            }
        };
    }

    private String requireDefault(Type wanted) {
        if (type != wanted || defaultValue == null) {
            throw new IllegalStateException(key() + " has no " + wanted + " default");
        }
        return defaultValue;
    }

    /**
     * Numbers the catalogue states that other modules own, copied here because this module sits
     * below them; the worker's {@code PinnedSettingsTest} fails when a copy and its owner differ.
     */
    static final class Pinned {
        /** {@code headway.workflow.TaskQueues.SHARED}. */
        static final String SHARED_TASK_QUEUE = "headway";

        /** {@code headway.activity.RangeIndexer.MAX_PIECE}: the most articles one overview command asks for. */
        static final int MAX_PIECE = 5_000;

        private Pinned() {}
    }
}
