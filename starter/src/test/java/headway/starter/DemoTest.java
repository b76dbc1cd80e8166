package headway.starter;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/**
 * {@code headway demo} headless, as CI runs it: on the Temporal dev server (the path users get
 * when the {@code temporal} binary is installed) and once on the in-process test server.
 */
class DemoTest {
    private static final Pattern SUMMARY = Pattern.compile("demo: groups=2 articles=(\\d+) releases=(\\d+) nzb=(.+)");

    @TempDir
    Path tmp;

    @Test
    void demoOnTheDevServerEndsWithItsSummaryAndAnNzb() throws Exception {
        Cli.Result r = Cli.of(null, null).run("demo", "--articles", "3000", "--groups", "2", "--out", tmp.toString());
        assertSummary(r);
        assertThat(r.out())
                .contains(
                        "demo: Temporal dev server on ",
                        "demo: schedule headway-planner every 20s",
                        "demo: Web UI: http://");
    }

    @Test
    void demoOnTheInProcessTestServerEndsWithItsSummaryAndAnNzb() throws Exception {
        Cli.Result r = Cli.of(null, null)
                .run("demo", "--articles", "3000", "--groups", "2", "--out", tmp.toString(), "--in-process-temporal");
        assertSummary(r);
        assertThat(r.out())
                .contains(
                        "demo: in-process Temporal test server",
                        "demo: the in-process Temporal server has no Schedules; planner, watchman and prune are not scheduled");
    }

    @Test
    void demoRejectsBadSizes() {
        Cli.Result groups = Cli.of(null, null).run("demo", "--groups", "0");
        assertThat(groups.code()).isEqualTo(Exit.BAD_INPUT);
        assertThat(groups.err()).isEqualTo("headway: --groups must be between 1 and 100, was 0\n");
        Cli.Result articles = Cli.of(null, null).run("demo", "--articles", "10");
        assertThat(articles.code()).isEqualTo(Exit.BAD_INPUT);
        assertThat(articles.err()).isEqualTo("headway: --articles must be between 100 and 10000000, was 10\n");
    }

    private void assertSummary(Cli.Result r) throws Exception {
        assertThat(r.code()).as(r.toString()).isZero();
        Matcher m = SUMMARY.matcher(r.lastLine());
        assertThat(m.matches()).as("last line: " + r.lastLine()).isTrue();
        assertThat(Long.parseLong(m.group(1))).as("articles").isPositive();
        assertThat(Long.parseLong(m.group(2))).as("releases").isPositive();
        Path nzb = Path.of(m.group(3));
        assertThat(nzb).exists().hasParent(tmp);
        assertThat(Files.size(nzb)).isPositive();
        Document doc = CliTest.parseXml(nzb);
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("nzb");
        assertThat(doc.getElementsByTagName("file").getLength()).isPositive();
        assertThat(doc.getElementsByTagName("segment").getLength()).isPositive();
    }
}
