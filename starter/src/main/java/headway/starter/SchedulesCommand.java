package headway.starter;

import headway.settings.Settings;
import headway.worker.Schedules;
import headway.worker.WorkerConfig;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code headway schedules install|list}: registry prune, planner, watchman and retention as Temporal Schedules. */
@Command(
        name = "schedules",
        mixinStandardHelpOptions = true,
        description = "Install or list headway's Temporal Schedules.",
        subcommands = {SchedulesCommand.Install.class, SchedulesCommand.ListSchedules.class})
final class SchedulesCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "name a subcommand: install or list");
    }

    @Command(
            name = "install",
            mixinStandardHelpOptions = true,
            description = "Create the schedules, or update them to the configured intervals (idempotent).")
    static final class Install implements Runnable {
        @Mixin
        Connections connections;

        @Spec
        CommandSpec spec;

        @Option(names = "--prune-every", descriptionKey = "HEADWAY_NODE_TTL")
        String pruneEvery;

        @Option(names = "--plan-every", descriptionKey = "HEADWAY_PLAN_EVERY")
        String planEvery;

        @Option(names = "--watch-every", descriptionKey = "HEADWAY_WATCH_EVERY")
        String watchEvery;

        @Option(names = "--inspect-every", descriptionKey = "HEADWAY_INSPECT_EVERY")
        String inspectEvery;

        @Option(names = "--retention-every", descriptionKey = "HEADWAY_RETENTION_EVERY")
        String retentionEvery;

        @Override
        public void run() {
            try (Connections open = connections) {
                Schedules.Intervals intervals;
                try {
                    Schedules.Intervals env = Schedules.Intervals.fromEnv(connections.env());
                    intervals = new Schedules.Intervals(
                            pruneEvery == null
                                    ? env.registryPrune()
                                    : Settings.parseDuration("--prune-every", pruneEvery),
                            planEvery == null ? env.planner() : Settings.parseDuration("--plan-every", planEvery),
                            watchEvery == null ? env.watchman() : Settings.parseDuration("--watch-every", watchEvery),
                            retentionEvery == null
                                    ? env.retention()
                                    : Settings.parseDuration("--retention-every", retentionEvery),
                            inspectEvery == null
                                    ? env.inspect()
                                    : Settings.parseDuration("--inspect-every", inspectEvery));
                } catch (IllegalArgumentException e) {
                    throw CliException.badInput(e.getMessage());
                }
                String queue = WorkerConfig.taskQueueFromEnv(connections.env());
                for (Schedules.Installed s : Schedules.install(connections.temporal(), queue, intervals)) {
                    spec.commandLine()
                            .getOut()
                            .printf(
                                    "%s %s (every %s)%n",
                                    s.created() ? "created" : "updated", s.id(), Settings.show(s.every()));
                }
            }
        }
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "List headway's schedules and their recent runs.")
    static final class ListSchedules implements Runnable {
        @Mixin
        Connections connections;

        @Spec
        CommandSpec spec;

        @Mixin
        JsonOption json;

        @Override
        public void run() {
            try (Connections open = connections) {
                List<Schedules.Listed> listed = Schedules.list(connections.temporal());
                if (json.printed(listed)) {
                    return;
                }
                if (listed.isEmpty()) {
                    spec.commandLine()
                            .getOut()
                            .println("no headway schedules: install them with `headway schedules install`");
                }
                for (Schedules.Listed s : listed) {
                    spec.commandLine()
                            .getOut()
                            .printf("%-26s %-24s last runs %s%n", s.id(), s.workflowType(), s.recentActions());
                }
            }
        }
    }
}
