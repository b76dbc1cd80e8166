package headway.starter;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code --json} option of the read commands, as a picocli mixin: its name and help, and
 * printing one JSON document ({@link Json}) on the command's own output, are here once, so every
 * list answers {@code --json} alike.
 */
final class JsonOption {

    /** The command this option is mixed into, whose output the document goes to. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--json", description = "print JSON")
    boolean json;

    /** Whether {@code --json} was given. */
    boolean wanted() {
        return json;
    }

    /** Prints {@code value} as one JSON document on the command's output. */
    void print(Object value) {
        Json.print(command.commandLine().getOut(), value);
    }

    /** With {@code --json}, prints {@code value} and returns true; else false, and the caller prints its table. */
    boolean printed(Object value) {
        if (json) {
            print(value);
        }
        return json;
    }
}
