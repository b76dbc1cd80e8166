package headway.starter;

import headway.coordination.GroupStore;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code headway groups add|list|remove}. */
@Command(
        name = "groups",
        mixinStandardHelpOptions = true,
        description = "Add, list and remove newsgroups.",
        subcommands = {GroupsCommand.Add.class, GroupsCommand.ListGroups.class, GroupsCommand.Remove.class})
final class GroupsCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "name a subcommand: add, list or remove");
    }

    @Command(name = "add", mixinStandardHelpOptions = true, description = "Add groups (or update their priority).")
    static final class Add implements Runnable {
        @Mixin
        Connections connections;

        @Spec
        CommandSpec spec;

        @Option(names = "--priority", defaultValue = "0", description = "lower is more urgent (default 0)")
        int priority;

        @Parameters(arity = "1..*", paramLabel = "GROUP", description = "newsgroup names, e.g. alt.binaries.example")
        List<String> groups;

        @Override
        public void run() {
            try (Connections open = connections) {
                GroupStore store = connections.groups();
                for (String g : groups) {
                    store.add(g, priority);
                    spec.commandLine().getOut().println("added " + g + " (priority " + priority + ")");
                }
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List groups.")
    static final class ListGroups implements Runnable {
        @Mixin
        Connections connections;

        @Spec
        CommandSpec spec;

        @Mixin
        JsonOption json;

        @Override
        public void run() {
            try (Connections open = connections) {
                List<GroupStore.Group> groups = connections.groups().list();
                if (json.printed(groups)) {
                    return;
                }
                for (GroupStore.Group g : groups) {
                    spec.commandLine()
                            .getOut()
                            .printf("%-40s priority %d%s%n", g.name(), g.priority(), g.active() ? "" : " (inactive)");
                }
            }
        }
    }

    @Command(
            name = "remove",
            mixinStandardHelpOptions = true,
            description = "Remove groups with their ranges and snapshot (the catalog stays).")
    static final class Remove implements Runnable {
        @Mixin
        Connections connections;

        @Spec
        CommandSpec spec;

        @Parameters(arity = "1..*", paramLabel = "GROUP")
        List<String> groups;

        @Override
        public void run() {
            try (Connections open = connections) {
                GroupStore store = connections.groups();
                for (String g : groups) {
                    if (!store.remove(g)) {
                        throw CliException.badInput(
                                "unknown group '" + g + "': `headway groups list` shows the groups");
                    }
                    spec.commandLine().getOut().println("removed " + g);
                }
            }
        }
    }
}
