package headway.starter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import headway.rig.TemporalDevServer;
import headway.store.TestDatabase;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Temporal Web UI of the real dev server, read by Debian's headless chromium: the workflow
 * list filtered by {@code HeadwayGroup} shows that group's workflow and no other. The screenshot
 * is kept as a CI artifact (target/webui-groups.png). Fails, never skips, without chromium:
 * bin/install-test-tools installs it.
 */
class WebUiTest {
    private static final Path SCREENSHOT = Path.of("target", "webui-groups.png");

    @TempDir
    Path tmp;

    @Test
    void theWorkflowListFilteredByHeadwayGroupShowsThatGroupOnly() throws Exception {
        Path chromium = chromium();
        TemporalDevServer temporal = DevServer.shared();
        Cli cli = Cli.of(TestDatabase.emptyDatabase("webui"), temporal.target());
        String shown = "alt.binaries.webui.teevee";
        String other = "alt.binaries.webui.movies";
        assertThat(cli.run("groups", "add", shown, other).code()).isZero();
        Cli.Result started = cli.run("start", shown, other, "--task-queue", "webui-test");
        assertThat(started.code()).as(started.toString()).isZero();

        String query = "HeadwayGroup=\"" + shown + "\"";
        CliTest.eventually(
                () -> temporal.serviceStubs()
                        .blockingStub()
                        .listWorkflowExecutions(ListWorkflowExecutionsRequest.newBuilder()
                                .setNamespace("default")
                                .setQuery(query)
                                .build())
                        .getExecutionsCount(),
                n -> n == 1,
                Duration.ofSeconds(20));
        String url = temporal.uiUrl() + "/namespaces/default/workflows?query="
                + URLEncoder.encode(query, StandardCharsets.UTF_8).replace("+", "%20");

        String dom = run(chromium, "--dump-dom", url);
        assertThat(dom)
                .as("the filtered list in " + url)
                .contains("group/" + shown)
                .doesNotContain("group/" + other);

        Files.createDirectories(SCREENSHOT.toAbsolutePath().getParent());
        Files.deleteIfExists(SCREENSHOT);
        run(chromium, "--screenshot=" + SCREENSHOT.toAbsolutePath(), url);
        assertThat(SCREENSHOT).exists();
        assertThat(Files.size(SCREENSHOT))
                .as("a PNG of the page, not an empty file")
                .isGreaterThan(10_000);

        for (String g : List.of(shown, other)) {
            temporal.workflowClient().newUntypedWorkflowStub("group/" + g).terminate("web UI test done");
        }
    }

    /** Runs headless chromium on {@code url} with a fresh profile; returns what it printed on stdout. */
    private String run(Path chromium, String action, String url) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(tmp, "chromium-");
        List<String> cmd = new ArrayList<>(List.of(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--no-first-run",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--user-data-dir=" + profile,
                "--virtual-time-budget=15000",
                "--window-size=1400,900",
                action,
                url));
        Path stdout = tmp.resolve("chromium-" + System.nanoTime() + ".out");
        Path stderr = tmp.resolve("chromium-" + System.nanoTime() + ".err");
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail("chromium did not finish within 120 s: " + cmd + "\n" + Files.readString(stderr));
        }
        assertThat(p.exitValue())
                .as("chromium exit; stderr:\n" + Files.readString(stderr))
                .isZero();
        return Files.readString(stdout);
    }

    /** Debian's chromium, or a failure that says how to install it. */
    private static Path chromium() {
        for (String candidate : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
            Path p = Path.of(candidate);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return fail(
                "chromium not found at /usr/bin/chromium: run bin/install-test-tools (as root: apt-get install -y chromium)");
    }
}
