package headway.starter;

import headway.activity.NntpHeaderSource;
import headway.activity.PlanRefusedException;
import headway.activity.Planner;
import headway.coordination.GroupStore;
import headway.nntp.NntpPool;
import headway.settings.Setting;
import headway.settings.Settings;
import headway.worker.WorkerConfig;
import headway.workflow.GroupWorkflow;
import headway.workflow.TaskQueues;
import io.temporal.client.WorkflowNotFoundException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code headway plan}: plans ranges, from the NNTP server's high-water mark (the planner's own
 * pass) or by hand with {@code --from/--to}, then signals {@code planned} to the running group
 * workflows that got work.
 */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        description = "Plan new ranges: from the NNTP server's marks, or by hand with --from/--to.")
final class PlanCommand implements Runnable {
    @Mixin
    Connections connections;

    @Spec
    CommandSpec spec;

    @Option(names = "--all", description = "every active group")
    boolean all;

    @Option(names = "--from", description = "first article of a hand-planned range")
    Long from;

    @Option(names = "--to", description = "last article of a hand-planned range")
    Long to;

    @Option(names = "--tail", description = "plan the hand-planned range as tail (before history)")
    boolean tail;

    @Option(names = "--size", descriptionKey = "HEADWAY_RANGE_SIZE")
    Long size;

    @Option(names = "--backfill", descriptionKey = "HEADWAY_BACKFILL")
    Long backfill;

    @Option(names = "--no-signal", description = "do not signal the group workflows")
    boolean noSignal;

    @Parameters(arity = "0..*", paramLabel = "GROUP")
    List<String> groups = new ArrayList<>();

    /**
     * The worker's pool settings, but giving up on an unreachable server after 10 s: a worker
     * rides out a server restart, while a person at a prompt wants the answer now.
     */
    static NntpPool.Config interactive(NntpPool.Config c) {
        Duration giveUp = Duration.ofSeconds(10);
        return new NntpPool.Config(
                c.server(),
                c.maxConnections(),
                c.connectTimeout(),
                c.readTimeout(),
                giveUp,
                c.backoffInitial(),
                Duration.ofSeconds(2));
    }

    @Override
    public void run() {
        GroupSelection.check(all, groups);
        if ((from == null) != (to == null)) {
            throw CliException.badInput("give both --from and --to for a hand-planned range");
        }
        if (from != null && (from < 1 || to < from || to > GroupStore.MAX_ARTICLE)) {
            throw CliException.badInput("bad range --from " + from + " --to " + to + ": need 1 <= from <= to <= "
                    + GroupStore.MAX_ARTICLE + " (article numbers start at 1)");
        }
        Settings s = new Settings(connections.env());
        long rangeSize = size != null ? size : s.longValue(Setting.RANGE_SIZE);
        long backfillArticles = backfill != null ? backfill : s.longValue(Setting.BACKFILL);
        long maxJump = s.longValue(Setting.PLAN_MAX_JUMP);
        if (rangeSize < 1) {
            throw CliException.badInput("--size must be >= 1, was " + rangeSize);
        }
        try (Connections open = connections) {
            GroupStore store = connections.groups();
            List<String> names = GroupSelection.resolve(store, all, groups);
            List<String> gotWork = new ArrayList<>();
            List<String> refused = new ArrayList<>();
            if (from != null) {
                for (String g : names) {
                    int n = store.plan(g, from, to, rangeSize, tail ? -1 : 1);
                    spec.commandLine().getOut().printf("%s: planned %d range(s) in [%d, %d]%n", g, n, from, to);
                    if (n > 0) {
                        gotWork.add(g);
                    }
                }
            } else {
                WorkerConfig.NntpServer server = WorkerConfig.fromEnvNntp(connections.env());
                try (NntpPool pool = new NntpPool(interactive(headway.worker.HeadwayWorker.nntpConfig(server)))) {
                    Planner planner = new Planner(
                            store,
                            new NntpHeaderSource(pool),
                            new Planner.Settings(rangeSize, backfillArticles, maxJump));
                    for (String g : names) {
                        Planner.Planned p;
                        try {
                            p = planner.plan(g);
                        } catch (PlanRefusedException e) {
                            refused.add(e.getMessage());
                            continue;
                        }
                        spec.commandLine()
                                .getOut()
                                .printf(
                                        "%s: server %d..%d, planned %d tail and %d history range(s)%n",
                                        g, p.low(), p.high(), p.tailRanges(), p.historyRanges());
                        if (p.total() > 0) {
                            gotWork.add(g);
                        }
                    }
                } catch (headway.nntp.UnknownGroupException e) {
                    throw CliException.badInput(e.getMessage());
                } catch (IOException e) {
                    throw new CliException(
                            Exit.UNREACHABLE,
                            "cannot read the NNTP server " + server.host() + ":" + server.port() + ": " + e.getMessage()
                                    + " (set HEADWAY_NNTP_HOST and HEADWAY_NNTP_PORT)",
                            e);
                }
            }
            if (!noSignal && !gotWork.isEmpty()) {
                for (String g : gotWork) {
                    try {
                        connections
                                .temporal()
                                .newWorkflowStub(GroupWorkflow.class, TaskQueues.workflowId(g))
                                .planned();
                    } catch (WorkflowNotFoundException e) {
                        spec.commandLine()
                                .getOut()
                                .println(g + ": no running workflow to signal (headway start " + g + ")");
                    }
                }
            }
            if (!refused.isEmpty()) {
                throw new CliException(
                        Exit.UNREACHABLE,
                        refused.get(0)
                                + (refused.size() > 1
                                        ? " (and " + (refused.size() - 1) + " more group(s) refused)"
                                        : ""));
            }
        }
    }
}
