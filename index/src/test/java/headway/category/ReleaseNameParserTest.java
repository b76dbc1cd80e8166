package headway.category;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ReleaseNameParserTest {

    @Test
    void episode() {
        ReleaseAttributes a = ReleaseNameParser.parse("Series.Title.2010.S02E14.720p.HDTV.XviD-LOL");
        assertThat(a.title()).isEqualTo("Series Title 2010");
        assertThat(a.season()).isEqualTo(2);
        assertThat(a.episode()).isEqualTo("14");
        assertThat(a.year()).isEqualTo(2010);
        assertThat(a.resolution()).isEqualTo("720p");
        assertThat(a.tv()).isTrue();
    }

    @Test
    void aSitePrefixWithADottedCapitalIIsSkippedWhole() {
        // offsets found in a lower-cased copy ran one past per U+0130, whose lower case is two characters
        assertThat(ReleaseNameParser.parse("www.\u0130\u0130\u0130 - x").title())
                .isEqualTo("x");
        ReleaseAttributes a = ReleaseNameParser.parse("www.\u0130\u0130.org - Show.S01E01");
        assertThat(a.title()).isEqualTo("Show");
        assertThat(a.season()).isEqualTo(1);
        assertThat(ReleaseNameParser.parse("WWW.Site.Org - Movie.2015.1080p").title())
                .isEqualTo("Movie");
    }

    @Test
    void lettersPastTheBasicPlaneAreLettersOfTheTitle() {
        // read as two characters that are not letters, they split words: the year became the title
        ReleaseAttributes cjk = ReleaseNameParser.parse("\uD840\uDC00\uD840\uDC01.2019.1080p.WEB-DL.x264-GRP");
        assertThat(cjk.title()).isEqualTo("\uD840\uDC00\uD840\uDC01");
        assertThat(cjk.year()).isEqualTo(2019);
        assertThat(ReleaseNameParser.parse("\uD801\uDC00\uD801\uDC01.S01E01.720p-GRP")
                        .title())
                .isEqualTo("\uD801\uDC00\uD801\uDC01");
        assertThat(ReleaseNameParser.parse("\uD835\uDD38\uD835\uDD39.Show.S01E02.720p.HDTV-GRP")
                        .title())
                .isEqualTo("\uD835\uDD38\uD835\uDD39 Show");
    }

    @Test
    void dailyShowHasTheYearAsSeasonAndTheDateAsEpisode() {
        ReleaseAttributes a = ReleaseNameParser.parse("A.Late.Talk.Show.2010.10.11.Johnny.Knoxville.iTouch-MW");
        assertThat(a.title()).isEqualTo("A Late Talk Show");
        assertThat(a.season()).isEqualTo(2010);
        assertThat(a.episode()).isEqualTo("10-11");
        assertThat(a.daily()).isTrue();
        assertThat(a.episodeNumber()).isNull();
    }

    @Test
    void movieTitleEndsAtItsYearAndKeepsAcronyms() {
        ReleaseAttributes a = ReleaseNameParser.parse("The.Movie.from.U.N.C.L.E.2015.2160p.BluRay.x264-SPARKS");
        assertThat(a.title()).isEqualTo("The Movie from U.N.C.L.E.");
        assertThat(a.year()).isEqualTo(2015);
        assertThat(a.resolution()).isEqualTo("2160p");
        assertThat(a.season()).isNull();
        assertThat(a.tv()).isFalse();
    }

    @Test
    void animeAbsoluteEpisode() {
        ReleaseAttributes a = ReleaseNameParser.parse("[HorribleSubs] Some Anime Show - 13 [1080p].mkv");
        assertThat(a.title()).isEqualTo("Some Anime Show");
        assertThat(a.episode()).isEqualTo("13");
        assertThat(a.season()).isNull();
        assertThat(a.anime()).isTrue();
    }

    /** Fansub forms of anitopy's table (release-names-sample7.tsv): a version apart, a hash, brackets throughout, a dot after. */
    @Test
    void animeNumbersInEveryFansubForm() {
        String[][] cases = {
            {"[Chihiro]_Kono_Aozora_ni_Yakusoku_Wo_10_v2_[DVD][h264][C83D206B]", "Kono Aozora ni Yakusoku Wo", "10"},
            {
                "[DmonHiro] Oreshura #01v2 - The Start Of High School Life Is A War Zone [BD, 720p] [211375E6]",
                "Oreshura",
                "1"
            },
            {"[FuktLogik][Sayonara_Zetsubou_Sensei][01][DVDRip][x264_AC3]", "Sayonara Zetsubou Sensei", "1"},
            {"Magical Girl Lyrical Nanoha A's - 01.DVD[H264.AAC][DGz][7A8A7769]", "Magical Girl Lyrical Nanoha A's", "1"
            },
            {"Tsuredure Children Episódio 1 – Confession", "Tsuredure Children", "1"},
        };
        for (String[] c : cases) {
            ReleaseAttributes a = ReleaseNameParser.parse(c[0]);
            assertThat(a.title()).as(c[0]).isEqualToIgnoringCase(c[1]);
            assertThat(a.episode()).as(c[0]).isEqualTo(c[2]);
            assertThat(a.season()).as(c[0]).isNull();
        }
        // a number between brackets is an episode only after a fansub's tag, and a plain name keeps its number
        assertThat(ReleaseNameParser.parse("Some Film [2] [1080p]").episode()).isNull();
        assertThat(ReleaseNameParser.parse("Title - 2010.Album").episode()).isNull();
    }

    @Test
    void aBareNumberBeforeABroadcastSourceIsAnEpisode() {
        ReleaseAttributes a = ReleaseNameParser.parse("Some.Show.05.PDTV.XviD-GRP");
        assertThat(a.title()).isEqualTo("Some Show");
        assertThat(a.episode()).isEqualTo("5");
        assertThat(a.season()).isNull();
        assertThat(a.tv()).isTrue();
        ReleaseAttributes film = ReleaseNameParser.parse("Some.Film.2.2011.DVDRip.XviD-GRP");
        assertThat(film.tv()).isFalse();
        assertThat(film.title()).isEqualTo("Some Film 2");
    }

    @Test
    void seasonWordsOfOtherLanguages() {
        ReleaseAttributes a = ReleaseNameParser.parse("Some.Show.Seizoen.3.1080p.WEB.x264-GRP");
        assertThat(a.title()).isEqualTo("Some Show");
        assertThat(a.season()).isEqualTo(3);
        assertThat(a.episode()).isNull();
        assertThat(a.tv()).isTrue();
        assertThat(ReleaseNameParser.parse("Some.Show.Sezon.2.720p.HDTV.x264-GRP")
                        .season())
                .isEqualTo(2);
    }

    @Test
    void pluralSeasonWordNumbersAPackByItsFirstSeason() {
        ReleaseAttributes a = ReleaseNameParser.parse("Some.Show.Seasons.01-04.AMZN.1080p.10bit.x265-GRP");
        assertThat(a.title()).isEqualTo("Some Show");
        assertThat(a.season()).isEqualTo(1);
        assertThat(a.episode()).isNull();
        assertThat(a.tv()).isTrue();
        assertThat(ReleaseNameParser.parse("Some.Show.Saisons.2-3.FRENCH.720p.HDTV.x264-GRP")
                        .season())
                .isEqualTo(2);
    }

    @Test
    void partNOfMIsAnEpisode() {
        ReleaseAttributes a = ReleaseNameParser.parse("Some.Documentary.3of6.720p.HDTV.x264-GRP");
        assertThat(a.title()).isEqualTo("Some Documentary");
        assertThat(a.season()).isNull();
        assertThat(a.episode()).isEqualTo("3");
        assertThat(a.tv()).isTrue();
        assertThat(ReleaseNameParser.parse("Some.Show.01of12.Title.x264.AAC-GRP")
                        .episode())
                .isEqualTo("1");
        assertThat(ReleaseNameParser.parse("Some.Film.7of3.2010.1080p.BluRay.x264-GRP")
                        .tv())
                .isFalse();
    }

    @Test
    void hashedNamesHaveNoAttributes() {
        ReleaseAttributes a =
                ReleaseNameParser.parse("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assertThat(a.hashed()).isTrue();
        assertThat(a.title()).isNull();
    }

    @Test
    void emptyAndNullNames() {
        assertThat(ReleaseNameParser.parse("").title()).isNull();
        assertThat(ReleaseNameParser.parse(null).resolution()).isNull();
    }

    /** name, title, season, episode, kind, last episode: the shapes clients search by (issue 42). */
    private static final String[][] SHAPES = {
        {"Show.2015.0308.720p.HDTV.x264-GRP", "Show", "2015", "03-08", "DAILY", null},
        {"Show.140722.720p.HDTV.x264-GRP", "Show", "2014", "07-22", "DAILY", null},
        {"Show 5th Mar 2025 720p WEB h264-GRP", "Show", "2025", "03-05", "DAILY", null},
        {"Show 10th Mar 2026 1080p WEB h264-GRP", "Show", "2026", "03-10", "DAILY", null},
        {"Show 2015 02 09 WEBRIP x264-GRP", "Show", "2015", "02-09", "DAILY", null},
        {"Show.15.03.08.720p.HDTV.x264-GRP", "Show", "2015", "03-08", "DAILY", null},
        {"Show.March.8.2015.720p.HDTV.x264-GRP", "Show", "2015", "03-08", "DAILY", null},
        {"Show.8.Maart.2015.720p.HDTV.x264-GRP", "Show", "2015", "03-08", "DAILY", null},
        {"[Group] Show - 12 [720p]", "Show", null, "12", "ABSOLUTE", null},
        {"Show.E1135.GERMAN.720p.WEB.x264-GRP", "Show", null, "1135", "ABSOLUTE", null},
        {"Series.Title.S02E06E07.720p.HDTV.x264-GRP", "Series Title", "2", "6", "MULTI", "7"},
        {"Series.Title.S02E06-E07.720p.HDTV.x264-GRP", "Series Title", "2", "6", "MULTI", "7"},
        {"Series.Title.2x06-2x07.720p.HDTV.x264-GRP", "Series Title", "2", "6", "MULTI", "7"},
        {"Series.Title.S01E01-03.720p.HDTV.x264-GRP", "Series Title", "1", "1", "MULTI", "3"},
        {"Show - Road to X Part01 720p", "Show - Road to X", null, "1", "PART", null},
        {"Show.Part.Two.720p.WEB.x264-GRP", "Show", null, "2", "PART", null},
        {"Show.Pt.II.720p.WEB.x264-GRP", "Show", null, "2", "PART", null},
        {"Series.Title.S01.1080p.BluRay.x264-GRP", "Series Title", "1", null, "PACK", null},
        {"Series.Title.Season.1.1080p.BluRay.x264-GRP", "Series Title", "1", null, "PACK", null},
        {"Series.Title.S01-S03.1080p.BluRay.x264-GRP", "Series Title", "1", null, "PACK", "3"},
        {"Series.Title.S02-04.720p.WEB-DL-GRP", "Series Title", "2", null, "PACK", "4"},
        {"Series Title Season 4-5 720p WEB-DL-GRP", "Series Title", "4", null, "PACK", "5"},
        {"Series.Title.Seasons.01-04.AMZN.1080p-GRP", "Series Title", "1", null, "PACK", "4"},
        {"Series.Title.S03-S01.1080p.BluRay.x264-GRP", "Series Title", "3", null, "PACK", null},
        {"Series.Title.Complete.Series.1080p.BluRay.x264-GRP", "Series Title", null, null, "PACK", null},
        {"Series Title - The Complete Series 720p WEB-DL-GRP", "Series Title", null, null, "PACK", null},
        {"Series.Title.Season.1-2010.1080p.BluRay.x264-GRP", "Series Title", "1", null, "PACK", null},
        {"Series.Title.S00E05.720p.HDTV.x264-GRP", "Series Title", "0", "5", "SPECIAL", null},
        {"Series.Title.S01E05.720p.HDTV.x264-GRP", "Series Title", "1", "5", "STANDARD", null},
    };

    @Test
    void everyShapeAClientSearchesByIsReadWithItsKind() {
        for (String[] row : SHAPES) {
            ReleaseAttributes a = ReleaseNameParser.parse(row[0]);
            assertThat(a.title()).as(row[0]).isEqualTo(row[1]);
            assertThat(a.season()).as(row[0]).isEqualTo(row[2] == null ? null : Integer.valueOf(row[2]));
            assertThat(a.episode()).as(row[0]).isEqualTo(row[3]);
            assertThat(a.kind()).as(row[0]).isEqualTo(EpisodeKind.valueOf(row[4]));
            assertThat(a.lastEpisode()).as(row[0]).isEqualTo(row[5] == null ? null : Integer.valueOf(row[5]));
        }
    }

    /** The forms sample 9 taught (docs/corpus.md), and the names each must leave alone. */
    @Test
    void episodesWrittenAfterASeasonWordAndOtherSample9Forms() {
        String[][] read = {
            {"Show - Season 3, Episode 2", "3", "2"},
            {"Show - Season2 Episode2", "2", "2"},
            {"Show - Series 2, Episode 2", "2", "2"},
            {"Show - Series4 Episode2", "4", "2"},
            {"Show Season 2 2of12", "2", "2"},
            {"Show Season 2, 2 of 12", "2", "2"},
            {"Show.Season.3.Part.IV", "3", "4"},
            {"Show - Ep VIII", null, "8"},
            {"Show 63 [560D3414]", null, "63"},
            {"Show.01e02", "1", "2"},
            {"Show.0706.720p-GRP", "7", "6"},
        };
        for (String[] r : read) {
            ReleaseAttributes a = ReleaseNameParser.parse(r[0]);
            assertThat(a.title()).as(r[0]).isEqualTo("Show");
            assertThat(a.season()).as(r[0]).isEqualTo(r[1] == null ? null : Integer.valueOf(r[1]));
            assertThat(a.episode()).as(r[0]).isEqualTo(r[2]);
        }
        assertThat(ReleaseNameParser.parse("[720p]Show.S01E01.HDTV.x264-GRP").resolution())
                .isEqualTo("720p");
        ReleaseAttributes film = ReleaseNameParser.parse("Star.Wars.Episode.IV.A.New.Hope.1977.1080p.BluRay.x264-GRP");
        assertThat(film.tv()).isFalse();
        assertThat(film.year()).isEqualTo(1977);
        ReleaseAttributes titled = ReleaseNameParser.parse("The.Series.2.Movie.2010.1080p.BluRay.x264-GRP");
        assertThat(titled.season())
                .as("Series 2 without an episode is no season")
                .isNull();
    }

    @Test
    void aFilmInPartsKeepsItsPartAndNoDateIsReadFromAnInvalidDay() {
        ReleaseAttributes film = ReleaseNameParser.parse("Movie.Name.Part.2.2011.1080p.BluRay.x264-GRP");
        assertThat(film.tv()).isFalse();
        assertThat(film.title()).isEqualTo("Movie Name Part 2");
        assertThat(film.kind()).isEqualTo(EpisodeKind.NONE);
        assertThat(ReleaseNameParser.parse("Show.141322.720p.HDTV.x264-GRP").kind())
                .as("month 13")
                .isNotEqualTo(EpisodeKind.DAILY);
        assertThat(ReleaseNameParser.parse("Show 32nd Mar 2025 720p WEB h264-GRP")
                        .kind())
                .isNotEqualTo(EpisodeKind.DAILY);
    }

    @Test
    void turkishOrdinalsPutTheNumberBeforeTheWord() {
        ReleaseAttributes a = ReleaseNameParser.parse("Turkish show 60.Bolum (31.01.2023) 720p WebDL AAC H.264 - TURG");
        assertThat(a.title()).isEqualTo("Turkish show");
        assertThat(a.season()).isNull();
        assertThat(a.episode()).isEqualTo("60");
        ReleaseAttributes b =
                ReleaseNameParser.parse("The.White.Lotus.2.Sezon.7.B\u00f6l\u00fcm.2021.1080p.WEB-DL-TURG");
        assertThat(b.title()).isEqualTo("The White Lotus");
        assertThat(b.season()).isEqualTo(2);
        assertThat(b.episode()).isEqualTo("7");
        // Polish writes the number after the word: Sezon 3 stays season 3
        assertThat(ReleaseNameParser.parse("Show.Sezon.3.720p.WEB-DL-GRP").season())
                .isEqualTo(3);
    }

    @Test
    void aChapterNumberInsideASeasonPackNamesTheEpisode() {
        ReleaseAttributes a =
                ReleaseNameParser.parse("Show.Name.-.Temporada.15.720p.HDTV.x264[Cap.1503]SPANISH.AUDIO-NEWPCT");
        assertThat(a.title()).isEqualTo("Show Name");
        assertThat(a.season()).isEqualTo(15);
        assertThat(a.episode()).isEqualTo("3");
        assertThat(ReleaseNameParser.parse("Show.Name.-.Tem.1.720p.HDTV.x264[Cap.102]SPANISH-NEWPCT")
                        .title())
                .isEqualTo("Show Name");
        assertThat(ReleaseNameParser.parse("Show.Name.-.Temporada.2.720p.HDTV-NEWPCT")
                        .episode())
                .isNull();
    }

    @Test
    void aDashedNumberAfterASeasonWordIsItsEpisode() {
        ReleaseAttributes a = ReleaseNameParser.parse("[Group] Anime (Season 2) - 33 (1280x720) [42A12A76]");
        assertThat(a.season()).isEqualTo(2);
        assertThat(a.episode()).isEqualTo("33");
        ReleaseAttributes dotted = ReleaseNameParser.parse("[Group].Show.Name.S2.-.19.[1080p]");
        assertThat(dotted.season()).isEqualTo(2);
        assertThat(dotted.episode()).isEqualTo("19");
        // a glued range is a pack of seasons, and Sonarr reads "S2 - 07" as a title's word and an absolute number
        assertThat(ReleaseNameParser.parse("Show.S01-03.720p.BluRay-GRP").episode())
                .isNull();
        ReleaseAttributes spaced = ReleaseNameParser.parse("[HorribleSubs] Series Title S2 - 07 [720p]");
        assertThat(spaced.title()).isEqualTo("Series Title S2");
        assertThat(spaced.episode()).isEqualTo("7");
    }

    @Test
    void aSeasonCrossEpisodeIsAnEpisode() {
        ReleaseAttributes a = ReleaseNameParser.parse("seriesname S01xE02 blah");
        assertThat(a.title()).isEqualTo("seriesname");
        assertThat(a.season()).isEqualTo(1);
        assertThat(a.episode()).isEqualTo("2");
        assertThat(ReleaseNameParser.parse("Foo s01x01").episode()).isEqualTo("1");
    }

    @Test
    void aBareNumberEndingANameOfWordsIsAnAbsoluteEpisode() {
        ReleaseAttributes a = ReleaseNameParser.parse("The Simpsons 112");
        assertThat(a.title()).isEqualTo("The Simpsons");
        assertThat(a.episode()).isEqualTo("112");
        assertThat(a.kind()).isEqualTo(EpisodeKind.ABSOLUTE);
        assertThat(ReleaseNameParser.parse("Some.Game.macOS.13").episode()).isNull();
        assertThat(ReleaseNameParser.parse("Apollo 13 1995 720p").episode()).isNull();
        assertThat(ReleaseNameParser.parse("Blade Runner 2049").episode()).isNull();
    }

    @Test
    void aFansubNumberGluedByADashBeforeABracketIsTheEpisode() {
        ReleaseAttributes a = ReleaseNameParser.parse("[YuS-SHS]Gintama-24(H264)_[52CA4F8B]");
        assertThat(a.title()).isEqualTo("Gintama");
        assertThat(a.episode()).isEqualTo("24");
    }

    @Test
    void aSubjectGivenAsANameIsReadAsThePostItNames() {
        ReleaseAttributes quoted = ReleaseNameParser.parse(
                "[02/13] - \"[AnimeRG] NANBAKA - 22 [720p] [English Dub] [ReleaseBitch].part01.rar\" - 143,85 MB");
        assertThat(quoted.title()).isEqualTo("NANBAKA");
        assertThat(quoted.episode()).isEqualTo("22");
        ReleaseAttributes text = ReleaseNameParser.parse(
                "[RamenSub] Dr. Slump - 02 [E623C2A6] [1/5] - \"[RamenSub] New Dr. Slump - 02 [E623C2A6].mkv\" Japanese");
        assertThat(text.title()).isEqualTo("Dr Slump");
        ReleaseAttributes nickname = ReleaseNameParser.parse("Movie \"Nickname\" 2010 720p BluRay-GRP");
        assertThat(nickname.title()).startsWith("Movie \"Nickname");
        assertThat(nickname.year()).isEqualTo(2010);
    }

    @Test
    void repeatedEpisodeMarkersAreNoObfuscation() {
        ReleaseAttributes a = ReleaseNameParser.parse("Scrubs s01e22 s01e23 s01e24");
        assertThat(a.hashed()).isFalse();
        assertThat(a.title()).isEqualTo("Scrubs");
        assertThat(a.episode()).isEqualTo("22");
        assertThat(Obfuscation.looksHashed("aB3cD4 x9Yz8W q1W2e3")).isTrue();
    }

    @Test
    void aRangeOfPartsNamesItsFirstAndLast() {
        ReleaseAttributes a = ReleaseNameParser.parse("Show.Name.Part.1.and.Part.2.Blah-Group");
        assertThat(a.title()).isEqualTo("Show Name");
        assertThat(a.episode()).isEqualTo("1");
        assertThat(a.lastEpisode()).isEqualTo(2);
        assertThat(ReleaseNameParser.parse("Scrubs part 1 to 4").lastEpisode()).isEqualTo(4);
        // a film in parts keeps its part in the title when its year follows
        assertThat(ReleaseNameParser.parse("Film.Part.1.and.Part.2.2010.1080p.BluRay-GRP")
                        .tv())
                .isFalse();
    }

    @Test
    void aRangeOfAWholeSeasonIsItsPack() {
        ReleaseAttributes pack =
                ReleaseNameParser.parse("Series Title / S1E1-8 of 8 [2024, WEB-DL 1080p] + Original + RUS");
        assertThat(pack.season()).isEqualTo(1);
        assertThat(pack.episode()).isNull();
        assertThat(pack.kind()).isEqualTo(EpisodeKind.PACK);
        ReleaseAttributes some = ReleaseNameParser.parse("Series Title / S2E1-4 of 10 (2023) WEB-DL 1080p");
        assertThat(some.episode()).isEqualTo("1");
        assertThat(some.lastEpisode()).isEqualTo(4);
    }

    @Test
    void aLocalTitleInAnotherScriptGivesWayToTheOriginal() {
        ReleaseAttributes a = ReleaseNameParser.parse(
                "\u0411\u043e\u0441\u0445: \u0421\u043f\u0430\u0434\u043e\u043a / Series: Legacy / S2E1 of 10 (2023) WEB-DL 1080p Ukr/Eng");
        assertThat(a.title()).startsWith("Series: Legacy");
        assertThat(a.season()).isEqualTo(2);
        // a Latin name keeps its slashes, and a name in one script alone stays whole
        assertThat(ReleaseNameParser.parse("AC/DC / Live 1992 FLAC").title()).startsWith("AC/DC");
        assertThat(ReleaseNameParser.parse("\u0411\u043e\u0441\u0445 S01E01 1080p")
                        .title())
                .isEqualTo("\u0411\u043e\u0441\u0445");
    }

    @Test
    void anyNameOverAllOfUnicodeAndTheNewFormsParsesToConsistentAttributes() {
        Random random = new Random(0x42_0011L);
        String[] shapes = {
            " ",
            ".",
            "-",
            " - ",
            " / ",
            "\"",
            "[1/5]",
            "(",
            ")",
            "[",
            "]",
            "B\u00f6l\u00fcm",
            "Blm",
            "Sezon",
            "Temporada",
            "Cap.",
            "Tem",
            "part",
            "and",
            "to",
            "of",
            "S2",
            "s01x",
            "xE",
            "e22",
            "Season",
            "1",
            "02",
            "112",
            "1001",
            "2049",
            ".rar",
            ".par2",
            ".part01",
            "Show",
            "\u0411\u043e\u0441\u0445",
            "1080p"
        };
        for (int i = 0; i < 50_000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = 1 + random.nextInt(24);
            for (int k = 0; k < n; k++) {
                if (random.nextInt(4) == 0) {
                    sb.appendCodePoint(random.nextInt(Character.MAX_CODE_POINT + 1));
                } else {
                    sb.append(shapes[random.nextInt(shapes.length)]);
                }
            }
            String name = sb.toString();
            ReleaseAttributes a = ReleaseNameParser.parse(name);
            if (a.episode() != null) {
                assertThat(a.episode()).as(name).matches("\\d+|\\d\\d-\\d\\d");
            }
            if (a.season() != null) {
                assertThat(a.season()).as(name).isNotNegative();
            }
            if (a.kind() == EpisodeKind.PACK) {
                assertThat(a.episode()).as(name).isNull();
            }
            if (a.lastEpisode() != null && a.episodeNumber() != null) {
                assertThat(a.lastEpisode()).as(name).isGreaterThan(a.episodeNumber());
            }
        }
    }
}
