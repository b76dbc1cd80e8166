package headway.nntp;

import headway.overview.OverviewParser;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One NNTP reader connection (RFC 3977 subset: CAPABILITIES, MODE READER, AUTHINFO USER/PASS, GROUP,
 * LIST OVERVIEW.FMT, OVER/XOVER, BODY by message-id, QUIT). Not thread-safe: one caller at a time, which the pool ensures.
 *
 * <p>Invariant: after every method returns or throws, either the connection is in sync (each reply
 * read to its end, multi-line ones to their terminating dot) or {@link #isBroken()} is true. Keeping it
 * costs draining unread overview lines after a sink failure; a broken connection must be discarded.
 *
 * <p>Every reply is bounded by what was asked ({@link Limits}): its status line, each line, its line
 * count and bytes, and the time the whole reply may take, besides the read timeout of each read. A
 * server that breaks a bound gets a {@link MisbehavingServerException} naming it, the command and
 * the bound, and the connection is broken; the lines after the breach never reach the sink. The cost
 * is a few comparisons per overview line and one clock read per 64 KiB read.
 */
public final class NntpClient implements Closeable {
    private static final Logger log = LoggerFactory.getLogger(NntpClient.class);
    private static final int READ_BUFFER = 64 * 1024;
    /** The longest a single command may be given, whatever it asked for, so deadlines never overflow. */
    private static final long MAX_BUDGET_NANOS = TimeUnit.DAYS.toNanos(1);

    /**
     * The bounds a reply must keep. A command's whole reply must arrive within the read timeout,
     * plus {@code deadlinePerArticle} for each article an OVER asks for; OVER lo-hi may have at most
     * hi-lo+1 lines, with increasing numbers inside lo..hi, and at most {@code overviewBytesPerArticle}
     * bytes per article asked for (at least one full line).
     *
     * @param statusLineBytes         longest status line (RFC 3977 allows 512 bytes; servers stretch it)
     * @param lineBytes               longest line of a multi-line reply
     * @param listLines               most lines of a CAPABILITIES or LIST OVERVIEW.FMT reply
     * @param listBytes               most bytes of such a reply
     * @param overviewBytesPerArticle most bytes of an OVER reply per article asked for
     * @param deadlinePerArticle      time an OVER reply may take per article asked for, beyond the read timeout
     */
    public record Limits(
            int statusLineBytes,
            int lineBytes,
            int listLines,
            int listBytes,
            int overviewBytesPerArticle,
            Duration deadlinePerArticle) {

        /**
         * Generous for any real server: real overview lines are a few hundred bytes (64 KiB fits a
         * References header of hundreds of ids), real CAPABILITIES a few dozen lines, and 5 ms per
         * article lets a 5,000-article batch take 25 s more than the read timeout (50 KB/s).
         */
        public static final Limits DEFAULT =
                new Limits(2048, 64 * 1024, 1000, 64 * 1024, 16 * 1024, Duration.ofMillis(5));

        public Limits {
            between("statusLineBytes", statusLineBytes, 64, 1 << 20);
            between("lineBytes", lineBytes, 64, 16 << 20);
            between("listLines", listLines, 1, 1_000_000);
            between("listBytes", listBytes, 64, 64 << 20);
            between("overviewBytesPerArticle", overviewBytesPerArticle, 64, 16 << 20);
            Objects.requireNonNull(deadlinePerArticle, "deadlinePerArticle");
            if (deadlinePerArticle.isNegative() || deadlinePerArticle.compareTo(Duration.ofSeconds(10)) > 0) {
                throw new IllegalArgumentException(
                        "deadlinePerArticle must be between 0 and 10s, was " + deadlinePerArticle);
            }
        }

        private static void between(String name, int value, int min, int max) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", was " + value);
            }
        }
    }

    private final NntpServer server;
    private Socket socket;
    private final Duration readTimeout;
    private final Limits limits;
    private final DeadlineInput input;
    private final LineReader in;
    private OutputStream out;
    private boolean encrypted;
    private boolean compressed;
    /** XFEATURE COMPRESS GZIP is on: overview replies marked [COMPRESS=GZIP] come as a zlib stream. */
    private boolean gzipOverview;

    private Inflater inflater;
    private Deflater deflater;
    private boolean broken;
    private boolean closed;
    private boolean useXover;
    private OverviewParser parser;
    /** The ranges of the OVER commands sent whose replies are not read yet, oldest first. */
    private final ArrayDeque<long[]> sent = new ArrayDeque<>();
    /** This connection answered an overview command, so whether it takes OVER or XOVER is known. */
    private boolean overAnswered;

    private String group;
    private int repliesRead;
    /** The command whose reply is being read, and how long it was given, for messages. */
    private String current = "greeting";

    private long budgetNanos;

    /** This connection's reply reading, for the reply readers: a bounded line, a named breach, a broken connection. */
    private final Replies.Lines replyLines = new Replies.Lines() {
        @Override
        public int readLine(LineReader from, int maxLength, MisbehavingServerException.Bound tooLong)
                throws IOException {
            return readLineOrBreak(from, maxLength, tooLong);
        }

        @Override
        public MisbehavingServerException violation(MisbehavingServerException.Bound bound, String detail) {
            return NntpClient.this.violation(bound, detail);
        }

        @Override
        public void undrained() {
            broken = true;
        }
    };

    private NntpClient(NntpServer server, Socket socket, Duration readTimeout, Limits limits) throws IOException {
        this.server = server;
        this.socket = socket;
        this.readTimeout = readTimeout;
        this.limits = limits;
        this.input = new DeadlineInput(socket, millis(readTimeout, "readTimeout"));
        this.in = new LineReader(input, READ_BUFFER);
        this.out = socket.getOutputStream();
    }

    /**
     * Connects, reads the greeting, switches to reader mode when the server asks for it and
     * authenticates when the server has credentials.
     */
    public static NntpClient connect(NntpServer server, Duration connectTimeout, Duration readTimeout)
            throws IOException {
        return connect(server, connectTimeout, readTimeout, Limits.DEFAULT);
    }

    /** As {@link #connect(NntpServer, Duration, Duration)}, with the given reply bounds. */
    public static NntpClient connect(NntpServer server, Duration connectTimeout, Duration readTimeout, Limits limits)
            throws IOException {
        Objects.requireNonNull(limits, "limits");
        int connectMs = millis(connectTimeout, "connectTimeout");
        int readMs = millis(readTimeout, "readTimeout");
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setReceiveBufferSize(256 * 1024);
            socket.connect(new InetSocketAddress(server.host(), server.port()), connectMs);
            socket.setSoTimeout(readMs);
            if (server.tls()) {
                socket = NntpTls.startTls(server, socket);
            }
        } catch (SSLException e) {
            closeQuietly(socket);
            throw NntpTls.failure(server, e);
        } catch (IOException e) {
            closeQuietly(socket);
            throw new NntpException(
                    -1,
                    "cannot connect to " + server + " within " + connectTimeout + ": " + e
                            + "; check host, port and tls, and that the server is up",
                    e);
        }
        NntpClient client = new NntpClient(server, socket, readTimeout, limits);
        client.encrypted = server.tls();
        try {
            client.handshake();
            return client;
        } catch (IOException | RuntimeException e) {
            client.broken = true;
            client.close();
            throw e;
        }
    }

    /** The server this connection talks to. */
    public NntpServer server() {
        return server;
    }

    /** True when the connection is encrypted: TLS on connect or after STARTTLS. */
    public boolean isEncrypted() {
        return encrypted;
    }

    /** True when RFC 8054 {@code COMPRESS DEFLATE} is active on this connection. */
    public boolean isCompressed() {
        return compressed;
    }

    /** True when {@code XFEATURE COMPRESS GZIP} is on: overview replies may come compressed. */
    public boolean isOverviewCompressed() {
        return gzipOverview;
    }

    /** True when the connection failed or lost sync and must be discarded. */
    public boolean isBroken() {
        return broken || closed || socket.isClosed();
    }

    /** How many replies this connection has read whole so far; a pool tells a stale connection by a failure before any. */
    public int repliesRead() {
        return repliesRead;
    }

    /** Selects a group and returns its counts; sent again to see a grown high-water mark, because servers fix it at GROUP time. */
    public GroupInfo group(String name) throws IOException {
        if (name == null || name.isEmpty() || !name.chars().allMatch(ch -> ch > ' ' && ch < 127)) {
            throw new IllegalArgumentException(
                    "group name must be non-empty printable ASCII without spaces, was '" + name + "'");
        }
        Reply r = command("GROUP " + name, budget(0));
        switch (r.code) {
            case 211 -> {
                String[] p = r.text.trim().split("\\s+");
                long[] marks = new long[3];
                for (int i = 0; i < 3; i++) {
                    marks[i] = i < p.length ? Replies.parseMark(p[i]) : -1;
                    if (marks[i] < 0) {
                        throw violation(
                                MisbehavingServerException.Bound.STATUS_LINE,
                                "GROUP reply '" + Replies.clip(r.toString())
                                        + "' does not give the count, low and high marks as numbers of 0 or more");
                    }
                }
                this.group = name;
                return new GroupInfo(marks[0], marks[1], marks[2], p.length > 3 ? p[3] : name);
            }
            case 411 -> throw new UnknownGroupException(name, server.toString());
            default -> throw unexpected("GROUP " + name, r);
        }
    }

    /** The group the last successful GROUP selected on this connection, or null. */
    public String selectedGroup() {
        return group;
    }

    /** The overview field order used to parse OVER replies: LIST OVERVIEW.FMT, or the RFC 3977 default when it fails. */
    public List<String> overviewFormat() throws IOException {
        return overviewParser().format();
    }

    /**
     * Streams the overview of articles lo..hi of the selected group into the sink and returns how many
     * well-formed headers it received. Sends OVER, or XOVER once OVER answered 500/501. Gaps inside
     * [lo, hi] are reported through {@link OverviewSink#missing}, in order, after the lines before them.
     * A reply that breaks its bounds (more than hi-lo+1 lines, a number outside lo..hi or not above the
     * one before, too many bytes, too slow) throws {@link MisbehavingServerException} before the
     * offending line reaches the sink, and nothing past the last delivered article is reported missing.
     */
    public long over(long lo, long hi, OverviewSink sink) throws IOException {
        sendOver(lo, hi);
        return receiveOver(lo, hi, sink);
    }

    /**
     * Sends OVER lo..hi without waiting for the replies before it (RFC 3977 section 3.5 lets a
     * client pipeline commands), so a connection far from its server does not idle a round trip
     * between two batches; {@link #receiveOver} reads the replies in the order the commands were
     * sent. A second command may be sent ahead only once this connection has answered an overview
     * command ({@link #pipelinesOver()}), because until then OVER may turn out to need XOVER.
     */
    public void sendOver(long lo, long hi) throws IOException {
        if (lo < 1 || hi < lo) {
            throw new IllegalArgumentException("range must satisfy 1 <= lo <= hi, was " + lo + "-" + hi);
        }
        if (!sent.isEmpty() && !overAnswered) {
            throw new IllegalStateException("OVER sent ahead on " + this
                    + " before its first overview reply: read that reply first (pipelinesOver() says when)");
        }
        overviewParser();
        if (isBroken()) {
            throw new NntpException(
                    -1, "connection to " + server + " is broken or closed: discard it and connect again");
        }
        write((useXover ? "XOVER " : "OVER ") + lo + "-" + hi);
        sent.add(new long[] {lo, hi});
    }

    /** Whether {@link #sendOver} may send a command while the replies of others are still unread. */
    public boolean pipelinesOver() {
        return overAnswered && !isBroken();
    }

    /** How many commands were sent whose replies are not read yet. */
    public int unreadReplies() {
        return sent.size();
    }

    /**
     * Reads the reply to the oldest OVER that {@link #sendOver} sent, which must be for lo..hi, as
     * {@link #over} describes. If it fails while later replies are still unread, the connection is
     * broken: it cannot be told where one of them starts.
     */
    public long receiveOver(long lo, long hi, OverviewSink sink) throws IOException {
        long[] head = sent.peek();
        if (head == null || head[0] != lo || head[1] != hi) {
            throw new IllegalStateException("the next reply on " + this + " is for "
                    + (head == null ? "no command" : "OVER " + head[0] + "-" + head[1]) + ", not for OVER " + lo + "-"
                    + hi);
        }
        sent.poll();
        boolean done = false;
        try {
            long headers = readOverReply(lo, hi, sink);
            done = true;
            return headers;
        } finally {
            if (!done && !sent.isEmpty()) {
                broken = true;
            }
        }
    }

    private long readOverReply(long lo, long hi, OverviewSink sink) throws IOException {
        OverviewParser p = overviewParser();
        String range = lo + "-" + hi;
        long budget = budget(hi - lo + 1);
        arm((useXover ? "XOVER " : "OVER ") + range, budget);
        Reply r = readReply();
        if (!useXover && !overAnswered && sent.isEmpty() && (r.code == 500 || r.code == 501)) {
            log.debug("{} answered OVER with {}, using XOVER", server, r.code);
            useXover = true;
            r = command("XOVER " + range, budget);
        }
        switch (r.code) {
            case 224 -> {
                overAnswered = true;
                return readOverview(
                        lo, hi, p, sink, r.text.toUpperCase(Locale.ROOT).contains("COMPRESS=GZIP"));
            }
            case 423, 420 -> {
                overAnswered = true;
                sink.missing(lo, hi);
                return 0;
            }
            case 412 ->
                throw new NntpException(412, "no newsgroup selected on " + server + ": call group(name) before over()");
            default -> throw unexpected((useXover ? "XOVER " : "OVER ") + range, r);
        }
    }

    /**
     * BODY of the article {@code messageId} ({@code <local@domain>}), streamed into the sink line by
     * line; returns its bytes as sent, or -1 when the server has no such article (430, or 423),
     * which leaves the connection in sync. The body is bounded by {@code bounds} for {@code maxBytes}: a breach is a
     * {@link MisbehavingServerException} that breaks the connection, the sink having seen only the
     * lines before it.
     */
    public long body(String messageId, long maxBytes, BodyLimits bounds, BodySink sink) throws IOException {
        Replies.checkMessageId(messageId);
        Objects.requireNonNull(sink, "sink");
        if (maxBytes < 1 || maxBytes > BodyLimits.MAX_BODY) {
            throw new IllegalArgumentException(
                    "maxBytes must be between 1 and " + BodyLimits.MAX_BODY + ", was " + maxBytes);
        }
        long allowance = bounds.allowanceFor(maxBytes).toNanos();
        Reply r = command("BODY " + messageId, Math.min(MAX_BUDGET_NANOS, readTimeout.toNanos() + allowance));
        return switch (r.code) {
            case 222 -> new BodyReader(maxBytes, bounds.lineBytes(), in, replyLines).read(sink);
            case 430, 423 -> -1L;
            default -> throw unexpected("BODY " + messageId, r);
        };
    }

    /** Sends a command whose reply {@link #readStatus} reads later ({@link StatPipeline}, which checks the connection is idle). */
    void sendAhead(String cmd) throws IOException {
        write(cmd);
    }

    /** The code of the next status line, within the read timeout; a code not in {@code accepted} breaks the connection. */
    int readStatus(String shown, int... accepted) throws IOException {
        arm(shown, readTimeout.toNanos());
        Reply r = readReply();
        for (int code : accepted) {
            if (r.code == code) {
                return code;
            }
        }
        broken = true;
        throw unexpected(shown, r);
    }

    /** Sends QUIT when the connection is healthy and closes the socket; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!sent.isEmpty()) {
            broken = true;
        }
        if (!broken && !socket.isClosed()) {
            try {
                write("QUIT");
                arm("QUIT", TimeUnit.SECONDS.toNanos(1));
                in.readLine(limits.statusLineBytes());
            } catch (IOException e) {
                log.debug("QUIT to {} failed: {}", server, e.toString());
            }
        }
        closeQuietly(socket);
        if (inflater != null) {
            inflater.end();
            deflater.end();
        }
    }

    @Override
    public String toString() {
        return "NntpClient[" + server + (group == null ? "" : ", group=" + group) + (isBroken() ? ", broken" : "")
                + "]";
    }

    /**
     * Reads an OVER reply's lines to its terminating dot ({@link OverviewReader}), from the
     * connection or, when the server marked it {@code [COMPRESS=GZIP]}, from its zlib stream.
     */
    private long readOverview(long lo, long hi, OverviewParser p, OverviewSink sink, boolean gzip) throws IOException {
        if (!gzip) {
            return readOverview(lo, hi, p, sink, in);
        }
        if (!gzipOverview) {
            throw violation(
                    MisbehavingServerException.Bound.STATUS_LINE,
                    "a compressed overview reply that XFEATURE COMPRESS GZIP did not ask for");
        }
        try (GzipReply block = new GzipReply(in.takeBuffered(), input)) {
            LineReader lines = new LineReader(block, READ_BUFFER);
            long headers = readOverview(lo, hi, p, sink, lines);
            if (!block.endsCleanly(lines.buffered())) {
                throw violation(
                        MisbehavingServerException.Bound.REPLY_LINES, "data after the compressed overview's last line");
            }
            // what was read past the terminating line starts the next reply when commands were sent ahead
            byte[] after = lines.takeBuffered();
            byte[] plainLeft = block.plainLeft();
            if (after.length + plainLeft.length > 0) {
                if (sent.isEmpty()) {
                    throw violation(
                            MisbehavingServerException.Bound.REPLY_LINES,
                            "data after the compressed overview's last line");
                }
                byte[] rest = Arrays.copyOf(after, after.length + plainLeft.length);
                System.arraycopy(plainLeft, 0, rest, after.length, plainLeft.length);
                in.unread(rest);
            }
            return headers;
        } catch (ZipException e) {
            broken = true;
            throw new NntpException(-1, server + ": " + e.getMessage(), e);
        }
    }

    private long readOverview(long lo, long hi, OverviewParser p, OverviewSink sink, LineReader in) throws IOException {
        return new OverviewReader(lo, hi, limits, in, replyLines).read(p, sink);
    }

    private OverviewParser overviewParser() throws IOException {
        if (parser == null) {
            Reply r = command("LIST OVERVIEW.FMT", budget(0));
            if (r.code == 215) {
                List<String> fmt = Replies.textBlock(replyLines, in, limits);
                parser = fmt.stream().allMatch(String::isBlank)
                        ? OverviewParser.defaultFormat()
                        : OverviewParser.forFormat(fmt);
            } else {
                log.debug("{} answered LIST OVERVIEW.FMT with {}, using the RFC 3977 default order", server, r);
                parser = OverviewParser.defaultFormat();
            }
        }
        return parser;
    }

    private void handshake() throws IOException {
        arm("greeting", budget(0));
        Reply greeting = readReply();
        if (greeting.code != 200 && greeting.code != 201) {
            throw new NntpException(
                    greeting.code,
                    server + " refused service: " + Replies.clip(greeting.toString())
                            + "; retry later or check that this host may connect");
        }
        Map<String, List<String>> caps = upgradeToTls(capabilities());
        if (caps == null || (caps.containsKey("MODE-READER") && !caps.containsKey("READER"))) {
            Reply r = command("MODE READER", budget(0));
            if (r.code == 502) {
                throw new NntpException(
                        502,
                        server + " does not allow reading from this host: " + Replies.clip(r.toString())
                                + "; check the account or the server's access rules");
            }
            if (r.code != 200 && r.code != 201 && r.code != 500 && r.code != 501 && r.code != 480) {
                throw unexpected("MODE READER", r);
            }
            if (caps != null) {
                caps = upgradeToTls(capabilities());
            }
        }
        if (!encrypted && server.security().startTls() == NntpServer.StartTls.REQUIRE) {
            throw new NntpException(
                    -1,
                    server + " does not offer STARTTLS: connect with TLS (HEADWAY_NNTP_TLS=true, usually port 563)"
                            + " or set HEADWAY_NNTP_STARTTLS=auto");
        }
        if (server.credentials() != null) {
            if (!encrypted && !server.security().plainAuth()) {
                throw new NntpAuthException(
                        -1,
                        server + " is not encrypted, and AUTHINFO would send the password in plain text: connect"
                                + " with TLS (HEADWAY_NNTP_TLS=true, usually port 563) or allow it with"
                                + " HEADWAY_NNTP_PLAIN_AUTH=true");
            }
            authenticate(server.credentials());
            if (caps != null && server.security().compress()) {
                caps = capabilities();
            }
        }
        if (server.security().compress() && offers(caps, "COMPRESS", "DEFLATE")) {
            startCompression();
        }
        if (server.security().compress() && !compressed && offers(caps, "XFEATURE-COMPRESS", "GZIP")) {
            startOverviewCompression();
        }
    }

    /**
     * Turns on the de-facto {@code XFEATURE COMPRESS GZIP}, where a provider lists it in
     * CAPABILITIES ({@code XFEATURE-COMPRESS GZIP ...}) and does not offer RFC 8054: overview
     * replies then come as a zlib stream (see {@link GzipReply}). A refusal leaves it off.
     */
    private void startOverviewCompression() throws IOException {
        Reply r = command("XFEATURE COMPRESS GZIP", budget(0));
        if (r.code != 290) {
            log.debug("{} lists XFEATURE-COMPRESS GZIP but answered {}, reading overview uncompressed", server, r);
            return;
        }
        gzipOverview = true;
    }

    /**
     * Upgrades a plain connection with STARTTLS when the server offers it and the security allows
     * it, and returns the capabilities to use from here on (read again after an upgrade, RFC 4642).
     */
    private Map<String, List<String>> upgradeToTls(Map<String, List<String>> caps) throws IOException {
        if (encrypted
                || server.security().startTls() == NntpServer.StartTls.OFF
                || caps == null
                || !caps.containsKey("STARTTLS")) {
            return caps;
        }
        Reply r = command("STARTTLS", budget(0));
        if (r.code != 382) {
            if (server.security().startTls() == NntpServer.StartTls.REQUIRE || r.code != 580) {
                throw new NntpException(
                        r.code,
                        server + " refused STARTTLS: " + Replies.clip(r.toString())
                                + "; connect with TLS (HEADWAY_NNTP_TLS=true, usually port 563) or set"
                                + " HEADWAY_NNTP_STARTTLS=off");
            }
            log.debug("{} offers STARTTLS but declined it ({}), staying in plain text", server, r);
            return caps;
        }
        if (in.buffered() > 0) {
            throw violation(MisbehavingServerException.Bound.STATUS_LINE, "data after the 382 reply to STARTTLS");
        }
        try {
            socket = NntpTls.startTls(server, socket);
        } catch (SSLException e) {
            broken = true;
            throw NntpTls.failure(server, e);
        }
        input.switchTo(socket, socket.getInputStream());
        out = socket.getOutputStream();
        encrypted = true;
        return capabilities();
    }

    /** Turns on RFC 8054 COMPRESS DEFLATE: raw DEFLATE both ways, the client's side flushed after each command. */
    private void startCompression() throws IOException {
        Reply r = command("COMPRESS DEFLATE", budget(0));
        if (r.code != 206) {
            log.debug("{} offers COMPRESS DEFLATE but answered {}, staying uncompressed", server, r);
            return;
        }
        if (in.buffered() > 0) {
            throw violation(MisbehavingServerException.Bound.STATUS_LINE, "data after the 206 reply to COMPRESS");
        }
        inflater = new Inflater(true);
        deflater = new Deflater(Deflater.BEST_SPEED, true);
        input.switchTo(socket, new InflaterInputStream(socket.getInputStream(), inflater, READ_BUFFER));
        out = new DeflaterOutputStream(socket.getOutputStream(), deflater, 4096, true);
        compressed = true;
    }

    private static boolean offers(Map<String, List<String>> caps, String label, String argument) {
        return caps != null && caps.getOrDefault(label, List.of()).contains(argument);
    }

    /** The capabilities, each label with its arguments (upper case), or null when CAPABILITIES is not supported. */
    private Map<String, List<String>> capabilities() throws IOException {
        Reply r = command("CAPABILITIES", budget(0));
        if (r.code == 480) {
            return Map.of();
        }
        if (r.code != 101) {
            return null;
        }
        Map<String, List<String>> caps = new HashMap<>();
        for (String l : Replies.textBlock(replyLines, in, limits)) {
            String[] words = l.trim().toUpperCase(Locale.ROOT).split("\\s+");
            if (!words[0].isEmpty()) {
                caps.put(words[0], List.of(words).subList(1, words.length));
            }
        }
        return caps;
    }

    private void authenticate(NntpServer.Credentials c) throws IOException {
        Reply r = command("AUTHINFO USER " + c.user(), "AUTHINFO USER ***", budget(0));
        if (r.code == 381) {
            r = command("AUTHINFO PASS " + c.password(), "AUTHINFO PASS ***", budget(0));
        }
        if (r.code != 281) {
            throw new NntpAuthException(
                    r.code,
                    server + " rejected the credentials (reply " + r.code
                            + "): check the user name and password configured for this server");
        }
    }

    /** The time a command's reply may take: the read timeout, plus the per-article allowance for each article asked for. */
    private long budget(long articles) {
        long base = readTimeout.toNanos();
        long perArticle = limits.deadlinePerArticle().toNanos();
        return Math.min(
                MAX_BUDGET_NANOS, base + Math.min(MAX_BUDGET_NANOS, Replies.saturatedMultiply(articles, perArticle)));
    }

    private Reply command(String cmd, long budget) throws IOException {
        return command(cmd, cmd, budget);
    }

    private Reply command(String cmd, String shown, long budget) throws IOException {
        if (!sent.isEmpty()) {
            throw new IllegalStateException(
                    shown + " on " + this + " while " + sent.size() + " OVER replies are unread: read them first");
        }
        if (isBroken()) {
            throw new NntpException(
                    -1, "connection to " + server + " is broken or closed: discard it and connect again");
        }
        write(cmd);
        arm(shown, budget);
        Reply r = readReply();
        if (log.isTraceEnabled()) {
            log.trace("{} {} -> {}", server, shown, r);
        }
        return r;
    }

    /** Starts the deadline of the reply to {@code shown}, which its status line and any data block share. */
    private void arm(String shown, long budget) {
        current = shown;
        budgetNanos = budget;
        input.deadline = System.nanoTime() + budget;
    }

    private void write(String cmd) throws IOException {
        try {
            byte[] bytes = (cmd + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            broken = true;
            throw e;
        }
    }

    private Reply readReply() throws IOException {
        int len = readLineOrBreak(limits.statusLineBytes(), MisbehavingServerException.Bound.STATUS_LINE);
        byte[] b = in.line();
        if (len < 3
                || !Replies.isDigit(b[0])
                || !Replies.isDigit(b[1])
                || !Replies.isDigit(b[2])
                || (len > 3 && b[3] != ' ')) {
            throw violation(
                    MisbehavingServerException.Bound.STATUS_LINE,
                    "not a status line: '" + Replies.printable(b, Math.min(len, 80)) + "'");
        }
        int code = (b[0] - '0') * 100 + (b[1] - '0') * 10 + (b[2] - '0');
        String text = len > 4 ? new String(b, 4, len - 4, StandardCharsets.ISO_8859_1) : "";
        repliesRead++;
        return new Reply(code, text);
    }

    /** Reads one line of the current reply; any failure breaks the connection, and a broken bound is named. */
    private int readLineOrBreak(int maxLength, MisbehavingServerException.Bound tooLong) throws IOException {
        return readLineOrBreak(in, maxLength, tooLong);
    }

    private int readLineOrBreak(LineReader from, int maxLength, MisbehavingServerException.Bound tooLong)
            throws IOException {
        int len;
        try {
            len = from.readLine(maxLength);
        } catch (LineReader.LineTooLongException e) {
            throw violation(tooLong, "a line of more than " + maxLength + " bytes");
        } catch (DeadlineInput.DeadlineExceededException e) {
            throw violation(
                    MisbehavingServerException.Bound.DEADLINE,
                    "the reply did not end within " + Duration.ofNanos(budgetNanos));
        } catch (SocketTimeoutException e) {
            throw violation(MisbehavingServerException.Bound.READ_TIMEOUT, "no data for " + readTimeout);
        } catch (IOException e) {
            broken = true;
            throw new NntpException(
                    -1, "reading the reply to " + current + " from " + server + " failed: " + e.getMessage(), e);
        }
        if (len < 0) {
            broken = true;
            throw new EOFException(server + " closed the connection while reading the reply to " + current);
        }
        return len;
    }

    /** Breaks the connection, because the rest of the reply is unread or untrusted, and names the broken bound. */
    private MisbehavingServerException violation(MisbehavingServerException.Bound bound, String detail) {
        broken = true;
        return new MisbehavingServerException(server.toString(), current, bound, detail);
    }

    private NntpException unexpected(String cmd, Reply r) {
        if (r.code == 480) {
            return new NntpAuthException(
                    480,
                    server + " requires authentication for " + cmd.split(" ")[0]
                            + ": configure credentials for this server");
        }
        return new NntpException(
                r.code,
                "unexpected reply to " + cmd.split(" ")[0] + " from " + server + ": " + Replies.clip(r.toString()));
    }

    private static int millis(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero() || d.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(name + " must be a positive duration of at most 24 days, was " + d);
        }
        return (int) Math.max(1, d.toMillis());
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            log.debug("closing socket failed: {}", e.toString());
        }
    }

    private record Reply(int code, String text) {
        @Override
        public String toString() {
            return code + (text.isEmpty() ? "" : " " + text);
        }
    }
}
