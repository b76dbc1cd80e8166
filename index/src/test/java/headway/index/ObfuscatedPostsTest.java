package headway.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.overview.OverviewLine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The files of one obfuscated post (every file a random name of its own, no token shared) make one
 * release: same poster, same file total, posted together, each file number once ({@link Posts}).
 */
class ObfuscatedPostsTest {

    private static final RuleSet RULES = RuleSet.defaults(1);
    private static final String GROUP = "alt.binaries.test";

    /** One file of a post: its random name, its number, its parts. */
    private record File(String poster, String name, int number, int total, int parts, String post) {}

    private static String hex(Random r, int bytes) {
        byte[] b = new byte[bytes];
        r.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** A post of {@code files} files, each a random 32-hex name, sometimes with a random extension. */
    private static List<File> post(Random r, String poster, int files, String post) {
        List<File> out = new ArrayList<>();
        for (int f = 1; f <= files; f++) {
            String name = hex(r, 16) + (r.nextInt(4) == 0 ? "." + hex(r, 2).substring(0, 3) : "");
            out.add(new File(poster, name, f, files, 1 + r.nextInt(4), post));
        }
        return out;
    }

    /** The articles of {@code files}, each file's parts in order, the files' parts interleaved as posting tools do. */
    private static List<String[]> articles(Random r, List<File> files) {
        List<String[]> out = new ArrayList<>();
        for (File f : files) {
            for (int p = 1; p <= f.parts(); p++) {
                String subject = String.format(
                        "[%02d/%02d] - \"%s\" yEnc (%d/%d)", f.number(), f.total(), f.name(), p, f.parts());
                out.add(new String[] {subject, f.poster(), f.post() + "." + f.name() + "." + p + "@ngPost", f.post()});
            }
        }
        // neighbours swap: parts of one file stay in order relative to each other often enough, not always
        for (int i = 0; i + 1 < out.size(); i++) {
            if (r.nextInt(3) == 0) {
                Collections.swap(out, i, i + 1);
            }
        }
        return out;
    }

    private static List<OverviewLine> lines(List<String[]> articles, long first) {
        List<OverviewLine> out = new ArrayList<>();
        long a = first;
        for (String[] x : articles) {
            out.add(Headers.line(a++, x[0], x[1], x[2]));
        }
        return out;
    }

    /** Feeds {@code lines} and returns every binary's release name by the post it was posted in. */
    private static Map<String, List<String>> releasesByPost(Window w, List<OverviewLine> lines) {
        for (OverviewLine line : lines) {
            w.accept(line, RULES);
        }
        w.closeAll();
        Map<String, List<String>> byPost = new TreeMap<>();
        for (CompletedBinary b : w.drain()) {
            String post = b.segments().get(0).messageId().split("\\.", 2)[0];
            byPost.computeIfAbsent(post, k -> new ArrayList<>()).add(b.releaseName());
        }
        return byPost;
    }

    @Test
    void theFilesOfOneObfuscatedPostMakeOneReleaseNamedByItsFirstFile() {
        Random r = new Random(7);
        List<File> files = post(r, "obfuscator <o@example.com>", 7, "postA");
        List<File> readable = new ArrayList<>();
        for (int f = 1; f <= 3; f++) {
            readable.add(new File(
                    "reader <r@example.com>", "Some.Show.S01E01.720p-GRP.part" + f + ".rar", f, 3, 2, "postR"));
        }
        List<String[]> all = new ArrayList<>(articles(r, files));
        all.addAll(2, articles(r, readable));
        Map<String, List<String>> releases = releasesByPost(new Window(GROUP, 10_000), lines(all, 1000));

        assertThat(releases.get("postA"))
                .hasSize(7)
                .containsOnly(releases.get("postA").get(0));
        assertThat(files)
                .extracting(File::name)
                .anySatisfy(n -> assertThat(n).startsWith(releases.get("postA").get(0)));
        assertThat(releases.get("postR")).hasSize(3).containsOnly("Some.Show.S01E01.720p-GRP");
    }

    @Test
    void twoPostsOfOnePosterBackToBackStayTwoReleases() {
        Random r = new Random(11);
        String poster = "obfuscator <o@example.com>";
        List<String[]> all = new ArrayList<>(articles(r, post(r, poster, 5, "postA")));
        all.addAll(articles(r, post(r, poster, 5, "postB")));
        Map<String, List<String>> releases = releasesByPost(new Window(GROUP, 10_000), lines(all, 1));

        assertThat(releases.get("postA"))
                .hasSize(5)
                .containsOnly(releases.get("postA").get(0));
        assertThat(releases.get("postB"))
                .hasSize(5)
                .containsOnly(releases.get("postB").get(0));
        assertThat(releases.get("postA").get(0))
                .isNotEqualTo(releases.get("postB").get(0));
    }

    @Test
    void postersAndFileTotalsKeepPostsApartAndAFarGapStartsANewPost() {
        Random r = new Random(13);
        List<String[]> all = new ArrayList<>(articles(r, post(r, "one <1@example.com>", 4, "postA")));
        all.addAll(articles(r, post(r, "two <2@example.com>", 4, "postB")));
        all.addAll(articles(r, post(r, "one <1@example.com>", 6, "postC")));
        Collections.shuffle(all, r); // interleaved however they came
        Map<String, List<String>> releases = releasesByPost(new Window(GROUP, 10_000), lines(all, 1));
        assertThat(releases.values()).allSatisfy(names -> assertThat(names).containsOnly(names.get(0)));
        assertThat(releases.values().stream().map(n -> n.get(0)).distinct()).hasSize(3);

        // the same poster's files 1-2 and 3-4 of a total of 4, further apart than the window reaches
        Window w = new Window(GROUP, 100);
        List<File> files = post(r, "one <1@example.com>", 4, "far");
        List<OverviewLine> first = lines(articles(r, files.subList(0, 2)), 1);
        List<OverviewLine> later = lines(articles(r, files.subList(2, 4)), 10_000);
        List<OverviewLine> both = new ArrayList<>(first);
        both.addAll(later);
        assertThat(releasesByPost(w, both).get("far").stream().distinct()).hasSize(2);
    }

    @Test
    void aTakeoverAtAnyArticleNamesEveryFileAsOneHolderWould() throws IOException {
        for (long seed = 0; seed < 40; seed++) {
            Random r = new Random(seed);
            List<String[]> all = new ArrayList<>();
            for (int p = 0; p < 6; p++) {
                all.addAll(articles(r, post(r, "poster" + (p % 2) + " <p@example.com>", 2 + r.nextInt(8), "post" + p)));
            }
            List<OverviewLine> lines = lines(all, 1);
            Map<String, List<String>> whole = releasesByPost(new Window(GROUP, 10_000), lines);

            int cut = r.nextInt(lines.size());
            Window before = new Window(GROUP, 10_000);
            for (OverviewLine line : lines.subList(0, cut)) {
                before.accept(line, RULES);
            }
            List<CompletedBinary> out = new ArrayList<>(before.drain());
            ByteArrayOutputStream snapshot = new ByteArrayOutputStream();
            before.writeTo(snapshot);
            Window after = Window.readFrom(new ByteArrayInputStream(snapshot.toByteArray()));
            for (OverviewLine line : lines.subList(cut, lines.size())) {
                after.accept(line, RULES);
            }
            after.closeAll();
            out.addAll(after.drain());
            Map<String, List<String>> resumed = new TreeMap<>();
            for (CompletedBinary b : out) {
                resumed.computeIfAbsent(b.segments().get(0).messageId().split("\\.", 2)[0], k -> new ArrayList<>())
                        .add(b.releaseName());
            }
            assertThat(sorted(resumed))
                    .as("seed " + seed + ", snapshot after " + cut)
                    .isEqualTo(sorted(whole));
            assertThat(resumed.values()).allSatisfy(names -> assertThat(names).containsOnly(names.get(0)));
        }
    }

    private static Map<String, List<String>> sorted(Map<String, List<String>> m) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, v.stream().sorted().collect(Collectors.toList())));
        return out;
    }

    @Test
    void aSnapshotPostThatLiesIsABadSnapshot() {
        String lying = "{\"format\":\"headway.window\",\"formatVersion\":4,\"group\":\"g\",\"maxAgeArticles\":10,"
                + "\"newestArticle\":5,\"accepted\":0,\"unmatched\":0,\"rejected\":0,\"duplicates\":0,"
                + "\"binaries\":[],\"posts\":[[\"p\",4,\"x\",3,[1,9]]]}";
        assertThatThrownBy(() -> Window.readFrom(new ByteArrayInputStream(gzip(lying))))
                .isInstanceOf(BadSnapshotException.class)
                .hasMessageContaining("has file 9");
        String early = "{\"format\":\"headway.window\",\"formatVersion\":4,\"group\":\"g\",\"maxAgeArticles\":10,"
                + "\"posts\":[],\"binaries\":[]}";
        assertThatThrownBy(() -> Window.readFrom(new ByteArrayInputStream(gzip(early))))
                .isInstanceOf(BadSnapshotException.class)
                .hasMessageContaining("posts before its binaries");
        String v2 = "{\"format\":\"headway.window\",\"formatVersion\":2,\"group\":\"g\",\"maxAgeArticles\":10,"
                + "\"newestArticle\":5,\"accepted\":0,\"unmatched\":0,\"rejected\":0,\"duplicates\":0,\"binaries\":[]}";
        assertThatThrownBy(() -> Window.readFrom(new ByteArrayInputStream(gzip(v2))))
                .as("format 2 may mix posting months in a binary: refused, so the holder rebuilds")
                .isInstanceOf(BadSnapshotException.class);
        assertThat(uncheckedRead(v2.replace(":2,", ":4,")).posts().size()).isZero();
    }

    private static Window uncheckedRead(String json) {
        try {
            return Window.readFrom(new ByteArrayInputStream(gzip(json)));
        } catch (BadSnapshotException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] gzip(String s) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(s.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return bytes.toByteArray();
    }
}
