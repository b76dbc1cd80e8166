package headway.lab;

import headway.nntp.GroupInfo;
import headway.nntp.NntpClient;
import headway.nntp.NntpServer;
import headway.starter.CliException;
import headway.starter.Exit;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The provider benchmark's INN: started with tools/nntp-peer.sh (as root, as the tests do), one
 * group filled by streaming (MODE STREAM, TAKETHIS) to innd's feed port with articles shaped like
 * multipart binary posts, so that its overview lines are as long as a binary group's.
 */
final class InnFeed {
    static final String GROUP = "alt.binaries.bench.provider";
    static final int READER_PORT = 1119;
    static final int FEED_PORT = 1120;
    private static final int PARTS = 50;
    private static final int PIPELINE = 200;

    private InnFeed() {}

    /** Starts INN with the group, fills it to {@code articles} articles when it holds fewer, and names it. */
    static ProviderBench.Target prepare(int articles, PrintWriter out) throws Exception {
        Path script = script();
        peer(script, "start", GROUP);
        NntpServer reader = NntpServer.plain("127.0.0.1", READER_PORT)
                .withSecurity(new NntpServer.Security(NntpServer.StartTls.OFF, null, false, false));
        long have = info(reader).count();
        if (have < articles) {
            out.printf("provider: feeding %d articles to INN's group %s%n", articles - have, GROUP);
            out.flush();
            feed(articles - have);
            for (int i = 0; i < 100 && info(reader).count() < articles; i++) {
                Thread.sleep(100);
            }
        }
        GroupInfo g = info(reader);
        return new ProviderBench.Target("127.0.0.1", READER_PORT, GROUP, g.low(), g.high(), "INN");
    }

    private static GroupInfo info(NntpServer reader) throws IOException {
        try (NntpClient c = NntpClient.connect(reader, Duration.ofSeconds(5), Duration.ofSeconds(30))) {
            return c.group(GROUP);
        }
    }

    /** The second INN (tools/nntp-peer.sh with NNTP_INSTANCE=2): its reader and feed ports. */
    static final int SECOND_READER_PORT = 1129;

    static final int SECOND_FEED_PORT = 1130;

    /**
     * The availability case's two providers on two INN servers (tools/nntp-peer.sh, instances 1 and
     * 2): each segment is streamed (TAKETHIS) to both, except that a segment the case takes down is
     * never fed to the second: INN's timecaf spool goes on serving an article {@code ctlinnd cancel}
     * removed (STAT and HEAD by message-id still answer), so a takedown is what the second never got.
     */
    static AvailabilityBench.Providers availabilityPair() throws Exception {
        Path script = script();
        peer(script, 1, READER_PORT, FEED_PORT, "start", AvailabilityBench.GROUP);
        peer(script, 2, SECOND_READER_PORT, SECOND_FEED_PORT, "start", AvailabilityBench.GROUP);
        Stream first = new Stream(FEED_PORT);
        Stream second;
        try {
            second = new Stream(SECOND_FEED_PORT);
        } catch (IOException e) {
            first.close();
            throw e;
        }
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
        return new AvailabilityBench.Providers() {
            @Override
            public void post(String group, String id, String subject, byte[] body, boolean removed) throws IOException {
                String article = "Path: bench!not-for-mail\r\nFrom: poster <poster@bench.test>\r\nNewsgroups: " + group
                        + "\r\nSubject: " + subject + "\r\nDate: " + date + "\r\nMessage-ID: " + id + "\r\n\r\n"
                        + new String(body, StandardCharsets.ISO_8859_1) + ".\r\n";
                first.take(id, article);
                if (!removed) {
                    second.take(id, article);
                }
            }

            @Override
            public void flush() throws IOException {
                first.flush();
                second.flush();
            }

            @Override
            public NntpServer second() {
                return NntpServer.plain("127.0.0.1", SECOND_READER_PORT)
                        .withSecurity(new NntpServer.Security(NntpServer.StartTls.OFF, null, false, false));
            }

            @Override
            public void close() {
                first.close();
                second.close();
            }
        };
    }

    /** A MODE STREAM connection to an innd feed port, {@value #PIPELINE} TAKETHIS sent before their answers are read. */
    private static final class Stream implements AutoCloseable {
        private final Socket socket;
        private final BufferedReader in;
        private final OutputStream out;
        private final StringBuilder pending = new StringBuilder();
        private int held;

        Stream(int port) throws IOException {
            socket = new Socket("127.0.0.1", port);
            try {
                socket.setSoTimeout(30_000);
                socket.setTcpNoDelay(true);
                in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
                out = socket.getOutputStream();
                expect(in.readLine(), "greeting", "200");
                send(out, "MODE STREAM\r\n");
                expect(in.readLine(), "MODE STREAM", "203");
            } catch (IOException e) {
                socket.close();
                throw e;
            }
        }

        void take(String id, String article) throws IOException {
            pending.append("TAKETHIS ").append(id).append("\r\n").append(article);
            if (++held == PIPELINE) {
                flush();
            }
        }

        void flush() throws IOException {
            send(out, pending.toString());
            pending.setLength(0);
            for (; held > 0; held--) {
                expect(in.readLine(), "TAKETHIS", "239");
            }
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // closing a finished feed: nothing left to lose
            }
        }
    }

    private static Path script() {
        Path script = Path.of(System.getProperty("headway.nntpPeer", "tools/nntp-peer.sh"));
        if (!Files.isRegularFile(script)) {
            throw new CliException(
                    Exit.UNREACHABLE,
                    "--inn needs tools/nntp-peer.sh: run from the repository root or set -Dheadway.nntpPeer=PATH");
        }
        return script;
    }

    /** Runs {@code script args...} on the first INN's ports, failing with its output unless it exits 0 within 5 minutes. */
    static void peer(Path script, String... args) throws Exception {
        peer(script, 1, READER_PORT, FEED_PORT, args);
    }

    private static void peer(Path script, int instance, int readerPort, int feedPort, String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString());
        pb.command().addAll(java.util.List.of(args));
        pb.environment().put("NNTP_INSTANCE", Integer.toString(instance));
        pb.environment().put("NNTP_PORT", Integer.toString(readerPort));
        pb.environment().put("NNTP_FEED_PORT", Integer.toString(feedPort));
        pb.redirectErrorStream(true);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new CliException(
                    Exit.UNREACHABLE,
                    "INN could not be started with " + script + " (it must run as root with apt access):\n" + output);
        }
    }

    /** Streams {@code n} new articles to innd, {@value #PIPELINE} TAKETHIS at a time; every one must be accepted (239). */
    private static void feed(long n) throws IOException {
        String run = Long.toString(System.currentTimeMillis(), 36);
        java.util.Random random = new java.util.Random();
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
        try (Socket s = new Socket("127.0.0.1", FEED_PORT)) {
            s.setSoTimeout(30_000);
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
            OutputStream out = s.getOutputStream();
            expect(in.readLine(), "greeting", "200");
            send(out, "MODE STREAM\r\n");
            expect(in.readLine(), "MODE STREAM", "203");
            for (long done = 0; done < n; ) {
                int k = (int) Math.min(PIPELINE, n - done);
                StringBuilder b = new StringBuilder(k * 700);
                for (int i = 0; i < k; i++) {
                    long a = done + i;
                    long post = a / PARTS;
                    long part = a % PARTS + 1;
                    // random local parts, as posting tools make them, so the overview compresses as a real one does
                    String id = "<" + randomId(random) + "@bench.headway.test>";
                    b.append("TAKETHIS ").append(id).append("\r\n");
                    b.append("Path: bench!not-for-mail\r\n");
                    b.append("From: Bench Poster <poster").append(post % 97).append("@bench.headway.test>\r\n");
                    b.append("Newsgroups: ").append(GROUP).append("\r\n");
                    b.append(String.format(
                            Locale.ROOT,
                            "Subject: [%d/%d] - \"Provider.Bench.Post.%s.%d.S01E%02d.1080p.WEB-DL.part%02d.rar\""
                                    + " yEnc (%d/%d)\r\n",
                            post % 20 + 1,
                            20,
                            run,
                            post,
                            post % 30 + 1,
                            post % 20 + 1,
                            part,
                            PARTS));
                    b.append("Date: ").append(date).append("\r\n");
                    b.append("Message-ID: ").append(id).append("\r\n");
                    b.append("\r\n=ybegin part=").append(part).append(" line=128 size=384000\r\n.\r\n");
                }
                send(out, b.toString());
                for (int i = 0; i < k; i++) {
                    expect(in.readLine(), "TAKETHIS", "239");
                }
                done += k;
            }
            send(out, "QUIT\r\n");
        }
    }

    private static String randomId(java.util.Random random) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        char[] c = new char[32];
        for (int i = 0; i < c.length; i++) {
            c[i] = alphabet.charAt(random.nextInt(alphabet.length()));
        }
        return new String(c);
    }

    private static void send(OutputStream out, String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private static void expect(String line, String what, String code) throws IOException {
        if (line == null || !line.startsWith(code)) {
            throw new IOException("INN answered " + what + " with '" + line + "', expected " + code);
        }
    }
}
