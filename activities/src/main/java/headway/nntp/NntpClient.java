package headway.nntp;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One NNTP reader connection (RFC 3977 subset: CAPABILITIES, MODE READER, AUTHINFO USER/PASS, GROUP,
 * LIST OVERVIEW.FMT, OVER/XOVER, QUIT). Not thread-safe: one caller at a time, which the pool ensures.
 *
 * <p>Invariant: after every method returns or throws, either the connection is in sync (each reply
 * read to its end, multi-line ones to their terminating dot) or {@link #isBroken()} is true. Keeping it
 * costs draining unread overview lines after a sink failure; a broken connection must be discarded.
 */
public final class NntpClient implements Closeable {
    private static final Logger log = LoggerFactory.getLogger(NntpClient.class);
    private static final int READ_BUFFER = 64 * 1024;

    private final NntpServer server;
    private final Socket socket;
    private final LineReader in;
    private final OutputStream out;
    private boolean broken;
    private boolean closed;
    private boolean useXover;
    private OverviewParser parser;
    private String group;

    private NntpClient(NntpServer server, Socket socket) throws IOException {
        this.server = server;
        this.socket = socket;
        this.in = new LineReader(socket.getInputStream(), READ_BUFFER);
        this.out = socket.getOutputStream();
    }

    /**
     * Connects, reads the greeting, switches to reader mode when the server asks for it and
     * authenticates when the server has credentials.
     */
    public static NntpClient connect(NntpServer server, Duration connectTimeout, Duration readTimeout)
            throws IOException {
        int connectMs = millis(connectTimeout, "connectTimeout");
        int readMs = millis(readTimeout, "readTimeout");
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setReceiveBufferSize(256 * 1024);
            socket.connect(new InetSocketAddress(server.host(), server.port()), connectMs);
            socket.setSoTimeout(readMs);
            if (server.tls()) {
                SSLSocket ssl = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault())
                        .createSocket(socket, server.host(), server.port(), true);
                SSLParameters params = ssl.getSSLParameters();
                params.setEndpointIdentificationAlgorithm("HTTPS");
                ssl.setSSLParameters(params);
                ssl.startHandshake();
                socket = ssl;
            }
        } catch (IOException e) {
            closeQuietly(socket);
            throw new NntpException(
                    -1,
                    "cannot connect to " + server + " within " + connectTimeout + ": " + e
                            + "; check host, port and tls, and that the server is up",
                    e);
        }
        NntpClient client = new NntpClient(server, socket);
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

    /** True when the connection failed or lost sync and must be discarded. */
    public boolean isBroken() {
        return broken || closed || socket.isClosed();
    }

    /** Selects a group and returns its counts; sent again to see a grown high-water mark, because servers fix it at GROUP time. */
    public GroupInfo group(String name) throws IOException {
        if (name == null || name.isEmpty() || !name.chars().allMatch(ch -> ch > ' ' && ch < 127)) {
            throw new IllegalArgumentException(
                    "group name must be non-empty printable ASCII without spaces, was '" + name + "'");
        }
        Reply r = command("GROUP " + name);
        switch (r.code) {
            case 211 -> {
                String[] p = r.text.trim().split("\\s+");
                if (p.length < 3) {
                    broken = true;
                    throw new NntpException(211, "malformed GROUP reply from " + server + ": " + r);
                }
                try {
                    this.group = name;
                    return new GroupInfo(
                            Long.parseLong(p[0]),
                            Long.parseLong(p[1]),
                            Long.parseLong(p[2]),
                            p.length > 3 ? p[3] : name);
                } catch (NumberFormatException e) {
                    throw new NntpException(211, "non-numeric GROUP reply from " + server + ": " + r, e);
                }
            }
            case 411 -> throw new UnknownGroupException(name, server.toString());
            default -> throw unexpected("GROUP " + name, r);
        }
    }

    /** The overview field order used to parse OVER replies: LIST OVERVIEW.FMT, or the RFC 3977 default when it fails. */
    public List<String> overviewFormat() throws IOException {
        return overviewParser().format();
    }

    /**
     * Streams the overview of articles lo..hi of the selected group into the sink and returns how many
     * well-formed headers it received. Sends OVER, or XOVER once OVER answered 500/501. Gaps inside
     * [lo, hi] are reported through {@link OverviewSink#missing}, in order, after the lines before them.
     */
    public long over(long lo, long hi, OverviewSink sink) throws IOException {
        if (lo < 1 || hi < lo) {
            throw new IllegalArgumentException("range must satisfy 1 <= lo <= hi, was " + lo + "-" + hi);
        }
        OverviewParser p = overviewParser();
        String range = lo + "-" + hi;
        Reply r = command((useXover ? "XOVER " : "OVER ") + range);
        if (!useXover && (r.code == 500 || r.code == 501)) {
            log.debug("{} answered OVER with {}, using XOVER", server, r.code);
            useXover = true;
            r = command("XOVER " + range);
        }
        switch (r.code) {
            case 224 -> {
                return readOverview(lo, hi, p, sink);
            }
            case 423, 420 -> {
                sink.missing(lo, hi);
                return 0;
            }
            case 412 ->
                throw new NntpException(412, "no newsgroup selected on " + server + ": call group(name) before over()");
            default -> throw unexpected((useXover ? "XOVER " : "OVER ") + range, r);
        }
    }

    /** Sends QUIT when the connection is healthy and closes the socket; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!broken && !socket.isClosed()) {
            try {
                socket.setSoTimeout(1000);
                write("QUIT");
                in.readLine();
            } catch (IOException e) {
                log.debug("QUIT to {} failed: {}", server, e.toString());
            }
        }
        closeQuietly(socket);
    }

    @Override
    public String toString() {
        return "NntpClient[" + server + (group == null ? "" : ", group=" + group) + (isBroken() ? ", broken" : "")
                + "]";
    }

    private long readOverview(long lo, long hi, OverviewParser p, OverviewSink sink) throws IOException {
        long next = lo;
        long headers = 0;
        long lines = 0;
        RuntimeException failure = null;
        boolean drained = false;
        try {
            while (true) {
                int len = readLineOrBreak("OVER reply after " + lines + " lines");
                byte[] b = in.line();
                int off = 0;
                if (len > 0 && b[0] == '.') {
                    if (len == 1) {
                        break;
                    }
                    off = 1;
                }
                lines++;
                if (failure != null) {
                    continue;
                }
                try {
                    OverviewLine line = null;
                    long article;
                    String reason = null;
                    try {
                        line = p.parse(b, off, len - off);
                        article = line.article();
                    } catch (MalformedOverviewException m) {
                        article = m.article();
                        reason = m.getMessage();
                    }
                    if (article > next && next <= hi) {
                        sink.missing(next, Math.min(article - 1, hi));
                    }
                    if (line != null) {
                        sink.header(line);
                        headers++;
                    } else {
                        sink.malformed(article, reason);
                    }
                    if (article >= next) {
                        next = article + 1;
                    }
                } catch (RuntimeException e) {
                    failure = e;
                }
            }
            drained = true;
        } finally {
            if (!drained) {
                broken = true;
            }
        }
        if (failure != null) {
            throw failure;
        }
        if (next <= hi) {
            sink.missing(next, hi);
        }
        return headers;
    }

    private OverviewParser overviewParser() throws IOException {
        if (parser == null) {
            Reply r = command("LIST OVERVIEW.FMT");
            if (r.code == 215) {
                List<String> fmt = readTextBlock("LIST OVERVIEW.FMT");
                parser = fmt.isEmpty() ? OverviewParser.defaultFormat() : OverviewParser.forFormat(fmt);
            } else {
                log.debug("{} answered LIST OVERVIEW.FMT with {}, using the RFC 3977 default order", server, r);
                parser = OverviewParser.defaultFormat();
            }
        }
        return parser;
    }

    private void handshake() throws IOException {
        Reply greeting = readReply("greeting");
        if (greeting.code != 200 && greeting.code != 201) {
            throw new NntpException(
                    greeting.code,
                    server + " refused service: " + greeting + "; retry later or check that this host may connect");
        }
        Set<String> caps = capabilities();
        if (caps == null || (caps.contains("MODE-READER") && !caps.contains("READER"))) {
            Reply r = command("MODE READER");
            if (r.code == 502) {
                throw new NntpException(
                        502,
                        server + " does not allow reading from this host: " + r
                                + "; check the account or the server's access rules");
            }
            if (r.code != 200 && r.code != 201 && r.code != 500 && r.code != 501 && r.code != 480) {
                throw unexpected("MODE READER", r);
            }
        }
        if (server.credentials() != null) {
            authenticate(server.credentials());
        }
    }

    /** The capability labels, or null when CAPABILITIES is not supported. */
    private Set<String> capabilities() throws IOException {
        Reply r = command("CAPABILITIES");
        if (r.code == 480) {
            return Set.of();
        }
        if (r.code != 101) {
            return null;
        }
        Set<String> caps = new HashSet<>();
        for (String l : readTextBlock("CAPABILITIES")) {
            String label = l.trim();
            int sp = label.indexOf(' ');
            caps.add((sp < 0 ? label : label.substring(0, sp)).toUpperCase(Locale.ROOT));
        }
        return caps;
    }

    private void authenticate(NntpServer.Credentials c) throws IOException {
        Reply r = command("AUTHINFO USER " + c.user(), "AUTHINFO USER ***");
        if (r.code == 381) {
            r = command("AUTHINFO PASS " + c.password(), "AUTHINFO PASS ***");
        }
        if (r.code != 281) {
            throw new NntpAuthException(
                    r.code,
                    server + " rejected the credentials (reply " + r.code
                            + "): check the user name and password configured for this server");
        }
    }

    private List<String> readTextBlock(String what) throws IOException {
        List<String> lines = new ArrayList<>();
        while (true) {
            int len = readLineOrBreak(what + " reply");
            byte[] b = in.line();
            if (len > 0 && b[0] == '.') {
                if (len == 1) {
                    return lines;
                }
                lines.add(new String(b, 1, len - 1, StandardCharsets.ISO_8859_1));
            } else {
                lines.add(new String(b, 0, len, StandardCharsets.ISO_8859_1));
            }
        }
    }

    private Reply command(String cmd) throws IOException {
        return command(cmd, cmd);
    }

    private Reply command(String cmd, String shown) throws IOException {
        if (isBroken()) {
            throw new NntpException(
                    -1, "connection to " + server + " is broken or closed: discard it and connect again");
        }
        write(cmd);
        Reply r = readReply(shown);
        if (log.isTraceEnabled()) {
            log.trace("{} {} -> {}", server, shown, r);
        }
        return r;
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

    private Reply readReply(String what) throws IOException {
        int len = readLineOrBreak("reply to " + what);
        byte[] b = in.line();
        if (len < 3 || !isDigit(b[0]) || !isDigit(b[1]) || !isDigit(b[2]) || (len > 3 && b[3] != ' ')) {
            broken = true;
            throw new NntpException(
                    -1,
                    "malformed reply to " + what + " from " + server + ": '"
                            + new String(b, 0, Math.min(len, 80), StandardCharsets.ISO_8859_1) + "'");
        }
        int code = (b[0] - '0') * 100 + (b[1] - '0') * 10 + (b[2] - '0');
        String text = len > 4 ? new String(b, 4, len - 4, StandardCharsets.ISO_8859_1) : "";
        return new Reply(code, text);
    }

    private int readLineOrBreak(String what) throws IOException {
        int len;
        try {
            len = in.readLine();
        } catch (IOException e) {
            broken = true;
            throw e;
        }
        if (len < 0) {
            broken = true;
            throw new EOFException(server + " closed the connection while reading the " + what);
        }
        return len;
    }

    private NntpException unexpected(String cmd, Reply r) {
        if (r.code == 480) {
            return new NntpAuthException(
                    480,
                    server + " requires authentication for " + cmd.split(" ")[0]
                            + ": configure credentials for this server");
        }
        return new NntpException(r.code, "unexpected reply to " + cmd.split(" ")[0] + " from " + server + ": " + r);
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
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
