package headway.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RuleSetTest {

    private static final RuleSet DEFAULTS = RuleSet.defaults(1);
    private static final String GROUP = "alt.binaries.test";
    private static final String POSTER = "poster <p@example.com>";

    static Stream<Arguments> subjects() {
        return Stream.of(
                Arguments.of("\"name.part01.rar\" yEnc (1/30)", "name", "name.part01.rar", 1, 30),
                Arguments.of("[01/20] - \"file\" yEnc (3/50)", "file", "file", 3, 50),
                Arguments.of("Release.Name - [03/15] - \"file.r01\" yEnc (12/50)", "Release.Name", "file.r01", 12, 50),
                Arguments.of("(Some Release) [1/5] - \"x.nfo\" yEnc (1/1)", "Some Release", "x.nfo", 1, 1),
                Arguments.of("(01/20) \"file.rar\" - 100 MB - yEnc (5/100)", "file", "file.rar", 5, 100),
                Arguments.of("file.par2 (1/1)", "file", "file.par2", 1, 1),
                Arguments.of(
                        "[12345]-[#a.b.teevee@EFNet]-[Show.S01E01.720p]-[01/25] - \"show.s01e01.r00\" yEnc (1/50)",
                        "Show.S01E01.720p",
                        "show.s01e01.r00",
                        1,
                        50),
                Arguments.of(
                        "[FULL]-[#a.b.moovee@EFNet]-[ Movie.2019.1080p.BluRay.x264-GRP ]-[05/60] - \"movie.2019.r03\" yEnc (77/137)",
                        "Movie.2019.1080p.BluRay.x264-GRP",
                        "movie.2019.r03",
                        77,
                        137),
                Arguments.of(
                        "[PRiVATE]-[WtFnZb]-[Movie.2020.1080p.mkv]-[1/5] - \"\" yEnc (1/1500)",
                        "Movie.2020.1080p",
                        "Movie.2020.1080p.mkv",
                        1,
                        1500),
                Arguments.of(
                        "\"a3f2c9e8d1b7e6f5a4b3.part01.rar\" yEnc (1/120)",
                        "a3f2c9e8d1b7e6f5a4b3",
                        "a3f2c9e8d1b7e6f5a4b3.part01.rar",
                        1,
                        120),
                Arguments.of(
                        "Some.Release.2020 - \"Some.Release.2020.nzb\" yEnc",
                        "Some.Release.2020",
                        "Some.Release.2020.nzb",
                        -1,
                        -1),
                Arguments.of(
                        "Some.Release.2019.1080p.part01.rar (01/50)",
                        "Some.Release.2019.1080p",
                        "Some.Release.2019.1080p.part01.rar",
                        1,
                        50),
                Arguments.of(
                        "Some.Release.2019.1080p.part02.rar yEnc (7/50)",
                        "Some.Release.2019.1080p",
                        "Some.Release.2019.1080p.part02.rar",
                        7,
                        50),
                Arguments.of(
                        "My.Release {01/10} - \"my.release.rar\" yEnc (1/40)", "My.Release", "my.release.rar", 1, 40),
                Arguments.of(
                        "Holiday Photos - 01 of 10 - \"IMG_0001.jpg\" yEnc (1/3)",
                        "Holiday Photos",
                        "IMG_0001.jpg",
                        1,
                        3),
                Arguments.of(
                        "Holiday Photos - File 02 of 10: \"IMG_0002.jpg\" yEnc (2/3)",
                        "Holiday Photos",
                        "IMG_0002.jpg",
                        2,
                        3),
                Arguments.of("[00/20] - \"release.nfo\" yEnc (1/1)", "release", "release.nfo", 1, 1),
                Arguments.of(
                        "Release.Name [00/15] - \"Release.Name.par2\" yEnc (1/1)",
                        "Release.Name",
                        "Release.Name.par2",
                        1,
                        1),
                Arguments.of("\"release.vol00+01.par2\" yEnc (1/1)", "release", "release.vol00+01.par2", 1, 1),
                Arguments.of("\"release.vol015+16.PAR2\" yEnc (4/12)", "release", "release.vol015+16.PAR2", 4, 12),
                Arguments.of("\"release.7z.001\" yEnc (1/80)", "release", "release.7z.001", 1, 80),
                Arguments.of("\"file.r00\" yEnc (00/15)", "file", "file.r00", 0, 15),
                Arguments.of("Release Name [1/10] - \"file.zip\" yEnc (1/20)", "Release Name", "file.zip", 1, 20),
                Arguments.of(
                        ">ghost-of-usenet.org< [01/35] - \"Great.Album.2004.part01.rar\" yEnc (1/200)",
                        "Great.Album.2004",
                        "Great.Album.2004.part01.rar",
                        1,
                        200),
                Arguments.of("\"file.mkv\" 1.2 GB yEnc (5/1000)", "file", "file.mkv", 5, 1000),
                Arguments.of("\"song.mp3\" (1/5)", "song", "song.mp3", 1, 5),
                Arguments.of(
                        "Artist - Album (2001) [03/12] - \"03 - Track.mp3\" yEnc (2/9)",
                        "Artist - Album (2001)",
                        "03 - Track.mp3",
                        2,
                        9),
                Arguments.of(
                        "\"Mixed.Case.Name.Part01.RAR\" yEnc (1/30)",
                        "Mixed.Case.Name",
                        "Mixed.Case.Name.Part01.RAR",
                        1,
                        30),
                Arguments.of(
                        "Show.S02E03 - \"show.s02e03.mkv.001\" yEnc (1/40)",
                        "Show.S02E03",
                        "show.s02e03.mkv.001",
                        1,
                        40),
                Arguments.of("[1/8] \"release.part1.rar\" (3/40)", "release", "release.part1.rar", 3, 40),
                Arguments.of(
                        "Release.Name.2021 [01/22] \"rel.par2\" yEnc (1/1)", "Release.Name.2021", "rel.par2", 1, 1),
                Arguments.of("\"file.rar\" yEnc [5/100]", "file", "file.rar", 5, 100),
                Arguments.of(
                        "\"spaced name.part3.rar\"  yEnc  ( 3 / 9 )", "spaced name", "spaced name.part3.rar", 3, 9),
                Arguments.of(
                        "Re-post: Docs.2020 - \"docs.2020.pdf\" - 12.5 MiB - yEnc (2/4)",
                        "Re-post: Docs.2020",
                        "docs.2020.pdf",
                        2,
                        4));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void defaultRulesParseRealWorldSubjects(String subject, String release, String file, int part, int total) {
        SubjectMatch m = DEFAULTS.match(GROUP, POSTER, subject);

        assertThat(m).as(subject).isInstanceOf(SubjectMatch.Matched.class);
        ParsedSubject p = ((SubjectMatch.Matched) m).subject();
        assertThat(p.releaseName()).as("release").isEqualTo(release);
        assertThat(p.fileName()).as("file").isEqualTo(file);
        assertThat(p.part()).as("part").isEqualTo(part);
        assertThat(p.totalParts()).as("total").isEqualTo(total);
    }

    @Test
    void atLeastThirtyDistinctFormatsAreCovered() {
        assertThat(subjects().count()).isGreaterThanOrEqualTo(30);
    }

    @Test
    void fileCountersAreExtractedWithZeroAsAValidNumber() {
        ParsedSubject p = matched(DEFAULTS.match(GROUP, POSTER, "[00/20] - \"release.nfo\" yEnc (1/1)"));
        assertThat(p.fileNumber()).isZero();
        assertThat(p.fileTotal()).isEqualTo(20);

        ParsedSubject none = matched(DEFAULTS.match(GROUP, POSTER, "\"name.part01.rar\" yEnc (1/30)"));
        assertThat(none.fileNumber()).isEqualTo(-1);
        assertThat(none.fileTotal()).isEqualTo(-1);
    }

    @Test
    void repliesThatCarryAFileAndCountersAreBinaryPosts() {
        ParsedSubject reply = matched(DEFAULTS.match(GROUP, POSTER, "Re: \"name.part01.rar\" yEnc (1/30)"));
        assertThat(reply.fileName()).isEqualTo("name.part01.rar");
        assertThat(reply.part()).isEqualTo(1);
        assertThat(reply.totalParts()).isEqualTo(30);
        assertThat(matched(
                                DEFAULTS.match(
                                        GROUP,
                                        POSTER,
                                        "Re: [147053]-[FULL]-[#a.b.teevee]-[ Top_Gear.20x04.HDTV_x264-FoV ]-[11/59] - \"top_gear.20x04.hdtv_x264-fov.r00\" yEnc (01/20)"))
                        .releaseName())
                .isEqualTo("Top_Gear.20x04.HDTV_x264-FoV");
        assertThat(DEFAULTS.match(GROUP, POSTER, "RE: Re: what is this (1/2)"))
                .isInstanceOf(SubjectMatch.Unmatched.class);
        assertThat(DEFAULTS.match(GROUP, POSTER, "Fwd: \"name.part01.rar\" yEnc (1/30)"))
                .isInstanceOf(SubjectMatch.Rejected.class);
    }

    @Test
    void chatterIsUnmatched() {
        assertThat(DEFAULTS.match(GROUP, POSTER, "Anyone have the new album?"))
                .isInstanceOf(SubjectMatch.Unmatched.class);
        assertThat(DEFAULTS.match(GROUP, POSTER, "\"quoted words\" and nothing else"))
                .isInstanceOf(SubjectMatch.Unmatched.class);
        assertThat(DEFAULTS.match(GROUP, POSTER, "Re: anyone got file.rar? thanks"))
                .isInstanceOf(SubjectMatch.Unmatched.class);
    }

    @Test
    void countersAreKeptAsPosted() {
        ParsedSubject p = matched(DEFAULTS.match(GROUP, POSTER, "[40/33] - \"odd.rar\" yEnc (9/3)"));
        assertThat(p.fileNumber()).isEqualTo(40);
        assertThat(p.fileTotal()).isEqualTo(33);
        assertThat(p.part()).isEqualTo(9);
        assertThat(p.totalParts()).isEqualTo(3);
    }

    @Test
    void absentCountersAreAbsentNeverOne() {
        ParsedSubject p = matched(DEFAULTS.match(GROUP, POSTER, "\"lone.nfo\" yEnc"));
        assertThat(p.part()).isEqualTo(-1);
        assertThat(p.totalParts()).isEqualTo(-1);
        assertThat(p.fileNumber()).isEqualTo(-1);
        assertThat(p.fileTotal()).isEqualTo(-1);
    }

    @Test
    void subjectsLongerThanTheBoundAreUnusableBeforeAnyRule() {
        String longSubject = "\"" + "a".repeat(SubjectParser.MAX_LENGTH) + ".rar\" yEnc (1/2)";
        assertThat(DEFAULTS.match(GROUP, POSTER, longSubject))
                .isEqualTo(
                        new SubjectMatch.Unusable("subject longer than " + SubjectParser.MAX_LENGTH + " characters"));
    }

    @Test
    void aRuleThatCapturesMoreThanDigitsAsACounterDoesNotMatch() {
        // Integer.parseInt threw on what such a rule captured, and the header failed its batch
        String json = """
                {"name": "loose", "groups": [{"pattern": "*", "rules": [
                  {"name": "loose", "regex": "^(?<file>\\\\S+) \\\\((?<part>[^/]+)/(?<total>[^)]+)\\\\)$"}
                ]}]}
                """;
        RuleSet rules = RuleSet.parse(1, json);
        for (String subject : new String[] {"a.rar (x/5)", "a.rar (1/five)", "a.rar (+1/5)", "a.rar (1/2345678901)"}) {
            SubjectMatch m = rules.match(GROUP, POSTER, subject);
            assertThat(m).as(subject).isNotInstanceOf(SubjectMatch.Unusable.class);
            if (m instanceof SubjectMatch.Matched matched) {
                assertThat(matched.ruleName()).as(subject).isNotEqualTo("loose");
            }
        }
        SubjectMatch arabic = rules.match(GROUP, POSTER, "a.rar (\u0662/\u0665)");
        assertThat(((SubjectMatch.Matched) arabic).subject().part()).isEqualTo(2);
        assertThat(((SubjectMatch.Matched) rules.match(GROUP, POSTER, "a.rar (3/5)"))
                        .subject()
                        .totalParts())
                .isEqualTo(5);
    }

    @Test
    void listsAndGroupPatternsApply() {
        String json = """
                {"name": "lists", "groups": [
                  {"pattern": "alt.binaries.tv", "posterWhitelist": ["@good\\\\.example$"],
                   "rules": [{"name": "tv", "regex": "^TV (?<file>\\\\S+) \\\\((?<part>\\\\d+)/(?<total>\\\\d+)\\\\)$"}]},
                  {"pattern": "alt.binaries.*", "subjectBlacklist": ["(?i)password"], "posterBlacklist": ["spam@"],
                   "rules": [{"name": "plain", "regex": "^\\"(?<file>[^\\"]+)\\" \\\\((?<part>\\\\d+)/(?<total>\\\\d+)\\\\)$"}]}
                ]}
                """;
        RuleSet rules = RuleSet.parse(7, json);

        assertThat(rules.version()).isEqualTo(7);
        assertThat(matched(rules.match("alt.binaries.misc", "a@b", "\"x.rar\" (1/2)"))
                        .fileName())
                .isEqualTo("x.rar");
        assertThat(rules.match("alt.binaries.misc", "spam@bad", "\"x.rar\" (1/2)"))
                .isInstanceOf(SubjectMatch.Rejected.class);
        assertThat(rules.match("alt.binaries.misc", "a@b", "\"password.rar\" (1/2)"))
                .isInstanceOf(SubjectMatch.Rejected.class);
        assertThat(((SubjectMatch.Matched) rules.match("alt.binaries.misc", "a@b", "TV x.mkv (1/2)")).ruleName())
                .as("no rule of the group matches: the parser does")
                .isEqualTo(SubjectParser.RULE_NAME);
        assertThat(((SubjectMatch.Matched) rules.match("alt.binaries.tv", "x@good.example", "TV x.mkv (1/2)"))
                        .ruleName())
                .isEqualTo("tv");
        assertThat(matched(rules.match("alt.binaries.tv", "x@good.example", "TV x.mkv (1/2)"))
                        .fileName())
                .isEqualTo("x.mkv");
        assertThat(rules.match("alt.binaries.tv", "x@other.example", "TV x.mkv (1/2)"))
                .isInstanceOf(SubjectMatch.Rejected.class);
        assertThat(rules.match("comp.lang.java", "a@b", "\"x.rar\" (1/2)"))
                .as("a group no entry covers is not indexed, not even by the parser")
                .isInstanceOf(SubjectMatch.Unmatched.class);
    }

    @Test
    void firstMatchingRuleWins() {
        String json = """
                {"name": "order", "groups": [{"pattern": "*", "rules": [
                  {"name": "first", "regex": "^(?<release>A)-(?<file>\\\\S+)$"},
                  {"name": "second", "regex": "^(?<file>\\\\S+)$"}]}]}
                """;
        SubjectMatch m = RuleSet.parse(1, json).match("g", "p", "A-b.rar");
        assertThat(((SubjectMatch.Matched) m).ruleName()).isEqualTo("first");
        assertThat(matched(m).releaseName()).isEqualTo("A");
    }

    @Test
    void badRegexNamesTheRuleAndTheError() {
        String json = """
                {"name": "broken", "groups": [{"pattern": "alt.binaries.*", "rules": [
                  {"name": "ok", "regex": "^(?<file>.+)$"},
                  {"name": "oops", "regex": "^(?<file>[unclosed$"}]}]}
                """;
        assertThatThrownBy(() -> RuleSet.parse(1, json))
                .isInstanceOf(RuleSetException.class)
                .hasMessageContaining("group 'alt.binaries.*' rule #1 ('oops')")
                .hasMessageContaining("missing closing ]")
                .hasMessageContaining("fix the regex (RE2 syntax) and import the rule set again");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backtrackingRules")
    void aRuleTheLinearEngineCannotRunIsRefusedNamingTheRuleAndTheFix(String regex, String feature) {
        assertThatThrownBy(() -> RuleSet.parse(1, oneRule("slow", regex)))
                .isInstanceOf(RuleSetException.class)
                .hasMessageContaining("group '*' rule #0 ('slow') uses " + feature)
                .hasMessageContaining("which the linear-time engine (RE2/J) cannot run")
                .hasMessageContaining(
                        "rewrite the rule without lookaround, backreferences, possessive quantifiers or atomic groups");
    }

    static Stream<Arguments> backtrackingRules() {
        return Stream.of(
                Arguments.of("^(?<file>\\S+)(?=\\s+yEnc)", "a lookahead (?="),
                Arguments.of("^(?<file>\\S+)(?!x)", "a negative lookahead (?!"),
                Arguments.of("(?<=\\[)(?<file>[^\\]]+)", "a lookbehind (?<="),
                Arguments.of("(?<!x)(?<file>\\S+)", "a lookbehind (?<!"),
                Arguments.of("^(\"?)(?<file>[^\"]+)\\1", "a backreference \\1"),
                Arguments.of("^(?<file>a*+)", "a possessive quantifier *+"),
                Arguments.of("^(?>(?<file>\\S+))", "an atomic group (?>"));
    }

    @Test
    void theRulesThatStalledOnCraftedSubjectsNowRunInLinearTime() {
        String releaseCounterFile =
                "(?i)^(?<release>.+?)\\s*-?\\s*[\\[\\(\\{]\\s*(?<fileno>\\d+)\\s*/\\s*(?<files>\\d+)\\s*[\\]\\)\\}]"
                        + "\\s*[-:]?\\s*\"(?<file>[^\"]+)\"\\s*(?:(?:yEnc\\s*)?[\\(\\[\\{]\\s*(?<part>\\d+)\\s*/\\s*(?<total>\\d+)\\s*[\\)\\]\\}]|yEnc)\\s*$";
        RuleSet rules = RuleSet.parse(1, oneRule("release-counter-file", releaseCounterFile));
        SubjectMatch stall = rules.match(GROUP, POSTER, "x" + " ".repeat(800) + "yEnc (1/7)");
        assertThat(((SubjectMatch.Matched) stall).ruleName())
                .as("the rule cannot match; the parser reads it")
                .isEqualTo(SubjectParser.RULE_NAME);
        assertThat(matched(stall).fileName()).isEqualTo("x");
        SubjectMatch real = rules.match(GROUP, POSTER, "Release.Name - [03/15] - \"file.r01\" yEnc (12/50)");
        assertThat(((SubjectMatch.Matched) real).ruleName()).isEqualTo("release-counter-file");
        assertThat(matched(real).releaseName()).isEqualTo("Release.Name");
    }

    private static String oneRule(String name, String regex) {
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        var doc = mapper.createObjectNode();
        doc.put("name", name);
        var group = doc.putArray("groups").addObject();
        group.put("pattern", "*");
        group.putArray("rules").addObject().put("name", name).put("regex", regex);
        return doc.toString();
    }

    @Test
    void ruleWithoutFileGroupAndMalformedDocumentsAreRejected() {
        assertThatThrownBy(() -> RuleSet.parse(
                        1, "{\"groups\": [{\"pattern\": \"*\", \"rules\": [{\"name\": \"n\", \"regex\": \"^x$\"}]}]}"))
                .isInstanceOf(RuleSetException.class)
                .hasMessageContaining("rule #0 ('n')")
                .hasMessageContaining("(?<file>");
        assertThatThrownBy(() -> RuleSet.parse(1, "{\"groups\": [{\"pattern\": \"*\", \"rulez\": []}]}"))
                .isInstanceOf(RuleSetException.class)
                .hasMessageContaining("rulez");
        assertThatThrownBy(() -> RuleSet.parse(1, "not json")).isInstanceOf(RuleSetException.class);
    }

    private static ParsedSubject matched(SubjectMatch m) {
        assertThat(m).isInstanceOf(SubjectMatch.Matched.class);
        return ((SubjectMatch.Matched) m).subject();
    }
}
