package headway.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every shipped JVM start (bin/headway; docker/headway.sh, the image's entrypoint) exits on an
 * OutOfMemoryError: the JVM options the scripts pass are read from them and given to a JVM that
 * runs out of heap in a worker thread, which exits, where the same JVM without them hangs.
 */
class OutOfMemoryExitTest {

    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

    /** The options of the script's {@code exec java} line that do not come from a variable. */
    private static List<String> jvmOptions(Path script) throws IOException {
        String exec = Files.readAllLines(script).stream()
                .filter(l -> l.strip().startsWith("exec java "))
                .findFirst()
                .orElseThrow(() -> new AssertionError(script + " starts no JVM with exec java"));
        return Arrays.stream(exec.strip().split("\\s+"))
                .filter(t -> t.startsWith("-XX:"))
                .toList();
    }

    private static Process probe(List<String> options) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(options);
        cmd.addAll(List.of("-Xmx32m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path")));
        cmd.add(OutOfMemoryProbe.class.getName());
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    @Test
    void theLauncherAndTheImagesEntrypointExitOnOutOfMemory() throws Exception {
        String dockerfile = Files.readString(ROOT.resolve("docker/Dockerfile"));
        assertThat(dockerfile)
                .contains("COPY docker/headway.sh /usr/local/bin/headway")
                .contains("ENTRYPOINT [\"headway\"]");
        for (Path script : List.of(ROOT.resolve("bin/headway"), ROOT.resolve("docker/headway.sh"))) {
            List<String> options = jvmOptions(script);
            assertThat(options).as(script.toString()).contains("-XX:+ExitOnOutOfMemoryError");
            Process p = probe(options);
            assertThat(p.waitFor(60, TimeUnit.SECONDS))
                    .as(script + "'s JVM exits when a thread runs out of heap")
                    .isTrue();
            assertThat(p.exitValue()).isNotZero();
        }
    }

    @Test
    void withoutTheOptionTheSameJvmHangs() throws Exception {
        Process p = probe(List.of());
        try {
            assertThat(p.waitFor(5, TimeUnit.SECONDS))
                    .as("the probe hangs without -XX:+ExitOnOutOfMemoryError, so the test above can fail")
                    .isFalse();
        } finally {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
