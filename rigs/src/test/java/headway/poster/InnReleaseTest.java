package headway.poster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import headway.guard.InnLock;
import headway.inspect.nfo.NfoReader;
import headway.inspect.par2.Par2Reader;
import headway.inspect.yenc.YencDecoder;
import headway.inspect.yenc.YencPart;
import headway.simulator.TestClient;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against a real INN 2.7 started by {@code tools/nntp-peer.sh} (run under {@code flock
 * /tmp/headway-inn.lock}): an obfuscated release fed with IHAVE and a readable control posted with
 * POST come back by message-id with BODY, whole, and read as what they are. Fails, never skips,
 * when INN cannot be started.
 */
@ExtendWith(InnLock.class)
class InnReleaseTest {
    static final String GROUP = "alt.binaries.headway.releases";
    static final Path SCRIPT = Path.of(System.getProperty("headway.nntpPeer", "../tools/nntp-peer.sh"));
    static final int READER_PORT = 1119;
    static final int FEED_PORT = 1120;

    @TempDir
    static Path work;

    @BeforeAll
    static void startInn() throws Exception {
        peer("start", GROUP);
        peer("groups", GROUP);
    }

    @Test
    void anObfuscatedReleaseFedToInnComesBackByMessageId() throws Exception {
        long seed = System.nanoTime();
        ReleasePoster poster = new ReleasePoster(ReleaseTools.find(), work, 100_000);
        Instant now = Instant.now().minusSeconds(120);
        PostedRelease hidden = poster.build(
                new ReleaseSpec(
                        "Copper.Tide.2024.1080p.WEB-DL.x264-INN",
                        true,
                        ReleaseSpec.Container.SEVEN_ZIP,
                        ReleaseSpec.Password.HEADERS,
                        true,
                        true,
                        "tt7654321",
                        350_000),
                seed,
                GROUP,
                now);
        PostedRelease control = poster.build(
                new ReleaseSpec(
                        "Copper.Tide.S01E02.720p.HDTV.x264-INN",
                        false,
                        ReleaseSpec.Container.NONE,
                        ReleaseSpec.Password.NONE,
                        false,
                        true,
                        null,
                        120_000),
                seed + 1,
                GROUP,
                now);
        NntpFeeder.ihave("127.0.0.1", FEED_PORT, hidden.articles());
        NntpFeeder.post("127.0.0.1", READER_PORT, control.articles());

        try (TestClient c = new TestClient("127.0.0.1", READER_PORT)) {
            for (PostedRelease r : List.of(hidden, control)) {
                for (PostedRelease.PostedFile f : r.files()) {
                    byte[] whole = new byte[f.data().length];
                    for (String id : f.messageIds()) {
                        assertThat(c.command("BODY " + id)).startsWith("222 ").contains(" " + id);
                        YencPart p = YencDecoder.decode(c.data(), 1 << 20);
                        assertThat(p.ok()).as("%s: %s", id, p.reason()).isTrue();
                        assertThat(p.name()).isEqualTo(f.postedName());
                        System.arraycopy(p.data(), 0, whole, (int) p.begin() - 1, p.data().length);
                    }
                    assertThat(whole)
                            .as("%s (%s)", f.realName(), f.postedName())
                            .isEqualTo(f.data());
                    if (f.role() == PostedRelease.Role.NFO) {
                        assertThat(NfoReader.read(whole).releaseNames().get(0).name())
                                .isEqualTo(r.name());
                    }
                    if (f.realName().equals(r.name() + ".par2")) {
                        assertThat(Par2Reader.read(whole).files())
                                .extracting(headway.inspect.par2.Par2File::name)
                                .allMatch(n -> n.startsWith(r.name() + ".7z."));
                    }
                }
            }
            String first = control.messageIds().get(0);
            assertThat(c.command("HEAD " + first)).startsWith("221 ");
            assertThat(new String(c.data(), StandardCharsets.UTF_8))
                    .contains("Subject: " + control.files().get(0).subjects().get(0));
            assertThat(c.command("BODY <no-such-article." + seed + "@rig.test>"))
                    .startsWith("430 ");
        }
    }

    /** Runs {@code nntp-peer.sh args...}, failing the test with its output unless it exits 0 within 5 minutes. */
    static void peer(String... args) throws Exception {
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
            fail("nntp-peer.sh " + String.join(" ", args) + " exited " + p.exitValue() + ":\n" + output);
        }
    }
}
