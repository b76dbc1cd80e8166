package headway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import headway.worker.Setting;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lab jar's command: the deployment's commands and its own, and bench defaults from the catalogue. */
class HeadwayLabTest {

    private static String help(String... args) {
        StringWriter out = new StringWriter();
        int code = HeadwayLab.run(args, Map.of(), new PrintWriter(out, true), new PrintWriter(new StringWriter()));
        assertThat(code).isZero();
        return out.toString();
    }

    @Test
    void helpListsEverythingAUserCanRun() {
        String help = help("--help");
        for (String command : List.of(
                "worker",
                "groups",
                "start",
                "plan",
                "status",
                "schedules",
                "rules",
                "search",
                "nzb",
                "demo",
                "bench",
                "chaos")) {
            assertThat(help).containsPattern("(?m)^  " + command + " ");
        }
        assertThat(help).doesNotContain("from the lab jar");
    }

    @Test
    void benchFlagsThatMirrorASettingDefaultToTheCatalogue() {
        assertThat(help("bench", "throughput", "--help"))
                .contains("(default " + Setting.BATCH.defaultValue() + ", HEADWAY_BATCH's default)");
        assertThat(help("bench", "provider", "--help").replaceAll("\\s+", " "))
                .contains("(default " + Setting.BATCH.defaultValue() + ", HEADWAY_BATCH's default)");
        assertThat(help("bench", "takeover", "--help").replaceAll("\\s+", " "))
                .contains("(default " + Setting.RANGE_SIZE.defaultValue() + ", HEADWAY_RANGE_SIZE's default)")
                .contains("(default " + Setting.SNAPSHOT_EVERY.defaultValue() + ", HEADWAY_SNAPSHOT_EVERY's default)");
    }
}
