package headway.inspect.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The RAR readers on committed archives from rarfile 4.5's test set (ISC licence; see
 * src/test/resources/rar/README.md): names, sizes, flags and volume roles as rarfile's expected
 * listings state them.
 */
class RarFixturesTest {

    private static Listing list(String fixture) {
        return Archives.list(TestTools.resource("rar/" + fixture), new byte[0], 0)
                .orElseThrow();
    }

    private static List<String> names(Listing l) {
        return l.entries().stream().map(Listing.Entry::name).toList();
    }

    @Test
    void rar3ListsFilesAndDirectoriesWithAPackedUnicodeName() {
        Listing l = list("rar3-subdirs.rar");
        assertThat(l.format()).isEqualTo(ArchiveFormat.RAR4);
        assertThat(l.complete()).as(l.reason()).isTrue();
        assertThat(l.volume()).isEqualTo(VolumeRole.SINGLE);
        assertThat(names(l))
                .containsExactly(
                        "sub/dir2/file2.txt",
                        "sub/with space/long fn.txt",
                        "sub/üȵĩöḋè/file.txt",
                        "sub/dir1/file1.txt",
                        "sub/dir2",
                        "sub/with space",
                        "sub/empty",
                        "sub/üȵĩöḋè",
                        "sub/dir1",
                        "sub");
        assertThat(l.entries().get(1).size()).isEqualTo(OptionalLong.of(8));
        assertThat(l.entries().get(4).directory()).isTrue();
        assertThat(l.entries().get(0).directory()).isFalse();
        assertThat(l.passworded()).isFalse();
    }

    @Test
    void rar3PackedUnicodeKeepsCyrillicAndSurrogatePairs() {
        assertThat(names(list("unicode.rar")))
                .containsExactly("уииоотивл.txt", "\uD835\uDC00\uD835\uDC01\uD835\uDC01\uD835\uDC02.txt");
    }

    @Test
    void rar15WithAMainHeaderCommentAndNoEndBlock() {
        Listing l = list("rar15-comment.rar");
        assertThat(names(l)).containsExactly("FILE1.TXT", "FILE2.TXT");
        assertThat(l.entries()).extracting(e -> e.size().getAsLong()).containsExactly(7L, 8L);
        assertThat(l.reason()).contains("before the end-of-archive block");
    }

    @Test
    void rar2SubblockWhoseCrcCoversItsData() {
        Listing l = list("rar2-unix-owner.rar");
        assertThat(names(l)).containsExactly("file.txt");
        assertThat(l.entries().get(0).size()).isEqualTo(OptionalLong.of(4));
        assertThat(l.entries().get(0).packedSize()).isEqualTo(OptionalLong.of(17));
        assertThat(l.reason())
                .as("RAR 2.x writes no end block")
                .contains("after 4 blocks, before the end-of-archive block");
    }

    @Test
    void encryptedFilesAreListedAndMarked() {
        for (String fixture : List.of("rar3-comment-psw.rar", "rar5-psw.rar")) {
            Listing l = list(fixture);
            assertThat(l.headersEncrypted()).isFalse();
            assertThat(l.entries()).isNotEmpty().allMatch(Listing.Entry::encrypted);
            assertThat(l.passworded()).isTrue();
        }
        assertThat(names(list("rar5-psw.rar"))).containsExactly("stest1.txt", "stest2.txt");
        assertThat(list("rar5-psw.rar").entries().get(0).size()).isEqualTo(OptionalLong.of(2048));
    }

    @Test
    void encryptedHeadersGiveAnEmptyPasswordedListing() {
        Listing rar3 = list("rar3-comment-hpsw.rar");
        assertThat(rar3.format()).isEqualTo(ArchiveFormat.RAR4);
        assertThat(rar3.headersEncrypted()).isTrue();
        assertThat(rar3.entries()).isEmpty();
        assertThat(rar3.passworded()).isTrue();
        assertThat(rar3.volume()).isEqualTo(VolumeRole.SINGLE);
        Listing rar5 = list("rar5-hpsw.rar");
        assertThat(rar5.format()).isEqualTo(ArchiveFormat.RAR5);
        assertThat(rar5.headersEncrypted()).isTrue();
        assertThat(rar5.entries()).isEmpty();
        assertThat(rar5.volume()).isEqualTo(VolumeRole.UNSTATED);
    }

    @Test
    void rar5ListsUtf8NamesAndDirectories() {
        Listing l = list("rar5-subdirs.rar");
        assertThat(l.format()).isEqualTo(ArchiveFormat.RAR5);
        assertThat(l.complete()).isTrue();
        assertThat(names(l)).contains("sub/üȵĩöḋè/file.txt", "sub/empty");
        assertThat(l.entries().stream().filter(Listing.Entry::directory).map(Listing.Entry::name))
                .containsExactly("sub/dir2", "sub/with space", "sub/empty", "sub/üȵĩöḋè", "sub/dir1", "sub");
    }

    @Test
    void rar5VolumeHeadsSayWhichVolumeAndStopInsideTheData() {
        Listing first = list("rar5-vols.part1.head4k.rar");
        assertThat(first.volume()).isEqualTo(VolumeRole.FIRST);
        assertThat(first.volumeNumber()).isEqualTo(OptionalInt.of(0));
        assertThat(first.entries()).singleElement().satisfies(e -> {
            assertThat(e.name()).isEqualTo("vols/bigfile.txt");
            assertThat(e.size()).isEqualTo(OptionalLong.of(205_000));
            assertThat(e.splitBefore()).isFalse();
            assertThat(e.splitAfter()).isTrue();
        });
        assertThat(first.reason()).contains("runs past the 4096 bytes given");
        Listing second = list("rar5-vols.part2.head4k.rar");
        assertThat(second.volume()).isEqualTo(VolumeRole.LATER);
        assertThat(second.volumeNumber()).isEqualTo(OptionalInt.of(1));
        assertThat(second.entries()).singleElement().satisfies(e -> {
            assertThat(e.splitBefore()).isTrue();
            assertThat(e.splitAfter()).isTrue();
        });
        Listing last = list("rar5-vols.part3.rar");
        assertThat(last.volumeNumber()).isEqualTo(OptionalInt.of(2));
        assertThat(last.complete()).isTrue();
        assertThat(names(last)).containsExactly("vols/bigfile.txt", "vols/smallfile.txt");
        assertThat(last.entries().get(1).splitBefore()).isFalse();
    }

    @Test
    void rar3OldStyleVolumesSayFirstAndLaterByFlags() {
        Listing first = list("rar3-old.head4k.rar");
        assertThat(first.volume()).isEqualTo(VolumeRole.FIRST);
        assertThat(first.entries())
                .singleElement()
                .satisfies(e -> assertThat(e.splitAfter()).isTrue());
        Listing middle = list("rar3-old.head4k.r00");
        assertThat(middle.volume())
                .as("no first-volume flag, the file continues: a later volume")
                .isEqualTo(VolumeRole.LATER);
        assertThat(middle.volumeNumber()).isEmpty();
        Listing last = list("rar3-old.r01");
        assertThat(last.volume()).isEqualTo(VolumeRole.LATER);
        assertThat(last.volumeNumber()).as("the end block states it").isEqualTo(OptionalInt.of(2));
        assertThat(names(last)).containsExactly("vols/bigfile.txt", "vols/smallfile.txt");
        assertThat(last.entries().get(1).size()).isEqualTo(OptionalLong.of(2050));
    }
}
