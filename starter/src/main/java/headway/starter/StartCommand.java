package headway.starter;

import headway.store.GroupStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.ArrayList;
import java.util.List;

/** {@code headway start GROUP...|--all}: starts group workflows; starting a running group changes nothing. */
@Command(name = "start", mixinStandardHelpOptions = true, description = "Start the workflows of groups (idempotent).")
final class StartCommand implements Runnable {
    @Mixin
    Connections connections;
    @Mixin
    GroupOptions options;
    @Spec
    CommandSpec spec;
    @Option(names = "--all", description = "every active group")
    boolean all;
    @Parameters(arity = "0..*", paramLabel = "GROUP")
    List<String> groups = new ArrayList<>();

    @Override
    public void run() {
        if (all == !groups.isEmpty()) {
            throw CliException.badInput("name groups or give --all (not both)");
        }
        try (Connections open = connections) {
            GroupStore store = new GroupStore(connections.database());
            List<String> names = all
                    ? store.list().stream().filter(GroupStore.Group::active).map(GroupStore.Group::name).toList()
                    : groups;
            for (String g : names) {
                if (!store.exists(g)) {
                    throw CliException.badInput("unknown group '" + g + "': add it first with `headway groups add " + g + "`");
                }
            }
            for (String g : names) {
                String runId = GroupStarter.start(connections.temporal(), options.config(g, connections.env()));
                spec.commandLine().getOut().println("started group/" + g + " (run " + runId + ")");
            }
        }
    }
}
