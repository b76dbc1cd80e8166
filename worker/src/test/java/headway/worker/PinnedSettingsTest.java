package headway.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.activity.RangeIndexer;
import headway.settings.Setting;
import headway.workflow.TaskQueues;
import io.temporal.worker.WorkerFactoryOptions;
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

    @Test
    void workflowCacheAndThreadsDefaultToTemporalsOwn() {
        WorkerFactoryOptions temporal = WorkerFactoryOptions.newBuilder().validateAndBuildWithDefaults();
        assertThat(WorkerConfig.Workflows.defaults())
                .isEqualTo(new WorkerConfig.Workflows(
                        temporal.getWorkflowCacheSize(), temporal.getMaxWorkflowThreadCount()));
        assertThatThrownBy(() -> new WorkerConfig.Workflows(0, 600))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("HEADWAY_WORKFLOW_CACHE=0 is out of range: use 1..100000");
        assertThatThrownBy(() -> new WorkerConfig.Workflows(600, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("HEADWAY_WORKFLOW_THREADS=1 is out of range: use 2..100000");
    }
}
