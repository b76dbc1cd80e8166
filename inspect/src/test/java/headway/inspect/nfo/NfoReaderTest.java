package headway.inspect.nfo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class NfoReaderTest {

    @Test
    void anEncodersNfoNamesItsSourceRelease() throws Exception {
        Nfo nfo = NfoReader.read(fixture("vault-ran.nfo"));
        assertThat(nfo.releaseNames())
                .extracting(ReleaseName::name)
                .containsExactly("1080p.BluRay.REMUX.AVC.DTS-HD.MA.5.1-SUINA");
        assertThat(nfo.releaseNames().get(0).position()).isEqualTo(nfo.text().indexOf("1080p.BluRay"));
        assertThat(nfo.namesOneRelease()).isTrue();
        assertThat(nfo.charset()).isEqualTo("windows-1252");
    }

    @Test
    void spacedSourceNamesAreNotTakenForReleases() throws Exception {
        Nfo nfo = NfoReader.read(fixture("vault-fabelmans.nfo"));
        assertThat(nfo.releaseNames()).isEmpty();
        assertThat(nfo.namesOneRelease()).isFalse();
    }

    @Test
    void aKodiNfoGivesItsBareImdbId() throws Exception {
        Nfo nfo = NfoReader.read(fixture("kodi-episode.nfo"));
        assertThat(nfo.imdbIds()).containsExactly("tt32368801");
        assertThat(nfo.tvdbIds()).isEmpty();
        assertThat(nfo.releaseNames()).isEmpty();
    }

    @Test
    void aSceneNfoNamesItsOwnReleaseAmongProse() throws Exception {
        Nfo nfo = NfoReader.read(fixture("tvx264-2016.nfo"));
        assertThat(nfo.releaseNames())
                .extracting(ReleaseName::name)
                .containsExactly("The.720p.TV.x264.Releasing.Standards.2016-TVx264");
        assertThat(nfo.namesOneRelease()).isTrue();
        assertThat(nfo.text()).doesNotContain("\r");
    }

    @Test
    void dottedWordsThatAreNotReleasesAreNotTaken() throws Exception {
        assertThat(NfoReader.read(fixture("sdtvx264-2012.nfo")).releaseNames()).isEmpty();
    }

    @Test
    void realCp437ArtReadsAsBlocks() throws Exception {
        byte[] bytes = fixture("matrix-ctp-art.nfo");
        Nfo nfo = NfoReader.read(bytes);
        assertThat(nfo.charset()).isEqualTo("IBM437");
        assertThat(nfo.text()).contains("▄▄▄▄▄", "█", "▀▀▀", "▓", "▒", "░");
        assertThat(NfoReader.looksLikeNfo(bytes)).isTrue();
    }

    @Test
    void cp437ArtMadeHereWithEveryBlockByteReadsAsCp437() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int[] art = {0xDB, 0xDC, 0xDD, 0xDE, 0xDF, 0xB0, 0xB1, 0xB2, 0xC4, 0xCD, 0xBA, 0xC9, 0xBB};
        for (int row = 0; row < 6; row++) {
            for (int i = 0; i < 60; i++) {
                out.write(art[(row * 7 + i) % art.length]);
            }
            out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.writeBytes("  Some.Show.S01E02.720p.HDTV.x264-GRP  \u00FE imdb.com/title/tt0944947/\r\n"
                .getBytes(StandardCharsets.ISO_8859_1));
        Nfo nfo = NfoReader.read(out.toByteArray());
        assertThat(nfo.charset()).isEqualTo("IBM437");
        assertThat(nfo.text()).contains("█▄▌▐▀░▒▓─═║╔╗", "■");
        assertThat(nfo.releaseNames())
                .extracting(ReleaseName::name)
                .containsExactly("Some.Show.S01E02.720p.HDTV.x264-GRP");
        assertThat(nfo.imdbIds()).containsExactly("tt0944947");
    }

    @Test
    void charsetsByBomValidUtf8AndElseWindows1252() {
        String text = "Größe: 1,5 GB — Übersetzung ★\r\n";
        assertThat(charsetOf(concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, utf8(text))))
                .isEqualTo("UTF-8");
        assertThat(NfoReader.read(concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, utf8(text)))
                        .text())
                .isEqualTo("Größe: 1,5 GB — Übersetzung ★\n");
        assertThat(charsetOf(utf8(text))).isEqualTo("UTF-8");
        byte[] le = concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, text.getBytes(StandardCharsets.UTF_16LE));
        assertThat(charsetOf(le)).isEqualTo("UTF-16LE");
        assertThat(NfoReader.read(le).text()).isEqualTo("Größe: 1,5 GB — Übersetzung ★\n");
        byte[] be = concat(new byte[] {(byte) 0xFE, (byte) 0xFF}, text.getBytes(StandardCharsets.UTF_16BE));
        assertThat(NfoReader.read(be).text()).isEqualTo("Größe: 1,5 GB — Übersetzung ★\n");
        byte[] german =
                "Größe: 1,5 GB – Übersetzung von Jürgen, Straße 5\r\n".getBytes(Charset.forName("windows-1252"));
        assertThat(charsetOf(german)).isEqualTo("windows-1252");
        assertThat(NfoReader.read(german).text()).isEqualTo("Größe: 1,5 GB – Übersetzung von Jürgen, Straße 5\n");
    }

    @Test
    void aTenMegabyteNfoIsCutAndSaysSo() throws Exception {
        byte[] big = new byte[10 << 20];
        Arrays.fill(big, (byte) 'a');
        Nfo nfo = NfoReader.read(big);
        assertThat(nfo.cut()).isTrue();
        assertThat(nfo.text()).hasSize(NfoReader.MAX_BYTES);
        assertThat(nfo.reason()).startsWith("cut:");
        Nfo streamed = NfoReader.read(new ByteArrayInputStream(big));
        assertThat(streamed.cut()).isTrue();
        assertThat(streamed.text()).hasSize(NfoReader.MAX_BYTES);
        assertThat(NfoReader.read(Arrays.copyOf(big, NfoReader.MAX_BYTES)).cut())
                .isFalse();
    }

    @Test
    void aCutInsideAUtf8SequenceStillReadsAsUtf8() {
        byte[] text = utf8("é".repeat(NfoReader.MAX_BYTES));
        Nfo nfo = NfoReader.read(text);
        assertThat(nfo.charset()).isEqualTo("UTF-8");
        assertThat(nfo.text()).startsWith("éééé");
    }

    @Test
    void imdbTvdbAndTvmazeLinksInTheirUsualShapes() {
        String text = String.join(
                "\n",
                "IMDb.....: https://www.imdb.com/title/tt0903747/",
                "also http://imdb.com/title/tt12345678 and bare tt7654321, not tt123456 or tt123456789 or att1234567",
                "TVDB.....: http://thetvdb.com/?tab=series&id=81189&lid=7",
                "           https://www.thetvdb.com/index.php?tab=series&amp;id=121361",
                "           https://thetvdb.com/dereferrer/series/295759",
                "           https://thetvdb.com/series/breaking-bad",
                "TVmaze...: https://www.tvmaze.com/shows/169/breaking-bad and tvmaze.com/shows/82",
                "again....: https://www.imdb.com/title/tt0903747/");
        Nfo nfo = NfoReader.read(utf8(text));
        assertThat(nfo.imdbIds()).containsExactly("tt0903747", "tt12345678", "tt7654321");
        assertThat(nfo.tvdbIds()).containsExactly(81189L, 121361L, 295759L);
        assertThat(nfo.tvdbSlugs()).containsExactly("breaking-bad");
        assertThat(nfo.tvmazeIds()).containsExactly(169L, 82L);
    }

    @Test
    void aPackOrAGroupsHistoryNamesSeveralReleases() {
        String text = String.join(
                "\n",
                "Release: Breaking.Bad.S05E16.Felina.720p.HDTV.x264-IMMERSE",
                "Files:   breaking.bad.s05e16.felina.720p.hdtv.x264-immerse.mkv",
                "",
                "Our previous releases:",
                "  Breaking.Bad.S05E15.Granite.State.720p.HDTV.x264-IMMERSE",
                "  Daft_Punk-Random_Access_Memories-2013-GRP",
                "  Some.Movie.2019.1080p.WEB-DL.DD5.1.H264-FGT.part01.rar",
                "Not releases: www.example-site.com, Mr.-Smith, e.g.-this, node.js-style, x264-tMod");
        Nfo nfo = NfoReader.read(utf8(text));
        assertThat(nfo.releaseNames())
                .extracting(ReleaseName::name)
                .containsExactly(
                        "Breaking.Bad.S05E16.Felina.720p.HDTV.x264-IMMERSE",
                        "breaking.bad.s05e16.felina.720p.hdtv.x264-immerse",
                        "Breaking.Bad.S05E15.Granite.State.720p.HDTV.x264-IMMERSE",
                        "Daft_Punk-Random_Access_Memories-2013-GRP",
                        "Some.Movie.2019.1080p.WEB-DL.DD5.1.H264-FGT");
        assertThat(nfo.distinctReleaseNames()).isEqualTo(4);
        assertThat(nfo.namesOneRelease()).isFalse();
        Nfo one = NfoReader.read(
                utf8("Breaking.Bad.S05E16.720p.HDTV.x264-IMMERSE\nbreaking.bad.s05e16.720p.hdtv.x264-immerse.mkv\n"));
        assertThat(one.namesOneRelease()).isTrue();
    }

    @Test
    void looksLikeNfoByContentNotName() throws Exception {
        for (String f : new String[] {"vault-ran.nfo", "vault-fabelmans.nfo", "kodi-episode.nfo", "tvx264-2016.nfo"}) {
            assertThat(NfoReader.looksLikeNfo(fixture(f))).as(f).isTrue();
        }
        assertThat(NfoReader.looksLikeNfo(concat(
                        new byte[] {(byte) 0xFF, (byte) 0xFE},
                        "Release notes\r\nline two\r\n".getBytes(StandardCharsets.UTF_16LE))))
                .isTrue();
        byte[] random = new byte[4096];
        new java.util.Random(41).nextBytes(random);
        assertThat(NfoReader.looksLikeNfo(random)).isFalse();
        assertThat(NfoReader.looksLikeNfo("PAR2\0PKT".getBytes(StandardCharsets.ISO_8859_1)))
                .isFalse();
        assertThat(NfoReader.looksLikeNfo(concat(
                        "Rar!\u001a\u0007\u0001\0".getBytes(StandardCharsets.ISO_8859_1),
                        utf8("text after a rar magic\n"))))
                .isFalse();
        assertThat(NfoReader.looksLikeNfo(
                        utf8("; made by a tool\r\nfile.part01.rar 1a2b3c4d\r\nfile.part02.rar DEADBEEF\r\n")))
                .as("an SFV")
                .isFalse();
        assertThat(NfoReader.looksLikeNfo(new byte[0])).isFalse();
        assertThat(NfoReader.looksLikeNfo(utf8("x".repeat(500))))
                .as("no line break in 500 bytes")
                .isFalse();
    }

    private static String charsetOf(byte[] b) {
        return NfoReader.read(b).charset();
    }

    static byte[] fixture(String name) throws IOException {
        try (InputStream in = NfoReaderTest.class.getResourceAsStream("/nfo/" + name)) {
            if (in == null) {
                throw new AssertionError("fixture nfo/" + name + " is missing");
            }
            return in.readAllBytes();
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
