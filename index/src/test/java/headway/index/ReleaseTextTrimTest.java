package headway.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the last pass cuts from a post's release, and what it must leave alone. */
class ReleaseTextTrimTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                // banners apart from the name
                "=  SOMEONE POST  =-: Some Show S01E01 720p | Some Show S01E01 720p",
                "=-= SOMEONE POST =-= Some Show S01E01 720p =-= | Some Show S01E01 720p",
                "=-= Some Show S01E01 =-= | Some Show S01E01",
                "*** Some.Movie.2019.1080p.BluRay.x264-GRP *** | Some.Movie.2019.1080p.BluRay.x264-GRP",
                // credits and what follows them
                "Some.Show.S01E01.720p.WEB.h264-GRP uploaded by someone for you | Some.Show.S01E01.720p.WEB.h264-GRP",
                "Some Show S01E01 720p reposted by Someone - thanks | Some Show S01E01 720p",
                // a tag glued to the group
                "Some.Show.S01E01.720p.WEB.h264-GRP[rarbg] | Some.Show.S01E01.720p.WEB.h264-GRP",
                "More.Bla.S02E01.1080p.WEB.h264-EDITH[eztv.re] | More.Bla.S02E01.1080p.WEB.h264-EDITH",
                // base64 of a scene name
                "U29tZS5Nb3ZpZS4yMDE5LjEwODBwLkJsdVJheS54MjY0LUdSUA== | Some.Movie.2019.1080p.BluRay.x264-GRP",
                // left alone: names as posted
                "=HDvisUalS=BD25.Saw.2004.1080p.DTS.PASSWORDED | =HDvisUalS=BD25.Saw.2004.1080p.DTS.PASSWORDED",
                "Beauty.and.The.Beast.1991.DVDRip.XviD-Stealthmaster[25fps] | Beauty.and.The.Beast.1991.DVDRip.XviD-Stealthmaster[25fps]",
                "Bruce Springsteen - Greetings from Asbury Park | Bruce Springsteen - Greetings from Asbury Park",
                "Stand by Me 1986 | Stand by Me 1986",
                "#1 Hits of the 80s | #1 Hits of the 80s",
                "Learn C# | Learn C#",
                "Notepad++ 8.5 | Notepad++ 8.5",
                "Wilde, Lori - Zero Control [html] | Wilde, Lori - Zero Control [html]",
                "Artist - Album-Live[2CD] | Artist - Album-Live[2CD]",
                "1QZhYTfC | 1QZhYTfC",
                "bdc435cb-93c4-4902-97ea-ca00568c3887 | bdc435cb-93c4-4902-97ea-ca00568c3887",
            })
    void trims(String release, String expected) {
        assertThat(ReleaseTextTrim.trim(release)).isEqualTo(expected);
    }

    @Test
    void neverEmptiesARelease() {
        for (String r : new String[] {"=", "===", "== ==", "x uploaded by y", "-GRP[x]", "= : =", "*** ***"}) {
            assertThat(ReleaseTextTrim.trim(r)).as(r).isNotEmpty();
        }
    }

    @Test
    void anyTextOverAllOfUnicodeIsTrimmedToAPartOfItOrItsDecoding() {
        Random random = new Random(0x42_0005L);
        String shapes = "=~*#-+ :[]().-_abcXYZ019 uploaded by ";
        for (int i = 0; i < 100_000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = 1 + random.nextInt(80);
            for (int k = 0; k < n; k++) {
                int pick = random.nextInt(3);
                if (pick == 0) {
                    sb.appendCodePoint(random.nextInt(Character.MAX_CODE_POINT + 1));
                } else {
                    sb.append(shapes.charAt(random.nextInt(shapes.length())));
                }
            }
            String in = sb.toString();
            String out = ReleaseTextTrim.trim(in);
            assertThat(out).isNotEmpty();
            assertThat(in.contains(out) || PlainEncodings.decodedName(in) != null)
                    .as(in)
                    .isTrue();
        }
    }
}
