package headway.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers that are not ours: PyPI's feedparser parses the search feeds and PyPI's nzb parses
 * every NZB that {@code t=get} returns (src/test/python/consumers.py), against a served catalog.
 * Fails, never skips, without them: bin/install-test-tools installs them into .tools/venv.
 */
class PythonConsumersTest {

    @TempDir
    Path tmp;

    @Test
    void feedparserAndTheNzbPackageReadWhatServeHandsOut() throws Exception {
        Path python = python();
        try (ServedCatalog served = ServedCatalog.start()) {
            String key = served.stores.apiKeys().add("python", null, null);
            Path out = tmp.resolve("out");
            Process p = new ProcessBuilder(
                            python.toString(),
                            Path.of("src/test/python/consumers.py").toString(),
                            served.base(),
                            key)
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("consumers.py did not finish within 120 s:\n" + Files.readString(out));
            }
            String printed = Files.readString(out);
            assertThat(p.exitValue()).as(printed).isZero();
            assertThat(printed).containsPattern("consumers: \\d+ checks passed");
        }
    }

    /** The venv bin/install-test-tools makes, found from the module's directory up. */
    private static Path python() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(".tools/venv/bin/python");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return fail("no .tools/venv/bin/python with feedparser and nzb: run bin/install-test-tools python");
    }
}
