package headway.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import headway.index.CompletedBinary;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search page as a browser shows it: Debian's headless chromium reads the rendered page
 * (search box, category filter, result columns, NZB links, paging) and takes the screenshot kept
 * as target/search.png (docs/search.png is a copy), here with anonymous downloads turned on
 * (HEADWAY_HTTP_PAGE_NZB). Fails, never skips, without chromium: bin/install-test-tools installs it.
 */
class SearchPageTest {

    private static final Path SCREENSHOT = Path.of("target", "search.png");
    private static ServedCatalog served;

    @TempDir
    Path tmp;

    @BeforeAll
    static void serve() throws Exception {
        served = ServedCatalog.start(new ServeConfig("127.0.0.1", 0, true, "headway")
                .withLimits(ServeConfig.Limits.defaults().withPageNzb(true, 100)));
        List<CompletedBinary> more = new ArrayList<>();
        String[] shows = {"Harbour.Lights", "The.Long.Field", "Copper.Street", "Night.Shift.Diaries"};
        for (int i = 0; i < 60; i++) {
            String name = String.format(
                    Locale.ROOT,
                    "%s.S%02dE%02d.%s.WEB-DL.x264-GRP",
                    shows[i % shows.length],
                    1 + i / 20,
                    1 + i % 20,
                    i % 3 == 0 ? "2160p" : i % 3 == 1 ? "1080p" : "720p");
            more.add(ServedCatalog.single(
                    name, 400_000_000L + 37_000_000L * i, ServedCatalog.POSTED.plusSeconds(3600L * (i + 1))));
        }
        ServedCatalog.write(served.stores, more);
    }

    @AfterAll
    static void stop() {
        served.close();
    }

    @Test
    void chromiumShowsResultsWithEveryColumnAFilterAndPaging() throws Exception {
        Path chromium = chromium();
        String dom = run(chromium, "--dump-dom", served.base() + "/?q=WEB-DL");
        assertThat(dom)
                .contains("<input type=\"search\" name=\"q\"", "<select name=\"cat\">", "TV/UHD")
                .contains("Night.Shift.Diaries.S03E20.720p.WEB-DL.x264-GRP")
                .contains("60 releases, showing 1-50")
                .contains("<th>Name</th><th>Category</th><th>Size</th><th>Age</th><th>Complete</th><th>Files</th>"
                        + "<th>Password</th><th>Group</th><th>NZB</th>")
                .contains("href=\"/nzb/")
                .contains("older →");
        String second = run(chromium, "--dump-dom", served.base() + "/?q=WEB-DL&page=2");
        assertThat(second).contains("showing 51-60", "← newer").doesNotContain("older →");

        Files.createDirectories(SCREENSHOT.toAbsolutePath().getParent());
        Files.deleteIfExists(SCREENSHOT);
        run(chromium, "--screenshot=" + SCREENSHOT.toAbsolutePath(), served.base() + "/?q=S01&cat=5000");
        assertThat(Files.size(SCREENSHOT))
                .as("a PNG of the page, not an empty file")
                .isGreaterThan(10_000);
    }

    @Test
    void theCategoryFilterNarrowsResults() throws Exception {
        String movies = served.get("/?cat=2000").body();
        assertThat(movies)
                .contains("A.Movie.2026.1080p.BluRay.x264-GRP", "1 release")
                .doesNotContain("Some.Show");
        assertThat(movies).contains("<option value=\"2000\" selected>");
    }

    @Test
    void hostileNamesAndQueriesAreEscaped() throws Exception {
        String page = served.get("/?q=%3Cscript%3E").body();
        assertThat(page).contains("value=\"&lt;script&gt;\"").doesNotContain("<script>");
        String weird = served.get("/?q=weird").body();
        assertThat(weird).contains("Weird &lt;&amp;&quot;&#39;&gt; name 100%");
        var tooLong = served.get("/?q=" + "a".repeat(600));
        assertThat(tooLong.statusCode()).isEqualTo(200);
        assertThat(tooLong.body()).contains("The search is too long: use at most 500 characters.");
        // an emoji (two UTF-16 characters) across the cut: the box shows 499 a's, never half of it
        var emojiAtTheCut = served.get("/?q=" + "a".repeat(499) + "%F0%9F%98%80" + "b".repeat(50));
        assertThat(emojiAtTheCut.statusCode()).isEqualTo(200);
        assertThat(emojiAtTheCut.body())
                .contains("value=\"" + "a".repeat(499) + "\"")
                .doesNotContain("\uFFFD", "?\"");
        var unreadable = served.get("/?q=" + "a".repeat(10_000));
        assertThat(unreadable.statusCode()).isEqualTo(400);
        assertThat(unreadable.body()).contains("q: at most 2000 characters");
        assertThat(served.get("/?page=abc&cat=x").statusCode()).isEqualTo(200);
    }

    @Test
    void releaseAndNzbLinksWork() throws Exception {
        String page = served.get("/?q=some+show+S01E02").body();
        int at = page.indexOf("href=\"/nzb/");
        String guid = page.substring(at + 11, at + 43);
        HttpResponse<byte[]> nzb = served.getBytes("/nzb/" + guid);
        assertThat(nzb.statusCode()).isEqualTo(200);
        assertThat(nzb.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/x-nzb");
        assertThat(served.get("/release/" + guid).body()).contains("Some.Show.S01E02.720p.WEB-GRP", "Resolution");
        assertThat(served.get("/release/zzz").statusCode()).isEqualTo(404);
        assertThat(served.get("/nzb/zzz").statusCode()).isEqualTo(404);
    }

    private String run(Path chromium, String action, String url) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(tmp, "chromium-");
        List<String> cmd = List.of(
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
                "--window-size=1280,900",
                action,
                url);
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

    private static Path chromium() {
        for (String candidate : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        return fail(
                "chromium not found at /usr/bin/chromium: run bin/install-test-tools (as root: apt-get install -y chromium)");
    }
}
