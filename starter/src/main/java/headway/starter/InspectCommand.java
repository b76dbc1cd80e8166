package headway.starter;

import headway.catalog.Inspections;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code headway inspect RELEASE}: what the deep index found inside a release's files (the real
 * name and which evidence named it, the password flag, the IMDb id) and where its inspection
 * stands (state, attempts, the last error, the next attempt); {@code --gave-up} lists the
 * releases it gave up on instead.
 */
@Command(
        name = "inspect",
        mixinStandardHelpOptions = true,
        description = "Show the evidence that named a release, or the releases the deep index gave up on.")
final class InspectCommand implements Runnable {
    @Mixin
    Connections connections;

    @Spec
    CommandSpec spec;

    @Mixin
    JsonOption json;

    @Option(names = "--gave-up", description = "list the releases the deep index gave up on (their last error)")
    boolean gaveUp;

    @Option(names = "--limit", defaultValue = "50", description = "with --gave-up: at most this many (default 50)")
    int limit;

    @Parameters(
            paramLabel = "RELEASE",
            arity = "0..1",
            description = "the release: its name as cataloged (an obfuscated post's token), its real name, or its guid")
    String name;

    @Override
    public void run() {
        if (gaveUp == (name != null)) {
            throw CliException.badInput("name a RELEASE, or give --gave-up to list the releases given up on");
        }
        if (limit < 1 || limit > 10_000) {
            throw CliException.badInput("--limit must be between 1 and 10000, was " + limit);
        }
        if (name != null && name.isBlank()) {
            throw CliException.badInput("the release name is empty: give it as `headway search` shows it");
        }
        try (Connections open = connections) {
            Inspections.Queries queries = connections.database().inspections();
            List<Inspections.Shown> shown = gaveUp ? queries.gaveUp(limit) : queries.show(name);
            if (!gaveUp && shown.isEmpty()) {
                throw new CliException(
                        Exit.BAD_INPUT, "no release named '" + name + "': find it with `headway search`");
            }
            if (json.printed(shown)) {
                return;
            }
            PrintWriter out = spec.commandLine().getOut();
            for (Inspections.Shown s : shown) {
                print(out, s);
            }
        }
    }

    private static void print(PrintWriter out, Inspections.Shown s) {
        out.printf("release    %s%n", s.name());
        out.printf("group      %s%n", s.group());
        out.printf("poster     %s%n", s.poster());
        out.printf("real name  %s%n", s.realName() == null ? "-" : s.realName());
        out.printf("named by   %s%n", s.namedBy() == null ? "-" : s.namedBy());
        out.printf("password   %d (%s)%n", s.password(), password(s.password()));
        out.printf("imdb       %s%n", s.imdb() == null ? "-" : s.imdb());
        if (s.state() == null) {
            out.printf("inspection not yet (a release filed under 8010/8020 is claimed once it has all its files)%n");
        } else {
            out.printf("inspection %s%n", s.state());
            out.printf("attempts   %d%n", s.attempts());
            out.printf("last error %s%n", s.lastError() == null ? "-" : s.lastError());
            out.printf("next       %s%n", s.nextAttempt() == null ? "-" : s.nextAttempt());
        }
        out.println();
    }

    private static String password(int p) {
        return switch (p) {
            case 1 -> "passworded";
            case 2 -> "possibly: an archive inside the archive";
            default -> "none";
        };
    }
}
