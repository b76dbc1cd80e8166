package headway.nntp;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

/**
 * A real INN server on loopback for the tests, driven by tools/nntp-peer.sh (install, configure,
 * start, reset). A test that needs it fails, never skips, when it cannot be started, because a
 * silently skipped interop test proves nothing.
 */
public final class InnPeer {
    /** The script; -Dheadway.nntpPeer overrides it. */
    public static final Path SCRIPT = Path.of(System.getProperty("headway.nntpPeer", "../tools/nntp-peer.sh"));
    /** The standalone nnrpd a reader talks to. */
    public static final int READER_PORT = 1119;
    /** innd's feed port for IHAVE and streaming. */
    public static final int FEED_PORT = 1120;

    /**
     * One of the independent INN servers nntp-peer.sh runs ({@code NNTP_INSTANCE}): each its own
     * config, spool, history and ports, so two of them stand for two news providers.
     */
    public record Instance(int number, int readerPort, int feedPort) {
        /** Runs {@code nntp-peer.sh args...} on this instance; see {@link InnPeer#run}. */
        public void run(String... args) throws Exception {
            InnPeer.run(this, args);
        }

        /** Feeds articles to this instance's innd; see {@link InnPeer#ihave}. */
        public void ihave(Iterable<Wire> articles) throws IOException {
            InnPeer.ihave(feedPort, articles);
        }
    }

    /** The first server (the package's directories), on {@link #READER_PORT} and {@link #FEED_PORT}. */
    public static final Instance FIRST = new Instance(1, READER_PORT, FEED_PORT);

    /** The second server (its own directories under /var/lib/news-peer2), on 1129 and 1130. */
    public static final Instance SECOND = new Instance(2, 1129, 1130);

    private InnPeer() {}

    /** Runs {@code nntp-peer.sh args...} on the first server; see {@link #run(Instance, String...)}. */
    public static void run(String... args) throws Exception {
        run(FIRST, args);
    }

    /** Runs {@code nntp-peer.sh args...} and fails the test with its output when it does not exit 0 within 5 minutes. */
    private static void run(Instance instance, String... args) throws Exception {
        if (!Files.isRegularFile(SCRIPT)) {
            fail("INN peer script not found at " + SCRIPT + ": set -Dheadway.nntpPeer=/path/to/nntp-peer.sh");
        }
        ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.toString());
        pb.command().addAll(List.of(args));
        pb.environment().put("NNTP_INSTANCE", Integer.toString(instance.number()));
        pb.environment().put("NNTP_PORT", Integer.toString(instance.readerPort()));
        pb.environment().put("NNTP_FEED_PORT", Integer.toString(instance.feedPort()));
        pb.environment().put("NNTP_DOMAIN", "nntp.test");
        pb.redirectErrorStream(true);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process p = pb.start();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        Thread pump = new Thread(() -> {
            try (InputStream in = p.getInputStream()) {
                in.transferTo(output);
            } catch (IOException e) {
                output.writeBytes(("\n(reading output failed: " + e + ")").getBytes(StandardCharsets.UTF_8));
            }
        });
        pump.start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail("nntp-peer.sh (instance " + instance.number() + ") " + String.join(" ", args)
                    + " did not finish in 5 minutes: " + output);
        }
        pump.join(5000);
        if (p.exitValue() != 0) {
            fail("nntp-peer.sh (instance " + instance.number() + ") " + String.join(" ", args) + " exited "
                    + p.exitValue() + " (INN could not be started; it must run as root with apt access):\n" + output);
        }
    }

    /** An article as it goes over the wire: its message-id and its bytes, dot-stuffed, without the final dot line. */
    public record Wire(String messageId, byte[] bytes) {}

    /** Feeds articles to the first server's innd one by one with IHAVE, failing the test on any answer but 335 then 235. */
    public static void ihave(Iterable<Wire> articles) throws IOException {
        ihave(FEED_PORT, articles);
    }

    private static void ihave(int feedPort, Iterable<Wire> articles) throws IOException {
        try (Socket s = new Socket("127.0.0.1", feedPort)) {
            s.setSoTimeout(20_000);
            // an article goes in two writes (its bytes, the final dot): with Nagle's algorithm the
            // second waited for innd's delayed ACK, 40 ms an article
            s.setTcpNoDelay(true);
            LineReader in = new LineReader(s.getInputStream(), 8192);
            OutputStream out = s.getOutputStream();
            expect(in, "greeting", 200);
            for (Wire a : articles) {
                out.write(("IHAVE " + a.messageId() + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                expect(in, "IHAVE " + a.messageId(), 335);
                out.write(a.bytes());
                out.write(".\r\n".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                expect(in, "article " + a.messageId(), 235);
            }
            out.write("QUIT\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }
    }

    private static void expect(LineReader in, String what, int code) throws IOException {
        int len = in.readLine();
        String line = len < 0 ? "(connection closed)" : new String(in.line(), 0, len, StandardCharsets.ISO_8859_1);
        if (!line.startsWith(Integer.toString(code))) {
            fail("INN answered " + what + " with '" + line + "', expected " + code);
        }
    }

    /**
     * The body of part {@code part} of {@code parts} of a file {@code fileName} whose parts each hold
     * {@code data.length} bytes, shaped as yEnc: the {@code =ybegin}, {@code =ypart} and {@code =yend}
     * lines (with the part's CRC32) around the data as lines of 96 printable characters, the first
     * of them beginning with a dot so that every feed exercises dot-stuffing. The data is mapped,
     * not yEnc-encoded: these bodies are stored, listed and compared, never decoded (the simulator's
     * {@code YencWriter} writes real yEnc). Lines of data: {@code ceil(data.length / 96)}.
     */
    public static String yencPart(String fileName, int part, int parts, byte[] data) {
        CRC32 crc = new CRC32();
        crc.update(data);
        StringBuilder body = new StringBuilder()
                .append("=ybegin part=")
                .append(part)
                .append(" total=")
                .append(parts)
                .append(" line=128 size=")
                .append((long) data.length * parts)
                .append(" name=")
                .append(fileName)
                .append("\r\n")
                .append("=ypart begin=")
                .append((long) (part - 1) * data.length + 1)
                .append(" end=")
                .append((long) part * data.length)
                .append("\r\n");
        for (int i = 0; i < data.length; i += 96) {
            if (i == 0) {
                body.append('.');
            }
            for (int j = i; j < Math.min(i + 96, data.length); j++) {
                body.append((char) ('!' + ((data[j] & 0xff) % 90)));
            }
            body.append("\r\n");
        }
        return body.append("=yend size=")
                .append(data.length)
                .append(" part=")
                .append(part)
                .append(" pcrc32=")
                .append(String.format("%08x", crc.getValue()))
                .append("\r\n")
                .toString();
    }
}
