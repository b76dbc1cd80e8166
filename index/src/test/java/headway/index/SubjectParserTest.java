package headway.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The parser on one real subject per form it reads (each from the corpus, headway/index/subjects.tsv,
 * which names its source), on the traps, and on crafted subjects built to stall a backtracking
 * matcher: those assert what comes out, not how long it takes (the time is measured by
 * {@code headway bench subjects}).
 */
class SubjectParserTest {

    private static final RuleSet DEFAULTS = RuleSet.defaults(0);
    private static final String GROUP = "alt.binaries.test";
    private static final String POSTER = "poster <p@example.com>";

    /** subject, file, file counter, article counter, release ("" when absent). */
    static Stream<Arguments> forms() {
        return Stream.of(
                // article counters: (k/N), glued, zero-padded, doubled, before Nyuu's byte count; yEnc missing,
                // doubled, lower case
                form(
                        "\"ubuntu-12.04-desktop-i386.r00\" yEnc (1/59)",
                        "ubuntu-12.04-desktop-i386.r00",
                        "",
                        "1/59",
                        "ubuntu-12.04-desktop-i386"),
                form(
                        "[02/11] - \"Some.Show.S01E18.Terminal.EAC3.2.0.1080p.WEBRip.x265-iVy.part1.rar\" yEnc(1/144)",
                        "Some.Show.S01E18.Terminal.EAC3.2.0.1080p.WEBRip.x265-iVy.part1.rar",
                        "2/11",
                        "1/144",
                        "Some.Show.S01E18.Terminal.EAC3.2.0.1080p.WEBRip.x265-iVy"),
                form(
                        "Re: [147053]-[FULL]-[#a.b.teevee]-[ Top_Gear.20x04.HDTV_x264-FoV ]-[11/59] - \"top_gear.20x04.hdtv_x264-fov.r00\" yEnc (01/20)",
                        "top_gear.20x04.hdtv_x264-fov.r00",
                        "11/59",
                        "1/20",
                        "Top_Gear.20x04.HDTV_x264-FoV"),
                form("63258-0[001/101] - \"63258-2.0\" yEnc (1/250) (1/250)", "63258-2.0", "1/101", "1/250", "63258-0"),
                form(
                        "reftestnzb bf1664007a71 [1/6] - \"20b9152c-57eb-4d02-9586-66e30b8e3ac2\" yEnc (1/22) 15728640",
                        "20b9152c-57eb-4d02-9586-66e30b8e3ac2",
                        "1/6",
                        "1/22",
                        "reftestnzb bf1664007a71"),
                form(
                        "Any.Show.2024.S01E01.Die.verborgene.Hand.GERMAN.5.1.DL.EAC3.2160p.WEB-DL.DV.HDR.x265-TvR.vol127+128.par2 (1/0)",
                        "Any.Show.2024.S01E01.Die.verborgene.Hand.GERMAN.5.1.DL.EAC3.2160p.WEB-DL.DV.HDR.x265-TvR.vol127+128.par2",
                        "",
                        "1/0",
                        "Any.Show.2024.S01E01.Die.verborgene.Hand.GERMAN.5.1.DL.EAC3.2160p.WEB-DL.DV.HDR.x265-TvR"),
                form(
                        "(Pretty.Little.Liars.S04E11.Bring.Down.the.Hoe.1080p.WEB-DL.DD5.1.H.264-BS) [31/45] - \"\"Pretty.Little.Liars.S04E11.Bring.Down.the.Hoe.1080p.WEB-DL.DD5.1.H.264-BS.part29.rar\"\" yEnc yEnc",
                        "Pretty.Little.Liars.S04E11.Bring.Down.the.Hoe.1080p.WEB-DL.DD5.1.H.264-BS.part29.rar",
                        "31/45",
                        "",
                        "Pretty.Little.Liars.S04E11.Bring.Down.the.Hoe.1080p.WEB-DL.DD5.1.H.264-BS"),
                form(
                        "Big Tits in Sport 12 (2013) XXX DVDRip x264-CHiKANi - (03/39) \"Big.Tits.in.Sport.12.XXX.DVDRip.x264-CHiKANi.part01.rar\" - yenc yEnc",
                        "Big.Tits.in.Sport.12.XXX.DVDRip.x264-CHiKANi.part01.rar",
                        "3/39",
                        "",
                        "Big Tits in Sport 12 (2013) XXX DVDRip x264-CHiKANi"),
                // file counters: [x/y], [ x/y ], (x/y), x of y, [x of y], File x of y, (x|y), <<x/y>>, < x/y (size) >,
                // bare, bracket lost, index 0, as posted
                form(
                        "[ 09821 ] - [ TrollHD ] - [ 00/54 ] - \"Chopped CQ0808H My Way 1080i HDTV DD5.1 MPEG2-TrollHD.nzb\" yEnc",
                        "Chopped CQ0808H My Way 1080i HDTV DD5.1 MPEG2-TrollHD.nzb",
                        "0/54",
                        "",
                        "Chopped CQ0808H My Way 1080i HDTV DD5.1 MPEG2-TrollHD"),
                form(
                        "'Mission: Impossible' - 1x09 - NTSC - DivX - 01 of 48 - \"MI-S01E09.nfo\" (1/1)",
                        "MI-S01E09.nfo",
                        "1/48",
                        "1/1",
                        "'Mission: Impossible' - 1x09 - NTSC - DivX"),
                form(
                        "77 Sunset Strip 409 [1 of 23] \"77 Sunset Strip 409 The Missing Daddy Caper.avi.vol63+34.par2\" yEnc",
                        "77 Sunset Strip 409 The Missing Daddy Caper.avi.vol63+34.par2",
                        "1/23",
                        "",
                        "77 Sunset Strip 409"),
                form(
                        "[1977] Joan Armatrading - Show Some Emotion - File 15 of 20: 06 Joan Armatrading - Opportunity.flac yEnc",
                        "06 Joan Armatrading - Opportunity.flac",
                        "15/20",
                        "",
                        "Joan Armatrading - Show Some Emotion"),
                form(
                        "Asia Biz Forecast (NHK World, 6 & 7 July 2013) - 'China: limits of growth + Japan: remote access' - (05|14) - \"ABF-2013-07-07.part3.rar\" yEnc",
                        "ABF-2013-07-07.part3.rar",
                        "5/14",
                        "",
                        "Asia Biz Forecast (NHK World, 6 & 7 July 2013) - 'China: limits of growth + Japan: remote access'"),
                form(
                        "<<OBLIVION - Untouched>><<TLR for usenet-4all.info>><<www.ssl-news.info>><<13/14>> \"xxtxxlxxrxxbdxx05.vol421+98.par2\" - 2,54 GB - yEnc",
                        "xxtxxlxxrxxbdxx05.vol421+98.par2",
                        "13/14",
                        "",
                        "OBLIVION - Untouched"),
                form(
                        "<<<usenet-space-cowboys.info>>> THOR <<<Powered by https://secretusenet.com>< \"Bangbros_Vs_Hansebanger_-_Kiezstyle-Promo-Vinyl-2006-ToTo_usenet-space-cowbys.info.avi\" >< 3/5 (31,12 MB) >< 11,21 MB > yEnc",
                        "Bangbros_Vs_Hansebanger_-_Kiezstyle-Promo-Vinyl-2006-ToTo_usenet-space-cowbys.info.avi",
                        "3/5",
                        "",
                        "Bangbros_Vs_Hansebanger_-_Kiezstyle-Promo-Vinyl-2006-ToTo"),
                form(
                        "Patterson flood - Mobi -  15/45  \"James Patterson - AC 13 - Double Cross.mobi\"",
                        "James Patterson - AC 13 - Double Cross.mobi",
                        "15/45",
                        "",
                        "Patterson flood - Mobi"),
                form(
                        "Old Dad uppt Scary Movie5 WEB RiP Line XviD German 01/24] - \"Scary Movie 5.par2\" yEnc",
                        "Scary Movie 5.par2",
                        "1/24",
                        "",
                        "Scary Movie5 WEB RiP Line XviD German"),
                form(
                        "[Marillion - Live From Cadogan Hall 2011 (DVD 1)] [981/98] - \"Marillion - Live From Cadogan Hall 2011 (DVD 1).par2\" yEnc",
                        "Marillion - Live From Cadogan Hall 2011 (DVD 1).par2",
                        "981/98",
                        "",
                        "Marillion - Live From Cadogan Hall 2011 (DVD 1)"),
                form("\"BB636.part14.rar\" - (15/39) - yEnc", "BB636.part14.rar", "15/39", "", "BB636"),
                // traps: a number or "x of y" that belongs to the title or the file name
                form(
                        "Michael Woods, The Story Of India - Beginnings 1of6.avi.013 - [14/62] yEnc",
                        "Michael Woods, The Story Of India - Beginnings 1of6.avi.013",
                        "14/62",
                        "",
                        "Michael Woods, The Story Of India - Beginnings 1of6"),
                form(
                        "The Velvet Underground - Peel Slow And See (Box Set) Disc 5 of 5 - 13 The Velvet Underground - Oh Gin.flac yEnc",
                        "13 The Velvet Underground - Oh Gin.flac",
                        "",
                        "",
                        "The Velvet Underground - Peel Slow And See (Box Set) Disc 5 of 5"),
                form(
                        "[02/29] - \"Fox Sports 1 on 1 - Tom Brady 720p HDTV DD5.1 MPEG2-DON.part01.rar\" yEnc",
                        "Fox Sports 1 on 1 - Tom Brady 720p HDTV DD5.1 MPEG2-DON.part01.rar",
                        "2/29",
                        "",
                        "Fox Sports 1 on 1 - Tom Brady 720p HDTV DD5.1 MPEG2-DON"),
                // file names: wrappers, empty and doubled quotes, glued text, two quoted strings, unquoted, mojibake
                form(
                        "[PRiVATE]-[WtFnZb]-[Supertje-_S03E11-12_-blabla_+_blabla_WEBDL-480p.mkv]-[4/12] - \"\" yEnc 9786 (1/1366)",
                        "Supertje-_S03E11-12_-blabla_+_blabla_WEBDL-480p.mkv",
                        "4/12",
                        "1/1366",
                        "Supertje-_S03E11-12_-blabla_+_blabla_WEBDL-480p"),
                form(
                        "[N3wZ] \\6aZWVk237607\\::[PRiVATE]-[WtFnZb]-[The.Show.S01E02.1080p.NF.WEB-DL.DDP5.1.Atmos.H.264-playWEB.mkv]-[2/8] - \"\" yEnc 2241590477 (1/3128)",
                        "The.Show.S01E02.1080p.NF.WEB-DL.DDP5.1.Atmos.H.264-playWEB.mkv",
                        "2/8",
                        "1/3128",
                        "The.Show.S01E02.1080p.NF.WEB-DL.DDP5.1.Atmos.H.264-playWEB"),
                form(
                        "[PRiVATE]-[WtFnZb]-[1/series/Any.Show.S01E01.Pilot.1080p.DSNP.WEBRip.DDP.5.1.H.265.-EDGE2020.mkv]-[1/7] - \"\" yEnc  225628476 (1/315)",
                        "Any.Show.S01E01.Pilot.1080p.DSNP.WEBRip.DDP.5.1.H.265.-EDGE2020.mkv",
                        "1/7",
                        "1/315",
                        "Any.Show.S01E01.Pilot.1080p.DSNP.WEBRip.DDP.5.1.H.265.-EDGE2020"),
                form(
                        "[N3wZ] _mC3M3U14246___[PRiVATE]-[EnCrYpTnZb]-[[SubsPlease].Some.file.name.-.20.(1080p).[64032D13].mkv]-[1_1] - \"\" yEnc  1454715270 (1/2030)",
                        "[SubsPlease].Some.file.name.-.20.(1080p).[64032D13].mkv",
                        "1/1",
                        "1/2030",
                        "[SubsPlease].Some.file.name.-.20.(1080p).[64032D13]"),
                form(
                        "Subject-KrzpfTest [02/30] - \"\"KrzpfTest.part.nzb\"\" yEnc",
                        "KrzpfTest.part.nzb",
                        "2/30",
                        "",
                        "Subject-KrzpfTest"),
                form(
                        "05VANmA80DckBho \"05VANmA80DckBho.part07.rar\"08/94 yEnc",
                        "05VANmA80DckBho.part07.rar",
                        "8/94",
                        "",
                        "05VANmA80DckBho"),
                form(
                        "\"The Absence - Riders Of The Plague\" [00/14] - \"the_absence-riders_of_the_plague.nzb\" yEnc",
                        "the_absence-riders_of_the_plague.nzb",
                        "0/14",
                        "",
                        "The Absence - Riders Of The Plague"),
                form(
                        "[010/108] - [SubsPlease] Ijiranaide, Nagatoro-san - 02 (1080p) [6E8E8065].mkv yEnc (1/2014) 1443366873",
                        "[SubsPlease] Ijiranaide, Nagatoro-san - 02 (1080p) [6E8E8065].mkv",
                        "10/108",
                        "1/2014",
                        "[SubsPlease] Ijiranaide, Nagatoro-san - 02 (1080p) [6E8E8065]"),
                form("[34/44] - id.bdmv yEnc (1/1) 104", "id.bdmv", "34/44", "1/1", "id"),
                form(
                        "Re: Artist Band's The Album-Thanks much - Band, John - Artist - The Album.mp3 (2/3)",
                        "Artist Band's The Album-Thanks much - Band, John - Artist - The Album.mp3",
                        "",
                        "2/3",
                        "Artist Band's The Album-Thanks much - Band, John - Artist - The Album"),
                form(
                        "(01/10) \"MylÃ¨ne Farmer - Monkey me (2012 Bluray Audio).rar\" - 1,56 GB - yEnc",
                        "MylÃ¨ne Farmer - Monkey me (2012 Bluray Audio).rar",
                        "1/10",
                        "",
                        "MylÃ¨ne Farmer - Monkey me (2012 Bluray Audio)"),
                form(
                        "[9987]-[#a.b.g.wii@efnet]-[ Tales.of.Elastic.Boy.Mission.1.USA.WiiWare.Wii-OneUp ]-[01/12] - #34;1u-tales-of-elastic-boy-mission-1.nfo#34; yEnc",
                        "1u-tales-of-elastic-boy-mission-1.nfo",
                        "1/12",
                        "",
                        "Tales.of.Elastic.Boy.Mission.1.USA.WiiWare.Wii-OneUp"),
                // release text: adverts, tags and request ids dropped; obfuscated posts keep their shared token
                form(
                        "<TOWN><www.town.ag > <partner of www.ssl-news.info > JetBrains.IntelliJ.IDEA.v11.1.4.Ultimate.Edition.MacOSX.Incl.Keymaker-EMBRACE  [01/18] - \"JetBrains.IntelliJ.IDEA.v11.1.4.Ultimate.Edition.MacOSX.Incl.Keymaker-EMBRACE.par2\" - 200,77 MB - yEnc",
                        "JetBrains.IntelliJ.IDEA.v11.1.4.Ultimate.Edition.MacOSX.Incl.Keymaker-EMBRACE.par2",
                        "1/18",
                        "",
                        "JetBrains.IntelliJ.IDEA.v11.1.4.Ultimate.Edition.MacOSX.Incl.Keymaker-EMBRACE"),
                form(
                        ">ghost-of-usenet.org<24.S07E01.German.SATRip.XviD-ITG>Sponsored by Astinews< (02/27) \"itg-24-s07e01.nfo\" yEnc",
                        "itg-24-s07e01.nfo",
                        "2/27",
                        "",
                        "24.S07E01.German.SATRip.XviD-ITG"),
                form(
                        "[REQ# 7134] Full 105 Cocoto_Magic_Circus_PAL_Wii-OE PAL \"oe-magic.r00\" 4.57 GB yEnc",
                        "oe-magic.r00",
                        "",
                        "",
                        "Cocoto_Magic_Circus_PAL_Wii-OE"),
                form(
                        "nmlsrgnb - [04/37] - \"htwlngmrstdsntdnh.part03.rar\" yEnc",
                        "htwlngmrstdsntdnh.part03.rar",
                        "4/37",
                        "",
                        "nmlsrgnb"),
                form(
                        "Uploader.Presents-Mutter.und.Sohn.German.2013.DVDRiP.x264-XFi[01/27]\"xf-mutterusohn.nfo\" yEnc",
                        "xf-mutterusohn.nfo",
                        "1/27",
                        "",
                        "Mutter.und.Sohn.German.2013.DVDRiP.x264-XFi"),
                // a lost opening quote: the name runs left as an unquoted one does
                form(
                        "Panzer III - Medium Tank The German War Files - Germany's WWII Medium Tank.part05.rar\" yEnc",
                        "Panzer III - Medium Tank The German War Files - Germany's WWII Medium Tank.part05.rar",
                        "",
                        "",
                        "Panzer III - Medium Tank The German War Files - Germany's WWII Medium Tank"),
                // a request's address before an unquoted name
                form(
                        "Attn: wulf109 - Jim Reeves - There's Someone Who Loves You - Front.jpg yEnc",
                        "Jim Reeves - There's Someone Who Loves You - Front.jpg",
                        "",
                        "",
                        "Jim Reeves - There's Someone Who Loves You - Front"),
                // a chart tag, an advert glued to the release, bracket tags after a scene name, a renamed par2
                form(
                        "[1/1] - (Top100 Album Charts) - \"Bastille - Pompeii.rar\"  yEnc",
                        "Bastille - Pompeii.rar",
                        "1/1",
                        "",
                        "Bastille - Pompeii"),
                form(
                        "brothers-of-usenet.info&net-empfehlen-ssl-news.info Black Mirror s01e01 - Der wille des volkes - [09/15] - \"Black Mirror - S01E01 - Der Wille des Volkes.vol00+01.par2\" yEnc",
                        "Black Mirror - S01E01 - Der Wille des Volkes.vol00+01.par2",
                        "9/15",
                        "",
                        "Black Mirror s01e01 - Der wille des volkes"),
                form(
                        "Afterfall.Insanity.Dirty.Arena.Edition-WaLMaRT - [MULTI6][PCDVD] - [02/45] - \"wmt-adae.r00\" - PC GAME - yEnc",
                        "wmt-adae.r00",
                        "2/45",
                        "",
                        "Afterfall.Insanity.Dirty.Arena.Edition-WaLMaRT"),
                form(
                        "(151/161) \"Troy.2004.Directors.Cut.1080p.BluRay.x264.DTS.vol064+21.PAR2.bad\" - 18,64 GB - yEnc",
                        "Troy.2004.Directors.Cut.1080p.BluRay.x264.DTS.vol064+21.PAR2.bad",
                        "151/161",
                        "",
                        "Troy.2004.Directors.Cut.1080p.BluRay.x264.DTS"));
    }

    /**
     * Forms from headway/index/subjects-holdout.tsv (sources there) that the parser's general rules
     * read: quotes inside a quoted name, a name posted twice, uploader and request tags before a
     * named file, a scene name after an advert or beside a remark, request ids glued to a name,
     * credits, dates, an addressee, a gap of spaces, [x~y] counters.
     */
    static Stream<Arguments> holdoutForms() {
        return Stream.of(
                form(
                        "[1/8] - \"TenPuru - No One Can Live on Loneliness v05 {+ \"Book of Earthly Desires\" pamphlet} (2021) (Digital) (KG Manga).cbz\" yEnc (1/230) 164676947",
                        "TenPuru - No One Can Live on Loneliness v05 {+ \"Book of Earthly Desires\" pamphlet} (2021) (Digital) (KG Manga).cbz",
                        "1/8",
                        "1/230",
                        "TenPuru - No One Can Live on Loneliness v05 {+ \"Book of Earthly Desires\" pamphlet} (2021) (Digital) (KG Manga)"),
                form(
                        "Glenn Miller-The Missing Chapters Vol. 6-Blue Champagne--Glenn Miller-The Missing Chapters Vol. 6-Blue Champagne.par2  yEnc",
                        "Glenn Miller-The Missing Chapters Vol. 6-Blue Champagne.par2",
                        "",
                        "",
                        "Glenn Miller-The Missing Chapters Vol. 6-Blue Champagne"),
                form(
                        "(011/107) - v2v  - \"0203114movie-eng-a.part10.rar\" - 1,26 GB - yEnc",
                        "0203114movie-eng-a.part10.rar",
                        "11/107",
                        "",
                        "0203114movie-eng-a"),
                form(
                        "[40860]-[#altbin@EFNet]-[FULL]-[ Heavenly.Creatures.1994.iNT.DVDRip.XViD-vRs ]-[106~106] - heavenly.creatures.dvdrip.xvid.vrs.subs.sfv yEnc",
                        "heavenly.creatures.dvdrip.xvid.vrs.subs.sfv",
                        "106/106",
                        "",
                        "Heavenly.Creatures.1994.iNT.DVDRip.XViD-vRs"),
                form(
                        "There are some sad ppl here on usenet..Watch out for crap reposters. Join us at u4all.eu Grown.Ups.R5.LiNE.DVDR-FiCODVDR[074/105] - \"ficodvdr-gupz.r71\" yEnc",
                        "ficodvdr-gupz.r71",
                        "74/105",
                        "",
                        "Grown.Ups.R5.LiNE.DVDR-FiCODVDR"),
                form(
                        "[Doomsday.Preppers.S03E11.720p.HDTV.x264-TTVa] - NOT ORIGINAL RARS, REPACKED. Sorry. - (18/35) \"Doomsday.Preppers.S03E11.720p.HDTV.x264-TTVa.r16\" - 1.31 GB - yEnc",
                        "Doomsday.Preppers.S03E11.720p.HDTV.x264-TTVa.r16",
                        "18/35",
                        "",
                        "Doomsday.Preppers.S03E11.720p.HDTV.x264-TTVa"),
                form(
                        "9943 - [085/110] - \"apathy-atvquadkings.r83\" yEnc yEnc",
                        "apathy-atvquadkings.r83",
                        "85/110",
                        "",
                        "apathy-atvquadkings"),
                form(
                        "[www.usenet4all.eu] Cor316 Post Nr 107 [09/10] - \"0023 - Star Wars Episode III - Revenge of the Sith (EU)(M5).rar.vol041+37.PAR2\" yEnc",
                        "0023 - Star Wars Episode III - Revenge of the Sith (EU)(M5).rar.vol041+37.PAR2",
                        "9/10",
                        "",
                        "0023 - Star Wars Episode III - Revenge of the Sith (EU)(M5)"),
                form(
                        "48 Unsorted E-books (03-12-2010) [49/52] - \"Zend Framework 1.8 Web Application Development.pdf\" yEnc",
                        "Zend Framework 1.8 Web Application Development.pdf",
                        "49/52",
                        "",
                        "48 Unsorted E-books (03-12-2010)"),
                form(
                        "Elysium  (AVCHD)  2013  (720p)  Untouched  (Postet by Edition50)    [01/169] - \"file.xyz\" yEnc",
                        "file.xyz",
                        "1/169",
                        "",
                        "Elysium  (AVCHD)  2013  (720p)  Untouched"),
                form(
                        "[REQ.9514.Myth_Makers_Orbs_Of_Doom-USA-WII-PreCiSiON]-[#alt.binaries.games.wii@efnet]-[104/104]-[\"REQ.9514.Myth_Makers_Orbs_Of_Doom-USA-WII-PreCiSiON.vol213+27.par2\"] yEnc",
                        "REQ.9514.Myth_Makers_Orbs_Of_Doom-USA-WII-PreCiSiON.vol213+27.par2",
                        "104/104",
                        "",
                        "Myth_Makers_Orbs_Of_Doom-USA-WII-PreCiSiON"),
                form(
                        "Alec Empire - Low On Ice  06 - Untitled.mp3  yEnc",
                        "06 - Untitled.mp3",
                        "",
                        "",
                        "Alec Empire - Low On Ice"),
                form(
                        "ATTN: Drake@Darkest air.com - Kurtz, Katherine - Heirs of Saint Camber 03 - The Bastard Prince [txt].zip yEnc",
                        "Kurtz, Katherine - Heirs of Saint Camber 03 - The Bastard Prince [txt].zip",
                        "",
                        "",
                        "Kurtz, Katherine - Heirs of Saint Camber 03 - The Bastard Prince [txt]"),
                form(
                        "Hot_Wheels_Battle_Force_5_PAL_WII-ZER0 JUST4FUN-TEAM.NL & FTACLUB.NET[003/110] - \"0-hwbf5.r00\"",
                        "0-hwbf5.r00",
                        "3/110",
                        "",
                        "Hot_Wheels_Battle_Force_5_PAL_WII-ZER0"),
                form(
                        "(FTN2DAY.NL-169116-Corel.WinDVD.Pro.2010.v10.0.5.536.Multilingual.Incl.Keymaker-CORE) [40/33] - \"cr-cw19k.zip\" yEnc",
                        "cr-cw19k.zip",
                        "40/33",
                        "",
                        "Corel.WinDVD.Pro.2010.v10.0.5.536.Multilingual.Incl.Keymaker-CORE"),
                form(
                        "===NEW=== CTP update [2|2] - PBP2020_MultiMedia_(CTP)_24.csv (1/1) - 1688 bytes",
                        "PBP2020_MultiMedia_(CTP)_24.csv",
                        "2/2",
                        "1/1",
                        "CTP update"),
                form(
                        "[ As requested ] Pawn.Stars.S07E15.Colt.To.The.Touch.720p.WEB-DL.AAC2.0.H.264.par2  yEnc",
                        "Pawn.Stars.S07E15.Colt.To.The.Touch.720p.WEB-DL.AAC2.0.H.264.par2",
                        "",
                        "",
                        "Pawn.Stars.S07E15.Colt.To.The.Touch.720p.WEB-DL.AAC2.0.H.264"),
                form(
                        "Shaq S01E01 Req [16/16] \"shaq.vs.s01e01.hdtv.xvid-fqm.vol102+96.PAR2\" yEnc",
                        "shaq.vs.s01e01.hdtv.xvid-fqm.vol102+96.PAR2",
                        "16/16",
                        "",
                        "Shaq S01E01"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("holdoutForms")
    void readsFormsBeyondTheCorpusItWasTunedOn(
            String subject, String file, String fileCounter, String articleCounter, String release) {
        readsEachFormPostersUse(subject, file, fileCounter, articleCounter, release);
    }

    private static Arguments form(
            String subject, String file, String fileCounter, String articleCounter, String release) {
        return Arguments.of(subject, file, fileCounter, articleCounter, release);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("forms")
    void readsEachFormPostersUse(
            String subject, String file, String fileCounter, String articleCounter, String release) {
        SubjectParser.Parsed p = SubjectParser.parse(subject);

        assertThat(p).as(subject).isNotNull();
        assertThat(p.file()).as("file").isEqualTo(file);
        assertThat(counter(p.fileNumber(), p.fileTotal())).as("file counter").isEqualTo(fileCounter);
        assertThat(counter(p.part(), p.total())).as("article counter").isEqualTo(articleCounter);
        assertThat(p.release()).as("release").isEqualTo(release);
    }

    @Test
    void theArticleCounterSpansAreTheDigitsOfTheTrailingCounter() {
        String s = "[1/9] - \"a.rar\" yEnc (12/345) 678";
        SubjectParser.Parsed p = SubjectParser.parse(s);
        assertThat(s.substring(p.partStart(), p.partEnd())).isEqualTo("12");
        assertThat(s.substring(p.totalStart(), p.totalEnd())).isEqualTo("345");
        assertThat(SubjectParser.parse("\"lone.nfo\" yEnc").partStart()).isEqualTo(-1);
        assertThat(SubjectParser.parse("#34;a.rar#34; yEnc (1/2)").partStart())
                .as("rewritten before the scan: not memoizable")
                .isEqualTo(-1);
    }

    @Test
    void anAnimeEpisodeNumberAfterATitleIsPartOfTheReleaseWhateverItsDigits() {
        assertThat(SubjectParser.parse("[Group] Anime Title - 101 [720p] [1/3] - \"Anime.Title.101.mkv\" yEnc (1/1)")
                        .release())
                .isEqualTo("Anime Title - 101 [720p]");
        assertThat(SubjectParser.parse("One Piece - 1100 [1080p] [01/03] - \"op1100.mkv\" yEnc (1/5)")
                        .release())
                .isEqualTo("One Piece - 1100 [1080p]");
        assertThat(SubjectParser.parse("[Group] Anime Title - 12v2 [720p] [1/3] - \"a.mkv\" yEnc (1/1)")
                        .release())
                .isEqualTo("Anime Title - 12v2 [720p]");
        assertThat(SubjectParser.parse("9943 - [085/110] - \"Some.Name.part085.rar\" yEnc (1/2)")
                        .release())
                .as("a short number with no title before it is still a request id")
                .doesNotContain("9943");
    }

    @Test
    void everyFileOfOnePostGetsOneRelease() {
        List<String> post = List.of(
                "[1/7] - \"Show.S01E01.720p.HDTV.x264-GRP.nfo\" yEnc (1/1) 2048",
                "[2/7] - \"Show.S01E01.720p.HDTV.x264-GRP.par2\" yEnc (1/1) 40960",
                "[3/7] - \"Show.S01E01.720p.HDTV.x264-GRP.part1.rar\" yEnc (1/200) 80000000",
                "[4/7] - \"Show.S01E01.720p.HDTV.x264-GRP.part2.rar\" yEnc (1/120) 50000000",
                "[5/7] - \"Show.S01E01.720p.HDTV.x264-GRP.vol00+01.par2\" yEnc (1/3) 800000",
                "[6/7] - \"Show.S01E01.720p.HDTV.x264-GRP.vol01+02.par2\" yEnc (1/5) 1600000",
                "[7/7] - \"Show.S01E01.720p.HDTV.x264-GRP.sample.mkv\" yEnc (1/20) 9000000",
                "\"show.s01e01.720p.hdtv.x264-grp.r00\" yEnc (1/100)",
                "\"show.s01e01.720p.hdtv.x264-grp.s00\" yEnc (1/100)",
                "\"show.s01e01.720p.hdtv.x264-grp.7z.001\" yEnc (1/100)",
                "\"show.s01e01.720p.hdtv.x264-grp.001\" yEnc (1/100)",
                "[4/8] - \"Show.S01E01.720p.HDTV.x264-GRP.vol-01.par2\" yEnc  1293968 (1/2)",
                "[5/8] - \"Show.S01E01.720p.HDTV.x264-GRP.vol07.par2\" yEnc (1/2)");
        for (String subject : post) {
            assertThat(ReleaseNames.fold(SubjectParser.parse(subject).release()))
                    .as(subject)
                    .isEqualTo("show s01e01 720p hdtv x264 grp");
        }
    }

    @Test
    void aShortLeadingTagIsAGroupNameWhenTheFileStartsWithItTooAndATagOtherwise() {
        assertThat(SubjectParser.parse(
                                "[GJM] To Aru Majutsu no Index III - 19 [6B11483D].mkv [1/8] - \"[GJM] To Aru Majutsu no"
                                        + " Index III - 19 [6B11483D].mkv\" yEnc (1/1367) 979664014")
                        .release())
                .isEqualTo("[GJM] To Aru Majutsu no Index III - 19 [6B11483D]");
        assertThat(SubjectParser.parse("[KoreanTV] Star.King.E412.150509.HDTV.H264.720p-WITH.mp4 [1/36] -"
                                + " \"star.king.e412.par2\" yEnc")
                        .release())
                .isEqualTo("Star.King.E412.150509.HDTV.H264.720p-WITH");
    }

    @Test
    void theNameAfterPresentsIsReleaseTextWhateverSiteOrNetworkTheUploaderNamesBeforeIt() {
        assertThat(SubjectParser.parse(
                                "#HD-WMV.COM on Efnet Presents A.Christmas.Carol.2009.BluRay.1080p.VC1.5.1.WMV-INSECTS"
                                        + " [89/89] - \"insects-cc.1080p.vc1.5.1.vol153+24.par2\" yEnc")
                        .release())
                .isEqualTo("A.Christmas.Carol.2009.BluRay.1080p.VC1.5.1.WMV-INSECTS");
        // without a credit word the network tag is still no release text
        assertThat(SubjectParser.parse("[#a.b.teevee@EFNet] [01/12] - \"some.show.s01e01.hdtv.x264-grp.nfo\" yEnc")
                        .release())
                .isEqualTo("some.show.s01e01.hdtv.x264-grp");
    }

    @Test
    void aVolumeOfASetIsABinaryPostWithItsCountersCutOff() {
        SubjectParser.Parsed bare = SubjectParser.parse("The.Rookie.1990.BluRay.1080p-Mastercode.part72.rar");
        assertThat(bare.file()).isEqualTo("The.Rookie.1990.BluRay.1080p-Mastercode.part72.rar");
        assertThat(bare.release()).isEqualTo("The.Rookie.1990.BluRay.1080p-Mastercode");
        assertThat(bare.part()).isEqualTo(-1);
        SubjectParser.Parsed quoted =
                SubjectParser.parse("\"Some.Film.2003.HMJ.vol126+30.PAR2\"were all doomed in the uk");
        assertThat(quoted.file()).isEqualTo("Some.Film.2003.HMJ.vol126+30.PAR2");
        // a file that is not one volume of a set still needs a counter, yEnc or its quotes ending the subject
        assertThat(SubjectParser.parse("Looking for Some.Film.2003.avi")).isNull();
        assertThat(SubjectParser.parse("\"Some.Film.2003.avi\" is broken, please repost"))
                .isNull();
        assertThat(SubjectParser.parse("Some.Film.2003.part01.rar is broken, please repost"))
                .isNull();
    }

    @Test
    void anUnquotedFileNameStartsAfterTheUploadersCredit() {
        SubjectParser.Parsed p = SubjectParser.parse(
                "www.site.example Presents The Rookie 1990 BluRay 1080p VC-1 Mastercode.vol107+14.PAR2 (01/50)");
        assertThat(p.file()).isEqualTo("The Rookie 1990 BluRay 1080p VC-1 Mastercode.vol107+14.PAR2");
        assertThat(p.release()).isEqualTo("The Rookie 1990 BluRay 1080p VC-1 Mastercode");
        assertThat(p.part()).isEqualTo(1);
        assertThat(SubjectParser.parse("Old Dad uppt Scary Movie 5.part01.rar (1/24)")
                        .file())
                .isEqualTo("Scary Movie 5.part01.rar");
        // a credit word inside a word is none
        assertThat(SubjectParser.parse("Represents.Nothing.2010.part01.rar (1/24)")
                        .file())
                .isEqualTo("Represents.Nothing.2010.part01.rar");
    }

    @Test
    void aLanguageTagInsideTheReleaseTextIsPartOfIt() {
        assertThat(SubjectParser.parse("Some Film - mit Jemand - 1990 - (German) - AC3 HD720p Avi - [05/74] - "
                                + "\"Some Film.par2\" yEnc")
                        .release())
                .isEqualTo("Some Film - mit Jemand - 1990 - (German) - AC3 HD720p Avi");
        // at either end of the text a language tag still goes, as a status tag does
        assertThat(SubjectParser.parse("(German) Some Film 1990 - [05/74] - \"Some Film.par2\" yEnc")
                        .release())
                .isEqualTo("Some Film 1990");
        assertThat(SubjectParser.parse("Some Film 1990 [NL] - [05/74] - \"Some Film.par2\" yEnc")
                        .release())
                .isEqualTo("Some Film 1990");
    }

    @Test
    void aBareByAfterAYearOrAFormatCreditsTheUploader() {
        assertThat(SubjectParser.parse(
                                "Some Film - 1990 - AC3 HD720p Avi by Uploader - [05/74] - \"Some Film.par2\" yEnc")
                        .release())
                .isEqualTo("Some Film - 1990 - AC3 HD720p Avi");
        assertThat(SubjectParser.parse("Some Album 2014 by Uploader [1/9] - \"Some Album.par2\" yEnc")
                        .release())
                .isEqualTo("Some Album 2014");
        // after a title word it is the title's own "by"
        assertThat(SubjectParser.parse("Stand by Me [1/9] - \"stand.par2\" yEnc")
                        .release())
                .isEqualTo("Stand by Me");
        assertThat(SubjectParser.parse("Arduino Books by Request [9/9] - \"book.pdf\" yEnc")
                        .release())
                .isEqualTo("Arduino Books by Request");
    }

    @Test
    void chatterAndCounterlessTextNameNoFile() {
        assertThat(SubjectParser.parse("Anyone have the new album?")).isNull();
        assertThat(SubjectParser.parse("\"quoted words\" and nothing else")).isNull();
        assertThat(SubjectParser.parse("RE: Re: what is this (1/2)")).isNull();
        assertThat(SubjectParser.parse("")).isNull();
        assertThat(SubjectParser.parse(null)).isNull();
    }

    // ------------------------------------------------------------------ crafted subjects

    @Test
    void runsOfSpacesThatStalledTheOldRules() {
        assertThat(DEFAULTS.match(GROUP, POSTER, "x" + " ".repeat(800) + "x"))
                .isInstanceOf(SubjectMatch.Unmatched.class);
        SubjectMatch m = DEFAULTS.match(GROUP, POSTER, "x" + " ".repeat(800) + "yEnc (1/7)");
        ParsedSubject p = ((SubjectMatch.Matched) m).subject();
        assertThat(p.fileName()).isEqualTo("x");
        assertThat(p.part()).isEqualTo(1);
        assertThat(p.totalParts()).isEqualTo(7);
        assertThat(p.fileNumber()).isEqualTo(-1);
        ParsedSubject spaced = ((SubjectMatch.Matched)
                        DEFAULTS.match(GROUP, POSTER, "\"" + " ".repeat(900) + "x.rar\" yEnc (1/2)"))
                .subject();
        assertThat(spaced.fileName()).isEqualTo("x.rar");
    }

    @Test
    void longRunsOfQuotesBracketsAndDigitsNameNoFile() {
        for (String unit : List.of(
                "\"",
                "[",
                "]",
                "(",
                ")",
                "<",
                ">",
                "{",
                "0",
                "1/",
                "[1/2]",
                "(1/2) ",
                " - ",
                "]-[",
                "[PRiVATE]-[",
                "\" \"",
                "#34;",
                "&quot;",
                "1 of 2 ",
                "File 1 of ",
                "<<1/2>> ",
                "(1|2)",
                "[1_1]",
                "..",
                "-")) {
            String subject = repeat(unit, 999);
            assertThat(DEFAULTS.match(GROUP, POSTER, subject)).as(unit).isInstanceOf(SubjectMatch.Unmatched.class);
        }
        assertThat(DEFAULTS.match(GROUP, POSTER, "9".repeat(999))).isInstanceOf(SubjectMatch.Unmatched.class);
        assertThat(DEFAULTS.match(GROUP, POSTER, "(".repeat(500) + ")".repeat(499)))
                .isInstanceOf(SubjectMatch.Unmatched.class);
    }

    @Test
    void repeatedFileNamesAndCountersStillReadTheLastFile() {
        ParsedSubject p = ((SubjectMatch.Matched)
                        DEFAULTS.match(GROUP, POSTER, repeat("[1/2] - \"a.rar\" ", 980) + "yEnc (3/4)"))
                .subject();
        assertThat(p.fileName()).isEqualTo("a.rar");
        assertThat(p.part()).isEqualTo(3);
        assertThat(p.totalParts()).isEqualTo(4);
        assertThat(p.fileNumber()).isEqualTo(1);
        assertThat(DEFAULTS.match(GROUP, POSTER, repeat("yEnc ", 995))).isInstanceOf(SubjectMatch.Unmatched.class);
    }

    /**
     * U+0130 ({@code İ}) lower-cases to two characters, so offsets found in a lower-cased copy cut
     * the name late, or past its end (measured before: a StringIndexOutOfBoundsException, and
     * {@code Show.S01E01.m}).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dottedCapitalIs")
    void aDottedCapitalIShiftsNoOffset(String subject, String release) {
        SubjectParser.Parsed p = SubjectParser.parse(subject);
        assertThat(p).isNotNull();
        assertThat(p.release()).isEqualTo(release);
    }

    static Stream<Arguments> dottedCapitalIs() {
        return Stream.of(
                Arguments.of(
                        "\"\u0130\u0130\u0130\u0130\u0130\u0130.r00\" yEnc (1/2)",
                        "\u0130\u0130\u0130\u0130\u0130\u0130"),
                Arguments.of("\"\u0130\u0130 Show.S01E01.mkv\" yEnc (1/2)", "\u0130\u0130 Show.S01E01"),
                Arguments.of("\"[www.\u0130\u0130\u0130.org]_Name.rar\" yEnc (1/2)", "Name"),
                Arguments.of("\"\u0130\u0130\u0130\u0130 www.site.org.rar\" yEnc (1/2)", "\u0130\u0130\u0130\u0130"),
                Arguments.of(
                        "\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130 Show - by Uploader [1/2] - \"x.rar\" yEnc (1/2)",
                        "\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130 Show"),
                Arguments.of(
                        "\u0130\u0130\u0130\u0130 Uploader presents \u0130\u0130 Show [1/2] - \"x.rar\" yEnc (1/2)",
                        "\u0130\u0130 Show"),
                Arguments.of(
                        "\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130 Title 2014 by Uploader [1/2] - \"x.rar\" yEnc (1/2)",
                        "\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130 Title 2014"));
    }

    @Test
    void lowerCasingKeepsEveryOffset() {
        for (String s : new String[] {"\u0130STANBUL", "a\u0130b\u0130c", "\uD801\uDC00 Deseret", "plain", ""}) {
            String lower = ReleaseNames.lower(s);
            assertThat(lower).as(s).hasSameSizeAs(s);
            assertThat(lower)
                    .as(s)
                    .isEqualTo(s.toLowerCase(java.util.Locale.ROOT).replace("i\u0307", "i"));
        }
    }

    @Test
    void fourKilobytesOfRandomTextAreUnusableForTheirLength() {
        String random = random(4096, "abcdef.-_ \"[]()<>/0123456789yEnc", 4096);
        assertThat(DEFAULTS.match(GROUP, POSTER, random))
                .isEqualTo(
                        new SubjectMatch.Unusable("subject longer than " + SubjectParser.MAX_LENGTH + " characters"));
        assertThat(SubjectParser.parse(random)).isNull();
    }

    @Test
    void randomSubjectsUpToTheBoundParseToSoundResults() {
        List<String> subjects = new ArrayList<>();
        for (int seed = 0; seed < 300; seed++) {
            subjects.add(random(1 + seed * 997 % 1000, "abcdef.-_ \"[]()<>/:|0123456789yEncoflFiPRVATEWtZb", seed));
        }
        int matched = 0;
        for (String s : subjects) {
            SubjectMatch m = DEFAULTS.match(GROUP, POSTER, s);
            if (m instanceof SubjectMatch.Matched hit) {
                matched++;
                ParsedSubject p = hit.subject();
                assertThat(p.fileName()).as(s).isNotBlank();
                assertThat(p.releaseName()).as(s).isNotBlank();
                assertThat(p.part() >= -1 && p.totalParts() >= -1 && p.fileNumber() >= -1 && p.fileTotal() >= -1)
                        .as(s)
                        .isTrue();
                assertThat((p.part() < 0) == (p.totalParts() < 0)).as(s).isTrue();
            } else {
                assertThat(m).as(s).isInstanceOf(SubjectMatch.Unmatched.class);
            }
        }
        assertThat(matched).as("some random subjects hold a yEnc and a name").isPositive();
    }

    private static String counter(int a, int b) {
        return a < 0 ? "" : a + "/" + b;
    }

    private static String repeat(String unit, int length) {
        StringBuilder sb = new StringBuilder();
        while (sb.length() + unit.length() <= length) {
            sb.append(unit);
        }
        return sb.toString();
    }

    private static String random(int length, String alphabet, long seed) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return sb.toString();
    }
}
