package headway.inspect.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The entry points' sniffing and dispatch, and the name and inner-archive rules all readers share. */
class ArchivesTest {

    @Test
    void sniffKnowsEachFormatByItsFirstBytesAndNothingElse() {
        assertThat(Archives.sniff(TestTools.resource("rar/rar3-subdirs.rar"))).contains(ArchiveFormat.RAR4);
        assertThat(Archives.sniff(TestTools.resource("rar/rar5-subdirs.rar"))).contains(ArchiveFormat.RAR5);
        assertThat(Archives.sniff(Bytes.of(0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C, 0, 4)))
                .contains(ArchiveFormat.SEVEN_ZIP);
        assertThat(Archives.sniff(Bytes.of(0x50, 0x4B, 3, 4, 20, 0))).contains(ArchiveFormat.ZIP);
        assertThat(Archives.sniff(Bytes.of(0x50, 0x4B, 5, 6, 0, 0))).contains(ArchiveFormat.ZIP);
        assertThat(Archives.sniff(Bytes.of(0x50, 0x4B, 7, 8, 0x50, 0x4B, 3, 4))).contains(ArchiveFormat.ZIP);
        assertThat(Archives.sniff(new byte[0])).isEmpty();
        assertThat(Archives.sniff("Rar!".getBytes(StandardCharsets.US_ASCII))).isEmpty();
        assertThat(Archives.sniff(Bytes.of(0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x02, 0x00)))
                .isEmpty();
        assertThat(Archives.sniff("PAR2\0PKT".getBytes(StandardCharsets.US_ASCII)))
                .isEmpty();
        assertThat(Archives.list("not an archive".getBytes(StandardCharsets.US_ASCII), new byte[0], 0))
                .isEqualTo(Optional.empty());
    }

    @Test
    void eachReaderSaysWhenTheBytesAreNotItsFormat() {
        byte[] rar5 = TestTools.resource("rar/rar5-subdirs.rar");
        assertThat(Archives.rar4(rar5).reason()).isEqualTo("no RAR 4 marker at offset 0");
        assertThat(Archives.rar5(TestTools.resource("rar/rar3-subdirs.rar")).reason())
                .isEqualTo("no RAR 5 signature at offset 0");
        assertThat(Archives.sevenZip(rar5, rar5, 0).reason()).isEqualTo("no 7z signature at offset 0");
        assertThat(Archives.zip(rar5, new byte[0], 0).reason()).startsWith("no local header at offset 0");
        assertThat(Archives.sevenZip(new byte[40], new byte[8], -1).reason()).contains("not a place in an archive");
    }

    @Test
    void namesAreDecodedTotallyCleanedAndBounded() {
        byte[] bad = {(byte) 0xC3, 0x28, 'a', 0x01, '\\', 'b', (byte) 0xE2, (byte) 0x80, (byte) 0xAE, 'c'};
        assertThat(Names.decode(bad, 0, bad.length, StandardCharsets.UTF_8)).isEqualTo("\uFFFD(a/bc");
        assertThat(Names.utf8OrCp437(new byte[] {(byte) 0x81, 'x', (byte) 0xDB}, 0, 3))
                .isEqualTo("üx█");
        assertThat(Names.utf8OrCp437("naïve".getBytes(StandardCharsets.UTF_8), 0, 6))
                .isEqualTo("naïve");
        String pairs = "\uD835\uDC00".repeat(Names.MAX_CHARS);
        String cut = Names.clean(pairs);
        assertThat(cut).hasSize(Names.MAX_CHARS);
        assertThat(Character.isHighSurrogate(cut.charAt(cut.length() - 1))).isFalse();
        assertThat(Names.clean("x" + "\uD835\uDC00".repeat(Names.MAX_CHARS))).hasSize(Names.MAX_CHARS - 1);
        assertThat(Names.clean("lone \uDC00 and \uD800")).isEqualTo("lone \uFFFD and \uFFFD");
        assertThat(Names.clean("evil\u202Erar.exe\u0000\n")).isEqualTo("evilrar.exe");
    }

    @Test
    void innerArchivesByNameAndByMagic() {
        for (String name : new String[] {
            "a.rar", "dir/B.RAR", "x.part01.rar", "x.r00", "x.r17", "x.s02", "x.zip", "x.z01", "x.7z", "x.7z.001",
            "x.rar.002", "x.tar", "x.tar.gz", "x.tgz", "x.bz2", "x.xz", "x.zst", "x.cab", "x.arj", "x.ace"
        }) {
            assertThat(InnerArchives.byName(name)).as(name).isTrue();
        }
        for (String name : new String[] {
            "a.mkv", "a.264", "a.001", "a.mp3.001", "rar", "a.rar/readme.txt", "a.iso", "a.nfo", "a.r", "a.r001"
        }) {
            assertThat(InnerArchives.byName(name)).as(name).isFalse();
        }
        byte[] gzip = Bytes.of(0x1F, 0x8B, 0x08, 0, 0, 0);
        assertThat(InnerArchives.byMagic(gzip, 0, gzip.length)).isTrue();
        assertThat(InnerArchives.byMagic(gzip, 0, 2))
                .as("cut before the magic ends")
                .isFalse();
        byte[] bzip2 = "BZh91AY&SY".getBytes(StandardCharsets.US_ASCII);
        assertThat(InnerArchives.byMagic(bzip2, 0, bzip2.length)).isTrue();
        assertThat(InnerArchives.byMagic("BZh text".getBytes(StandardCharsets.US_ASCII), 0, 8))
                .isFalse();
        byte[] tar = new byte[512];
        System.arraycopy("ustar".getBytes(StandardCharsets.US_ASCII), 0, tar, 257, 5);
        assertThat(InnerArchives.byMagic(tar, 0, tar.length)).isTrue();
        assertThat(InnerArchives.byMagic(new byte[512], 0, 512)).isFalse();
    }
}
