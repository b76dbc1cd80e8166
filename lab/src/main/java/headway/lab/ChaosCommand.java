package headway.lab;

import headway.cluster.Chaos;
import headway.settings.Settings;
import headway.starter.CliException;
import headway.starter.Exit;
import java.io.PrintWriter;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code headway chaos}: worker JVMs index the simulator's groups while they are killed, frozen,
 * cut off from the news server and their database is restarted; then the catalog is checked. The
 * last line is {@code chaos: kills=<> freezes=<> db_restarts=<> nntp_drops=<> articles=<> lost=<>
 * duplicated=<> stale_writes=<> refused=<>}, with {@code rejected=<>} (the rejected-articles
 * ledger's rows) at its end under {@code --hostile}; the exit code is 1 on any loss, duplicate,
 * stale write, open stuck record or group not caught up, and when no stale write was attempted
 * and refused.
 */
@Command(
        name = "chaos",
        mixinStandardHelpOptions = true,
        description =
                "Kill, freeze and cut off workers while they index, then check nothing was lost or written twice.")
final class ChaosCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--kills",
            defaultValue = "30",
            description = "worker kills (SIGKILL), one every --every (default 30)")
    int kills;

    @Option(names = "--every", defaultValue = "3s", description = "time between kills (default 3s)")
    String every;

    @Option(names = "--groups", defaultValue = "20", description = "simulator groups (default 20)")
    int groups;

    @Option(names = "--articles", defaultValue = "20000", description = "articles per group (default 20000)")
    long articles;

    @Option(names = "--workers", defaultValue = "3", description = "worker JVMs (default 3)")
    int workers;

    @Option(names = "--seed", defaultValue = "42", description = "random seed (default 42)")
    long seed;

    @Option(
            names = "--hostile",
            description =
                    "the simulator also serves poison articles; the check wants each in the catalog or the ledger")
    boolean hostile;

    @Option(
            names = "--settle",
            defaultValue = "5m",
            description = "how long groups may take to catch up after the chaos (default 5m)")
    String settle;

    @Override
    public void run() {
        if (kills < 1 || kills > 1000) {
            throw CliException.badInput("--kills must be between 1 and 1000, was " + kills);
        }
        if (groups < 1 || groups > 200 || workers < 2 || workers > 10 || articles < 100 || articles > 10_000_000) {
            throw CliException.badInput("need 1..200 --groups, 2..10 --workers and 100..10000000 --articles");
        }
        Duration interval = Settings.parseDuration("--every", every);
        PrintWriter out = spec.commandLine().getOut();
        Chaos.Result r;
        try {
            r = new Chaos(
                            new Chaos.Settings(
                                    groups,
                                    articles,
                                    workers,
                                    kills,
                                    interval,
                                    seed,
                                    Settings.parseDuration("--settle", settle),
                                    hostile),
                            out)
                    .run();
        } catch (Exception e) {
            throw new CliException(Exit.FAILED, "chaos run failed: " + e, e);
        }
        out.printf("chaos: caught_up=%s stuck_open=%d seconds=%.0f%n", r.caughtUp(), r.stuckOpen(), r.seconds());
        out.printf(
                "chaos: kills=%d freezes=%d db_restarts=%d nntp_drops=%d articles=%d lost=%d duplicated=%d stale_writes=%d"
                        + " refused=%d%s%n",
                r.kills(),
                r.freezes(),
                r.dbRestarts(),
                r.nntpDrops(),
                r.articles(),
                r.lost(),
                r.duplicated(),
                r.staleWrites(),
                r.refused(),
                hostile ? " rejected=" + r.rejected() : "");
        if (!r.ok()) {
            throw new CliException(
                    Exit.FAILED,
                    "chaos found a problem: lost=" + r.lost() + " duplicated=" + r.duplicated() + " stale_writes="
                            + r.staleWrites() + " refused=" + r.refused()
                            + (r.refused() == 0
                                    ? " (no stale write was attempted and refused: fencing went unshown)"
                                    : "")
                            + " stuck_open=" + r.stuckOpen() + " caught_up=" + r.caughtUp());
        }
    }
}
