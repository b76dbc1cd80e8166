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

    private InnPeer() {}

    /** Runs {@code nntp-peer.sh args...} and fails the test with its output when it does not exit 0 within 5 minutes. */
    public static void run(String... args) throws Exception {
        if (!Files.isRegularFile(SCRIPT)) {
            fail("INN peer script not found at " + SCRIPT + ": set -Dheadway.nntpPeer=/path/to/nntp-peer.sh");
        }
        ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.toString());
        pb.command().addAll(List.of(args));
        pb.environment().put("NNTP_PORT", Integer.toString(READER_PORT));
        pb.environment().put("NNTP_FEED_PORT", Integer.toString(FEED_PORT));
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
            fail("nntp-peer.sh " + String.join(" ", args) + " did not finish in 5 minutes: " + output);
        }
        pump.join(5000);
        if (p.exitValue() != 0) {
            fail("nntp-peer.sh " + String.join(" ", args) + " exited " + p.exitValue()
                    + " (INN could not be started; it must run as root with apt access):\n" + output);
        }
    }

    /** An article as it goes over the wire: its message-id and its bytes, dot-stuffed, without the final dot line. */
    public record Wire(String messageId, byte[] bytes) {}

    /** Feeds articles to innd one by one with IHAVE, failing the test on any answer but 335 then 235. */
    public static void ihave(Iterable<Wire> articles) throws IOException {
        try (Socket s = new Socket("127.0.0.1", FEED_PORT)) {
            s.setSoTimeout(20_000);
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
}
