package headway.starter;

import static org.assertj.core.api.Assertions.assertThat;

import headway.settings.Setting;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** What {@code headway --help} lists, and that every flag which mirrors a setting shows the catalogue's help. */
class HelpTest {

    @Test
    void helpListsEveryCommandAndTheLabsOnes() {
        StringWriter out = new StringWriter();
        int code = Headway.run(
                new String[] {"--help"}, Map.of(), new PrintWriter(out, true), new PrintWriter(new StringWriter()));
        assertThat(code).isZero();
        for (String command : List.of(
                "worker",
                "groups",
                "start",
                "plan",
                "reindex",
                "status",
                "pause",
                "resume",
                "drain",
                "schedules",
                "search-attributes",
                "rules",
                "search",
                "nzb",
                "inspect",
                "demo",
                "bench",
                "chaos")) {
            assertThat(out.toString()).containsPattern("(?m)^  " + command + " ");
        }
    }

    @Test
    void everyFlagThatMirrorsASettingShowsTheCatalogueHelp() {
        CommandLine cli =
                Headway.commandLine(Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        List<OptionSpec> mirrors = new ArrayList<>();
        collect(cli, mirrors);
        assertThat(mirrors).hasSizeGreaterThan(10);
        for (OptionSpec option : mirrors) {
            Setting setting = settingOf(option.descriptionKey());
            assertThat(setting)
                    .as(option.longestName() + "'s descriptionKey names a setting")
                    .isNotNull();
            assertThat(String.join(" ", option.description()))
                    .as(option.longestName())
                    .isEqualTo(setting.help());
        }
    }

    private static void collect(CommandLine cli, List<OptionSpec> into) {
        for (OptionSpec option : cli.getCommandSpec().options()) {
            if (option.descriptionKey().startsWith("HEADWAY_")) {
                into.add(option);
            }
        }
        cli.getSubcommands().values().forEach(sub -> collect(sub, into));
    }

    private static Setting settingOf(String key) {
        return Arrays.stream(Setting.values())
                .filter(s -> s.key().equals(key))
                .findFirst()
                .orElse(null);
    }
}
