package headway.inspect.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ZIP reader on archives made by Debian's 7z ({@code -tzip}, plain, ZipCrypto, AES, split) and
 * by Java's ZipOutputStream (deflated entries whose sizes follow their data, UTF-8 names, ZIP64):
 * from the central directory in the tail, and from the local headers of the head alone.
 */
class ZipArchivesTest {

    private static final int PART = 64 * 1024;

    @TempDir
    static Path dir;

    private static Samples samples;

    @BeforeAll
    static void pack() {
        String sevenZip = TestTools.sevenZip();
        samples = Samples.write(dir.resolve("src"), 11);
        Path src = dir.resolve("src");
        TestTools.run(src, sevenZip, "a", "-bd", "-tzip", "../plain.zip", ".");
        TestTools.run(src, sevenZip, "a", "-bd", "-tzip", "-mx0", "../stored.zip", ".");
        TestTools.run(src, sevenZip, "a", "-bd", "-tzip", "-pSecret", "../zipcrypto.zip", ".");
        TestTools.run(src, sevenZip, "a", "-bd", "-tzip", "-pSecret", "-mem=AES256", "../aes.zip", ".");
        TestTools.run(src, sevenZip, "a", "-bd", "-tzip", "-v50k", "../split.zip", ".");
    }

    private static Listing central(byte[] zip) {
        byte[] tail = TestTools.tail(zip, PART);
        return Archives.zip(TestTools.head(zip, PART), tail, zip.length - tail.length);
    }

    private static Listing local(byte[] zip, int head) {
        return Archives.zip(TestTools.head(zip, head), new byte[0], 0);
    }

    private static Map<String, Long> files(Listing l) {
        Map<String, Long> files = new HashMap<>();
        l.entries().stream()
                .filter(e -> !e.directory())
                .forEach(e -> files.put(e.name(), e.size().orElseThrow()));
        return files;
    }

    @Test
    void theCentralDirectoryInTheTailListsEverything() {
        Listing l = central(TestTools.read(dir.resolve("plain.zip")));
        assertThat(l.format()).isEqualTo(ArchiveFormat.ZIP);
        assertThat(l.complete()).as(l.reason()).isTrue();
        assertThat(l.volume()).isEqualTo(VolumeRole.SINGLE);
        assertThat(files(l)).isEqualTo(samples.files);
        assertThat(l.entries().stream().filter(Listing.Entry::directory).map(Listing.Entry::name))
                .containsExactlyInAnyOrderElementsOf(Samples.DIRECTORIES);
        assertThat(l.passworded()).isFalse();
    }

    @Test
    void theLocalHeadersOfTheHeadListWhatStartsInIt() {
        byte[] zip = TestTools.read(dir.resolve("plain.zip"));
        Listing whole = local(zip, zip.length);
        assertThat(whole.complete()).as(whole.reason()).isTrue();
        assertThat(files(whole)).isEqualTo(samples.files);
        Listing head = local(zip, PART);
        assertThat(head.complete()).isFalse();
        assertThat(head.reason()).contains("runs past the 65536 bytes given");
        assertThat(files(whole)).containsAllEntriesOf(files(head));
        assertThat(head.entries()).isNotEmpty();
    }

    @Test
    void zipCryptoAndAesEntriesAreEncrypted() {
        for (String name : List.of("zipcrypto.zip", "aes.zip")) {
            byte[] zip = TestTools.read(dir.resolve(name));
            for (Listing l : List.of(central(zip), local(zip, zip.length))) {
                assertThat(l.complete()).as(name + ": " + l.reason()).isTrue();
                assertThat(files(l)).as(name).isEqualTo(samples.files);
                assertThat(l.entries()).filteredOn(e -> !e.directory()).allMatch(Listing.Entry::encrypted);
                assertThat(l.passworded()).isTrue();
            }
        }
    }

    @Test
    void aSplitArchiveIsReadFromItsFirstHeadAndLastTail() {
        List<Path> volumes = TestTools.volumes(dir, "split.zip.");
        assertThat(volumes).hasSizeGreaterThanOrEqualTo(3);
        byte[] first = TestTools.read(volumes.get(0));
        byte[] last = TestTools.read(volumes.get(volumes.size() - 1));
        long before = 0;
        for (Path v : volumes.subList(0, volumes.size() - 1)) {
            before += TestTools.read(v).length;
        }
        byte[] tail = TestTools.tail(last, 16 * 1024);
        Listing l = Archives.zip(TestTools.head(first, PART), tail, before + last.length - tail.length);
        assertThat(l.complete()).as(l.reason()).isTrue();
        assertThat(files(l)).isEqualTo(samples.files);
    }

    @Test
    void javasDeflatedEntriesWithSizesAfterTheirDataAreFoundByTheirDescriptors() throws IOException {
        Random random = new Random(3);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Map<String, Long> written = new HashMap<>();
        try (ZipOutputStream zip = new ZipOutputStream(out, StandardCharsets.UTF_8)) {
            for (int i = 0; i < 30; i++) {
                String name = i % 3 == 0 ? "dir " + i + "/Ωμέγα-" + i + ".txt" : "file-" + i + ".nfo";
                byte[] data = i % 2 == 0
                        ? Samples.bytes(random, random.nextInt(5000))
                        : ("text " + i).repeat(200).getBytes(StandardCharsets.UTF_8);
                zip.putNextEntry(new ZipEntry(name));
                zip.write(data);
                zip.closeEntry();
                written.put(name, (long) data.length);
            }
            zip.putNextEntry(new ZipEntry("nested/archive.7z"));
            zip.write(new byte[] {0x37, 0x7A, (byte) 0xBC, (byte) 0xAF, 0x27, 0x1C, 0, 4});
            zip.closeEntry();
            written.put("nested/archive.7z", 8L);
        }
        byte[] zip = out.toByteArray();
        Listing local = local(zip, zip.length);
        assertThat(local.complete()).as(local.reason()).isTrue();
        assertThat(files(local)).isEqualTo(written);
        assertThat(local.innerArchive()).isTrue();
        Listing central = central(zip);
        assertThat(central.complete()).as(central.reason()).isTrue();
        assertThat(files(central)).isEqualTo(written);
    }

    @Test
    void aCentralDirectoryAcrossTheSeamOfAnOverlappingHeadAndTailIsRead() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            for (int i = 0; i < 2_000; i++) {
                zip.putNextEntry(new ZipEntry("file-" + i + ".txt"));
                zip.write(("line " + i).getBytes(StandardCharsets.US_ASCII));
                zip.closeEntry();
            }
        }
        byte[] zip = out.toByteArray();
        int cut = zip.length - zip.length / 4 + 100;
        byte[] tail = TestTools.tail(zip, zip.length / 4);
        Listing l = Archives.zip(TestTools.head(zip, cut), tail, zip.length - tail.length);
        assertThat(l.complete()).as(l.reason()).isTrue();
        assertThat(l.entries()).hasSize(2_000);
        assertThat(l.volume())
                .as("read from the central directory, not the local headers")
                .isEqualTo(VolumeRole.SINGLE);
        Listing apart = Archives.zip(TestTools.head(zip, 1024), tail, zip.length - tail.length);
        assertThat(apart.reason()).as("the directory starts before the tail").contains("is not in the bytes given");
    }

    @Test
    void zip64BeyondTheEntryBoundStopsWithAReason() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int count = 70_000;
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.setLevel(0);
            for (int i = 0; i < count; i++) {
                zip.putNextEntry(new ZipEntry(Integer.toString(i)));
                zip.closeEntry();
            }
        }
        byte[] zip = out.toByteArray();
        Listing l = Archives.zip(new byte[0], zip, 0);
        assertThat(l.entries()).hasSize(Archives.MAX_ENTRIES);
        assertThat(l.entries().get(9_999).name()).isEqualTo("9999");
        assertThat(l.reason()).contains("more than " + Archives.MAX_ENTRIES + " entries");
        assertThat(l.volume()).isEqualTo(VolumeRole.SINGLE);
        assertThat(l.volumeNumber()).isEqualTo(OptionalInt.empty());
    }
}
