package headway.starter;

import headway.coordination.GroupStore;
import headway.store.UnknownGroupException;
import headway.workflow.GroupWorkflow;
import headway.workflow.TaskQueues;
import io.temporal.client.WorkflowNotFoundException;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code headway reindex GROUP [--from N] [--to M]}: plans a span of a group's ranges again so
 * that its holder indexes them with the current rule set (see {@link GroupStore#reindex}), then
 * signals {@code planned} to the group's workflow. Idempotent; the catalog keeps each article in
 * one place whatever the rules, so the redo moves articles rather than adding copies.
 */
@Command(
        name = "reindex",
        mixinStandardHelpOptions = true,
        description = {
            "Index a span of GROUP again with the current rule set: its ranges (whole ranges, not",
            "leased now) are planned again from their start and the group's holder redoes them."
        })
final class ReindexCommand implements Runnable {
    @Mixin
    Connections connections;

    @Spec
    CommandSpec spec;

    @Option(names = "--from", paramLabel = "N", description = "first article of the span (default: 1)")
    long from = 1;

    @Option(names = "--to", paramLabel = "M", description = "last article of the span (default: the last planned)")
    Long to;

    @Option(names = "--no-signal", description = "do not signal the group workflow")
    boolean noSignal;

    @Parameters(paramLabel = "GROUP")
    String group;

    @Override
    public void run() {
        long last = to != null ? to : GroupStore.MAX_ARTICLE;
        if (from < 1 || last < from || last > GroupStore.MAX_ARTICLE) {
            throw CliException.badInput("bad span --from " + from + " --to " + last + ": need 1 <= from <= to <= "
                    + GroupStore.MAX_ARTICLE + " (article numbers start at 1)");
        }
        try (Connections open = connections) {
            GroupStore.Reindex r;
            try {
                r = connections.groups().reindex(group, from, last);
            } catch (UnknownGroupException e) {
                throw CliException.badInput(e.getMessage());
            }
            PrintWriter out = spec.commandLine().getOut();
            out.printf(
                    "reindex: group=%s ranges=%d articles=%s rule_version=%d leased_skipped=%d%n",
                    r.group(),
                    r.ranges(),
                    r.ranges() == 0 ? "none" : r.first() + "-" + r.last(),
                    r.ruleVersion(),
                    r.leasedSkipped());
            if (r.leasedSkipped() > 0) {
                out.println(group + ": " + r.leasedSkipped()
                        + " range(s) of the span are being indexed now; run reindex again once they are done");
            }
            if (!noSignal && r.ranges() > 0) {
                try {
                    connections
                            .temporal()
                            .newWorkflowStub(GroupWorkflow.class, TaskQueues.workflowId(group))
                            .planned();
                } catch (WorkflowNotFoundException e) {
                    out.println(group + ": no running workflow to signal (headway start " + group + ")");
                }
            }
        }
    }
}
