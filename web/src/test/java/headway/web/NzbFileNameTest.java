package headway.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The NZB's file name in {@code Content-Disposition}: distinct release names give distinct file
 * names, non-ASCII names survive in {@code filename*}, and no name yields a path, a control
 * character or a hidden file.
 */
class NzbFileNameTest {

    private static final Pattern DISPOSITION =
            Pattern.compile("attachment; filename=\"([^\"\\\\]*)\"; filename\\*=UTF-8''([A-Za-z0-9!#$&+\\-.^_`|~%]*)");

    /** The two file names a header carries: the ASCII fallback, and the UTF-8 one decoded. */
    private static String[] names(String releaseName) {
        String header = Newznab.contentDisposition(releaseName);
        Matcher m = DISPOSITION.matcher(header);
        assertThat(m.matches()).as(header).isTrue();
        String[] both = {m.group(1), URLDecoder.decode(m.group(2).replace("+", "%2B"), StandardCharsets.UTF_8)};
        assertThat(both[1]).as("the CLI's default file name").isEqualTo(NzbFileNames.of(releaseName));
        return both;
    }

    @Test
    void aPlainNameIsKeptAsItIs() {
        assertThat(names("Some.Show.S01E01.720p.WEB-GRP"))
                .containsExactly("Some.Show.S01E01.720p.WEB-GRP.nzb", "Some.Show.S01E01.720p.WEB-GRP.nzb");
        assertThat(names("Artist - Album (2001) [FLAC]"))
                .containsExactly("Artist - Album (2001) [FLAC].nzb", "Artist - Album (2001) [FLAC].nzb");
    }

    @Test
    void namesThatOnlyDifferInWhatIsReplacedStayDistinct() {
        String[] slash = names("a/b");
        String[] underscore = names("a_b");
        String[] colon = names("a:b");
        assertThat(underscore).containsExactly("a_b.nzb", "a_b.nzb");
        assertThat(slash[0]).matches("a_b~[0-9a-f]{12}\\.nzb").isNotEqualTo(colon[0]);
        assertThat(slash[1]).isEqualTo(slash[0]);
    }

    @Test
    void nonAsciiSurvivesInFilenameStarWithAnAsciiFallback() {
        String[] amelie = names("Le.Fabuleux.Destin.d.AMÉLIE.Poulain.2001");
        assertThat(amelie[1]).isEqualTo("Le.Fabuleux.Destin.d.AMÉLIE.Poulain.2001.nzb");
        assertThat(amelie[0]).matches("Le\\.Fabuleux\\.Destin\\.d\\.AM_LIE\\.Poulain\\.2001~[0-9a-f]{12}\\.nzb");
        assertThat(names("[SubsPlease] 進撃の巨人 - 01 (1080p)")[1]).isEqualTo("[SubsPlease] 進撃の巨人 - 01 (1080p).nzb");
        assertThat(names("Amélie")[1]).isEqualTo("Amélie.nzb");
        assertThat(names("Ame\u0301lie")[1]).as("composed (NFC), with its hash").matches("Amélie~[0-9a-f]{12}\\.nzb");
    }

    @Test
    void noNameMakesAPathAHiddenFileOrAnEmptyName() {
        assertThat(names("../../etc/passwd")[1]).startsWith("_._.._etc_passwd~").doesNotContain("/");
        assertThat(names(".hidden")[1]).startsWith("_hidden~");
        assertThat(names("")[1]).matches("release~[0-9a-f]{12}\\.nzb");
        assertThat(names("evil\u202Egpj.exe")[1])
                .as("no right-to-left override")
                .startsWith("evil_gpj.exe~");
        String longName = "x".repeat(1000);
        assertThat(names(longName)[1]).matches("x{200}~[0-9a-f]{12}\\.nzb");
        assertThat(names("日本語".repeat(100))[1].getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                .as("bounded in bytes, for file systems")
                .isLessThanOrEqualTo(255);
        assertThat(names("Ame\u0301lie")[1])
                .as("a name NFC changes is a changed name: it keeps its hash apart from the NFC one")
                .isNotEqualTo(names("Amélie")[1]);
        assertThat(names(longName)[1]).isNotEqualTo(names(longName + "y")[1]);
        assertThat(names("\uD86C")[1])
                .as("a lone surrogate is not a question mark: UTF-8 would make both '?' (seed -6288782773800542019)")
                .isNotEqualTo(names("?")[1])
                .isNotEqualTo(names("\uDC00")[1]);
    }

    /** Random names over all of Unicode: both file names are distinct for distinct names, and safe. */
    @Test
    void distinctNamesGiveDistinctSafeFileNames() {
        long seed = Seeds.next();
        Random r = new Random(seed);
        Map<String, String> byUnicode = new HashMap<>();
        Map<String, String> byAscii = new HashMap<>();
        String alphabet = "ab_/: .-\u00e9\u0301~%\"\\\u0000\n";
        for (int n = 0; n < 20_000; n++) {
            StringBuilder name = new StringBuilder();
            int length = r.nextInt(8);
            for (int i = 0; i < length; i++) {
                if (r.nextInt(5) == 0) {
                    name.appendCodePoint(r.nextInt(Character.MAX_CODE_POINT + 1));
                } else {
                    name.append(alphabet.charAt(r.nextInt(alphabet.length())));
                }
            }
            String release = name.toString();
            String[] files = names(release);
            String what = Seeds.describe(seed) + ", name "
                    + release.codePoints().boxed().toList();
            for (String file : files) {
                assertThat(file)
                        .as(what)
                        .doesNotContain("/", "\\", "\"")
                        .doesNotStartWith(".")
                        .endsWith(".nzb");
                assertThat(file.codePoints().noneMatch(Character::isISOControl))
                        .as(what)
                        .isTrue();
            }
            assertThat(files[0].chars().allMatch(c -> c >= 0x20 && c < 0x7F))
                    .as(what)
                    .isTrue();
            String before = byUnicode.putIfAbsent(files[1], release);
            assertThat(before == null || before.equals(release))
                    .as(what + " and " + before)
                    .isTrue();
            before = byAscii.putIfAbsent(files[0], release);
            assertThat(before == null || before.equals(release))
                    .as(what + " and " + before)
                    .isTrue();
        }
    }
}
