package headway.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GroupConfigTest {

    @Test
    void badSettingIsNamedWithItsLimit() {
        assertThatThrownBy(() -> new GroupConfig(
                        "alt.test", Duration.ofMillis(10), 10, Duration.ofMinutes(5), 5, 8000, "headway", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("leaseTtl must be at least 1s");
        assertThatThrownBy(() -> new GroupConfig(
                        "alt.test", Duration.ofSeconds(30), 10, Duration.ofMinutes(5), 5, 60_000, "headway", null))
                .hasMessageContaining("historyEventBudget must be in [1, 50000]");
        assertThatThrownBy(() -> new GroupConfig(
                        "alt.test",
                        Duration.ofSeconds(30),
                        10,
                        Duration.ofMinutes(5),
                        5,
                        8000,
                        "headway",
                        Duration.ZERO))
                .hasMessageContaining("nodeTtl must be at least 1s");
    }

    @Test
    void aConfigWithoutANodeTtlTakesTheLeaseTtl() {
        GroupConfig old =
                new GroupConfig("alt.test", Duration.ofSeconds(30), 2, Duration.ofMinutes(5), 5, 8000, "q", null);
        assertThat(old.nodeTtl()).isEqualTo(Duration.ofSeconds(30));
        assertThat(old.withNodeTtl(Duration.ofSeconds(15)).nodeTtl()).isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void workflowIdNamesTheGroup() {
        assertThat(TaskQueues.workflowId("alt.binaries.example")).isEqualTo("group/alt.binaries.example");
    }

    @Test
    void ofFillsInTheFailedCycleLimitAndTheHistoryBudget() {
        GroupConfig config = GroupConfig.of("alt.test", Duration.ofSeconds(30), 2, Duration.ofMinutes(5), "q");
        assertThat(config.maxFailedCycles()).isEqualTo(GroupConfig.DEFAULT_MAX_FAILED_CYCLES);
        assertThat(config.historyEventBudget()).isEqualTo(GroupConfig.DEFAULT_HISTORY_EVENT_BUDGET);
        assertThat(config.sharedTaskQueue()).isEqualTo("q");
    }
}
