package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import headway.index.CompletedBinary;
import headway.index.NzbWriter;
import headway.index.RuleSet;
import headway.index.Window;
import headway.overview.OverviewLine;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A whole post goes through the window with the shipped rules into the catalog, and its release's
 * NZB holds every file of it: the .nfo, the .par2 set, the archive volumes and the sample, posted
 * the way posters write them (a Nyuu post without release text, an nZEDb-style post with it, and
 * a post whose files name the release in different case), interleaved with another poster's post.
 */
class PostCatalogTest {

    private static final String G = "alt.binaries.posts";
    private static final String POSTER = "Uploader <up@example.com>";
    private static final String OTHER = "Someone <else@example.com>";
    private static final String DATE = "Wed, 02 Dec 2026 17:17:02 +0000";

    private static CatalogTestDatabase db;
    private final CatalogStore store = new CatalogStore();

    @BeforeAll
    static void start() throws Exception {
        db = CatalogTestDatabase.start(G);
    }

    @AfterAll
    static void stop() throws Exception {
        db.close();
    }

    /** One line per article of {@code files}, each file {@code parts} parts, in the form {@code subject.formatted(fileNo, file, part)}. */
    private static void post(
            List<OverviewLine> out, String poster, String subject, List<String> files, int parts, long[] article) {
        for (int f = 0; f < files.size(); f++) {
            for (int p = 1; p <= parts; p++) {
                String s = subject.replace("{no}", String.format("%02d", f + 1))
                        .replace("{file}", files.get(f))
                        .replace("{part}", Integer.toString(p))
                        .replace("{parts}", Integer.toString(parts));
                long a = article[0]++;
                out.add(new OverviewLine(a, s, poster, DATE, "<" + a + "@news.example>", "", 500_000, 3800, ""));
            }
        }
    }

    @Test
    void everyFileOfAPostIsInItsReleasesNzb() throws Exception {
        List<String> nyuu = List.of(
                "Some.Show.S01E01.1080p.WEB.h264-GRP.nfo",
                "Some.Show.S01E01.1080p.WEB.h264-GRP.par2",
                "Some.Show.S01E01.1080p.WEB.h264-GRP.part01.rar",
                "Some.Show.S01E01.1080p.WEB.h264-GRP.part02.rar",
                "Some.Show.S01E01.1080p.WEB.h264-GRP.part03.rar",
                "Some.Show.S01E01.1080p.WEB.h264-GRP.vol00+01.par2",
                "Some.Show.S01E01.1080p.WEB.h264-GRP.vol01+02.par2",
                "Some.Show.S01E01.1080p.WEB.h264-GRP.sample.mkv");
        List<String> tagged = List.of(
                "grp-movie.nfo",
                "grp-movie.sfv",
                "grp-movie.r00",
                "grp-movie.r01",
                "grp-movie.rar",
                "grp-movie.par2",
                "grp-movie.vol0+1.par2",
                "grp-movie-sample.mkv");
        List<String> mixedCase = List.of(
                "Album.Name-WEB-2026-GRP.nfo",
                "album.name-web-2026-grp.7z.001",
                "album.name-web-2026-grp.7z.002",
                "ALBUM.NAME-WEB-2026-GRP.par2");
        List<OverviewLine> lines = new ArrayList<>();
        long[] article = {1000};
        post(lines, POSTER, "[{no}/" + nyuu.size() + "] - \"{file}\" yEnc ({part}/{parts}) 1048576", nyuu, 3, article);
        post(
                lines,
                OTHER,
                "[12345]-[FULL]-[#a.b.moovee@EFNet]-[ Movie.2026.1080p.BluRay.x264-GRP ]-[{no}/08] - \"{file}\" yEnc ({part}/{parts})",
                tagged,
                2,
                article);
        post(lines, POSTER, "\"{file}\" yEnc ({part}/{parts})", mixedCase, 2, article);
        List<OverviewLine> interleaved = new ArrayList<>();
        for (int i = 0; i < lines.size(); i += 2) {
            interleaved.add(lines.get(i));
        }
        for (int i = 1; i < lines.size(); i += 2) {
            interleaved.add(lines.get(i));
        }

        RuleSet rules = RuleSet.defaults(1);
        Window window = new Window(G, 100_000);
        List<CompletedBinary> done = new ArrayList<>();
        for (OverviewLine line : interleaved) {
            window.accept(line, rules);
            done.addAll(window.drain());
        }
        assertThat(window.stats().binaries()).as("every file complete").isZero();
        db.inTransaction(c -> store.writeBinaries(c, done));

        assertThat(filesInNzb(POSTER, "Some.Show.S01E01.1080p.WEB.h264-GRP")).containsExactlyInAnyOrderElementsOf(nyuu);
        assertThat(filesInNzb(OTHER, "Movie.2026.1080p.BluRay.x264-GRP")).containsExactlyInAnyOrderElementsOf(tagged);
        assertThat(filesInNzb(POSTER, "Album.Name-WEB-2026-GRP")).containsExactlyInAnyOrderElementsOf(mixedCase);
        assertThat(new ReleaseQueries(db.ds).search("GRP", 100))
                .as("three posts, three releases")
                .hasSize(3);
    }

    @Test
    void twoObfuscatedPostsOfOnePosterAreTwoWholeReleasesWithEveryFileInTheirNzbs() throws Exception {
        String obfuscator = "Obfuscator <o@example.com>";
        List<String> first = List.of(
                "4be44ff48d9cda8a02758cbf231d397e",
                "0f25c9d1e8a7b6f5d4c3b2a1f0e9b888.w95",
                "a3f9c0d8e7b6a5f4e3d2c1b0a9f8e1e1",
                "77b1d2e3f4a5b6c7d8e9f0a1b2c3d40c",
                "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b");
        List<String> second = List.of(
                "c0ffee00112233445566778899aabbcc",
                "d00dfeed112233445566778899aabb01",
                "e1e2e3e4e5e6e7e8e9eaebecedeeef01.k7q",
                "f0f1f2f3f4f5f6f7f8f9fafbfcfdfe02",
                "1a2b3c4d5e6f708192a3b4c5d6e7f803");
        List<OverviewLine> lines = new ArrayList<>();
        long[] article = {5000};
        post(lines, obfuscator, "[{no}/05] - \"{file}\" yEnc ({part}/{parts})", first, 3, article);
        post(lines, obfuscator, "[{no}/05] - \"{file}\" yEnc ({part}/{parts})", second, 2, article);

        RuleSet rules = RuleSet.defaults(1);
        Window window = new Window(G, 100_000);
        List<CompletedBinary> done = new ArrayList<>();
        for (OverviewLine line : lines) {
            window.accept(line, rules);
            done.addAll(window.drain());
        }
        db.inTransaction(c -> store.writeBinaries(c, done));
        db.inTransaction(c -> store.writeBinaries(c, done)); // a redo writes nothing twice

        assertThat(filesInNzb(obfuscator, "4be44ff48d9cda8a02758cbf231d397e"))
                .containsExactlyInAnyOrderElementsOf(first);
        assertThat(filesInNzb(obfuscator, "c0ffee00112233445566778899aabbcc"))
                .containsExactlyInAnyOrderElementsOf(second);
        assertThat(new ReleaseQueries(db.ds).search("c0ffee00112233445566778899aabbcc", 100))
                .hasSize(1);
    }

    private List<String> filesInNzb(String poster, String release) throws Exception {
        Release r =
                store.release(db.ds, G, poster, release).orElseThrow(() -> new AssertionError("no release " + release));
        assertThat(r.complete()).as(release).isTrue();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        NzbWriter.write(out, r.name(), store.binaries(db.ds, r));
        List<String> files = new ArrayList<>();
        Matcher m =
                Pattern.compile("subject=\"[^\"]*?&quot;([^&]+)&quot;").matcher(out.toString(StandardCharsets.UTF_8));
        while (m.find()) {
            files.add(m.group(1));
        }
        return files;
    }
}
