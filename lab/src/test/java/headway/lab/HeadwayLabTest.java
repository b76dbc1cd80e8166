package headway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import headway.activity.RangeIndexer;
import headway.settings.Setting;
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
        assertThat(help("bench", "throughput", "--help").replaceAll("\\s+", " "))
                .contains("(default " + Setting.BATCH.defaultValue() + ", HEADWAY_BATCH's default)");
        assertThat(help("bench", "provider", "--help").replaceAll("\\s+", " "))
                .as("an OVER of the indexer's pieces, not a batch")
                .contains("(default " + RangeIndexer.MAX_PIECE + ", the most the indexer asks for in one)");
        assertThat(help("bench", "takeover", "--help").replaceAll("\\s+", " "))
                .contains("(default " + Setting.RANGE_SIZE.defaultValue() + ", HEADWAY_RANGE_SIZE's default)")
                .contains("(default " + Setting.SNAPSHOT_EVERY.defaultValue() + ", HEADWAY_SNAPSHOT_EVERY's default)");
    }

    @Test
    void providerBenchRejectsBadOptionsNamingTheFlag() {
        rejectsNamingTheFlag(
                "provider",
                List.of(
                        List.of("--conns", "0"),
                        List.of("--mbit", "0"),
                        List.of("--rtt-ms", "-1"),
                        List.of("--batch", "0")));
    }

    @Test
    void windowBenchRejectsBadOptionsNamingTheFlag() {
        rejectsNamingTheFlag(
                "window", List.of(List.of("--groups", "0"), List.of("--articles", "0"), List.of("--repetitions", "0")));
    }

    @Test
    void throughputBenchRejectsBadOptionsNamingTheFlag() {
        rejectsNamingTheFlag(
                "throughput",
                List.of(
                        List.of("--inspect-each", "0", "--inspect"),
                        List.of("--inspect-each", "101"),
                        List.of("--rounds", "0"),
                        List.of("--groups", "0")));
    }

    private static void rejectsNamingTheFlag(String bench, List<List<String>> bads) {
        for (List<String> bad : bads) {
            StringWriter err = new StringWriter();
            List<String> args = new java.util.ArrayList<>(List.of("bench", bench));
            args.addAll(bad);
            int code = HeadwayLab.run(
                    args.toArray(String[]::new),
                    Map.of(),
                    new PrintWriter(new StringWriter(), true),
                    new PrintWriter(err, true));
            assertThat(code).as("exit for %s", bad).isEqualTo(2);
            assertThat(err.toString()).contains(bad.get(0));
        }
    }
}
