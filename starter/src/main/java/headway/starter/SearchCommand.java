package headway.starter;

import headway.catalog.Release;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code headway search QUERY}: releases whose name contains the query. */
@Command(name = "search", mixinStandardHelpOptions = true, description = "Search releases by name.")
final class SearchCommand implements Runnable {
    @Mixin
    Connections connections;

    @Spec
    CommandSpec spec;

    @Option(names = "--limit", defaultValue = "50", description = "at most this many (default 50)")
    int limit;

    @Mixin
    JsonOption json;

    @Parameters(paramLabel = "QUERY")
    String query;

    @Override
    public void run() {
        if (query.isBlank()) {
            throw CliException.badInput("the search query is empty: give a word of a release name");
        }
        if (limit < 1 || limit > 10_000) {
            throw CliException.badInput("--limit must be between 1 and 10000, was " + limit);
        }
        PrintWriter out = spec.commandLine().getOut();
        try (Connections open = connections) {
            List<Release> found = connections.database().releases().search(query, limit);
            if (json.printed(found)) {
                return;
            }
            out.printf("%-60s %-28s %7s %12s %6s%n", "RELEASE", "GROUP", "FILES", "BYTES", "DONE%");
            for (Release r : found) {
                out.printf(
                        "%-60s %-28s %3d/%-3s %12d %6.1f%n",
                        r.displayName(),
                        r.group(),
                        r.filesPresent(),
                        r.filesExpected() < 0 ? "?" : Integer.toString(r.filesExpected()),
                        r.bytes(),
                        r.completionPercent());
            }
        }
    }
}
