package headway.simulator;

import java.io.BufferedInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/**
 * One client connection of a {@link NewsSimulator}: its state (selected group, current article,
 * authentication, compression) and its command loop. Replies are rendered into an {@link
 * OverviewBuffer} and written in large chunks.
 */
final class Session {
    private static final int FLUSH_AT = 192 * 1024;
    /** Longer command lines end the connection: RFC 3977 allows 512 bytes. */
    private static final int MAX_COMMAND = 4096;

    private static final List<String> OVERVIEW_FMT =
            List.of("Subject:", "From:", "Date:", "Message-ID:", "References:", ":bytes", ":lines", "Xref:full");
    private static final Set<String> WITHOUT_AUTH = Set.of("AUTHINFO", "CAPABILITIES", "MODE", "DATE", "QUIT");

    private final NewsSimulator sim;
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

    private boolean authenticated;
    private String pendingUser;

    Session(NewsSimulator sim, Socket s) throws IOException {
        this.sim = sim;
        this.authenticated = sim.options.requiredCredentials() == null;
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
                if (sim.options.overSupported()) {
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
        if (sim.options.overSupported()) {
            reply("OVER");
        }
        reply("LIST ACTIVE OVERVIEW.FMT");
        if (sim.options.compress() && !compressed) {
            reply("COMPRESS DEFLATE");
        }
        if (sim.options.gzipOverview()) {
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
        if (!sim.options.compress()) {
            reply("500 Unknown command");
        } else if (compressed) {
            reply("502 Compression already active");
        } else if (!arg.equalsIgnoreCase("DEFLATE")) {
            reply("503 Compression algorithm not supported");
        } else {
            reply("206 Compression active");
            flush();
            compressed = true;
            in = new BufferedInputStream(new InflaterInputStream(socket.getInputStream(), new Inflater(true)), 8192);
            out = new DeflaterOutputStream(
                    socket.getOutputStream(), new Deflater(Deflater.BEST_SPEED, true), 64 * 1024, true);
        }
    }

    private void xfeature(String arg) {
        String[] words = arg.toUpperCase(Locale.ROOT).split("\\s+");
        if (!sim.options.gzipOverview()) {
            reply("500 Unknown command");
        } else if (words.length >= 2 && words[0].equals("COMPRESS") && words[1].equals("GZIP")) {
            gzipTerminator = words.length > 2 && words[2].equals("TERMINATOR");
            reply("290 feature enabled");
        } else {
            reply("501 Unknown XFEATURE");
        }
    }

    private void authinfo(String arg) {
        NewsSimulator.Credentials want = sim.options.requiredCredentials();
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
        ArticleGenerator g = sim.groups.get(name);
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
            for (ArticleGenerator g : sim.groups.values()) {
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
        if (!sim.options.overLatency().isZero()) {
            try {
                Thread.sleep(sim.options.overLatency().toMillis());
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
            NewsSimulator.Located at = sim.locate(arg);
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
            if (posted != null) {
                sim.servedBody(posted.messageId());
            }
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
        while (!sim.closed) {
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

    /** The connection's stream, which a compressed reply's zlib stream must not close when it finishes. */
    static final class NotClosing extends FilterOutputStream {
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
}
