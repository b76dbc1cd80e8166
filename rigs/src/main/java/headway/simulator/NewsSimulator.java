package headway.simulator;

import java.io.BufferedInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
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
    private static final int FLUSH_AT = 192 * 1024;
    /** Longer command lines end the connection: RFC 3977 allows 512 bytes. */
    private static final int MAX_COMMAND = 4096;

    private static final List<String> OVERVIEW_FMT =
            List.of("Subject:", "From:", "Date:", "Message-ID:", "References:", ":bytes", ":lines", "Xref:full");
    private static final Set<String> WITHOUT_AUTH = Set.of("AUTHINFO", "CAPABILITIES", "MODE", "DATE", "QUIT");

    private final Options options;
    private final Map<String, ArticleGenerator> groups;
    private final Map<String, Located> postedIds = new ConcurrentHashMap<>();
    private final ServerSocket serverSocket;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connectionIds = new AtomicInteger();
    private final Thread acceptor;
    private volatile boolean closed;

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

    /** An article's group and number. */
    private record Located(ArticleGenerator group, long number) {}

    /** Where the article with message-id {@code id} (angle brackets included) is, or null. */
    private Located locate(String id) {
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
            new Session(s).run();
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

    /** One client connection's state and command loop. */
    private final class Session {
        private final Socket socket;
        private InputStream in;
        private OutputStream out;
        private boolean compressed;
        /** XFEATURE COMPRESS GZIP asked for: null when off, else whether the terminating line goes inside the stream. */
        private Boolean gzipTerminator;

        /** Where the buffer flushes to: the connection, or the zlib stream of a compressed overview reply. */
        private OutputStream data;

        private Deflater zlib;
        private final byte[] command = new byte[MAX_COMMAND];
        private final OverviewBuffer buf = new OverviewBuffer(FLUSH_AT + 64 * 1024);
        private ArticleGenerator current;
        /** The current article number of the selected group, 0 when there is none. */
        private long currentArticle;

        private boolean authenticated = options.requiredCredentials() == null;
        private String pendingUser;

        Session(Socket s) throws IOException {
            this.socket = s;
            this.in = new BufferedInputStream(s.getInputStream(), 8192);
            this.out = s.getOutputStream();
        }

        void run() throws IOException {
            reply("201 headway news simulator ready (no posting)");
            flush();
            while (true) {
                int len = readCommand();
                if (len < 0) {
                    return;
                }
                String line = new String(command, 0, len, StandardCharsets.ISO_8859_1).trim();
                int sp = line.indexOf(' ');
                String cmd = (sp < 0 ? line : line.substring(0, sp)).toUpperCase(Locale.ROOT);
                String arg = sp < 0 ? "" : line.substring(sp + 1).trim();
                boolean quit = handle(cmd, arg);
                flush();
                if (quit) {
                    return;
                }
            }
        }

        /** Reads one command line without its CRLF (or LF) into {@link #command}; -1 when the client is gone. */
        private int readCommand() throws IOException {
            int len = 0;
            for (int b = in.read(); b >= 0; b = in.read()) {
                if (b == '\n') {
                    return len > 0 && command[len - 1] == '\r' ? len - 1 : len;
                }
                if (len == command.length) {
                    throw new IOException("command line longer than " + MAX_COMMAND + " bytes");
                }
                command[len++] = (byte) b;
            }
            return -1;
        }

        private boolean handle(String cmd, String arg) throws IOException {
            if (!authenticated && !WITHOUT_AUTH.contains(cmd)) {
                reply("480 Authentication required");
                return false;
            }
            switch (cmd) {
                case "CAPABILITIES" -> capabilities();
                case "MODE" ->
                    reply(
                            arg.equalsIgnoreCase("READER")
                                    ? "201 Reader mode, posting prohibited"
                                    : "501 Unknown MODE variant");
                case "AUTHINFO" -> authinfo(arg);
                case "COMPRESS" -> compress(arg);
                case "XFEATURE" -> xfeature(arg);
                case "GROUP" -> group(arg);
                case "LIST" -> list(arg);
                case "OVER" -> {
                    if (options.overSupported()) {
                        over(arg);
                    } else {
                        reply("500 Unknown command");
                    }
                }
                case "XOVER" -> over(arg);
                case "ARTICLE", "HEAD", "BODY", "STAT" -> article(cmd, arg);
                case "DATE" -> {
                    LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC);
                    reply(String.format(
                            Locale.ROOT,
                            "111 %04d%02d%02d%02d%02d%02d",
                            now.getYear(),
                            now.getMonthValue(),
                            now.getDayOfMonth(),
                            now.getHour(),
                            now.getMinute(),
                            now.getSecond()));
                }
                case "QUIT" -> {
                    reply("205 closing connection");
                    return true;
                }
                default -> reply("500 Unknown command");
            }
            return false;
        }

        private void capabilities() {
            reply("101 Capability list:");
            reply("VERSION 2");
            reply("READER");
            if (options.overSupported()) {
                reply("OVER");
            }
            reply("LIST ACTIVE OVERVIEW.FMT");
            if (options.compress() && !compressed) {
                reply("COMPRESS DEFLATE");
            }
            if (options.gzipOverview()) {
                reply("XFEATURE-COMPRESS GZIP TERMINATOR");
            }
            if (!authenticated) {
                reply("AUTHINFO USER");
            }
            reply("IMPLEMENTATION headway news simulator");
            reply(".");
        }

        /**
         * RFC 8054: the 206 reply goes out uncompressed, then both directions are raw DEFLATE
         * (no zlib header), the server's side flushed (SYNC_FLUSH) after each reply.
         */
        private void compress(String arg) throws IOException {
            if (!options.compress()) {
                reply("500 Unknown command");
            } else if (compressed) {
                reply("502 Compression already active");
            } else if (!arg.equalsIgnoreCase("DEFLATE")) {
                reply("503 Compression algorithm not supported");
            } else {
                reply("206 Compression active");
                flush();
                compressed = true;
                in = new BufferedInputStream(
                        new InflaterInputStream(socket.getInputStream(), new Inflater(true)), 8192);
                out = new DeflaterOutputStream(
                        socket.getOutputStream(), new Deflater(Deflater.BEST_SPEED, true), 64 * 1024, true);
            }
        }

        private void xfeature(String arg) {
            String[] words = arg.toUpperCase(Locale.ROOT).split("\\s+");
            if (!options.gzipOverview()) {
                reply("500 Unknown command");
            } else if (words.length >= 2 && words[0].equals("COMPRESS") && words[1].equals("GZIP")) {
                gzipTerminator = words.length > 2 && words[2].equals("TERMINATOR");
                reply("290 feature enabled");
            } else {
                reply("501 Unknown XFEATURE");
            }
        }

        private void authinfo(String arg) {
            Credentials want = options.requiredCredentials();
            int sp = arg.indexOf(' ');
            String kind = (sp < 0 ? arg : arg.substring(0, sp)).toUpperCase(Locale.ROOT);
            String value = sp < 0 ? "" : arg.substring(sp + 1);
            if (want == null || authenticated) {
                reply("502 Command unavailable");
            } else if (kind.equals("USER")) {
                pendingUser = value;
                reply("381 Password required");
            } else if (kind.equals("PASS")) {
                if (pendingUser == null) {
                    reply("482 Authentication commands issued out of sequence");
                } else if (pendingUser.equals(want.user()) && value.equals(want.password())) {
                    authenticated = true;
                    reply("281 Authentication accepted");
                } else {
                    reply("481 Authentication failed");
                }
                pendingUser = null;
            } else {
                reply("501 Unknown AUTHINFO variant");
            }
        }

        private void group(String name) {
            ArticleGenerator g = groups.get(name);
            if (g == null) {
                reply("411 No such newsgroup");
                return;
            }
            current = g;
            long high = g.high;
            currentArticle = high > 0 ? 1 : 0;
            reply("211 " + high + " 1 " + high + " " + name);
        }

        private void list(String arg) {
            String kw = arg.isEmpty() ? "ACTIVE" : arg.split("\\s+")[0].toUpperCase(Locale.ROOT);
            if (kw.equals("ACTIVE")) {
                reply("215 list of newsgroups follows");
                for (ArticleGenerator g : groups.values()) {
                    reply(g.spec.name() + " " + g.high + " 1 n");
                }
                reply(".");
            } else if (kw.equals("OVERVIEW.FMT")) {
                reply("215 Order of fields in overview database");
                OVERVIEW_FMT.forEach(this::reply);
                reply(".");
            } else {
                reply("501 Unsupported LIST keyword");
            }
        }

        private void over(String arg) throws IOException {
            if (!options.overLatency().isZero()) {
                try {
                    Thread.sleep(options.overLatency().toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted");
                }
            }
            if (current == null) {
                reply("412 No newsgroup selected");
                return;
            }
            if (arg.isEmpty()) {
                reply("420 No current article selected");
                return;
            }
            if (arg.startsWith("<")) {
                reply("430 No article with that message-id");
                return;
            }
            long lo;
            long hi;
            long high = current.high;
            try {
                int dash = arg.indexOf('-');
                if (dash < 0) {
                    lo = Long.parseLong(arg);
                    hi = lo;
                } else {
                    lo = Long.parseLong(arg.substring(0, dash));
                    hi = dash == arg.length() - 1 ? high : Long.parseLong(arg.substring(dash + 1));
                }
            } catch (NumberFormatException e) {
                reply("501 Syntax error in range");
                return;
            }
            long from = Math.max(lo, 1);
            long to = Math.min(hi, high);
            if (from > to) {
                reply("423 No articles in that range");
                return;
            }
            if (gzipTerminator != null) {
                reply("224 Overview information follows [COMPRESS=GZIP]");
                flush();
                zlib = new Deflater(Deflater.BEST_SPEED);
                data = new DeflaterOutputStream(new NotClosing(out), zlib, 64 * 1024);
            } else {
                reply("224 Overview information follows");
            }
            ArticleGenerator g = current;
            if (g.holdsPosted()) {
                for (long n = from; n <= to; n++) {
                    g.renderStored(buf, n);
                    if (buf.len >= FLUSH_AT) {
                        flush();
                    }
                }
            }
            ArticleGenerator.Cursor c = g.holdsPosted() ? null : g.cursorAt(from);
            for (long n = from; c != null && n <= to; n++) {
                if (n > from) {
                    c.advance();
                }
                ArticleKind k = g.kind(n);
                if (k == ArticleKind.POISON) {
                    c.renderPoison(buf, g.poisonKind(n));
                } else if (k != ArticleKind.GAP) {
                    c.render(buf, k == ArticleKind.MALFORMED);
                    if (buf.len >= FLUSH_AT) {
                        flush();
                    }
                }
            }
            if (gzipTerminator == null) {
                reply(".");
                return;
            }
            if (gzipTerminator) {
                reply(".");
            }
            flush();
            ((DeflaterOutputStream) data).finish();
            zlib.end();
            data = null;
            out.flush();
            if (!gzipTerminator) {
                reply(".");
            }
        }

        /**
         * ARTICLE, HEAD, BODY and STAT (RFC 3977 6.2): by message-id in any group, by number or
         * the current article in the selected group; the head and body go out dot-stuffed.
         */
        private void article(String cmd, String arg) throws IOException {
            ArticleGenerator g;
            long n;
            long shown;
            if (arg.startsWith("<")) {
                Located at = locate(arg);
                if (at == null) {
                    reply("430 No article with that message-id");
                    return;
                }
                g = at.group();
                n = at.number();
                shown = g == current ? n : 0;
            } else {
                if (current == null) {
                    reply("412 No newsgroup selected");
                    return;
                }
                g = current;
                if (arg.isEmpty()) {
                    n = currentArticle;
                    if (!exists(g, n)) {
                        reply("420 Current article number is invalid");
                        return;
                    }
                } else {
                    try {
                        n = Long.parseLong(arg);
                    } catch (NumberFormatException e) {
                        reply("501 Syntax error in article number");
                        return;
                    }
                    if (!exists(g, n)) {
                        reply("423 No article with that number");
                        return;
                    }
                    currentArticle = n;
                }
                shown = n;
            }
            Article posted = g.stored(n);
            ArticleKind kind = g.kind(n);
            PoisonKind poison = kind == ArticleKind.POISON ? g.poisonKind(n) : null;
            ArticleGenerator.Cursor c = posted == null ? g.cursorAt(n) : null;
            String id = posted != null ? posted.messageId() : "<" + c.servedMessageId(poison) + ">";
            String code = switch (cmd) {
                case "ARTICLE" -> "220";
                case "HEAD" -> "221";
                case "BODY" -> "222";
                default -> "223";
            };
            buf.bytes((code + " " + shown + " " + id).getBytes(StandardCharsets.UTF_8))
                    .crlf();
            if (cmd.equals("STAT")) {
                return;
            }
            if (!cmd.equals("BODY")) {
                buf.stuffed(posted != null ? g.storedHead(n) : c.head(kind, poison));
            }
            if (cmd.equals("ARTICLE")) {
                buf.crlf();
            }
            if (!cmd.equals("HEAD")) {
                HostileBody hostile = posted == null ? g.hostileBody(n) : null;
                buf.stuffed(posted != null ? posted.body() : c.body(hostile));
                if (hostile == HostileBody.ENDLESS) {
                    endless(n);
                }
            }
            reply(".");
        }

        private boolean exists(ArticleGenerator g, long n) {
            return n >= 1 && n <= g.high && g.kind(n) != ArticleKind.GAP;
        }

        /** Writes data lines until the client goes away: the client, not the server, must bound a body. */
        private void endless(long n) throws IOException {
            byte[] line = YencWriter.line(n);
            while (!closed) {
                buf.stuffed(line);
                if (buf.len >= FLUSH_AT) {
                    flush();
                }
            }
            throw new SocketException("simulator closed while writing an endless body");
        }

        private void reply(String line) {
            buf.ascii(line).crlf();
        }

        /** Writes what the buffer holds and flushes (a SYNC_FLUSH when compressed); nothing when it is empty. */
        private void flush() throws IOException {
            if (buf.len > 0) {
                OutputStream to = data != null ? data : out;
                to.write(buf.a, 0, buf.len);
                buf.len = 0;
                to.flush();
            }
        }
    }

    /** The connection's stream, which a compressed reply's zlib stream must not close when it finishes. */
    private static final class NotClosing extends FilterOutputStream {
        NotClosing(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
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
