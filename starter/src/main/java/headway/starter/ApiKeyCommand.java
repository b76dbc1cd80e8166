package headway.starter;

import headway.catalog.ApiKeyStore;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code headway apikey add|list|revoke}: the keys of the newznab API. */
@Command(
        name = "apikey",
        mixinStandardHelpOptions = true,
        description = "Manage the newznab API's keys.",
        subcommands = {ApiKeyCommand.Add.class, ApiKeyCommand.ListKeys.class, ApiKeyCommand.Revoke.class})
final class ApiKeyCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a subcommand: add, list or revoke");
    }

    /** {@code apikey add NAME}: prints the new key once; only its hash is stored. */
    @Command(name = "add", mixinStandardHelpOptions = true, description = "Create a key; prints it once.")
    static final class Add implements Runnable {
        @Mixin
        Connections connections;

        @Spec
        CommandSpec spec;

        @Option(names = "--api-per-day", description = "API requests a day (default: no limit)")
        Integer apiPerDay;

        @Option(names = "--grabs-per-day", description = "NZB downloads a day (default: no limit)")
        Integer grabsPerDay;

        @Parameters(paramLabel = "NAME", description = "who the key is for, e.g. sonarr")
        String name;

        @Override
        public void run() {
            if (!ApiKeyStore.NAME.matcher(name).matches()) {
                throw CliException.badInput(
                        "key name '" + name
                                + "' is not valid: use 1-64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit");
            }
            if ((apiPerDay != null && apiPerDay < 0) || (grabsPerDay != null && grabsPerDay < 0)) {
                throw CliException.badInput(
                        "--api-per-day and --grabs-per-day must be 0 or more (leave out for no limit)");
            }
            try (Connections open = connections) {
                String key = connections.database().apiKeys().add(name, apiPerDay, grabsPerDay);
                spec.commandLine().getOut().println("apikey: name=" + name + " key=" + key);
                spec.commandLine().getErr().println("headway: the key is shown only now; only its sha256 is stored");
            }
        }
    }

    /** {@code apikey list}: names, limits and today's counts; never the keys. */
    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "List keys with their limits and today's counts.")
    static final class ListKeys implements Runnable {
        @Mixin
        Connections connections;

        @Spec
        CommandSpec spec;

        @Mixin
        JsonOption json;

        @Override
        public void run() {
            PrintWriter out = spec.commandLine().getOut();
            try (Connections open = connections) {
                java.util.List<ApiKeyStore.ApiKey> keys =
                        connections.database().apiKeys().list();
                if (json.printed(keys)) {
                    return;
                }
                out.printf("%-24s %-8s %12s %12s %s%n", "NAME", "STATE", "API/DAY", "GRABS/DAY", "CREATED");
                for (ApiKeyStore.ApiKey k : keys) {
                    out.printf(
                            "%-24s %-8s %12s %12s %s%n",
                            k.name(),
                            k.revoked() ? "revoked" : "active",
                            k.requestsToday() + "/" + (k.apiPerDay() == null ? "-" : k.apiPerDay()),
                            k.grabsToday() + "/" + (k.grabsPerDay() == null ? "-" : k.grabsPerDay()),
                            k.created());
                }
            }
        }
    }

    /** {@code apikey revoke NAME}: the key is answered as suspended from then on. */
    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a key (answered as suspended).")
    static final class Revoke implements Runnable {
        @Mixin
        Connections connections;

        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "NAME")
        String name;

        @Override
        public void run() {
            try (Connections open = connections) {
                if (!connections.database().apiKeys().revoke(name)) {
                    throw CliException.badInput("no API key named '" + name + "' (`headway apikey list` shows them)");
                }
                spec.commandLine().getOut().println("apikey: revoked " + name);
            }
        }
    }
}
