package headway.nntp;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An NNTP reader server on 127.0.0.1 that serves deterministic groups of multipart binary posts, for
 * tests, benchmarks and chaos drills of an overview indexer. One platform thread per connection.
 *
 * <p>Invariant: every article is a pure function of (seed, group name, article number) plus a compact
 * per-post layout (one entry per post: its first article number, part count and number of parts
 * actually posted), so memory grows with posts, not articles, and {@link #truth} can recompute exactly
 * what OVER serves. Article numbers run 1..high without holes in the numbering; a <em>gap</em> is a
 * number whose article no longer exists, a <em>missing part</em> is a part that was never posted and so
 * got no number at all, and a <em>malformed</em> article is served with a broken overview line.
 * Overview lines are rendered straight into a reused byte buffer, which is what makes serving fast; the
 * cost is a hand-written renderer instead of String formatting.
 */
public final class NewsSimulator implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NewsSimulator.class);
    private static final String DOMAIN = "sim.test";
    private static final long BASE_EPOCH = LocalDate.of(2026, 6, 1).toEpochDay() * 86_400L;
    private static final long SECONDS_PER_ARTICLE = 7;
    private static final int FLUSH_AT = 192 * 1024;
    private static final List<String> OVERVIEW_FMT =
            List.of("Subject:", "From:", "Date:", "Message-ID:", "References:", ":bytes", ":lines", "Xref:full");
    private static final String[] WORDS = {
        "Blue", "Planet", "Night", "River", "Winter", "Summer", "Story", "Déjà", "Vu", "Über", "Café", "Black",
        "Mirror", "Silent", "Harbor", "Crème", "Brûlée", "Lost", "City", "Ocean", "Dawn", "Iron", "Garden", "Echo",
        "Señor", "Frozen", "Signal", "Empire", "Nord", "Fjörd"
    };
    private static final String[] QUALITY = {
        "1080p.WEB-DL.x264",
        "720p.HDTV.x264",
        "2160p.BluRay.x265",
        "FLAC",
        "MP3.320",
        "DVDRip.XviD",
        "1080p.BluRay.DTS",
        "PDF.eBook"
    };
    private static final Set<String> WITHOUT_AUTH = Set.of("AUTHINFO", "CAPABILITIES", "MODE", "DATE", "QUIT");
    private static final long SALT_PARTS = 0x1b873593L;
    private static final long SALT_MISSING = 0x2d4f6a1bL;
    private static final long SALT_GAP = 0x38b34ae5L;
    private static final long SALT_MALFORMED = 0x4c8fa7d1L;
    private static final long SALT_BYTES = 0x5e2d58d8L;
    private static final long SALT_NAME = 0x6a09e667L;

    private final Options options;
    private final Map<String, Group> groups;
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
            double malformedFraction) {
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

    /**
     * Server behaviour.
     *
     * @param requiredCredentials when set, everything but CAPABILITIES, MODE, AUTHINFO, DATE and QUIT answers 480 until AUTHINFO succeeds
     * @param overSupported       false makes OVER answer 500 like an old server that knows only XOVER
     * @param overLatency         a pause before each OVER reply, like a news server across a network
     */
    public record Options(
            NntpServer.Credentials requiredCredentials, boolean overSupported, java.time.Duration overLatency) {
        public Options {
            if (overLatency == null || overLatency.isNegative()) {
                throw new IllegalArgumentException("overLatency must be zero or positive, was " + overLatency);
            }
        }

        public Options(NntpServer.Credentials requiredCredentials, boolean overSupported) {
            this(requiredCredentials, overSupported, java.time.Duration.ZERO);
        }

        public static Options defaults() {
            return new Options(null, true);
        }

        /** These options with a pause of {@code latency} before each OVER reply. */
        public Options withOverLatency(java.time.Duration latency) {
            return new Options(requiredCredentials, overSupported, latency);
        }
    }

    /** What an article number is in a group. */
    public enum Kind {
        VALID,
        GAP,
        MALFORMED,
        ABSENT
    }

    /**
     * What OVER serves for a range: well-formed lines, gap numbers and malformed lines among the
     * numbers 1..high, and the wrapping sum of {@link #headerHash} over the well-formed lines.
     */
    public record Truth(long valid, long gaps, long malformed, long checksum) {}

    private NewsSimulator(Options options, List<GroupSpec> specs) throws IOException {
        this.options = Objects.requireNonNull(options, "options must be set");
        Map<String, Group> m = new LinkedHashMap<>();
        for (GroupSpec s : specs) {
            if (m.put(s.name(), new Group(s)) != null) {
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

    /** The address to connect to, with the required credentials when there are some. */
    public NntpServer server() {
        return new NntpServer("127.0.0.1", port(), false, options.requiredCredentials());
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
    public Kind kind(String group, long article) {
        Group g = group(group);
        if (article < 1 || article > g.high) {
            return Kind.ABSENT;
        }
        return g.kind(article);
    }

    /** Recomputes what OVER lo-hi serves now; numbers above high are not counted, like OVER omits them. */
    public Truth truth(String group, long lo, long hi) {
        Group g = group(group);
        long from = Math.max(lo, 1);
        long to = Math.min(hi, g.high);
        long valid = 0;
        long gaps = 0;
        long malformed = 0;
        long sum = 0;
        if (from <= to) {
            Cursor c = new Cursor(g, g.layout);
            c.seek(from);
            for (long n = from; n <= to; n++) {
                if (n > from) {
                    c.advance();
                }
                switch (g.kind(n)) {
                    case GAP -> gaps++;
                    case MALFORMED -> malformed++;
                    default -> {
                        valid++;
                        sum += headerHash(c.messageId(), c.subject(), c.bytes());
                    }
                }
            }
        }
        return new Truth(valid, gaps, malformed, sum);
    }

    /** The per-header hash that {@link Truth#checksum()} sums, for checking what a client stored. */
    public static long headerHash(String messageId, String subject, long bytes) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < messageId.length(); i++) {
            h = (h ^ messageId.charAt(i)) * 0x100000001b3L;
        }
        h = (h ^ '\t') * 0x100000001b3L;
        for (int i = 0; i < subject.length(); i++) {
            h = (h ^ subject.charAt(i)) * 0x100000001b3L;
        }
        return mix(h ^ mix(bytes));
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

    private Group group(String name) {
        Group g = groups.get(name);
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
        private final LineReader in;
        private final OutputStream out;
        private final Buf buf = new Buf(FLUSH_AT + 64 * 1024);
        private Group current;
        private boolean authenticated = options.requiredCredentials() == null;
        private String pendingUser;

        Session(Socket s) throws IOException {
            this.in = new LineReader(s.getInputStream(), 8192);
            this.out = s.getOutputStream();
        }

        void run() throws IOException {
            reply("201 headway news simulator ready (no posting)");
            flush();
            while (true) {
                int len = in.readLine();
                if (len < 0) {
                    return;
                }
                String line = new String(in.line(), 0, len, StandardCharsets.ISO_8859_1).trim();
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
            if (!authenticated) {
                reply("AUTHINFO USER");
            }
            reply("IMPLEMENTATION headway news simulator");
            reply(".");
        }

        private void authinfo(String arg) {
            NntpServer.Credentials want = options.requiredCredentials();
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
            Group g = groups.get(name);
            if (g == null) {
                reply("411 No such newsgroup");
                return;
            }
            current = g;
            long high = g.high;
            reply("211 " + high + " 1 " + high + " " + name);
        }

        private void list(String arg) {
            String kw = arg.isEmpty() ? "ACTIVE" : arg.split("\\s+")[0].toUpperCase(Locale.ROOT);
            if (kw.equals("ACTIVE")) {
                reply("215 list of newsgroups follows");
                for (Group g : groups.values()) {
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
            reply("224 Overview information follows");
            Group g = current;
            Cursor c = new Cursor(g, g.layout);
            c.seek(from);
            for (long n = from; n <= to; n++) {
                if (n > from) {
                    c.advance();
                }
                Kind k = g.kind(n);
                if (k != Kind.GAP) {
                    c.render(buf, k == Kind.MALFORMED);
                    if (buf.len >= FLUSH_AT) {
                        flush();
                    }
                }
            }
            reply(".");
        }

        private void reply(String line) {
            buf.ascii(line).crlf();
        }

        private void flush() throws IOException {
            if (buf.len > 0) {
                out.write(buf.a, 0, buf.len);
                buf.len = 0;
            }
            out.flush();
        }
    }

    /** A group's spec, its high-water mark and its post layout; the layout only grows. */
    private static final class Group {
        final GroupSpec spec;
        final long tag;
        final byte[] idSuffix;
        final byte[] xrefPrefix;
        volatile Layout layout = new Layout(new long[16], new long[16], new int[16], new int[16], 0, 0);
        volatile long high;

        Group(GroupSpec spec) {
            this.spec = spec;
            long h = spec.seed() * 0x9E3779B97F4A7C15L;
            for (int i = 0; i < spec.name().length(); i++) {
                h = (h ^ spec.name().charAt(i)) * 0x100000001b3L;
            }
            this.tag = mix(h);
            this.idSuffix = ("." + Long.toHexString(tag) + "@" + DOMAIN + ">").getBytes(StandardCharsets.ISO_8859_1);
            this.xrefPrefix = ("Xref: " + DOMAIN + " " + spec.name() + ":").getBytes(StandardCharsets.ISO_8859_1);
            post(spec.initialArticles());
        }

        long hash(long salt, long x) {
            return mix(tag ^ mix(x * 0x9E3779B97F4A7C15L + salt));
        }

        double unit(long salt, long x) {
            return (hash(salt, x) >>> 11) * 0x1.0p-53;
        }

        Kind kind(long n) {
            if (spec.gapFraction() > 0 && unit(SALT_GAP, n) < spec.gapFraction()) {
                return Kind.GAP;
            }
            if (spec.malformedFraction() > 0 && unit(SALT_MALFORMED, n) < spec.malformedFraction()) {
                return Kind.MALFORMED;
            }
            return Kind.VALID;
        }

        int partsOf(long post) {
            int span = spec.maxParts() - spec.minParts() + 1;
            return spec.minParts() + (int) Long.remainderUnsigned(hash(SALT_PARTS, post), span);
        }

        boolean partMissing(long post, int slot) {
            return spec.missingPartFraction() > 0
                    && unit(SALT_MISSING + post * 0x632BE59BD9B4E019L, slot) < spec.missingPartFraction();
        }

        synchronized long post(long n) {
            long target = high + n;
            Layout l = layout;
            if (l.total < target) {
                long[] ids = l.postId;
                long[] first = l.first;
                int[] parts = l.parts;
                int[] present = l.present;
                int count = l.count;
                long total = l.total;
                long nextPost = count == 0 ? 0 : ids[count - 1] + 1;
                while (total < target) {
                    int p = partsOf(nextPost);
                    int slots = p * spec.filesPerPost();
                    int here = 0;
                    for (int s = 0; s < slots; s++) {
                        if (!partMissing(nextPost, s)) {
                            here++;
                        }
                    }
                    if (here > 0) {
                        if (count == ids.length) {
                            int cap = count * 2;
                            ids = Arrays.copyOf(ids, cap);
                            first = Arrays.copyOf(first, cap);
                            parts = Arrays.copyOf(parts, cap);
                            present = Arrays.copyOf(present, cap);
                        }
                        ids[count] = nextPost;
                        first[count] = total + 1;
                        parts[count] = p;
                        present[count] = here;
                        count++;
                        total += here;
                    }
                    nextPost++;
                }
                layout = new Layout(ids, first, parts, present, count, total);
            }
            high = target;
            return target;
        }
    }

    /** Posts in article order: post id, first article number, parts per file, parts actually posted. */
    private record Layout(long[] postId, long[] first, int[] parts, int[] present, int count, long total) {}

    /** Walks articles in order, caching what is shared by a post or a file. */
    private static final class Cursor {
        private final Group g;
        private final Layout l;
        private int index = -1;
        private long post;
        private int parts;
        private int slot;
        private long n;
        private int file = -1;
        private String release;
        private String base;
        private int shape;
        private byte[] from;
        private byte[] subjectPrefix;
        private byte[] partSuffix;
        private long day = Long.MIN_VALUE;
        private byte[] dayPrefix;

        Cursor(Group g, Layout l) {
            this.g = g;
            this.l = l;
        }

        void seek(long article) {
            int lo = 0;
            int hi = l.count() - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (l.first()[mid] <= article) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            loadPost(lo);
            long skip = article - l.first()[lo];
            slot = firstPresent(0);
            for (long i = 0; i < skip; i++) {
                slot = firstPresent(slot + 1);
            }
            n = article;
            loadFile();
        }

        void advance() {
            n++;
            if (n >= l.first()[index] + l.present()[index]) {
                loadPost(index + 1);
                slot = firstPresent(0);
            } else {
                slot = firstPresent(slot + 1);
            }
            loadFile();
        }

        private int firstPresent(int from) {
            int s = from;
            while (g.partMissing(post, s)) {
                s++;
            }
            return s;
        }

        private void loadPost(int i) {
            index = i;
            post = l.postId()[i];
            parts = l.parts()[i];
            file = -1;
            long h = g.hash(SALT_NAME, post);
            shape = (int) Long.remainderUnsigned(h, 3);
            StringBuilder sb = new StringBuilder();
            int words = 2 + (int) ((h >>> 8) & 1) + (int) ((h >>> 9) & 1);
            for (int w = 0; w < words; w++) {
                sb.append(WORDS[(int) ((h >>> (12 + 5 * w)) % WORDS.length)]).append('.');
            }
            if (shape == 1) {
                sb.append(String.format(Locale.ROOT, "S%02dE%02d.", 1 + (h >>> 34) % 9, 1 + (h >>> 40) % 24));
            } else {
                sb.append(1990 + (h >>> 34) % 36).append('.');
            }
            sb.append(QUALITY[(int) ((h >>> 46) % QUALITY.length)])
                    .append("-GRP")
                    .append((char) ('A' + (h >>> 52) % 26));
            release = sb.toString();
            base = release.toLowerCase(Locale.ROOT);
            String poster = "poster" + ((h >>> 56) % 40);
            from = (poster + " <" + poster + "@" + DOMAIN + ">").getBytes(StandardCharsets.ISO_8859_1);
            partSuffix = ("/" + parts + ")").getBytes(StandardCharsets.ISO_8859_1);
        }

        private void loadFile() {
            int f = slot / parts;
            if (f == file) {
                return;
            }
            file = f;
            int files = g.spec.filesPerPost();
            int width = Math.max(2, Integer.toString(files).length());
            String pos = pad(f + 1, width) + "/" + pad(files, width);
            String s = switch (shape) {
                case 0 -> "[" + pos + "] - \"" + base + ".part" + pad(f + 1, width) + ".rar\" yEnc (";
                case 1 ->
                    release + " - [" + pos + "] - \"" + base + (f == 0 ? ".rar" : ".r" + pad(f - 1, 2)) + "\" yEnc (";
                default ->
                    "(" + release.replace('.', ' ') + ") [" + (f + 1) + "/" + files + "] - \"" + base
                            + (f == 0 ? ".nfo" : f == 1 ? ".sfv" : ".7z." + pad(f - 1, 3)) + "\" yEnc (";
            };
            subjectPrefix = s.getBytes(StandardCharsets.ISO_8859_1);
        }

        int part() {
            return slot % parts + 1;
        }

        long bytes() {
            return 400_000 + Long.remainderUnsigned(g.hash(SALT_BYTES, n), 400_001);
        }

        String subject() {
            return new String(subjectPrefix, StandardCharsets.ISO_8859_1) + part() + "/" + parts + ")";
        }

        String messageId() {
            return "<" + n + new String(g.idSuffix, StandardCharsets.ISO_8859_1);
        }

        /** Appends this article's overview line (CRLF-terminated), or a malformed variant of it. */
        void render(Buf b, boolean malformed) {
            b.num(n).tab().bytes(subjectPrefix).num(part()).bytes(partSuffix);
            if (malformed) {
                switch ((int) Long.remainderUnsigned(g.hash(SALT_MALFORMED + 1, n), 3)) {
                    case 0 -> b.crlf();
                    case 1 -> {
                        b.put((byte) ' ').bytes(from).put((byte) ' ');
                        date(b);
                        b.crlf();
                    }
                    default -> {
                        b.tab().bytes(from).tab();
                        date(b);
                        b.crlf();
                    }
                }
                return;
            }
            long bytes = bytes();
            b.tab().bytes(from).tab();
            date(b);
            b.tab()
                    .put((byte) '<')
                    .num(n)
                    .bytes(g.idSuffix)
                    .tab()
                    .tab()
                    .num(bytes)
                    .tab()
                    .num(bytes / 128 + 3)
                    .tab()
                    .bytes(g.xrefPrefix)
                    .num(n)
                    .crlf();
        }

        private void date(Buf b) {
            long epoch = BASE_EPOCH + n * SECONDS_PER_ARTICLE;
            long d = Math.floorDiv(epoch, 86_400L);
            if (d != day) {
                day = d;
                LocalDate date = LocalDate.ofEpochDay(d);
                dayPrefix = (date.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ROOT) + ", "
                                + pad(date.getDayOfMonth(), 2) + " "
                                + date.getMonth().getDisplayName(TextStyle.SHORT, Locale.ROOT) + " " + date.getYear()
                                + " ")
                        .getBytes(StandardCharsets.ISO_8859_1);
            }
            int sec = (int) (epoch - d * 86_400L);
            b.bytes(dayPrefix)
                    .two(sec / 3600)
                    .put((byte) ':')
                    .two(sec / 60 % 60)
                    .put((byte) ':')
                    .two(sec % 60)
                    .ascii(" +0000");
        }

        private static String pad(int v, int width) {
            String s = Integer.toString(v);
            return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
        }
    }

    /** A growable byte buffer with the few appenders the renderer needs. */
    private static final class Buf {
        byte[] a;
        int len;

        Buf(int cap) {
            a = new byte[cap];
        }

        private void ensure(int extra) {
            if (len + extra > a.length) {
                a = Arrays.copyOf(a, Math.max(a.length * 2, len + extra));
            }
        }

        Buf put(byte x) {
            ensure(1);
            a[len++] = x;
            return this;
        }

        Buf tab() {
            return put((byte) '\t');
        }

        Buf crlf() {
            ensure(2);
            a[len++] = '\r';
            a[len++] = '\n';
            return this;
        }

        Buf bytes(byte[] x) {
            ensure(x.length);
            System.arraycopy(x, 0, a, len, x.length);
            len += x.length;
            return this;
        }

        Buf ascii(String s) {
            int n = s.length();
            ensure(n + 1);
            if (n > 0 && s.charAt(0) == '.' && n > 1) {
                a[len++] = '.';
            }
            for (int i = 0; i < n; i++) {
                a[len++] = (byte) s.charAt(i);
            }
            return this;
        }

        Buf two(int v) {
            ensure(2);
            a[len++] = (byte) ('0' + v / 10);
            a[len++] = (byte) ('0' + v % 10);
            return this;
        }

        Buf num(long v) {
            ensure(20);
            if (v == 0) {
                a[len++] = '0';
                return this;
            }
            int start = len;
            while (v > 0) {
                a[len++] = (byte) ('0' + v % 10);
                v /= 10;
            }
            for (int i = start, j = len - 1; i < j; i++, j--) {
                byte t = a[i];
                a[i] = a[j];
                a[j] = t;
            }
            return this;
        }
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            log.debug("closing connection failed: {}", e.toString());
        }
    }
}
