package headway.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Scores the shipped rules on {@code headway/index/subjects.tsv}, real subject lines from public
 * sources with the expected file name, counters and release (see subjects.README.md next to it),
 * and fails below the targets: every field right on at least 95 % of rows, at least 99 % kept.
 * Scores them on {@code subjects-holdout.tsv} too, lines from other sources that the parser was
 * not written on, and fails below 93 % (just under what it reaches) or 99 % kept; and on
 * {@code subjects-sample3.tsv}, a third sample from NZB files, indexer fixtures and tool tests,
 * below 92 %; and on {@code subjects-sample4.tsv}, a fourth sample (Newznab patches no other file
 * drew on, an NZBIndex feed, Binsearch), below 90 % or 97 % kept: two of its lines put their
 * counter after trailing text or write it in Dutch, which the parser does not read; and on
 * {@code subjects-sample5.tsv}, a fifth sample (an early indexer's regex comments, issue threads, an
 * NZBClub feed, NNTmux tests), below 95 % or 97 % kept: one of its lines quotes a name with neither an
 * extension, a counter nor yEnc. Prints the score per field and the rows it gets wrong.
 */
class SubjectCorpusTest {

    private static final String GROUP = "alt.binaries.test";
    private static final String POSTER = "poster <poster@example.com>";
    private static final String CORPUS = "headway/index/subjects.tsv";
    private static final String HOLDOUT = "headway/index/subjects-holdout.tsv";
    private static final String SAMPLE3 = "headway/index/subjects-sample3.tsv";
    private static final String SAMPLE4 = "headway/index/subjects-sample4.tsv";
    private static final String SAMPLE5 = "headway/index/subjects-sample5.tsv";

    record Row(
            int line,
            String subject,
            String file,
            String fileCounter,
            String articleCounter,
            String release,
            String source) {}

    /** What the rules made of the corpus: per field, right out of rows that expect a value, and overall. */
    record Score(
            int rows,
            int kept,
            int fileRight,
            int files,
            int fileCounterRight,
            int fileCounters,
            int articleRight,
            int articleCounters,
            int releaseRight,
            int releases,
            int allRight,
            List<String> wrong) {

        String line() {
            return String.format(
                    Locale.ROOT,
                    "corpus: rows=%d every_field=%d (%.1f %%) kept=%d (%.1f %%) file=%d/%d file_counter=%d/%d article_counter=%d/%d release=%d/%d",
                    rows,
                    allRight,
                    100.0 * allRight / rows,
                    kept,
                    100.0 * kept / rows,
                    fileRight,
                    files,
                    fileCounterRight,
                    fileCounters,
                    articleRight,
                    articleCounters,
                    releaseRight,
                    releases);
        }
    }

    /** Each file with the label its score line starts with, the rows it must have and its targets (percent). */
    @ParameterizedTest(name = "{1}")
    @CsvSource({
        "'', subjects.tsv, 330, 95.0, 99.0",
        "'holdout ', subjects-holdout.tsv, 250, 93.0, 99.0",
        "'sample3 ', subjects-sample3.tsv, 130, 92.0, 99.0",
        "'sample4 ', subjects-sample4.tsv, 90, 90.0, 97.0",
        "'sample5 ', subjects-sample5.tsv, 38, 95.0, 97.0"
    })
    void theShippedRulesReadEachFileToTarget(
            String label, String file, int minRows, double minEveryField, double minKept) throws IOException {
        readsToTarget(label, "headway/index/" + file, minRows, minEveryField, minKept);
    }

    /** Prints the shipped rules' score on {@code resource} and its wrong rows; fails below the targets. */
    private static void readsToTarget(String label, String resource, int minRows, double minEveryField, double minKept)
            throws IOException {
        List<Row> rows = corpus(resource);
        Score score = score(RuleSet.defaults(0), rows);
        System.out.println(label + score.line());
        score.wrong().forEach(System.out::println);

        assertThat(rows).as(label + "corpus rows").hasSizeGreaterThanOrEqualTo(minRows);
        assertThat(100.0 * score.allRight() / score.rows()).as(score.line()).isGreaterThanOrEqualTo(minEveryField);
        assertThat(100.0 * score.kept() / score.rows()).as(score.line()).isGreaterThanOrEqualTo(minKept);
    }

    @Test
    void everyRowNamesItsSourceAndAFile() throws IOException {
        List<Row> rows = new ArrayList<>();
        for (String file : List.of(CORPUS, HOLDOUT, SAMPLE3, SAMPLE4, SAMPLE5)) {
            rows.addAll(corpus(file));
        }
        for (Row r : rows) {
            assertThat(r.source()).as("line %d", r.line()).matches("github\\.com/\\S+.*");
            assertThat(r.file()).as("line %d", r.line()).isNotBlank();
            assertThat(r.release()).as("line %d", r.line()).isNotBlank();
            assertThat(r.fileCounter()).as("line %d", r.line()).matches("|\\d+/\\d+");
            assertThat(r.articleCounter()).as("line %d", r.line()).matches("|\\d+/\\d+");
        }
    }

    static Score score(RuleSet rules, List<Row> rows) {
        int kept = 0;
        int fileRight = 0;
        int fileCounterRight = 0;
        int fileCounters = 0;
        int articleRight = 0;
        int articleCounters = 0;
        int releaseRight = 0;
        int allRight = 0;
        List<String> wrong = new ArrayList<>();
        for (Row r : rows) {
            SubjectMatch m = rules.match(GROUP, POSTER, r.subject());
            ParsedSubject p = m instanceof SubjectMatch.Matched matched ? matched.subject() : null;
            boolean file = p != null && p.fileName().equals(r.file());
            String fc = p == null || p.fileNumber() < 0 ? "" : p.fileNumber() + "/" + p.fileTotal();
            String ac = p == null || p.part() < 0 ? "" : p.part() + "/" + p.totalParts();
            boolean fileCounter = p != null && fc.equals(r.fileCounter());
            boolean article = p != null && ac.equals(r.articleCounter());
            boolean release = p != null && ReleaseNames.fold(p.releaseName()).equals(ReleaseNames.fold(r.release()));
            kept += p != null ? 1 : 0;
            fileRight += file ? 1 : 0;
            if (!r.fileCounter().isEmpty()) {
                fileCounters++;
                fileCounterRight += fileCounter ? 1 : 0;
            }
            if (!r.articleCounter().isEmpty()) {
                articleCounters++;
                articleRight += article ? 1 : 0;
            }
            releaseRight += release ? 1 : 0;
            if (file && fileCounter && article && release) {
                allRight++;
            } else {
                wrong.add("  line " + r.line() + ": " + r.subject() + "\n    expected file=[" + r.file() + "] fc="
                        + r.fileCounter()
                        + " ac=" + r.articleCounter() + " release=[" + r.release() + "]\n    got      "
                        + (p == null
                                ? m
                                : "file=[" + p.fileName() + "] fc=" + fc + " ac=" + ac + " release=[" + p.releaseName()
                                        + "]"));
            }
        }
        return new Score(
                rows.size(),
                kept,
                fileRight,
                rows.size(),
                fileCounterRight,
                fileCounters,
                articleRight,
                articleCounters,
                releaseRight,
                rows.size(),
                allRight,
                wrong);
    }

    static List<Row> corpus() throws IOException {
        return corpus(CORPUS);
    }

    static List<Row> corpus(String resource) throws IOException {
        List<Row> rows = new ArrayList<>();
        try (InputStream in = SubjectCorpusTest.class.getResourceAsStream("/" + resource)) {
            assertThat(in).as(resource + " on the test class path").isNotNull();
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String header = reader.readLine();
            assertThat(header).isEqualTo("subject\tfile\tfile_counter\tarticle_counter\trelease\tsource");
            String line;
            int n = 1;
            while ((line = reader.readLine()) != null) {
                n++;
                if (line.isEmpty()) {
                    continue;
                }
                String[] c = line.split("\t", -1);
                assertThat(c).as("line %d has 6 columns", n).hasSize(6);
                rows.add(new Row(n, c[0], c[1], c[2], c[3], c[4], c[5]));
            }
        }
        return rows;
    }
}
