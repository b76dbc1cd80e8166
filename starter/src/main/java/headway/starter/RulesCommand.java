package headway.starter;

import headway.index.RuleSetException;
import headway.store.RuleSetInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code headway rules import FILE | list | defaults}: versioned subject rule sets. */
@Command(
        name = "rules",
        mixinStandardHelpOptions = true,
        description = "Import and list rule sets.",
        subcommands = {RulesCommand.Import.class, RulesCommand.ListRules.class, RulesCommand.Defaults.class})
final class RulesCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(
                spec.commandLine(), "name a subcommand: import, list or defaults");
    }

    @Command(
            name = "import",
            mixinStandardHelpOptions = true,
            description = "Import a rule set from a JSON file; it becomes the newest version (new leases use it).")
    static final class Import implements Runnable {
        @Mixin
        Connections connections;

        @Spec
        CommandSpec spec;

        @Option(names = "--name", description = "a name for this version (default: the file name)")
        String name;

        @Parameters(paramLabel = "FILE")
        Path file;

        @Override
        public void run() {
            String json;
            try {
                json = Files.readString(file);
            } catch (IOException e) {
                throw CliException.badInput("cannot read rule file " + file + ": " + e.getMessage());
            }
            try (Connections open = connections) {
                int version = connections
                        .database()
                        .importRuleSet(name != null ? name : file.getFileName().toString(), json);
                spec.commandLine().getOut().println("imported " + file + " as rule set version " + version);
            } catch (RuleSetException e) {
                throw CliException.badInput("rule file " + file + ": " + e.getMessage());
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List rule set versions.")
    static final class ListRules implements Runnable {
        @Mixin
        Connections connections;

        @Spec
        CommandSpec spec;

        @Option(names = "--json", description = "print JSON")
        boolean json;

        @Override
        public void run() {
            try (Connections open = connections) {
                List<RuleSetInfo> sets = connections.database().ruleSets();
                if (json) {
                    Json.print(spec.commandLine().getOut(), sets);
                    return;
                }
                if (sets.isEmpty()) {
                    spec.commandLine()
                            .getOut()
                            .println("no rule sets imported: the built-in defaults (version 0) are in use");
                }
                for (RuleSetInfo r : sets) {
                    spec.commandLine().getOut().printf("%5d  %-40s %s%n", r.version(), r.name(), r.createdAt());
                }
            }
        }
    }

    @Command(
            name = "defaults",
            mixinStandardHelpOptions = true,
            description = "Print the built-in rule set, a starting point for your own.")
    static final class Defaults implements Runnable {
        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().getOut().println(headway.index.RuleSet.defaultJson());
        }
    }
}
