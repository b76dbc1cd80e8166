package headway.starter;

import headway.settings.Setting;
import headway.store.Database;
import headway.store.StoreException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code headway} command: every subcommand a deployment runs, with the exit codes of
 * {@link Exit}. The demo, the benchmarks and chaos runs are in the lab jar (module lab), which
 * adds them to this same command; {@code bin/headway} picks the jar by the first argument.
 */
@Command(
        name = "headway",
        mixinStandardHelpOptions = true,
        version = "headway 0.1.0",
        description = "Indexes Usenet newsgroups on Temporal: each group is a long-lived workflow.",
        subcommands = {
            WorkerCommand.class,
            GroupsCommand.class,
            StartCommand.class,
            PlanCommand.class,
            ReindexCommand.class,
            StatusCommand.class,
            SignalCommands.Pause.class,
            SignalCommands.Resume.class,
            SignalCommands.Drain.class,
            SchedulesCommand.class,
            SearchAttributesCommand.class,
            RulesCommand.class,
            SearchCommand.class,
            NzbCommand.class,
            InspectCommand.class,
            ServeCommand.class,
            ApiKeyCommand.class,
            CommandLine.HelpCommand.class
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done",
            "1:failed",
            "2:bad input (usage, unknown group or release, bad rule)",
            "3:a dependency (database, Temporal, NNTP server) is unreachable"
        },
        footerHeading = "%n",
        footer = {Headway.LAB_COMMANDS})
public final class Headway implements Runnable {

    /** What the lab jar adds; its own help lists them as commands instead. */
    public static final String LAB_COMMANDS = "Also, from the lab jar (bin/headway runs it for these):%n"
            + "  demo    Run the whole pipeline on embedded defaults, then stop.%n"
            + "  bench   Run a benchmark and print its figures.%n"
            + "  chaos   Kill and freeze workers while they index; check nothing was lost.";

    /** The environment the HEADWAY_* settings are read from; flags override it. */
    final Map<String, String> environment;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    Headway(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: headway --help lists them");
    }

    public static void main(String[] args) {
        System.exit(run(
                args,
                new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true),
                new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true)));
    }

    /** Runs the CLI with the given streams and returns its exit code (tests call this). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, System.getenv(), out, err);
    }

    /** Runs the CLI with {@code environment} in place of the process environment (tests set HEADWAY_* this way). */
    static int run(String[] args, Map<String, String> environment, PrintWriter out, PrintWriter err) {
        return commandLine(environment, out, err).execute(args);
    }

    /**
     * The command line with every command of this jar, its streams and its error handling: a
     * {@link CliException} or a database error is one line on stderr and its exit code; anything
     * else a failure with its stack trace. The lab jar adds its commands to it ({@code moreCommands}).
     */
    public static CommandLine commandLine(
            Map<String, String> environment, PrintWriter out, PrintWriter err, Object... moreCommands) {
        CommandLine cli = new CommandLine(new Headway(environment));
        for (Object command : moreCommands) {
            cli.addSubcommand(command);
        }
        cli.setResourceBundle(Setting.helpBundle());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof CliException c) {
                commandLine.getErr().println("headway: " + Database.redact(c.getMessage()));
                return c.exitCode();
            }
            if (e instanceof IllegalArgumentException) {
                commandLine.getErr().println("headway: " + Database.redact(e.getMessage()));
                return Exit.BAD_INPUT;
            }
            if (e instanceof StoreException) {
                commandLine.getErr().println("headway: " + Database.redact(e.getMessage()));
                return Exit.FAILED;
            }
            commandLine.getErr().println("headway: " + Database.redact(e.toString()));
            java.io.StringWriter trace = new java.io.StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            commandLine.getErr().print(Database.redact(trace.toString()));
            return Exit.FAILED;
        });
        return cli;
    }
}
