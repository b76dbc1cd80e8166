package headway.category;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The naming conventions of the fifth round (issue 42), read on torrent trackers' and fansubs' names: each test
 * states one, with the names it must not touch.
 */
class TrackerConventionsTest {

    @Test
    void russianTrackersWriteTheNumberBeforeItsWord() {
        ReleaseAttributes a = ReleaseNameParser.parse("Проклятие острова ОУК_ 5-й сезон 09-я серия_ Прорыв Дэна");
        assertThat(a.title()).isEqualTo("Проклятие острова ОУК");
        assertThat(a.season()).isEqualTo(5);
        assertThat(a.episode()).isEqualTo("9");
        ReleaseAttributes b =
                ReleaseNameParser.parse("Otchayannie.domochozyaiki.(8.sez.21.ser.iz.23).2012.XviD.HDTVRip");
        assertThat(b.title()).isEqualTo("Otchayannie domochozyaiki");
        assertThat(b.season()).isEqualTo(8);
        assertThat(b.episode()).isEqualTo("21");
        ReleaseAttributes c = ReleaseNameParser.parse("Show.Name.(2.sezon.12.serija.iz.12).2002.XviD.DVDRip");
        assertThat(c.season()).isEqualTo(2);
        assertThat(c.episode()).isEqualTo("12");
        // Turkish keeps its reading, Polish its word order
        ReleaseAttributes turkish = ReleaseNameParser.parse("Show 2. Sezon 7. Bölüm 720p");
        assertThat(turkish.season()).isEqualTo(2);
        assertThat(turkish.episode()).isEqualTo("7");
        ReleaseAttributes polish = ReleaseNameParser.parse("Show.Sezon.3.PL.720p.WEB-DL.x264");
        assertThat(polish.season()).isEqualTo(3);
        assertThat(polish.episode()).isNull();
        // "ser" is a word too: it names an episode only after a season's number
        ReleaseAttributes film = ReleaseNameParser.parse("Ser.o.no.ser.2012.720p.BluRay.x264-GRP");
        assertThat(film.title()).isEqualTo("Ser o no ser");
        assertThat(film.episode()).isNull();
        assertThat(film.year()).isEqualTo(2012);
    }

    @Test
    void cyrillicAndSpanishEpisodeWordsPrecedeTheirNumber() {
        ReleaseAttributes a =
                ReleaseNameParser.parse("Разрушители легенд. MythBusters. Сезон 15. Эпизод 09. Скрытая угроза (2015)");
        assertThat(a.title()).isEqualTo("Разрушители легенд MythBusters");
        assertThat(a.season()).isEqualTo(15);
        assertThat(a.episode()).isEqualTo("9");
        ReleaseAttributes b =
                ReleaseNameParser.parse("Викинги / Vikings / Сезон: 5 / Серии: 1 [2017, WEB-DL 1080p] MVO");
        assertThat(b.title()).isEqualTo("Vikings");
        assertThat(b.season()).isEqualTo(5);
        assertThat(b.episode()).isEqualTo("1");
        ReleaseAttributes c = ReleaseNameParser.parse("El Chema Temporada 1 Capitulo 25");
        assertThat(c.season()).isEqualTo(1);
        assertThat(c.episode()).isEqualTo("25");
    }

    @Test
    void anOrdinalBeforeASeasonWordIsTheSeason() {
        ReleaseAttributes a = ReleaseNameParser.parse("Ace of the Diamond: 2nd Season");
        assertThat(a.title()).isEqualTo("Ace of the Diamond");
        assertThat(a.season()).isEqualTo(2);
        assertThat(a.episode()).isNull();
        ReleaseAttributes b = ReleaseNameParser.parse("Kyoukai no Rinne (TV) 3rd Season - 23 [1080p]");
        assertThat(b.title()).isEqualTo("Kyoukai no Rinne (TV)");
        assertThat(b.season()).isEqualTo(3);
        assertThat(b.episode()).isEqualTo("23");
        assertThat(ReleaseNameParser.parse("Adventure Time 10 th season").season())
                .isEqualTo(10);
        for (String name : new String[] {
            "Teen Wolf - 04ª Temporada 720p", "Elementar 4º Temporada Dublado", "Vikings 4 Temporada 720p"
        }) {
            ReleaseAttributes r = ReleaseNameParser.parse(name);
            assertThat(r.season()).as(name).isEqualTo(4);
            assertThat(r.title()).as(name).doesNotContain("4").doesNotContainIgnoringCase("temporada");
        }
        // English needs the ordinal; a season word followed by its number keeps that number
        assertThat(ReleaseNameParser.parse("Catch 22 Season").season()).isNull();
        assertThat(ReleaseNameParser.parse("24 Season 1-8 Complete").season()).isEqualTo(1);
        assertThat(ReleaseNameParser.parse("24 Season 1-8 Complete").title()).isEqualTo("24");
        assertThat(ReleaseNameParser.parse("2nd Season").season()).isNull();
    }

    @Test
    void twoDigitsAfterADottedSeasonAreItsEpisode() {
        ReleaseAttributes a = ReleaseNameParser.parse("The.Witcher.S01.07.2019.Dub.AVC.ExKinoRay");
        assertThat(a.title()).isEqualTo("The Witcher");
        assertThat(a.season()).isEqualTo(1);
        assertThat(a.episode()).isEqualTo("7");
        assertThat(ReleaseNameParser.parse("Vikings.s02.09.AVC.tahiy").episode())
                .isEqualTo("9");
        // a size, a year, a bit depth or a spaced number is no episode
        assertThat(ReleaseNameParser.parse("Show.Name.S03.1.1TB.Proper.HDTV.x264")
                        .episode())
                .isNull();
        assertThat(ReleaseNameParser.parse("Show.S01.2019.720p.WEB.x264-GRP").episode())
                .isNull();
        assertThat(ReleaseNameParser.parse("Show.S02.10bit.x265").episode()).isNull();
        assertThat(ReleaseNameParser.parse("Series Title S01 04 (1080p BluRay x265 HEVC 10bit AAC 5.1 Vyndros)")
                        .episode())
                .isNull();
    }

    @Test
    void temporadaIsWrittenTWhereSeasonIsWrittenS() {
        ReleaseAttributes a = ReleaseNameParser.parse("My Little Pony - A Amizade é Mágica - T02E22");
        assertThat(a.title()).isEqualTo("My Little Pony - A Amizade é Mágica");
        assertThat(a.season()).isEqualTo(2);
        assertThat(a.episode()).isEqualTo("22");
        assertThat(ReleaseNameParser.parse("Serie ESP T01XE08").episode()).isEqualTo("8");
        // a title's own T-number stays: first word, no episode, or a film's name
        assertThat(ReleaseNameParser.parse("T2E1 - Something").season()).isNull();
        assertThat(ReleaseNameParser.parse("Show.T1000.720p").season()).isNull();
        assertThat(ReleaseNameParser.parse("Terminator.T2E.1991").season()).isNull();
    }

    @Test
    void polishAndRussianShortEpisodeWords() {
        ReleaseAttributes a = ReleaseNameParser.parse("Reset- odc. 10");
        assertThat(a.title()).isEqualTo("Reset");
        assertThat(a.episode()).isEqualTo("10");
        ReleaseAttributes b = ReleaseNameParser.parse("Prehistoric park.3iz6.Supercroc.DVDRip.Xvid");
        assertThat(b.title()).isEqualTo("Prehistoric park");
        assertThat(b.episode()).isEqualTo("3");
        // a part beyond the whole, or a word holding "iz", is no part
        assertThat(ReleaseNameParser.parse("Show.7iz6.DVDRip").episode()).isNull();
        assertThat(ReleaseNameParser.parse("Ibiza.2019.1080p").title()).isEqualTo("Ibiza");
    }

    @Test
    void aChineseFansubsFullWidthTagAndSeasonNoticeAreTheGroups() {
        ReleaseAttributes a = ReleaseNameParser.parse("【喵萌奶茶屋】★01月新番★[Rebirth][01][720p][简体][招募翻译]");
        assertThat(a.title()).isEqualTo("Rebirth");
        assertThat(a.episode()).isEqualTo("1");
        assertThat(a.resolution()).isEqualTo("720p");
        assertThat(ReleaseNameParser.parse("【Group】Title - 01 [720p]").title()).isEqualTo("Title");
        assertThat(ReleaseNameParser.fullWidthTag("【】x")).isEqualTo("【】x");
        assertThat(ReleaseNameParser.fullWidthTag("Title【Group】")).isEqualTo("Title【Group】");
        assertThat(ReleaseNameParser.fullWidthTag("【G】★only one star")).isEqualTo("[G]★only one star");
    }

    @Test
    void inANameInBracketsThroughoutTheTitleIsOneBracket() {
        ReleaseAttributes film = ReleaseNameParser.parse("[SweetSub][Mutafukaz / MFKZ][Movie][BDRip][1080P][AVC 8bit]");
        assertThat(film.title()).isEqualTo("Mutafukaz / MFKZ");
        ReleaseAttributes tv = ReleaseNameParser.parse("[GM-Team][国漫][绝代双骄][Legendary Twins][2022][08][HEVC][GB][4K]");
        assertThat(tv.title()).isEqualTo("Legendary Twins 2022");
        assertThat(tv.episode()).isEqualTo("8");
        // a name not in brackets throughout keeps its brackets' words
        assertThat(ReleaseNameParser.parse("You.[Uncut].S01.SweSub.1080p.x264-Justiso")
                        .title())
                .isEqualTo("You");
        assertThat(ReleaseNameParser.parse("[Group] Title [Special] - 01 [720p]")
                        .title())
                .startsWith("Title");
    }

    @Test
    void aSeasonDotEpisodeInBracketsAfterTheTitleIsTheEpisode() {
        ReleaseAttributes a = ReleaseNameParser.parse("Dragon Ball [5.134] Preliminary Peril");
        assertThat(a.title()).isEqualTo("Dragon Ball");
        assertThat(a.season()).isEqualTo(5);
        assertThat(a.episode()).isEqualTo("134");
        ReleaseAttributes b = ReleaseNameParser.parse("30 Rock [2.10] Episode 210");
        assertThat(b.season()).isEqualTo(2);
        assertThat(b.episode()).isEqualTo("10");
        // audio channels, aspect ratios, and brackets after a year or a quality word are no episodes
        for (String name : new String[] {
            "Movie [5.1] 1080p",
            "Show [7.1] 2019",
            "Film [2.35]",
            "Film [1.85] BluRay",
            "Film 2019 [3.10]",
            "Film 1080p [3.10]",
            "[7.1.7.5] Foo Bar"
        }) {
            assertThat(ReleaseNameParser.parse(name).season()).as(name).isNull();
        }
    }

    @Test
    void aTrackersDirectorCreditBeforeTheYearsBracketIsNoTitle() {
        ReleaseAttributes a = ReleaseNameParser.parse(
                "Американские животные / American Animals (Барт Лэйтон / Bart Layton) [2018, Великобритания, США, драма, BDRip] MVO");
        assertThat(a.title()).isEqualTo("American Animals");
        assertThat(a.year()).isEqualTo(2018);
        assertThat(ReleaseNameParser.parse("Греческая смоковница / The fruit is ripe / Griechische Feigen (Siggi Götz) "
                                + "[1976, Германия, Эротическая комедия, DVDRip]")
                        .title())
                .isEqualTo("The fruit is ripe / Griechische Feigen");
        // a parenthesis not before a year's list stays the title's
        assertThat(ReleaseNameParser.parse("Голубая волна / Blue Crush (Surf) [BDRip] 2002")
                        .title())
                .startsWith("Blue Crush (Surf");
    }

    @Test
    void aFansubsVersionTagAfterAnEpisodeWordIsNoPartOfItsNumber() {
        ReleaseAttributes a = ReleaseNameParser.parse("[Exiled-Destiny]_Tokyo_Underground_Ep02v2_(41858470)");
        assertThat(a.title()).isEqualTo("Tokyo Underground");
        assertThat(a.episode()).isEqualTo("2");
        assertThat(ReleaseNameParser.parse("Show.E05v2.720p").episode()).isEqualTo("5");
        assertThat(ReleaseNameParser.parse("Movie.Ev2.2019").episode()).isNull();
    }
}
