package headway.starter;

import headway.coordination.GroupStore;
import headway.workflow.GroupConfig;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code headway start GROUP...|--all}: starts group workflows, several at once; starting a running
 * group changes nothing. Each start is a line on stdout as it happens; with many groups, stderr
 * shows how far it got at every tenth.
 */
@Command(name = "start", mixinStandardHelpOptions = true, description = "Start the workflows of groups (idempotent).")
final class StartCommand implements Runnable {
    /** More starts at once than this only queue up in the server (and in this JVM's threads). */
    static final int MAX_IN_FLIGHT = 256;

    /** From this many groups on, stderr says how far the starts got at every tenth. */
    static final int PROGRESS_FROM = 100;

    @Mixin
    Connections connections;

    @Mixin
    GroupOptions options;

    @Spec
    CommandSpec spec;

    @Option(names = "--all", description = "every active group")
    boolean all;

    @Option(
            names = "--in-flight",
            defaultValue = "" + GroupStarter.DEFAULT_IN_FLIGHT,
            description = "starts in flight at once (default ${DEFAULT-VALUE})")
    int inFlight;

    @Parameters(arity = "0..*", paramLabel = "GROUP")
    List<String> groups = new ArrayList<>();

    @Override
    public void run() {
        GroupSelection.check(all, groups);
        options.check(connections.env());
        if (inFlight < 1 || inFlight > MAX_IN_FLIGHT) {
            throw CliException.badInput("--in-flight " + inFlight + ": need 1.." + MAX_IN_FLIGHT);
        }
        try (Connections open = connections) {
            GroupStore store = connections.groups();
            List<String> names = GroupSelection.resolve(store, all, groups);
            List<GroupConfig> configs = new ArrayList<>(names.size());
            for (String g : names) {
                configs.add(options.config(g, connections.env()));
            }
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            long t0 = System.nanoTime();
            try {
                GroupStarter.startAll(connections.temporal(), configs, inFlight, (s, done, total) -> {
                    out.println("started group/" + s.group() + " (run " + s.runId() + ")");
                    if (total >= PROGRESS_FROM && (done * 10L) / total != ((done - 1) * 10L) / total) {
                        double seconds = Math.max(1e-3, (System.nanoTime() - t0) / 1e9);
                        err.printf("headway: started %d of %d groups (%.0f a second)%n", done, total, done / seconds);
                    }
                });
            } catch (GroupStarter.Refused e) {
                throw new CliException(Exit.FAILED, e.getMessage(), e);
            }
        }
    }
}
