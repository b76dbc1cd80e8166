package headway.inspect.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The 7z reader on archives made by Debian's 7z (p7zip-full) from {@link Samples}: the reader gets
 * the first 64 KiB of the first volume and the last 64 KiB of the last, with the tail's offset,
 * as the deep index will hand them over; names and sizes are checked against the files written.
 */
class SevenZipArchivesTest {

    private static final int PART = 64 * 1024;

    @TempDir
    static Path dir;

    private static Samples samples;

    @BeforeAll
    static void pack() {
        String sevenZip = TestTools.sevenZip();
        samples = Samples.write(dir.resolve("src"), 7);
        Path src = dir.resolve("src");
        TestTools.run(src, sevenZip, "a", "-bd", "../plain.7z", ".");
        TestTools.run(src, sevenZip, "a", "-bd", "-mx0", "../store.7z", ".");
        TestTools.run(src, sevenZip, "a", "-bd", "-mhc=off", "../plainheader.7z", ".");
        TestTools.run(src, sevenZip, "a", "-bd", "-m0=LZMA", "-mf=BCJ", "../lzma.7z", ".");
        TestTools.run(src, sevenZip, "a", "-bd", "-pSecret", "../entries.7z", ".");
        TestTools.run(src, sevenZip, "a", "-bd", "-pSecret", "-mhe=on", "../headers.7z", ".");
        TestTools.run(src, sevenZip, "a", "-bd", "-v50k", "../volumes.7z", ".");
        TestTools.run(src, sevenZip, "a", "-bd", "-mx0", "-v40k", "../storedvolumes.7z", ".");
    }

    /** The listing from the first and last PART bytes of the whole (concatenated) archive. */
    private static Listing headAndTail(String... volumes) {
        byte[] first = TestTools.read(dir.resolve(volumes[0]));
        byte[] last = TestTools.read(dir.resolve(volumes[volumes.length - 1]));
        long before = 0;
        for (int i = 0; i < volumes.length - 1; i++) {
            before += TestTools.read(dir.resolve(volumes[i])).length;
        }
        byte[] tail = TestTools.tail(last, PART);
        return Archives.sevenZip(TestTools.head(first, PART), tail, before + last.length - tail.length);
    }

    private static void assertListsTheSamples(Listing l) {
        assertThat(l.format()).isEqualTo(ArchiveFormat.SEVEN_ZIP);
        assertThat(l.complete()).as(l.reason()).isTrue();
        Map<String, Long> files = new HashMap<>();
        l.entries().stream()
                .filter(e -> !e.directory())
                .forEach(e -> files.put(e.name(), e.size().orElseThrow()));
        assertThat(files).isEqualTo(samples.files);
        assertThat(l.entries().stream().filter(Listing.Entry::directory).map(Listing.Entry::name))
                .containsExactlyInAnyOrderElementsOf(Samples.DIRECTORIES);
        assertThat(l.entries())
                .filteredOn(e -> e.name().equals(Samples.NAMED_LIKE_ARCHIVE))
                .singleElement()
                .satisfies(e -> assertThat(e.archive()).isTrue());
    }

    @Test
    void defaultCompressionListsFromTheEncodedHeaderInTheTail() {
        Listing l = headAndTail("plain.7z");
        assertListsTheSamples(l);
        assertThat(l.passworded()).isFalse();
        assertThat(l.headersEncrypted()).isFalse();
        assertThat(l.volume()).isEqualTo(VolumeRole.UNSTATED);
    }

    @Test
    void aPlainHeaderAndAnLzmaHeaderWithABcjArchiveReadAlike() {
        assertListsTheSamples(headAndTail("plainheader.7z"));
        assertListsTheSamples(headAndTail("lzma.7z"));
    }

    @Test
    void storedArchiveShowsAnInnerArchiveByItsMagicAndPackedSizes() {
        Listing l = headAndTail("store.7z");
        assertListsTheSamples(l);
        assertThat(l.entries())
                .filteredOn(e -> e.name().equals(Samples.ARCHIVE_BY_MAGIC))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.archive())
                            .as("a ZIP under a .dat name, its data in the head")
                            .isTrue();
                    assertThat(e.packedSize()).isEqualTo(e.size());
                });
        assertThat(l.entries())
                .filteredOn(e -> e.name().equals("a.bin"))
                .singleElement()
                .satisfies(e -> assertThat(e.archive()).isFalse());
        assertThat(l.innerArchive()).isTrue();
    }

    @Test
    void aPasswordEncryptsTheEntriesButNotTheirNames() {
        Listing l = headAndTail("entries.7z");
        assertListsTheSamples(l);
        assertThat(l.headersEncrypted()).isFalse();
        assertThat(l.entries())
                .filteredOn(e -> e.size().orElseThrow() > 0)
                .isNotEmpty()
                .allMatch(Listing.Entry::encrypted);
        assertThat(l.passworded()).isTrue();
    }

    @Test
    void encryptedHeadersGiveAnEmptyPasswordedListing() {
        Listing l = headAndTail("headers.7z");
        assertThat(l.headersEncrypted()).isTrue();
        assertThat(l.entries()).isEmpty();
        assertThat(l.passworded()).isTrue();
        assertThat(l.reason()).isEqualTo("the headers are encrypted");
    }

    @Test
    void volumesAreReadFromTheFirstVolumesHeadAndTheLastVolumesTail() {
        List<String> volumes = TestTools.volumes(dir, "volumes.7z.").stream()
                .map(p -> p.getFileName().toString())
                .toList();
        assertThat(volumes).hasSizeGreaterThanOrEqualTo(3);
        assertListsTheSamples(headAndTail(volumes.toArray(String[]::new)));
        List<String> stored = TestTools.volumes(dir, "storedvolumes.7z.").stream()
                .map(p -> p.getFileName().toString())
                .toList();
        Listing l = headAndTail(stored.toArray(String[]::new));
        assertListsTheSamples(l);
        assertThat(l.entries())
                .filteredOn(e -> e.name().equals("a.bin"))
                .singleElement()
                .satisfies(e -> assertThat(e.packedSize()).isEqualTo(OptionalLong.of(200_000)));
    }

    /** The listing from the last PART bytes of the last volume alone, as a shuffled post gives them. */
    private static Listing endAlone(String lastVolume) {
        return Archives.sevenZipEnd(TestTools.tail(TestTools.read(dir.resolve(lastVolume)), PART));
    }

    @Test
    void theLastVolumesEndAloneListsOrFlagsTheArchive() {
        assertListsTheSamples(endAlone("plain.7z"));
        assertListsTheSamples(endAlone("lzma.7z"));
        Listing entries = endAlone("entries.7z");
        assertListsTheSamples(entries);
        assertThat(entries.passworded()).isTrue();
        Listing headers = endAlone("headers.7z");
        assertThat(headers.headersEncrypted()).isTrue();
        assertThat(headers.entries()).isEmpty();
        assertThat(headers.reason()).isEqualTo("the headers are encrypted");
        List<Path> volumes = TestTools.volumes(dir, "volumes.7z.");
        assertListsTheSamples(
                endAlone(volumes.get(volumes.size() - 1).getFileName().toString()));
        List<Path> stored = TestTools.volumes(dir, "storedvolumes.7z.");
        assertListsTheSamples(
                endAlone(stored.get(stored.size() - 1).getFileName().toString()));
    }

    @Test
    void aPlainHeaderEndsTheLastVolumeToo() {
        assertListsTheSamples(endAlone("plainheader.7z"));
        Listing stored = endAlone("store.7z");
        assertListsTheSamples(stored);
        assertThat(stored.passworded()).isFalse();
    }

    @Test
    void anEndThatIsNoHeaderIsAReasonNotAListing() {
        byte[] archive = TestTools.read(dir.resolve("plain.7z"));
        for (int cut = 1; cut <= 40; cut++) {
            Listing l = Archives.sevenZipEnd(Arrays.copyOf(archive, archive.length - cut));
            assertThat(l.complete()).as("cut %d: %s", cut, l.reason()).isFalse();
            assertThat(l.entries()).isEmpty();
            assertThat(l.headersEncrypted()).isFalse();
        }
        byte[] first = TestTools.read(dir.resolve(
                TestTools.volumes(dir, "volumes.7z.").get(0).getFileName().toString()));
        assertThat(Archives.sevenZipEnd(first).complete()).isFalse();
        assertThat(Archives.sevenZipEnd(new byte[0]).reason()).contains("no 7z header");
    }

    @Test
    void aHeaderOutsideTheBytesGivenIsAReason() {
        byte[] archive = TestTools.read(dir.resolve("plain.7z"));
        Listing shortTail =
                Archives.sevenZip(TestTools.head(archive, PART), TestTools.tail(archive, 20), archive.length - 20);
        assertThat(shortTail.entries()).isEmpty();
        assertThat(shortTail.reason()).contains("not in the bytes given");
        Listing wrongOffset = Archives.sevenZip(TestTools.head(archive, PART), TestTools.tail(archive, PART), 5);
        assertThat(wrongOffset.complete()).isFalse();
        Listing noTail = Archives.sevenZip(TestTools.head(archive, 32), new byte[0], 32);
        assertThat(noTail.reason()).contains("past the archive");
    }
}
