package headway.inspect.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The real tools and files the archive tests use; each fails, never skips, when one is missing. */
final class TestTools {

    static final String RARFILE = "rarfile-4.5";

    private TestTools() {}

    /** rarfile's test archives, unpacked by bin/install-test-tools from the package's sdist. */
    static Path rarfileFiles() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path files = dir.resolve(".tools").resolve(RARFILE).resolve("test").resolve("files");
            if (Files.isDirectory(files)) {
                return files;
            }
        }
        return fail("no .tools/" + RARFILE
                + "/test/files (rarfile's RAR test archives): run bin/install-test-tools rarfile");
    }

    /** Debian's 7z (p7zip-full). */
    static String sevenZip() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "7z");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return fail("no 7z on the PATH (Debian's p7zip-full): run bin/install-test-tools sevenzip");
    }

    /** Runs a command in {@code dir}, failing the test on a non-zero exit with what it printed. */
    static void run(Path dir, String... command) {
        try {
            Path log = Files.createTempFile("archive-tool", ".log");
            Process p = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail(Arrays.toString(command) + " did not finish within 60 s");
            }
            String printed = Files.readString(log, StandardCharsets.UTF_8);
            Files.delete(log);
            assertThat(p.exitValue())
                    .as("%s printed:%n%s", Arrays.toString(command), printed)
                    .isZero();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A committed fixture from src/test/resources. */
    static byte[] resource(String path) {
        try (InputStream in = TestTools.class.getResourceAsStream("/" + path)) {
            assertThat(in).as("fixture %s", path).isNotNull();
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] head(byte[] b, int n) {
        return Arrays.copyOf(b, Math.min(n, b.length));
    }

    static byte[] tail(byte[] b, int n) {
        return Arrays.copyOfRange(b, Math.max(0, b.length - n), b.length);
    }

    /** The files of {@code dir} whose names start with {@code prefix}, sorted by name. */
    static List<Path> volumes(Path dir, String prefix) {
        List<Path> out = new ArrayList<>();
        try (var s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().startsWith(prefix))
                    .sorted()
                    .forEach(out::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
