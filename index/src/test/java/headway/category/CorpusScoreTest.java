package headway.category;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Scores the parser and the default category rules on release names from public parser and
 * categorizer tests (Sonarr, Radarr, Lidarr, NNTmux; each row cites its file). Prints
 * {@code corpus: file=... rows=... attributes=... parent=... sub=...} and fails below the targets:
 * 90 % of the judged attributes, 85 % of parent categories. The holdout file was scored once
 * when the rules were written and never tuned on. The third sample (names with the category real
 * indexers gave them, from recorded newznab answers in other projects' fixtures) fails below 93 %
 * and 90 %, just under what the rules reach on it. The fourth sample (every third scene-style name of
 * guessit's movie and episode test files) fails below 95 % and 95 %, just under what the rules reach on it.
 * The fifth sample (every third scene-style name of Medusa's guessit expectations and every one of PTT's main
 * test table) fails below 97 % and 97 %, just under what the rules reach on it. The sixth sample (names with the
 * category omgwtfnzbs, nzb.su, Headphones and Fanzub gave them, from Prowlarr's and Readarr's indexer fixtures) fails
 * below 97 % and 90 %, just under what the rules reach on it. The seventh and eighth samples (anitopy's anime table and
 * PTN's torrent names, split by position) fail below 97 % and 97 % (seventh, which the rules were generalized on) and
 * 95 % and 95 % (eighth, held out: only its score was read), just under what the rules reach on them. The ninth and
 * tenth samples (FlexGet's, SickChill's and Jellyfin's TV name tests: dated, anime, multi-episode and pack names, split
 * by position) fail below 94 % and 91 % (ninth, generalized on) and 92 % and 88 % (tenth, held out). The eleventh and
 * twelfth samples (tvnamer's, Jellyfin's episode and release-name tests and NZBGet VideoSort's test data, split by
 * position) fail below 98 % and 98 % (eleventh, generalized on) and 95 % and 96 % (twelfth, held out: scored once).
 * The thirteenth and fourteenth samples (parse-torrent-title's own tests: torrent, tracker and fansub names in many
 * languages, split by position) fail below 85 % and 86 % (thirteenth, generalized on) and 81 % and 83 % (fourteenth,
 * held out: only its score was read), just under what the rules reach on them.
 */
class CorpusScoreTest {

    private static final String[] ATTRIBUTES = {"title", "season", "episode", "year", "resolution"};

    @ParameterizedTest
    @CsvSource({
        "release-names.tsv, 400, 0.90, 0.85",
        "release-names-holdout.tsv, 400, 0.90, 0.85",
        "release-names-sample3.tsv, 100, 0.93, 0.90",
        "release-names-sample4.tsv, 120, 0.95, 0.95",
        "release-names-sample5.tsv, 100, 0.97, 0.97",
        "release-names-sample6.tsv, 110, 0.97, 0.90",
        "release-names-sample7.tsv, 45, 0.97, 0.97",
        "release-names-sample8.tsv, 45, 0.95, 0.95",
        "release-names-sample9.tsv, 75, 0.94, 0.91",
        "release-names-sample10.tsv, 75, 0.92, 0.88",
        "release-names-sample11.tsv, 75, 0.98, 0.98",
        "release-names-sample12.tsv, 75, 0.95, 0.96",
        "release-names-sample13.tsv, 120, 0.85, 0.86",
        "release-names-sample14.tsv, 120, 0.81, 0.83"
    })
    void corpusMeetsTargets(String file, int minRows, double minAttributes, double minParent) throws IOException {
        Score s = score(file);
        System.out.printf(
                Locale.ROOT,
                "corpus: file=%s rows=%d attributes=%.3f (%d/%d) parent=%.3f (%d/%d) sub=%.3f (%d/%d)%n",
                file,
                s.rows,
                s.attributes(),
                s.attributesRight,
                s.attributesJudged,
                s.parent(),
                s.parentRight,
                s.rows,
                s.sub(),
                s.subRight,
                s.subJudged);
        assertThat(s.rows).isGreaterThanOrEqualTo(minRows);
        assertThat(s.attributes()).as("share of attributes right in " + file).isGreaterThanOrEqualTo(minAttributes);
        assertThat(s.parent()).as("share of parent categories right in " + file).isGreaterThanOrEqualTo(minParent);
    }

    static final class Score {
        int rows;
        int attributesJudged;
        int attributesRight;
        int parentRight;
        int subJudged;
        int subRight;

        double attributes() {
            return attributesRight / (double) attributesJudged;
        }

        double parent() {
            return parentRight / (double) rows;
        }

        double sub() {
            return subRight / (double) subJudged;
        }
    }

    static Score score(String file) throws IOException {
        CategoryRules rules = CategoryRules.defaults();
        Score s = new Score();
        for (String[] row : rows(file)) {
            Classification c = rules.classify(row[1].isEmpty() ? null : row[1], row[0]);
            ReleaseAttributes a = c.attributes();
            String[] got = {a.title(), str(a.season()), a.episode(), str(a.year()), a.resolution()};
            for (int k = 0; k < ATTRIBUTES.length; k++) {
                String expected = row[2 + k];
                if (expected.equals("*")) {
                    continue;
                }
                s.attributesJudged++;
                boolean right = k == 0
                        ? normalized(expected).equals(normalized(got[k]))
                        : expected.isEmpty() ? got[k] == null : expected.equals(got[k]);
                if (right) {
                    s.attributesRight++;
                }
            }
            int category = Integer.parseInt(row[7]);
            s.rows++;
            if (c.category().parentId() == category / 1000 * 1000) {
                s.parentRight++;
            }
            if (category % 1000 != 0) {
                s.subJudged++;
                if (c.category().id() == category) {
                    s.subRight++;
                }
            }
        }
        return s;
    }

    private static String str(Integer i) {
        return i == null ? null : i.toString();
    }

    /** Case-insensitive, punctuation as spaces: {@code Series-Title!} equals {@code series title}. */
    private static String normalized(String title) {
        if (title == null) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        boolean space = false;
        for (int i = 0; i < title.length(); i++) {
            char c = title.charAt(i);
            if (Character.isLetterOrDigit(c)) {
                if (space && b.length() > 0) {
                    b.append(' ');
                }
                b.append(Character.toLowerCase(c));
                space = false;
            } else {
                space = true;
            }
        }
        return b.toString();
    }

    static List<String[]> rows(String file) throws IOException {
        List<String[]> out = new ArrayList<>();
        try (InputStream in =
                Objects.requireNonNull(CorpusScoreTest.class.getResourceAsStream("/headway/category/" + file), file)) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                if (f.length != 9) {
                    throw new IllegalStateException(file + ": a row has " + f.length + " columns, not 9: " + line);
                }
                out.add(f);
            }
        }
        return out;
    }
}
