package headway.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The per-template memo of rule matches never changes what a subject matches. */
class RuleSetMemoTest {

    private static final String GROUP = "alt.binaries.test";
    private static final String POSTER = "poster <p@example.com>";

    static Stream<Arguments> subjects() {
        return Stream.concat(RuleSetTest.subjects(), SubjectParserTest.forms()).map(a -> Arguments.of(a.get()[0]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void aWarmRuleSetMatchesEveryPartLikeAFreshOne(String subject) {
        RuleSet warm = RuleSet.defaults(0);
        for (String variant : List.of(
                subject,
                renumber(subject, 1, 50),
                renumber(subject, 49, 50),
                renumber(subject, 7, 9),
                renumber(subject, 51, 50),
                renumber(subject, 0, 12))) {
            SubjectMatch fresh = RuleSet.defaults(0).match(GROUP, POSTER, variant);
            assertThat(warm.match(GROUP, POSTER, variant)).as(variant).isEqualTo(fresh);
        }
    }

    @Test
    void aRuleThatTakesThePartFromElsewhereIsNotMemoized() {
        String json = """
                {"name": "odd", "groups": [{"pattern": "*", "rules": [
                  {"name": "part-first", "regex": "^(?<part>\\\\d+)-(?<total>\\\\d+) (?<file>\\\\S+) \\\\((\\\\d+)/(\\\\d+)\\\\)$"}
                ]}]}
                """;
        RuleSet warm = RuleSet.parse(1, json);
        SubjectMatch first = warm.match(GROUP, POSTER, "1-5 a.rar (1/5)");
        SubjectMatch second = warm.match(GROUP, POSTER, "2-5 a.rar (1/5)");
        assertThat(((SubjectMatch.Matched) first).subject().part()).isEqualTo(1);
        assertThat(((SubjectMatch.Matched) second).subject().part()).isEqualTo(2);
    }

    @Test
    void everyPartOfOneFileIsOneTemplateWithOrWithoutNyuusByteCount() {
        RuleSet rules = RuleSet.defaults(0);
        for (int part = 1; part <= 50; part++) {
            SubjectMatch m =
                    rules.match(GROUP, POSTER, "[03/14] - \"Show.S01E01.part02.rar\" yEnc (" + part + "/50) 36700160");
            assertThat(((SubjectMatch.Matched) m).subject().part()).isEqualTo(part);
            rules.match(GROUP, POSTER, "Show.S01E01 [04/14] - \"Show.S01E01.part03.rar\" yEnc (" + part + "/50)");
        }
        assertThat(rules.memoized(GROUP)).isEqualTo(2);
    }

    @Test
    void subjectsThatDifferOnlyInCharactersPastLatin1AreTwoTemplates() {
        // ISO-8859-1 bytes make both '?' and 公 and 字 a '?'; the memo must still tell them apart
        RuleSet rules = RuleSet.defaults(0);
        String[] names = {"公", "字", "?"};
        for (int part = 1; part <= 3; part++) {
            for (String name : names) {
                SubjectMatch m =
                        rules.match(GROUP, POSTER, "[1/3] - \"" + name + "1.part1.rar\" yEnc (" + part + "/40)");
                assertThat(((SubjectMatch.Matched) m).subject().fileName()).isEqualTo(name + "1.part1.rar");
                assertThat(((SubjectMatch.Matched) m).subject().part()).isEqualTo(part);
            }
        }
        assertThat(rules.memoized(GROUP)).isEqualTo(3);
    }

    @Test
    void charactersPastTheBasicPlaneBeforeTheCounterMatchEveryPart() {
        // measured: one emoji made the template's bytes shorter than its string, and the key ran past them
        RuleSet rules = RuleSet.defaults(0);
        String[] names = {"\uD83D\uDE00 Release.Name", "\uD83D\uDE01 Release.Name", "\uD835\uDD38 Release.Name"};
        for (int part = 1; part <= 3; part++) {
            for (String name : names) {
                SubjectMatch m = rules.match(GROUP, POSTER, name + " [1/1] - \"f.bin\" yEnc (" + part + "/3)");
                assertThat(m).as(name).isInstanceOf(SubjectMatch.Matched.class);
                ParsedSubject p = ((SubjectMatch.Matched) m).subject();
                assertThat(p.fileName()).isEqualTo("f.bin");
                assertThat(p.releaseName()).isEqualTo(name);
                assertThat(p.part()).isEqualTo(part);
                assertThat(p.totalParts()).isEqualTo(3);
            }
        }
        assertThat(rules.memoized(GROUP)).isEqualTo(3);
    }

    @Test
    void surrogatePairsAnywhereKeepTheMemoEqualToAFreshMatch() {
        RuleSet warm = RuleSet.defaults(0);
        String[] subjects = {
            "\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00 [01/10] - \"a.part01.rar\" yEnc (%d/9)",
            "[01/10] - \"\uD83D\uDE00.part01.rar\" yEnc (%d/9)",
            "[01/10] - \"a.part01.rar\" yEnc (%d/9) \uD83D\uDE00",
            "x [01/10] - \"a\uD800.rar\" yEnc (%d/9)",
            "\uDC00 [01/10] - \"a.rar\" yEnc (%d/9)"
        };
        for (int part = 1; part <= 4; part++) {
            for (String subject : subjects) {
                String s = String.format(subject, part);
                assertThat(warm.match(GROUP, POSTER, s))
                        .as(s)
                        .isEqualTo(RuleSet.defaults(0).match(GROUP, POSTER, s));
            }
        }
    }

    @Test
    void subjectsThatDifferOnlyAfterTheCounterAreTwoTemplates() {
        RuleSet rules = RuleSet.defaults(0);
        for (long bytes : new long[] {36700160, 36700161, 36700160}) {
            rules.match(GROUP, POSTER, "[03/14] - \"Show.S01E01.part02.rar\" yEnc (7/50) " + bytes);
        }
        rules.match(GROUP, POSTER, "[03/14] - \"Show.S01E01.part02.rar\" yEnc [7/50]");
        rules.match(GROUP, POSTER, "[03/14] - \"Show.S01E01.part02.rar\" yEnc (7 / 50)");
        assertThat(rules.memoized(GROUP)).isEqualTo(4);
    }

    @Test
    void theMemoStaysBoundedAndKeepsTheTemplatesOfFilesStillBeingPosted() {
        RuleSet rules = RuleSet.defaults(0);
        String inFlight = "[01/99] - \"Long.Posting.part001.rar\" yEnc (%d/5000)";
        rules.match(GROUP, POSTER, String.format(inFlight, 1));
        int files = 20_000;
        for (int f = 0; f < files; f++) {
            rules.match(GROUP, POSTER, "[01/02] - \"File" + f + ".rar\" yEnc (1/2)");
            if (f % 1_000 == 0) {
                rules.match(GROUP, POSTER, String.format(inFlight, 2 + f / 1_000));
            }
        }
        assertThat(rules.memoized(GROUP)).isLessThanOrEqualTo(2 * 4_096);
        // every file once, and the file still being posted at most once per generation it outlived, not once per part
        assertThat(rules.memoPuts(GROUP)).isLessThanOrEqualTo(files + 1 + files / 4_096 + 1);
    }

    /** The subject with its trailing counter replaced by {@code (part/total)}, keeping the bracket style and a byte count after it. */
    private static String renumber(String subject, int part, int total) {
        return subject.replaceFirst(
                "([\\(\\[\\{])\\s*\\d+\\s*/\\s*\\d+\\s*([\\)\\]\\}])(\\s+\\d+)?\\s*$",
                "$1" + part + "/" + total + "$2$3");
    }
}
