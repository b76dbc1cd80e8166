package headway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import headway.starter.Exit;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/**
 * {@code headway demo} headless, as CI runs it: on the Temporal dev server (the path users get
 * when the {@code temporal} binary is installed) and once on the in-process test server.
 */
class DemoTest {
    private static final Pattern SUMMARY = Pattern.compile("demo: groups=2 articles=(\\d+) releases=(\\d+) nzb=(.+)");
    private static final Pattern WEB_UI =
            Pattern.compile("demo: web ui http://127\\.0\\.0\\.1:\\d+/namespaces/default/workflows");

    @TempDir
    Path tmp;

    /** What one run printed and returned. */
    record Result(int code, String out, String err) {
        List<String> lines() {
            return out.lines().toList();
        }

        String lastLine() {
            List<String> l = lines();
            return l.isEmpty() ? "" : l.get(l.size() - 1);
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    static Result lab(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = HeadwayLab.run(args, Map.of(), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void demoOnTheDevServerShowsTheWebUiBeforeIndexingAndEndsWithItsSummaryAndAnNzb() throws Exception {
        Result r = lab("demo", "--articles", "3000", "--groups", "2", "--out", tmp.toString());
        assertSummary(r);
        assertThat(r.out()).contains("demo: Temporal dev server on ", "demo: schedule headway-planner every 20s");
        List<String> lines = r.lines();
        int ui = indexOfMatch(lines, WEB_UI);
        int firstPlan = indexOfMatch(lines, Pattern.compile("demo: planned .*"));
        assertThat(ui).as(r.toString()).isNotNegative().isLessThan(firstPlan);
    }

    @Test
    void demoOnTheInProcessTestServerEndsWithItsSummaryAndAnNzb() throws Exception {
        Result r = lab("demo", "--articles", "3000", "--groups", "2", "--out", tmp.toString(), "--in-process-temporal");
        assertSummary(r);
        assertThat(r.out())
                .contains(
                        "demo: in-process Temporal test server",
                        "demo: the in-process Temporal server has no Schedules; planner, watchman and prune are not scheduled")
                .doesNotContain("demo: web ui");
    }

    private static final Pattern SERVING = Pattern.compile(
            "demo: api=(http://127\\.0\\.0\\.1:\\d+)/api apikey=([0-9a-f]{40}) web=(http://127\\.0\\.0\\.1:\\d+)/");

    @Test
    void demoServeServesTheDemoCatalogWithTheKeyItPrintsUntilStopped() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int[] code = {-1};
        Thread demo = new Thread(
                () -> code[0] = HeadwayLab.run(
                        new String[] {
                            "demo",
                            "--articles",
                            "3000",
                            "--groups",
                            "2",
                            "--out",
                            tmp.toString(),
                            "--in-process-temporal",
                            "--serve"
                        },
                        Map.of(),
                        new PrintWriter(out, true),
                        new PrintWriter(err, true)),
                "demo-serve-test");
        demo.start();
        Matcher m = null;
        for (int i = 0; i < 1200 && m == null && demo.isAlive(); i++) {
            Matcher found = SERVING.matcher(out.toString());
            if (found.find()) {
                m = found;
            } else {
                Thread.sleep(250);
            }
        }
        assertThat(m).as(out + "\n" + err).isNotNull();
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.http.HttpResponse<String> feed = http.send(
                java.net.http.HttpRequest.newBuilder(
                                java.net.URI.create(m.group(1) + "/api?t=search&apikey=" + m.group(2)))
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(feed.statusCode()).as(feed.body()).isEqualTo(200);
        assertThat(feed.body()).contains("<item>", "application/x-nzb");
        java.net.http.HttpResponse<String> page = http.send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(m.group(3) + "/"))
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<table>", "NZB");
        assertThat(demo.isAlive()).as("keeps serving").isTrue();
        demo.interrupt();
        demo.join(60_000);
        assertThat(demo.isAlive()).isFalse();
    }

    @Test
    void demoRejectsBadSizes() {
        Result groups = lab("demo", "--groups", "0");
        assertThat(groups.code()).isEqualTo(Exit.BAD_INPUT);
        assertThat(groups.err()).isEqualTo("headway: --groups must be between 1 and 100, was 0\n");
        Result articles = lab("demo", "--articles", "10");
        assertThat(articles.code()).isEqualTo(Exit.BAD_INPUT);
        assertThat(articles.err()).isEqualTo("headway: --articles must be between 100 and 10000000, was 10\n");
    }

    private static int indexOfMatch(List<String> lines, Pattern pattern) {
        for (int i = 0; i < lines.size(); i++) {
            if (pattern.matcher(lines.get(i)).matches()) {
                return i;
            }
        }
        return -1;
    }

    private void assertSummary(Result r) throws Exception {
        assertThat(r.code()).as(r.toString()).isZero();
        Matcher m = SUMMARY.matcher(r.lastLine());
        assertThat(m.matches()).as("last line: " + r.lastLine()).isTrue();
        assertThat(Long.parseLong(m.group(1))).as("articles").isPositive();
        assertThat(Long.parseLong(m.group(2))).as("releases").isPositive();
        Path nzb = Path.of(m.group(3));
        assertThat(nzb).exists().hasParent(tmp);
        assertThat(Files.size(nzb)).isPositive();
        DocumentBuilderFactory xml = DocumentBuilderFactory.newInstance();
        xml.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        Document doc = xml.newDocumentBuilder().parse(nzb.toFile());
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("nzb");
        assertThat(doc.getElementsByTagName("file").getLength()).isPositive();
        assertThat(doc.getElementsByTagName("segment").getLength()).isPositive();
    }
}
