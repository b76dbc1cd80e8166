package headway.nntp;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

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

    private InnPeer() {
    }

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
}
