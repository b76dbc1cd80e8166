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
        assertThat(ReleaseNameParser.parse("20-1.2014.S02E01.720p.HDTV.x264-CROOKS")
                        .title())
                .isEqualTo("20-1 2014");
        assertThat(ReleaseNameParser.parse("abc-").title()).isEqualTo("abc");
        assertThat(ReleaseNameParser.parse("abc-def.").title()).isEqualTo("abc-def");
    }

    @Test
    void germanDubbingTagsEndAMovieTitle() {
        assertThat(ReleaseNameParser.parse("Das.Appartement.German.AC3D.DL.720p.BluRay.x264-TVP")
                        .title())
                .isEqualTo("Das Appartement");
        assertThat(ReleaseNameParser.parse("Ein.Film.German.LD.720p.HDTV.x264-GRP")
                        .title())
                .isEqualTo("Ein Film");
        // a language word followed by a title word stays the title's
        assertThat(ReleaseNameParser.parse("German.Shepherd.Stories.720p.WEB.x264-GRP")
                        .title())
                .isEqualTo("German Shepherd Stories");
    }

    @Test
    void aLanguageStatedAgainAfterTheYearIsTheTitlesWord() {
        ReleaseAttributes a = ReleaseNameParser.parse("The.Good.German.2006.GERMAN.720p.HDTV.x264-RLsGrp");
        assertThat(a.title()).isEqualTo("The Good German");
        assertThat(a.year()).isEqualTo(2006);
        assertThat(ReleaseNameParser.parse("Das.Boot.German.1981.DL.1080p.BluRay.x264-GRP")
                        .title())
                .isEqualTo("Das Boot");
    }

    @Test
    void aThreeDFormatBeforeTheYearIsAnEdition() {
        assertThat(ReleaseNameParser.parse(
                                "Marvels.The.Avengers.2.Age.of.Ultron.3D.HSBS.2015.German.DTSD.7.1.DL.1080p.BluRay.x264-fzn")
                        .title())
                .isEqualTo("Marvels The Avengers 2 Age of Ultron");
        assertThat(ReleaseNameParser.parse("Some.Movie.3D.SBS.2012.1080p.BluRay.x264-GRP")
                        .title())
                .isEqualTo("Some Movie");
        // 3D with no format after it can be the title's (Step Up 3D)
        assertThat(ReleaseNameParser.parse("Step.Up.3D.2010.1080p.BluRay.x264-GRP")
                        .title())
                .isEqualTo("Step Up 3D");
    }

    @Test
    void sceneTagsAndGluedSourcesEndATitle() {
        assertThat(ReleaseNameParser.parse("The.Movie.CONVERT.720p.HDTV.x264-C4TV")
                        .title())
                .isEqualTo("The Movie");
        assertThat(ReleaseNameParser.parse("Name.BDRipMux.720p").title()).isEqualTo("Name");
        assertThat(ReleaseNameParser.parse("Title.WEB-DLRip.2015").title()).isEqualTo("Title");
        // a word that merely begins like a source is the title's
        assertThat(ReleaseNameParser.parse("Hdtvs.Story.2014.720p").title()).isEqualTo("Hdtvs Story");
    }

    @Test
    void anEditionWordInBracketsEndsATvTitle() {
        ReleaseAttributes a = ReleaseNameParser.parse("You.[Uncut].S01.SweSub.1080p.x264-Justiso");
        assertThat(a.title()).isEqualTo("You");
        assertThat(a.season()).isEqualTo(1);
        assertThat(ReleaseNameParser.parse("Show.(Minisodes).S01E01.720p-GRP").title())
                .isEqualTo("Show (Minisodes)");
        assertThat(ReleaseNameParser.parse("The.Cut.S01E01.720p-GRP").title()).isEqualTo("The Cut");
    }

    @Test
    void aSeasonsDiscIsThatSeasonsPack() {
        ReleaseAttributes a = ReleaseNameParser.parse("Greys.Anatomy.S07D1.NTSC.DVDR-ToF");
        assertThat(a.title()).isEqualTo("Greys Anatomy");
        assertThat(a.season()).isEqualTo(7);
        assertThat(a.episode()).isNull();
        assertThat(a.kind()).isEqualTo(EpisodeKind.PACK);
        assertThat(ReleaseNameParser.parse("Show.S1D12.DVDR").season()).isEqualTo(1);
        // a disc needs its number
        assertThat(ReleaseNameParser.parse("Show.S01Dx.DVDR").season()).isNull();
    }

    @Test
    void anOriginalTitleInBracketsWinsOverLocalOnesBeforeIt() {
        ReleaseAttributes a = ReleaseNameParser.parse(
                "[\u7570\u57df\u5b57\u5e55\u7d44][\u6f06\u9ed1\u7684\u5b50\u5f48][Black Bullet][11][1280x720]");
        assertThat(a.title()).isEqualTo("Black Bullet");
        assertThat(a.episode()).isEqualTo("11");
        // no original before the episode's number: the local title stays
        assertThat(ReleaseNameParser.parse("[Group][\u8fdb\u51fb\u7684\u5de8\u4eba][01][1080p][BIG5 Subs]")
                        .title())
                .isEqualTo("\u8fdb\u51fb\u7684\u5de8\u4eba");
        assertThat(ReleaseNameParser.parse("[Group][Title][01][DVDRip]").title())
                .isEqualTo("Title");
    }
}
