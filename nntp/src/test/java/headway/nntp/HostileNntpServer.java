package headway.nntp;

import headway.overview.OverviewParser;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

/**
 * A fake NNTP server on loopback that serves one group of binary-shaped articles honestly, or
 * misbehaves the way a hostile or broken server can: one {@link Misbehaviour} for the next
 * {@code n} replies it applies to, then honest again. Every connection runs on its own daemon
 * thread; the server counts connections, bytes written and OVER commands, so a test can check that
 * a client stopped reading and dropped the connection. Test code only.
 */
public final class HostileNntpServer implements AutoCloseable {

    /** The one group served. */
    public static final String GROUP = "alt.binaries.hostile";

    /** What the server does wrong; each applies to the reply named. */
    public enum Misbehaviour {
        /** Honest. */
        NONE,
        /** OVER: the lines asked for, then lines without article numbers for ever. */
        ENDLESS_OVER,
        /** OVER: the honest reply, one byte per {@link #trickleMillis}. */
        TRICKLE_OVER,
        /** CAPABILITIES: capability lines for ever. */
        ENDLESS_CAPABILITIES,
        /** LIST OVERVIEW.FMT: field lines for ever. */
        ENDLESS_OVERVIEW_FMT,
        /** OVER: the first half, then article 10^15, then the rest. */
        OUT_OF_RANGE,
        /** OVER: the second article before the first. */
        OUT_OF_ORDER,
        /** OVER: the first article twice. */
        DUPLICATE,
        /** OVER: the first half, then a line that never ends. */
        OVERSIZE_LINE,
        /** OVER: a status line that is not one. */
        GARBAGE_STATUS,
        /** OVER: a status line that never ends. */
        OVERSIZE_STATUS,
        /** OVER: the lines asked for, no terminating dot, then silence with the connection open. */
        UNTERMINATED,
        /** OVER: the first half, then the connection closed. */
        CLOSE_MID_REPLY,
        /** OVER: whatever {@link #garbage} returns for the range, as the reply's body. */
        GARBAGE_BODY,
        /** OVER: a reply marked [COMPRESS=GZIP] that XFEATURE COMPRESS GZIP never asked for. */
        UNASKED_GZIP
    }

    private final ServerSocket listener;
    private final Thread acceptor;
    private final List<Socket> sockets = new ArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger overs = new AtomicInteger();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final String group;
    private final long articles;
    private volatile long reportedHigh;
    private volatile Misbehaviour misbehaviour = Misbehaviour.NONE;
    private final AtomicInteger times = new AtomicInteger();
    private final AtomicInteger honest = new AtomicInteger();
    private volatile long trickleMillis = 1000;
    private volatile BiFunction<Long, Long, byte[]> garbage = (lo, hi) -> new byte[0];
    private volatile boolean closed;

    private HostileNntpServer(String group, long articles) throws IOException {
        this.group = group;
        this.articles = articles;
        this.reportedHigh = articles;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::acceptLoop, "hostile-nntp-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Starts a server whose group holds articles 1..{@code articles}. */
    public static HostileNntpServer start(long articles) throws IOException {
        return new HostileNntpServer(GROUP, articles);
    }

    /** Starts a server whose group {@code group} holds articles 1..{@code articles}. */
    public static HostileNntpServer start(String group, long articles) throws IOException {
        return new HostileNntpServer(group, articles);
    }

    public NntpServer server() {
        return NntpServer.plain("127.0.0.1", listener.getLocalPort());
    }

    /** The next {@code n} replies that {@code m} applies to misbehave; then the server is honest again. */
    public HostileNntpServer misbehave(Misbehaviour m, int n) {
        return misbehave(m, n, 0);
    }

    /** Like {@link #misbehave(Misbehaviour, int)}, after {@code honestFirst} honest replies that {@code m} applies to. */
    public HostileNntpServer misbehave(Misbehaviour m, int n, int honestFirst) {
        honest.set(honestFirst);
        times.set(n);
        misbehaviour = m;
        return this;
    }

    /** The high-water mark GROUP reports (the articles served do not change). */
    public HostileNntpServer reportHigh(long high) {
        reportedHigh = high;
        return this;
    }

    public HostileNntpServer trickleMillis(long millis) {
        trickleMillis = millis;
        return this;
    }

    /** The body {@link Misbehaviour#GARBAGE_BODY} sends for OVER lo-hi (without the terminating dot). */
    public HostileNntpServer garbage(BiFunction<Long, Long, byte[]> body) {
        garbage = body;
        return this;
    }

    public int connections() {
        return connections.get();
    }

    public int overs() {
        return overs.get();
    }

    public long bytesWritten() {
        return bytesWritten.get();
    }

    /** Misbehaving replies still to come. */
    public int misbehavioursLeft() {
        return Math.max(0, times.get());
    }

    /** The overview line of article {@code a}: binaries of 10 parts, article a being part (a-1)%10+1 of binary (a-1)/10. */
    public static String line(long a) {
        long binary = (a - 1) / 10;
        long part = (a - 1) % 10 + 1;
        return a + "\t[01/01] - \"hostile.file" + binary + ".part01.rar\" yEnc (" + part + "/10)"
                + "\tposter <poster@hostile.test>\tWed, 02 Dec 2026 15:29:50 +0000\t<" + a
                + ".hostile@test>\t\t1200\t10"
                + "\tXref: hostile.test " + GROUP + ":" + a;
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        synchronized (sockets) {
            for (Socket s : sockets) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = listener.accept();
                connections.incrementAndGet();
                synchronized (sockets) {
                    sockets.add(s);
                }
                Thread t = new Thread(() -> serve(s), "hostile-nntp-" + connections.get());
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Whether this reply misbehaves as {@code m}: counts one of the misbehaving replies down. */
    private boolean take(Misbehaviour m) {
        if (misbehaviour != m) {
            return false;
        }
        if (honest.getAndDecrement() > 0) {
            return false;
        }
        return times.getAndDecrement() > 0;
    }

    private void serve(Socket s) {
        try (s;
                InputStream rawIn = new BufferedInputStream(s.getInputStream());
                Counting out = new Counting(new BufferedOutputStream(s.getOutputStream(), 64 * 1024))) {
            out.line("200 hostile server ready");
            out.flush();
            String command;
            while ((command = readCommand(rawIn)) != null) {
                String[] parts = command.trim().split("\\s+", 2);
                String verb = parts[0].toUpperCase(Locale.ROOT);
                String arg = parts.length > 1 ? parts[1] : "";
                switch (verb) {
                    case "CAPABILITIES" -> capabilities(out);
                    case "MODE" -> out.line("200 reader mode");
                    case "LIST" -> overviewFormat(out);
                    case "GROUP" -> group(out, arg);
                    case "OVER", "XOVER" -> {
                        overs.incrementAndGet();
                        if (!over(s, out, arg)) {
                            return;
                        }
                    }
                    case "QUIT" -> {
                        out.line("205 bye");
                        out.flush();
                        return;
                    }
                    default -> out.line("500 unknown command");
                }
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the client went away, which is what a bounded client does to this server
        }
    }

    private void capabilities(Counting out) throws IOException {
        out.line("101 capabilities follow");
        if (take(Misbehaviour.ENDLESS_CAPABILITIES)) {
            for (long i = 0; ; i++) {
                out.line("X-ENDLESS-CAPABILITY-" + i);
            }
        }
        out.line("VERSION 2");
        out.line("READER");
        out.line("OVER");
        out.line(".");
    }

    private void overviewFormat(Counting out) throws IOException {
        out.line("215 order of fields in overview database");
        if (take(Misbehaviour.ENDLESS_OVERVIEW_FMT)) {
            for (long i = 0; ; i++) {
                out.line("X-Endless-" + i + ":");
            }
        }
        for (String f : OverviewParser.DEFAULT_FORMAT) {
            out.line(f);
        }
        out.line(".");
    }

    private void group(Counting out, String name) throws IOException {
        if (!group.equals(name)) {
            out.line("411 no such group");
            return;
        }
        out.line("211 " + articles + " 1 " + reportedHigh + " " + group);
    }

    /** Serves OVER lo-hi; false when the connection is to be closed. */
    private boolean over(Socket s, Counting out, String range) throws IOException, InterruptedException {
        int dash = range.indexOf('-');
        long lo = Long.parseLong(range.substring(0, dash));
        long hi = Long.parseLong(range.substring(dash + 1));
        long last = Math.min(hi, articles);
        long half = lo + (last - lo) / 2;
        if (take(Misbehaviour.GARBAGE_STATUS)) {
            out.line("hello, this is not a status line");
            return true;
        }
        if (take(Misbehaviour.OVERSIZE_STATUS)) {
            out.write("224 ".getBytes(StandardCharsets.ISO_8859_1));
            endless(out);
        }
        if (take(Misbehaviour.TRICKLE_OVER)) {
            StringBuilder sb = new StringBuilder("224 overview follows\r\n");
            for (long a = lo; a <= last; a++) {
                sb.append(line(a)).append("\r\n");
            }
            sb.append(".\r\n");
            for (byte b : sb.toString().getBytes(StandardCharsets.ISO_8859_1)) {
                out.write(new byte[] {b});
                out.flush();
                Thread.sleep(trickleMillis);
            }
            return true;
        }
        if (take(Misbehaviour.UNASKED_GZIP)) {
            out.line("224 overview follows [COMPRESS=GZIP]");
            lines(out, lo, last);
            out.line(".");
            return true;
        }
        out.line("224 overview follows");
        if (take(Misbehaviour.GARBAGE_BODY)) {
            out.write(garbage.apply(lo, hi));
            out.line(".");
            return true;
        }
        if (take(Misbehaviour.OUT_OF_ORDER) && last > lo) {
            out.line(line(lo + 1));
            out.line(line(lo));
            lines(out, lo + 2, last);
            out.line(".");
            return true;
        }
        if (take(Misbehaviour.DUPLICATE)) {
            out.line(line(lo));
            lines(out, lo, last);
            out.line(".");
            return true;
        }
        if (take(Misbehaviour.OUT_OF_RANGE)) {
            lines(out, lo, half);
            out.line(line(1_000_000_000_000_000L));
            lines(out, half + 1, last);
            out.line(".");
            return true;
        }
        if (take(Misbehaviour.OVERSIZE_LINE)) {
            lines(out, lo, half);
            out.write((half + 1 + "\t").getBytes(StandardCharsets.ISO_8859_1));
            endless(out);
        }
        if (take(Misbehaviour.CLOSE_MID_REPLY)) {
            lines(out, lo, half);
            out.flush();
            s.shutdownOutput();
            return false;
        }
        lines(out, lo, last);
        if (take(Misbehaviour.ENDLESS_OVER)) {
            for (long i = 0; ; i++) {
                out.line("no article number here " + i);
            }
        }
        if (take(Misbehaviour.UNTERMINATED)) {
            out.flush();
            InputStream in = s.getInputStream();
            while (in.read() >= 0) {
                // silent until the client gives up and closes the connection
            }
            return false;
        }
        out.line(".");
        return true;
    }

    private static void lines(Counting out, long from, long to) throws IOException {
        for (long a = from; a <= to; a++) {
            out.line(line(a));
        }
    }

    /** Bytes without a line end, for ever (until the client closes the connection). */
    private static void endless(Counting out) throws IOException {
        byte[] chunk = "x".repeat(8192).getBytes(StandardCharsets.ISO_8859_1);
        while (true) {
            out.write(chunk);
        }
    }

    private static String readCommand(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                return sb.toString().strip();
            }
            if (sb.length() < 4096) {
                sb.append((char) c);
            }
        }
        return sb.length() == 0 ? null : sb.toString();
    }

    /** The connection's output, counting every byte written into the server's total. */
    private final class Counting extends OutputStream {
        private final OutputStream out;

        Counting(OutputStream out) {
            this.out = out;
        }

        void line(String s) throws IOException {
            write((s + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            bytesWritten.incrementAndGet();
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            bytesWritten.addAndGet(len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
