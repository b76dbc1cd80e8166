package headway.poster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Where the real tools are: Debian's {@code par2} (par2cmdline) and {@code 7z} (p7zip-full) on the
 * PATH, and rarfile's test archives (its source distribution, unpacked by {@code
 * bin/install-test-tools rarfile} in {@code .tools/rarfile-4.5}).
 *
 * @param par2 the par2 executable
 * @param sevenZip the 7z executable
 * @param rarfileFiles rarfile's {@code test/files} directory
 */
public record ReleaseTools(Path par2, Path sevenZip, Path rarfileFiles) {

    /** The rarfile source distribution the RAR volumes come from. */
    public static final String RARFILE = "rarfile-4.5";

    private static final long TIMEOUT_SECONDS = 120;

    public ReleaseTools {
        Objects.requireNonNull(par2, "par2");
        Objects.requireNonNull(sevenZip, "sevenZip");
        Objects.requireNonNull(rarfileFiles, "rarfileFiles");
    }

    /**
     * The tools on the PATH and rarfile's files in {@code .tools} of the working directory or a
     * directory above it; an exception names the install command for what is missing.
     */
    public static ReleaseTools find() {
        return new ReleaseTools(onPath("par2", "par2"), onPath("7z", "sevenzip"), findRarfileFiles());
    }

    private static Path onPath(String name, String installName) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no " + name + " on the PATH: run bin/install-test-tools " + installName);
    }

    private static Path findRarfileFiles() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path files = dir.resolve(".tools").resolve(RARFILE).resolve("test").resolve("files");
            if (Files.isDirectory(files)) {
                return files;
            }
        }
        throw new IllegalStateException("no .tools/" + RARFILE
                + "/test/files (rarfile's RAR test archives): run bin/install-test-tools rarfile");
    }

    /** Runs {@code command} in {@code dir}; a non-zero exit or a run past two minutes throws with what it printed. */
    static void run(Path dir, List<String> command) throws IOException {
        Path log = Files.createTempFile("release-tool", ".log");
        try {
            Process p = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(command + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
            if (p.exitValue() != 0) {
                throw new IOException(
                        command + " exited " + p.exitValue() + ":\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + Arrays.toString(command.toArray()), e);
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
