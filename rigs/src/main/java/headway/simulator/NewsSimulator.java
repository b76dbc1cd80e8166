package headway.simulator;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An NNTP reader server on 127.0.0.1 that serves deterministic groups of multipart binary posts
 * (made by {@link ArticleGenerator}), for tests, benchmarks and chaos drills of an overview
 * indexer. One platform thread per connection; only the reader commands an indexer sends
 * (CAPABILITIES, MODE READER, AUTHINFO, GROUP, LIST, OVER/XOVER, ARTICLE/HEAD/BODY/STAT, DATE,
 * QUIT, and RFC 8054 COMPRESS DEFLATE when {@link Options#compress()}). Overview lines and
 * articles are rendered into an {@link OverviewBuffer} and written in large chunks. A group holds
 * either generated articles, whose bodies are yEnc parts made from seed and number (some spoiled
 * on purpose, {@link HostileBody}), or articles posted whole with {@link #postArticle}.
 */
public final class NewsSimulator implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NewsSimulator.class);
    final Options options;
    final Map<String, ArticleGenerator> groups;
    private final Map<String, Located> postedIds = new ConcurrentHashMap<>();
    /** Message-ids taken down: asked by message-id they are 430, as on a provider that honoured a takedown. */
    private final Set<String> takenDown = ConcurrentHashMap.newKeySet();

    private final Map<String, Integer> bodiesServed = new ConcurrentHashMap<>();
    private final ServerSocket serverSocket;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connectionIds = new AtomicInteger();
    private final Thread acceptor;
    volatile boolean closed;

    /**
     * One simulated group.
     *
     * @param seed                makes the content; same seed and name give the same articles
     * @param initialArticles     articles (numbers) present at start, growable with {@link #post}
     * @param minParts            fewest parts per file (inclusive)
     * @param maxParts            most parts per file (inclusive); every file of one post has the same count
     * @param filesPerPost        files per post (collection), e.g. 20 rar volumes
     * @param gapFraction         share of article numbers whose article does not exist
     * @param missingPartFraction share of parts never posted (no article number at all)
     * @param malformedFraction   share of existing articles served with a malformed overview line
     * @param poisonFraction      share of existing articles served with a hostile line ({@link PoisonKind})
     * @param hostileBodyFraction share of existing articles whose body is served spoiled ({@link HostileBody})
     */
    public record GroupSpec(
            String name,
            long seed,
            long initialArticles,
            int minParts,
            int maxParts,
            int filesPerPost,
            double gapFraction,
            double missingPartFraction,
            double malformedFraction,
            double poisonFraction,
            double hostileBodyFraction) {
        public GroupSpec {
            if (name == null || !name.matches("[A-Za-z0-9+_-]+(\\.[A-Za-z0-9+_-]+)*")) {
                throw new IllegalArgumentException(
                        "name must be a newsgroup name like alt.binaries.test, was '" + name + "'");
            }
            if (initialArticles < 0 || initialArticles > 2_000_000_000L) {
                throw new IllegalArgumentException(
                        "initialArticles must be between 0 and 2000000000, was " + initialArticles);
            }
            if (minParts < 1 || minParts > 10_000) {
                throw new IllegalArgumentException("minParts must be between 1 and 10000, was " + minParts);
            }
            if (maxParts < minParts || maxParts > 10_000) {
                throw new IllegalArgumentException(
                        "maxParts must be between minParts (" + minParts + ") and 10000, was " + maxParts);
            }
            if (filesPerPost < 1 || filesPerPost > 999) {
                throw new IllegalArgumentException("filesPerPost must be between 1 and 999, was " + filesPerPost);
            }
            checkFraction("gapFraction", gapFraction);
            checkFraction("missingPartFraction", missingPartFraction);
            checkFraction("malformedFraction", malformedFraction);
            checkFraction("poisonFraction", poisonFraction);
            checkFraction("hostileBodyFraction", hostileBodyFraction);
        }

        /** A group with poison articles and whole bodies. */
        public GroupSpec(
                String name,
                long seed,
                long initialArticles,
                int minParts,
                int maxParts,
                int filesPerPost,
                double gapFraction,
                double missingPartFraction,
                double malformedFraction,
                double poisonFraction) {
            this(
                    name,
                    seed,
                    initialArticles,
                    minParts,
                    maxParts,
                    filesPerPost,
                    gapFraction,
                    missingPartFraction,
                    malformedFraction,
                    poisonFraction,
                    0);
        }

        /** A group without poison articles. */
        public GroupSpec(
                String name,
                long seed,
                long initialArticles,
                int minParts,
                int maxParts,
                int filesPerPost,
                double gapFraction,
                double missingPartFraction,
                double malformedFraction) {
            this(
                    name,
                    seed,
                    initialArticles,
                    minParts,
                    maxParts,
                    filesPerPost,
                    gapFraction,
                    missingPartFraction,
                    malformedFraction,
                    0);
        }

        /** This group with {@code fraction} of its existing articles served as poison. */
        public GroupSpec withPoison(double fraction) {
            return new GroupSpec(
                    name,
                    seed,
                    initialArticles,
                    minParts,
                    maxParts,
                    filesPerPost,
                    gapFraction,
                    missingPartFraction,
                    malformedFraction,
                    fraction,
                    hostileBodyFraction);
        }

        /** This group with {@code fraction} of its existing articles served with a spoiled body. */
        public GroupSpec withHostileBodies(double fraction) {
            return new GroupSpec(
                    name,
                    seed,
                    initialArticles,
                    minParts,
                    maxParts,
                    filesPerPost,
                    gapFraction,
                    missingPartFraction,
                    malformedFraction,
                    poisonFraction,
                    fraction);
        }

        /** An empty group for {@link NewsSimulator#postArticle}: it holds only what is posted to it. */
        public static GroupSpec posted(String name) {
            return new GroupSpec(name, 0, 0, 1, 1, 1, 0, 0, 0);
        }

        /** A group with 20 files of 10..50 parts per post, 1% gaps, 1% missing parts and 0.1% malformed lines. */
        public static GroupSpec of(String name, long seed, long initialArticles) {
            return new GroupSpec(name, seed, initialArticles, 10, 50, 20, 0.01, 0.01, 0.001);
        }

        private static void checkFraction(String name, double f) {
            if (!(f >= 0 && f <= 0.9)) {
                throw new IllegalArgumentException(name + " must be between 0 and 0.9, was " + f);
            }
        }
    }

    /** A user name and password AUTHINFO must give. */
    public record Credentials(String user, String password) {
        public Credentials {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(password, "password");
        }

        @Override
        public String toString() {
            return "Credentials[user=" + user + ", password=***]";
        }
    }

    /**
     * Server behaviour.
     *
     * @param requiredCredentials when set, everything but CAPABILITIES, MODE, AUTHINFO, DATE and QUIT answers 480 until AUTHINFO succeeds
     * @param overSupported       false makes OVER answer 500 like an old server that knows only XOVER
     * @param overLatency         a pause before each OVER reply, like a news server across a network
     * @param compress            offer RFC 8054 {@code COMPRESS DEFLATE} in CAPABILITIES and serve it
     * @param gzipOverview        list {@code XFEATURE-COMPRESS GZIP TERMINATOR} in CAPABILITIES and serve
     *                            {@code XFEATURE COMPRESS GZIP [TERMINATOR]}: overview replies as a zlib
     *                            stream, the terminating line inside it with TERMINATOR, plain after it without
     */
    public record Options(
            Credentials requiredCredentials,
            boolean overSupported,
            Duration overLatency,
            boolean compress,
            boolean gzipOverview) {
        public Options {
            if (overLatency == null || overLatency.isNegative()) {
                throw new IllegalArgumentException("overLatency must be zero or positive, was " + overLatency);
            }
        }

        public Options(Credentials requiredCredentials, boolean overSupported, Duration overLatency) {
            this(requiredCredentials, overSupported, overLatency, false, false);
        }

        public Options(Credentials requiredCredentials, boolean overSupported) {
            this(requiredCredentials, overSupported, Duration.ZERO);
        }

        public static Options defaults() {
            return new Options(null, true);
        }

        /** These options with a pause of {@code latency} before each OVER reply. */
        public Options withOverLatency(Duration latency) {
            return new Options(requiredCredentials, overSupported, latency, compress, gzipOverview);
        }

        /** These options offering RFC 8054 {@code COMPRESS DEFLATE}. */
        public Options withCompression() {
            return new Options(requiredCredentials, overSupported, overLatency, true, gzipOverview);
        }

        /** These options offering the de-facto {@code XFEATURE COMPRESS GZIP} for overview replies. */
        public Options withGzipOverview() {
            return new Options(requiredCredentials, overSupported, overLatency, compress, true);
        }
    }

    private NewsSimulator(Options options, List<GroupSpec> specs) throws IOException {
        this.options = Objects.requireNonNull(options, "options must be set");
        Map<String, ArticleGenerator> m = new LinkedHashMap<>();
        for (GroupSpec s : specs) {
            if (m.put(s.name(), new ArticleGenerator(s)) != null) {
                throw new IllegalArgumentException("group " + s.name() + " is configured twice");
            }
        }
        this.groups = Map.copyOf(m);
        this.serverSocket = new ServerSocket();
        serverSocket.setReuseAddress(true);
        serverSocket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
        this.acceptor = new Thread(this::acceptLoop, "news-sim-accept-" + serverSocket.getLocalPort());
        acceptor.setDaemon(true);
    }

    /** Starts a simulator on an ephemeral loopback port. */
    public static NewsSimulator start(Options options, List<GroupSpec> groups) throws IOException {
        NewsSimulator sim = new NewsSimulator(options, groups);
        sim.acceptor.start();
        return sim;
    }

    public int port() {
        return serverSocket.getLocalPort();
    }

    /** The host to connect to: always loopback. */
    public String host() {
        return "127.0.0.1";
    }

    /** The credentials AUTHINFO must give, or null when none are required. */
    public Credentials requiredCredentials() {
        return options.requiredCredentials();
    }

    /** The group's current high-water mark (the low one is always 1). */
    public long high(String group) {
        return group(group).high;
    }

    /** Appends n new articles to the group and returns the new high-water mark. */
    public long post(String group, long n) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, was " + n);
        }
        return group(group).post(n);
    }

    /** Closes every open client connection at once, as a server restart or network fault would; returns how many. */
    public int dropConnections() {
        int n = 0;
        for (var it = connections.iterator(); it.hasNext(); ) {
            closeQuietly(it.next());
            it.remove();
            n++;
        }
        log.info("news simulator on port {} dropped {} connections", port(), n);
        return n;
    }

    /** Number of client connections open now. */
    public int openConnections() {
        return connections.size();
    }

    /** What the given article number is in the group right now. */
    public ArticleKind kind(String group, long article) {
        ArticleGenerator g = group(group);
        if (article < 1 || article > g.high) {
            return ArticleKind.ABSENT;
        }
        return g.kind(article);
    }

    /** How a poison article is served, or null when {@code article} is not poison. */
    public PoisonKind poison(String group, long article) {
        return kind(group, article) == ArticleKind.POISON ? group(group).poisonKind(article) : null;
    }

    /** The message-id article {@code article} is served with, without angle brackets; empty when it has none. */
    public String messageId(String group, long article) {
        ArticleGenerator g = group(group);
        Article a = g.stored(article);
        if (a != null) {
            return a.messageId().substring(1, a.messageId().length() - 1);
        }
        return g.cursorAt(article).servedMessageId(poison(group, article));
    }

    /** How the body of article {@code article} is spoiled, or null when it is served whole. */
    public HostileBody hostileBody(String group, long article) {
        ArticleKind k = kind(group, article);
        return k == ArticleKind.ABSENT || k == ArticleKind.GAP
                ? null
                : group(group).hostileBody(article);
    }

    /**
     * Stores {@code article} as the next article of {@code group} (one made with {@link
     * GroupSpec#posted}), served by OVER, HEAD, BODY and ARTICLE from then on; returns its number.
     * A message-id already posted to this simulator is refused, as a server refuses a duplicate.
     */
    public long postArticle(String group, Article article) {
        ArticleGenerator g = group(group);
        synchronized (postedIds) {
            if (postedIds.containsKey(article.messageId())) {
                throw new IllegalArgumentException("message-id " + article.messageId() + " was posted already");
            }
            long n = g.postArticle(article);
            postedIds.put(article.messageId(), new Located(g, n));
            return n;
        }
    }

    /** How often each posted article's body was served (BODY or ARTICLE), by message-id with its angle brackets. */
    public Map<String, Integer> bodiesServed() {
        return Map.copyOf(bodiesServed);
    }

    /** Counts one body served of a posted article. */
    void servedBody(String messageId) {
        bodiesServed.merge(messageId, 1, Integer::sum);
    }

    /** The oracle: what OVER lo-hi serves now (see {@link Truth}). */
    public Truth truth(String group, long lo, long hi) {
        return Truth.of(group(group), lo, hi);
    }

    @Override
    public void close() {
        closed = true;
        try {
            serverSocket.close();
        } catch (IOException e) {
            log.debug("closing simulator socket failed: {}", e.toString());
        }
        for (Socket s : connections) {
            closeQuietly(s);
        }
        connections.clear();
        try {
            acceptor.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Takes the article {@code messageId} (angle brackets included) down: ARTICLE, HEAD, BODY and
     * STAT by its message-id answer 430 from now on. OVER and commands by number still serve it,
     * as a provider's overview often still lists what its spool has lost.
     */
    public void takeDown(String messageId) {
        takenDown.add(messageId);
    }

    /** An article's group and number. */
    record Located(ArticleGenerator group, long number) {}

    /** Where the article with message-id {@code id} (angle brackets included) is, or null. */
    Located locate(String id) {
        if (takenDown.contains(id)) {
            return null;
        }
        Located posted = postedIds.get(id);
        if (posted != null) {
            return posted;
        }
        for (ArticleGenerator g : groups.values()) {
            long n = g.generatedNumber(id);
            if (n > 0) {
                return new Located(g, n);
            }
        }
        return null;
    }

    private ArticleGenerator group(String name) {
        ArticleGenerator g = groups.get(name);
        if (g == null) {
            throw new IllegalArgumentException("no simulated group '" + name + "': configured are " + groups.keySet());
        }
        return g;
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = serverSocket.accept();
                connections.add(s);
                Thread t = new Thread(() -> serve(s), "news-sim-conn-" + connectionIds.incrementAndGet());
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                if (!closed) {
                    log.warn("news simulator on port {}: accept failed, continuing: {}", port(), e.toString());
                }
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            s.setTcpNoDelay(true);
            s.setSendBufferSize(512 * 1024);
            new Session(this, s).run();
        } catch (SocketException e) {
            log.debug("simulator connection closed: {}", e.toString());
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                log.warn("news simulator on port {}: connection failed: {}", port(), e.toString(), e);
            }
        } finally {
            connections.remove(s);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            log.debug("closing connection failed: {}", e.toString());
        }
    }
}
