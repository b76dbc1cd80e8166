package headway.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.testing.WorkflowReplayer;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Replays histories recorded by an earlier version of the group workflow (src/test/resources/histories),
 * so a change that breaks determinism for running workflows fails the build. Record new ones with
 * {@code mvn -pl workflows test -Dheadway.recordHistories=src/test/resources/histories -Dtest=GroupWorkflowTest}
 * and keep the old ones while workflows that ran that code may still be open.
 */
class HistoryReplayTest {

    @Test
    void recordedHistoriesReplay() throws Exception {
        List<String> files = histories();
        assertThat(files).hasSizeGreaterThanOrEqualTo(2);
        for (String file : files) {
            WorkflowReplayer.replayWorkflowExecutionFromResource("histories/" + file, GroupWorkflowImpl.class);
        }
    }

    private static List<String> histories() throws IOException, URISyntaxException {
        Path dir = Path.of(HistoryReplayTest.class.getResource("/histories").toURI());
        try (Stream<Path> paths = Files.list(dir)) {
            return paths.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".json"))
                    .sorted()
                    .toList();
        }
    }
}
