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
        Path script = Path.of(System.getProperty("headway.nntpPeer", "tools/nntp-peer.sh"));
        if (!Files.isRegularFile(script)) {
            throw new CliException(
                    Exit.UNREACHABLE,
                    "--inn needs tools/nntp-peer.sh: run from the repository root or set -Dheadway.nntpPeer=PATH");
        }
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

    /** Runs {@code script args...} on INN's ports, failing with its output unless it exits 0 within 5 minutes. */
    static void peer(Path script, String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString());
        pb.command().addAll(java.util.List.of(args));
        pb.environment().put("NNTP_PORT", Integer.toString(READER_PORT));
        pb.environment().put("NNTP_FEED_PORT", Integer.toString(FEED_PORT));
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
