package headway.starter;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;

/** {@code --json} is one mixin: it prints on its command's output, and no command declares its own. */
class JsonOptionTest {

    /** A list command as the real ones are written. */
    @Command(name = "things")
    static final class Things implements Runnable {
        @Mixin
        JsonOption json;

        @Override
        public void run() {
            List<Map<String, Object>> things = List.of(new TreeMap<>(Map.of("name", "a", "size", 1)));
            if (json.printed(things)) {
                return;
            }
            json.command.commandLine().getOut().println("table: a 1");
        }
    }

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(new Things());
        cli.setOut(new PrintWriter(out, true));
        assertThat(cli.execute(args)).isZero();
        return out.toString();
    }

    @Test
    void withJsonTheListIsOneDocumentOnTheCommandsOutput() {
        assertThat(run("--json"))
                .isEqualToIgnoringWhitespace("[{\"name\":\"a\",\"size\":1}]")
                .doesNotContain("table");
    }

    @Test
    void withoutJsonTheCommandPrintsItsTable() {
        assertThat(run()).isEqualTo("table: a 1" + System.lineSeparator());
    }

    @Test
    void everyJsonFlagOfTheCliIsTheMixin() {
        CommandLine cli =
                Headway.commandLine(Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        List<String> withJson = new ArrayList<>();
        walk(cli.getCommandSpec(), withJson);
        assertThat(withJson)
                .as("commands with --json")
                .contains(
                        "headway status",
                        "headway search",
                        "headway groups list",
                        "headway schedules list",
                        "headway rules list",
                        "headway rules misses",
                        "headway apikey list");
    }

    /** Adds every command under {@code spec} that has {@code --json}, failing on one whose flag is not the mixin's. */
    private static void walk(CommandSpec spec, List<String> withJson) {
        if (spec.findOption("--json") != null) {
            assertThat(spec.mixins().values())
                    .as("%s declares --json itself instead of mixing in JsonOption", spec.qualifiedName())
                    .anySatisfy(m -> {
                        assertThat(m.userObject()).isInstanceOf(JsonOption.class);
                        assertThat(m.findOption("--json")).isNotNull();
                    });
            withJson.add(spec.qualifiedName());
        }
        for (CommandLine sub : spec.subcommands().values()) {
            if (sub.getCommandSpec().parent() == spec) {
                walk(sub.getCommandSpec(), withJson);
            }
        }
    }
}
