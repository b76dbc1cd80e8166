package headway.worker;

import static org.assertj.core.api.Assertions.assertThat;

import headway.activity.RangeIndexer;
import headway.settings.Setting;
import headway.workflow.TaskQueues;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The settings catalogue sits below the modules whose numbers it states: these copies must match their owners. */
class PinnedSettingsTest {

    @Test
    void taskQueueDefaultIsTheWorkflowsSharedQueue() {
        assertThat(Setting.TASK_QUEUE.defaultValue()).isEqualTo(TaskQueues.SHARED);
    }

    @Test
    void batchHelpNamesTheIndexersLargestPiece() {
        assertThat(Setting.BATCH.meaning())
                .endsWith(String.format(Locale.ROOT, "pieces of at most %,d articles", RangeIndexer.MAX_PIECE));
    }
}
