package headway.inspect.nfo;

import static org.assertj.core.api.Assertions.assertThat;

import headway.inspect.yenc.FuzzSeed;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reader on hostile bytes: random bytes of every charset's shape, every prefix of the corpus
 * files, random splices of release-name fragments, texts built to make a backtracking regex
 * explode, and a 10 MB input. Whatever the bytes: no exception, the text within the byte bound,
 * names and ids within theirs, and allocation bounded by {@link NfoReader#MAX_BYTES}, not by the
 * input. Each run draws a fresh seed; a failure names it.
 */
class NfoFuzzTest {

    private static final String[] FRAGMENTS = {
        ".",
        "_",
        "-",
        "S01E02",
        "720p",
        "x264",
        "-GRP",
        "tt1234567",
        "imdb.com/title/",
        "thetvdb.com/?tab=series&id=",
        "tvmaze.com/shows/",
        "2019",
        "WEB-DL",
        "\r\n",
        " ",
        "\u00DB",
        "\u00DC",
        "é",
        "\0",
        "\uFEFF",
        "Title",
        "..",
        "--"
    };

    @Test
    void randomBytesInEveryShape() {
        long seed = FuzzSeed.seed();
        Random r = new Random(seed);
        for (int i = 0; i < 800; i++) {
            byte[] b = new byte[r.nextInt(3000)];
            r.nextBytes(b);
            switch (i % 4) {
                case 0 -> {}
                case 1 -> mask(b, 0x7F);
                case 2 -> prefix(b, 0xFF, 0xFE);
                default -> prefix(b, 0xEF, 0xBB, 0xBF);
            }
            check(b, seed, "random " + i);
        }
    }

    @Test
    void splicedFragmentsOfNamesAndLinks() {
        long seed = FuzzSeed.seed();
        Random r = new Random(seed);
        for (int i = 0; i < 800; i++) {
            StringBuilder s = new StringBuilder();
            for (int k = r.nextInt(400); k > 0; k--) {
                s.append(FRAGMENTS[r.nextInt(FRAGMENTS.length)]);
            }
            byte[] b = s.toString().getBytes(r.nextBoolean() ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
            check(b, seed, "spliced " + i);
        }
    }

    @Test
    void everyPrefixOfTheCorpus() throws Exception {
        long seed = FuzzSeed.seed();
        for (String f : new String[] {"vault-ran.nfo", "tvx264-2016.nfo", "matrix-ctp-art.nfo", "kodi-episode.nfo"}) {
            byte[] b = NfoReaderTest.fixture(f);
            for (int n = 0; n <= b.length; n++) {
                check(Arrays.copyOf(b, n), seed, f + " prefix " + n);
            }
        }
    }

    @Test
    void pathologicalTextsAndTenMegabytesStayWithinTheirBounds() {
        long seed = FuzzSeed.seed();
        String[] units = {"a.", "a-", "a.b-", "tt1", "S01E01.", "thetvdb.com/series/", "1080p.x264-G.", "é."};
        for (String unit : units) {
            byte[] b = unit.repeat(NfoReader.MAX_BYTES / unit.length() + 10).getBytes(StandardCharsets.UTF_8);
            check(b, seed, "repeated " + unit);
        }
        byte[] names = "Some.Show.S01E01.720p.HDTV.x264-GRP\n".repeat(3000).getBytes(StandardCharsets.US_ASCII);
        Nfo many = check(names, seed, "many names");
        assertThat(many.releaseNames()).hasSize(NfoReader.MAX_NAMES);
        byte[] big = new byte[10 << 20];
        new Random(seed).nextBytes(big);
        NfoReader.read(big);
        long before = FuzzSeed.allocated();
        Nfo nfo = NfoReader.read(big);
        long used = FuzzSeed.allocated() - before;
        assertThat(nfo.cut()).isTrue();
        assertThat(used).as("bytes allocated for a 10 MB input").isLessThan(40L * NfoReader.MAX_BYTES);
    }

    private static Nfo check(byte[] b, long seed, String what) {
        String where = FuzzSeed.replay(seed) + ", " + what;
        Nfo nfo;
        try {
            NfoReader.looksLikeNfo(b);
            nfo = NfoReader.read(b);
        } catch (Exception | StackOverflowError e) {
            throw new AssertionError(where + ": " + e, e);
        }
        assertThat(nfo.text().length()).as(where).isLessThanOrEqualTo(NfoReader.MAX_BYTES);
        assertThat(nfo.text()).as(where).doesNotContain("\r", "\0");
        assertThat(nfo.releaseNames().size()).as(where).isLessThanOrEqualTo(NfoReader.MAX_NAMES);
        assertThat(nfo.distinctReleaseNames())
                .as(where)
                .isLessThanOrEqualTo(nfo.releaseNames().size());
        assertThat(nfo.imdbIds().size()).as(where).isLessThanOrEqualTo(NfoReader.MAX_IDS);
        for (ReleaseName n : nfo.releaseNames()) {
            assertThat(nfo.text().substring(n.position())).as(where).startsWith(n.name());
        }
        return nfo;
    }

    private static void mask(byte[] b, int mask) {
        for (int i = 0; i < b.length; i++) {
            b[i] &= (byte) mask;
        }
    }

    private static void prefix(byte[] b, int... bom) {
        for (int i = 0; i < bom.length && i < b.length; i++) {
            b[i] = (byte) bom[i];
        }
    }
}
