package headway.deep;

import static headway.deep.Evidences.encryptedHeaders;
import static headway.deep.Evidences.entry;
import static headway.deep.Evidences.listing;
import static headway.deep.Evidences.nfo;
import static headway.deep.Evidences.of;
import static headway.deep.Evidences.par2Named;
import static org.assertj.core.api.Assertions.assertThat;

import headway.inspect.nfo.Nfo;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The naming rules, one table per rule, with scene names in the corpora's style. */
class ReleaseNamerTest {

    static final String TOKEN = "4be44ff48d9cda8a02758cbf231d397e";
    static final String MOVIE = "Blue.Planet.2019.1080p.WEB-DL.x264-GRP";
    static final String SHOW = "The.Expanse.S03E07.720p.HDTV.x264-AVS";

    static Naming obfuscated(Evidence e) {
        return ReleaseNamer.decide(TOKEN, true, List.of(), e);
    }

    record Row(String what, Evidence evidence, String name, String label) {}

    @Test
    void agreeingSourcesWinOverTheMainFile() {
        List<Row> rows = List.of(
                new Row(
                        "NFO confirmed by a PAR2 file",
                        of(List.of(par2Named(MOVIE + ".mkv", "900000")), List.of(nfo(MOVIE)), List.of()),
                        MOVIE,
                        "NFO+PAR2"),
                new Row(
                        "NFO confirmed by the archive",
                        of(List.of(), List.of(nfo(SHOW)), List.of(listing(entry(SHOW + ".mkv", 500_000)))),
                        SHOW,
                        "NFO+ARCHIVE"),
                new Row(
                        "NFO confirmed by both",
                        of(
                                List.of(par2Named(SHOW + ".part01.rar", "50000", SHOW + ".part02.rar", "20000")),
                                List.of(nfo(SHOW)),
                                List.of(listing(entry(SHOW + ".mkv", 70_000)))),
                        SHOW,
                        "NFO+PAR2+ARCHIVE"),
                new Row(
                        "NFO confirmed by a small file of the PAR2 set, not its main file",
                        of(
                                List.of(par2Named("bp.2019.1080p-grp.mkv", "900000", MOVIE + ".nfo", "3000")),
                                List.of(nfo(MOVIE)),
                                List.of()),
                        MOVIE,
                        "NFO+PAR2"),
                new Row(
                        "PAR2 and archive agree without an NFO",
                        of(
                                List.of(par2Named(MOVIE + ".7z.001", "40000", MOVIE + ".7z.002", "1000")),
                                List.of(),
                                List.of(listing(entry(MOVIE + ".mkv", 41_000)))),
                        MOVIE,
                        "PAR2+ARCHIVE"));
        check(rows);
    }

    @Test
    void elseThePar2sOrTheArchivesMainFileLessItsVolumeSuffix() {
        List<Row> rows = List.of(
                new Row(
                        "7z volumes",
                        of(
                                List.of(par2Named(
                                        MOVIE + ".7z.001",
                                        "40000",
                                        MOVIE + ".7z.002",
                                        "40000",
                                        MOVIE + ".7z.003",
                                        "100")),
                                List.of(),
                                List.of()),
                        MOVIE,
                        "PAR2"),
                new Row(
                        "RAR parts",
                        of(
                                List.of(par2Named(SHOW + ".part1.rar", "40000", SHOW + ".part2.rar", "9")),
                                List.of(),
                                List.of()),
                        SHOW,
                        "PAR2"),
                new Row(
                        "old-style RAR volumes",
                        of(
                                List.of(par2Named(
                                        "the.expanse.s03e07.720p.hdtv.x264-avs.rar",
                                        "40000",
                                        "the.expanse.s03e07.720p.hdtv.x264-avs.r00",
                                        "40000")),
                                List.of(),
                                List.of()),
                        "the.expanse.s03e07.720p.hdtv.x264-avs",
                        "PAR2"),
                new Row(
                        "the file with the most bytes, not the most files",
                        of(
                                List.of(par2Named(
                                        MOVIE + ".mkv",
                                        "9000000",
                                        "Other.Release.2020-GRP.nfo",
                                        "10",
                                        "Other.Release.2020-GRP.sfv",
                                        "10")),
                                List.of(),
                                List.of()),
                        MOVIE,
                        "PAR2"),
                new Row(
                        "a path in the set names the file, not the folder",
                        of(List.of(par2Named("Sample/" + SHOW + ".mkv", "40000")), List.of(), List.of()),
                        SHOW,
                        "PAR2"),
                new Row(
                        "the archive alone",
                        of(
                                List.of(),
                                List.of(),
                                List.of(listing(entry("Movies/" + MOVIE + ".mkv", 7000), entry(MOVIE + ".nfo", 20)))),
                        MOVIE,
                        "ARCHIVE"),
                new Row(
                        "PAR2 over a disagreeing archive (rarfile's own test names)",
                        of(
                                List.of(par2Named(SHOW + ".part1.rar", "40000")),
                                List.of(),
                                List.of(listing(entry("Old.Test.Files.Of.Rarfile.txt", 90_000)))),
                        SHOW,
                        "PAR2"),
                new Row(
                        "PAR2 over a disagreeing NFO",
                        of(List.of(par2Named(SHOW + ".mkv", "40000")), List.of(nfo(MOVIE)), List.of()),
                        SHOW,
                        "PAR2"),
                new Row(
                        "the NFO alone, when it names one release",
                        of(List.of(), List.of(nfo(MOVIE, MOVIE.toLowerCase(java.util.Locale.ROOT))), List.of()),
                        MOVIE,
                        "NFO"));
        check(rows);
    }

    @Test
    void anNfoThatMentionsOtherReleasesDoesNotRename() {
        Naming n = obfuscated(of(List.of(), List.of(nfo(MOVIE, SHOW, "Older.Release.2018.720p-GRP")), List.of()));
        assertThat(n.name()).isEmpty();
        assertThat(n.reason()).contains("names 3 releases");
        // two NFOs that each name one, but not the same one, are one NFO that names two
        assertThat(obfuscated(of(List.of(), List.of(nfo(MOVIE), nfo(SHOW)), List.of()))
                        .name())
                .isEmpty();
        // and it cannot confirm a PAR2 file either: the PAR2 names the release alone
        Naming p = obfuscated(of(List.of(par2Named(SHOW + ".mkv", "4000")), List.of(nfo(MOVIE, SHOW)), List.of()));
        assertThat(p.name()).contains(SHOW);
        assertThat(p.label()).isEqualTo("PAR2");
    }

    @Test
    void garbageOrObfuscatedInnerNamesNeverBecomeAName() {
        List<Evidence> garbage = List.of(
                of(List.of(par2Named(TOKEN + ".mkv", "900000")), List.of(), List.of()),
                of(List.of(par2Named("0f25a9c3e1b888d04f5e7a61c2d9b3aa.w95", "900000")), List.of(), List.of()),
                of(List.of(), List.of(), List.of(listing(entry("a3f9c0d1e2b4a6c8d0e1f2a3b4c5d6e7.mkv", 900)))),
                of(List.of(), List.of(), List.of(listing(entry("aB3cD9x.q7Zk2Lp.m4NtY8w.mkv", 900)))),
                of(List.of(par2Named("video.mkv", "900000")), List.of(), List.of()),
                of(List.of(par2Named("setup.exe", "900000")), List.of(), List.of()),
                of(List.of(par2Named("\uFFFD\uFFFD\uFFFD.\uFFFD\uFFFD.mkv", "900000")), List.of(), List.of()),
                of(List.of(par2Named("12345.678.mkv", "900000")), List.of(), List.of()),
                of(List.of(par2Named("A.".repeat(200) + "mkv", "900000")), List.of(), List.of()),
                of(List.of(), List.of(), List.of(encryptedHeaders())));
        for (Evidence e : garbage) {
            Naming n = obfuscated(e);
            assertThat(n.name()).as(e.toString()).isEmpty();
            assertThat(n.namedBy()).isEmpty();
            assertThat(n.label()).isEmpty();
        }
    }

    @Test
    void aHashedMainFileIsNotBypassedByASmallReadableOne() {
        Naming n = obfuscated(
                of(List.of(par2Named(TOKEN + ".mkv", "900000", SHOW + ".nfo", "3000")), List.of(), List.of()));
        assertThat(n.name()).isEmpty();
        assertThat(n.reason()).contains("is no release name");
    }

    @Test
    void aReleaseItsSubjectNamesIsRenamedOnlyWhenTheEvidenceAgrees() {
        Evidence e = of(List.of(par2Named(MOVIE + ".mkv", "900000")), List.of(), List.of());
        assertThat(ReleaseNamer.decide("Blue Planet 2019", false, List.of(), e).name())
                .contains(MOVIE);
        assertThat(ReleaseNamer.decide("blue.planet.2019.1080p.web-dl.x264-grp", false, List.of(), e)
                        .name())
                .contains(MOVIE);
        Naming kept = ReleaseNamer.decide("Green Valley 2020", false, List.of(), e);
        assertThat(kept.name()).isEmpty();
        assertThat(kept.namedBy()).isEmpty();
        assertThat(kept.reason()).startsWith("kept 'Green Valley 2020'");
        assertThat(ReleaseNamer.decide("Blue Planet", false, List.of(), e).name())
                .contains(MOVIE);
        assertThat(ReleaseNamer.decide("Blue Plan", false, List.of(), e).name())
                .as("a word cut is not the same words")
                .isEmpty();
        assertThat(ReleaseNamer.decide("", false, List.of(), e).name())
                .as("no name at all is no name to keep")
                .contains(MOVIE);
    }

    @Test
    void passwordFromTheListings() {
        record P(String what, List<headway.inspect.archive.Listing> listings, int password) {}
        List<P> rows = List.of(
                new P("no archive", List.of(), 0),
                new P("plain", List.of(listing(entry(MOVIE + ".mkv", 9))), 0),
                new P("encrypted entries", List.of(listing(entry(MOVIE + ".mkv", 9, true, false))), 1),
                new P("encrypted headers", List.of(encryptedHeaders()), 1),
                new P("an archive inside", List.of(listing(entry(MOVIE + ".rar", 9, false, true))), 2),
                new P(
                        "encrypted wins over inside",
                        List.of(
                                listing(entry(MOVIE + ".rar", 9, false, true)),
                                listing(entry(MOVIE + ".r00", 9, true, false))),
                        1),
                new P("one volume plain, another encrypted", List.of(listing(entry("a", 1)), encryptedHeaders()), 1));
        for (P r : rows) {
            Naming n = obfuscated(of(List.of(), List.of(), r.listings()));
            assertThat(n.password()).as(r.what()).isEqualTo(r.password());
            if (r.password() > 0) {
                assertThat(n.reason()).as(r.what()).contains("password " + r.password());
            }
        }
    }

    @Test
    void imdbWhenTheNfosCarryExactlyOne() {
        assertThat(obfuscated(of(List.of(), List.of(nfo(List.of(MOVIE), List.of("tt1234567"))), List.of()))
                        .imdbId())
                .contains("tt1234567");
        assertThat(obfuscated(of(List.of(), List.of(nfo(List.of(), List.of("tt12345678"))), List.of()))
                        .imdbId())
                .as("an id without a name still counts")
                .contains("tt12345678");
        assertThat(obfuscated(of(List.of(), List.of(nfo(List.of(), List.of("tt1234567", "tt7654321"))), List.of()))
                        .imdbId())
                .isEmpty();
        assertThat(obfuscated(of(
                                List.of(),
                                List.of(nfo(List.of(), List.of("tt1234567")), nfo(List.of(), List.of("tt1234567"))),
                                List.of()))
                        .imdbId())
                .contains("tt1234567");
        for (String bad : new String[] {"tt123456", "tt123456789", "tt12345６7", "nm1234567", "tt1234567 "}) {
            assertThat(obfuscated(of(List.of(), List.of(nfo(List.of(), List.of(bad))), List.of()))
                            .imdbId())
                    .as(bad)
                    .isEmpty();
        }
    }

    @Test
    void seriesIdsWhenTheNfosLinkExactlyOneOfEachKind() {
        Naming one = obfuscated(of(List.of(), List.of(seriesNfo(List.of(81189L, 81189L), List.of(169L))), List.of()));
        assertThat(one.tvdbId()).contains(81189L);
        assertThat(one.tvmazeId()).contains(169L);
        assertThat(one.reason()).contains("tvdb 81189").contains("tvmaze 169");
        Naming two = obfuscated(of(
                List.of(),
                List.of(seriesNfo(List.of(81189L), List.of()), seriesNfo(List.of(121361L), List.of(169L))),
                List.of()));
        assertThat(two.tvdbId()).isEmpty();
        assertThat(two.tvmazeId()).contains(169L);
        assertThat(two.reason()).contains("2 tvdb ids, so none");
        Naming none = obfuscated(of(List.of(), List.of(seriesNfo(List.of(0L), List.of())), List.of()));
        assertThat(none.tvdbId()).isEmpty();
        assertThat(none.tvmazeId()).isEmpty();
    }

    private static Nfo seriesNfo(List<Long> tvdb, List<Long> tvmaze) {
        return new Nfo("links", "IBM437", false, List.of(), 0, List.of(), tvdb, List.of(), tvmaze, null);
    }

    @Test
    void matchingHeadsChooseTheFilesOfThisRelease() {
        // the PAR2 read covers two releases' files; this post's first 16 KiB match only one of them
        var ours = Evidences.par2File(SHOW + ".mkv", 40_000);
        var theirs = Evidences.par2File(MOVIE + ".mkv", 90_000);
        Evidence e = of(List.of(Evidences.par2(ours, theirs)), List.of(), List.of());
        assertThat(obfuscated(e).name()).as("without heads, the most bytes").contains(MOVIE);
        List<PostedFile> posted = List.of(new PostedFile(TOKEN, 40_000, 60, ours.md5Of16k()));
        assertThat(ReleaseNamer.decide(TOKEN, true, posted, e).name()).contains(SHOW);
        List<PostedFile> other = List.of(new PostedFile(TOKEN, 40_001, 60, ours.md5Of16k()));
        assertThat(ReleaseNamer.decide(TOKEN, true, other, e).name())
                .as("the length must match too")
                .contains(MOVIE);
    }

    @Test
    void namesAreCleanedAndBounded() {
        Naming n = obfuscated(of(List.of(), List.of(nfo(" \u202E" + MOVIE + "\u0007 ")), List.of()));
        assertThat(n.name()).contains(MOVIE);
        String longest = "A.B" + ".Cd".repeat((RealNames.MAX_CHARS - 3) / 3);
        assertThat(RealNames.accept(longest)).isPresent();
        assertThat(RealNames.accept(longest + "Xy.Z")).isEmpty();
        assertThat(RealNames.accept("   ")).isEmpty();
        assertThat(RealNames.accept(null)).isEmpty();
        assertThat(ReleaseNamer.agrees(MOVIE, "Blue Planet 2019")).isTrue();
    }

    @Test
    void tiesAreBrokenByTheNamesNotByTheOrder() {
        Naming a = obfuscated(of(
                List.of(), List.of(), List.of(listing(entry(SHOW + ".mkv", 9), entry(MOVIE + ".mkv", 9)))));
        Naming b = obfuscated(of(
                List.of(), List.of(), List.of(listing(entry(MOVIE + ".mkv", 9), entry(SHOW + ".mkv", 9)))));
        Naming c = obfuscated(of(
                List.of(), List.of(), List.of(listing(entry(MOVIE + ".mkv", 9)), listing(entry(SHOW + ".mkv", 9)))));
        assertThat(a.name()).contains(MOVIE);
        assertThat(b).isEqualTo(a);
        assertThat(c).isEqualTo(a);
    }

    @Test
    void noEvidenceNamesNothing() {
        Naming n = obfuscated(Evidence.none());
        assertThat(n).isEqualTo(new Naming(Optional.empty(), java.util.Set.of(), 0, Optional.empty(), "not named"));
    }

    static void check(List<Row> rows) {
        for (Row r : rows) {
            Naming n = obfuscated(r.evidence());
            assertThat(n.name()).as("%s: %s", r.what(), n.reason()).contains(r.name());
            assertThat(n.label()).as(r.what()).isEqualTo(r.label());
            assertThat(n.reason()).as(r.what()).startsWith("named '" + r.name() + "' by " + r.label());
        }
    }
}
