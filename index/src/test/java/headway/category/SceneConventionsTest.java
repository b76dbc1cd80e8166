package headway.category;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The naming conventions of the fourth round (issue 42): each test states one, with the names it must not touch. */
class SceneConventionsTest {

    @Test
    void aLowerCaseSceneFileNameNamesItsGroupFirst() {
        ReleaseAttributes a = ReleaseNameParser.parse("blow-how.to.be.single.2016.1080p.bluray.x264");
        assertThat(a.title()).isEqualTo("how to be single");
        assertThat(a.year()).isEqualTo(2016);
        assertThat(a.resolution()).isEqualTo("1080p");
        assertThat(ReleaseNameParser.parse("ulshd-the.right.stuff.1983.multi.1080p.bluray.x264.mkv")
                        .title())
                .isEqualTo("the right stuff");
        ReleaseAttributes tv = ReleaseNameParser.parse("grp-the.show.s01e02.720p.hdtv.x264.mkv");
        assertThat(tv.title()).isEqualTo("the show");
        assertThat(tv.season()).isEqualTo(1);
        assertThat(tv.episode()).isEqualTo("2");
    }

    @Test
    void aHyphenatedTitleIsNoGroupPrefix() {
        assertThat(ReleaseNameParser.parse("Spider-Man.Homecoming.2017.1080p.BluRay.x264-SPARKS")
                        .title())
                .isEqualTo("Spider-Man Homecoming");
        assertThat(ReleaseNameParser.parse("spider-man.homecoming.2017.1080p.bluray.x264-sparks")
                        .title())
                .isEqualTo("spider-man homecoming");
        assertThat(ReleaseNameParser.parse("x-men.2000.1080p.bluray.x264").title())
                .isEqualTo("x-men");
        assertThat(ReleaseNameParser.parse("X-Men.Apocalypse.2016.720p.BluRay.x264-GRP")
                        .title())
                .isEqualTo("X-Men Apocalypse");
        assertThat(ReleaseNameParser.parse("Spider-Man 2002 1080p").title()).isEqualTo("Spider-Man");
        assertThat(ReleaseNameParser.parse("grp-zoo-s01e11e12-1080p").title()).isEqualTo("grp-zoo");
        assertThat(ReleaseNameParser.parse("20-1.2014.S02E01.720p.HDTV.x264-CROOKS").title())
                .isEqualTo("20-1 2014");
        assertThat(ReleaseNameParser.parse("abc-").title()).isEqualTo("abc");
        assertThat(ReleaseNameParser.parse("abc-def.").title()).isEqualTo("abc-def");
    }
}
