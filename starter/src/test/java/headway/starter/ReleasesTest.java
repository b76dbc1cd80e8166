package headway.starter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** NZB files written safely: whole or not at all, never over a device, directory or symlink unless forced, bounded names. */
class ReleasesTest {

    @TempDir
    Path dir;

    @Test
    void aSymlinkIsRefusedAndLeftAloneUnlessForced() throws IOException {
        Path target = Files.writeString(dir.resolve("target.txt"), "keep me");
        Path link = Files.createSymbolicLink(dir.resolve("out.nzb"), target);
        assertThatThrownBy(() -> Releases.write(link, false, out -> out.write(1)))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("is a symbolic link")
                .hasMessageContaining("--force");
        assertThat(Files.readString(target)).isEqualTo("keep me");

        Releases.write(link, true, out -> out.write("nzb".getBytes(StandardCharsets.UTF_8)));
        assertThat(Files.isSymbolicLink(link)).as("the link itself replaced").isFalse();
        assertThat(Files.readString(link)).isEqualTo("nzb");
        assertThat(Files.readString(target)).isEqualTo("keep me");
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void aDeviceIsRefused() {
        Path devNull = Path.of("/dev/null");
        assertThatThrownBy(() -> Releases.write(devNull, false, out -> out.write(1)))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("not a regular file");
        assertThat(Files.isRegularFile(devNull)).isFalse();
    }

    @Test
    void aDirectoryIsRefusedEvenWhenForced() {
        assertThatThrownBy(() -> Releases.write(dir, true, out -> out.write(1)))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("is a directory");
    }

    @Test
    void aFailedWriteLeavesNoTemporaryFileAndTheOldFileIntact() throws IOException {
        Path file = Files.writeString(dir.resolve("old.nzb"), "old");
        assertThatThrownBy(() -> Releases.write(file, false, out -> {
                    out.write(1);
                    throw new IOException("disk full");
                }))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("disk full");
        assertThat(Files.readString(file)).isEqualTo("old");
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void aRegularFileIsReplacedWhole() throws IOException {
        Path file = Files.writeString(dir.resolve("r.nzb"), "old");
        Releases.write(file, false, out -> out.write("new".getBytes(StandardCharsets.UTF_8)));
        assertThat(Files.readString(file)).isEqualTo("new");
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void fileNamesAreBoundedSafeAndDistinct() throws IOException {
        assertThat(Releases.fileName("Show.S01E01.1080p-GRP")).isEqualTo("Show.S01E01.1080p-GRP.nzb");
        assertThat(Releases.fileName("Déjà.Vu.Über")).as("UTF-8 stays readable").isEqualTo("Déjà.Vu.Über.nzb");
        String slash = Releases.fileName("a/b");
        assertThat(slash).matches("a_b~[0-9a-f]{12}\\.nzb");
        assertThat(Releases.fileName("a_b")).isEqualTo("a_b.nzb").isNotEqualTo(slash);
        assertThat(Releases.fileName("../../etc/passwd")).doesNotContain("/").doesNotStartWith(".");
        String longName = "x".repeat(300);
        String bounded = Releases.fileName(longName);
        assertThat(bounded.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(255);
        assertThat(bounded).isNotEqualTo(Releases.fileName("x".repeat(301)));
        String wide = Releases.fileName("日本語".repeat(100));
        assertThat(wide.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(255);
        Path written = Releases.write(dir.resolve(bounded), false, out -> out.write(1));
        assertThat(Files.size(written)).isEqualTo(1);
        assertThat(Files.isRegularFile(Releases.write(dir.resolve(wide), false, out -> out.write(1))))
                .isTrue();
    }

    private List<Path> leftovers() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".tmp"))
                    .toList();
        }
    }
}
