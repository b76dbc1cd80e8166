package headway.starter;

import headway.coordination.GroupStore;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

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
        GroupSelection.check(all, groups);
        options.check(connections.env());
        try (Connections open = connections) {
            GroupStore store = connections.groups();
            List<String> names = GroupSelection.resolve(store, all, groups);
            for (String g : names) {
                String runId = GroupStarter.start(connections.temporal(), options.config(g, connections.env()));
                spec.commandLine().getOut().println("started group/" + g + " (run " + runId + ")");
            }
        }
    }
}
