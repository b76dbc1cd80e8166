package headway.starter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import headway.index.ParsedSubject;
import headway.index.RuleSet;
import headway.index.RuleSetException;
import headway.index.SubjectMatch;
import headway.store.RuleSetInfo;
import headway.store.RuleSetStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code headway rules import FILE | list | defaults | test}: versioned subject rule sets. */
@Command(name = "rules", mixinStandardHelpOptions = true, description = "Import, list and try rule sets.",
        subcommands = {RulesCommand.Import.class, RulesCommand.ListRules.class, RulesCommand.Defaults.class, RulesCommand.Test.class})
final class RulesCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "name a subcommand: import, list, defaults or test");
    }

    @Command(name = "import", mixinStandardHelpOptions = true,
            description = "Import a rule set from a JSON file; it becomes the newest version (new leases use it).")
    static final class Import implements Runnable {
        @Mixin
        Connections connections;
        @Spec
        CommandSpec spec;
        @Option(names = "--name", description = "a name for this version (default: the file name)")
        String name;
        @Parameters(paramLabel = "FILE")
        Path file;

        @Override
        public void run() {
            String json;
            try {
                json = Files.readString(file);
            } catch (IOException e) {
                throw CliException.badInput("cannot read rule file " + file + ": " + e.getMessage());
            }
            try (Connections open = connections) {
                int version = new RuleSetStore(connections.database()).importRuleSet(name != null ? name : file.getFileName().toString(), json);
                spec.commandLine().getOut().println("imported " + file + " as rule set version " + version);
            } catch (RuleSetException e) {
                throw CliException.badInput("rule file " + file + ": " + e.getMessage());
            } catch (SQLException e) {
                throw new CliException(Exit.FAILED, "storing the rule set: " + e.getMessage(), e);
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List rule set versions.")
    static final class ListRules implements Runnable {
        @Mixin
        Connections connections;
        @Spec
        CommandSpec spec;
        @Option(names = "--json", description = "print JSON")
        boolean json;

        @Override
        public void run() {
            try (Connections open = connections) {
                List<RuleSetInfo> sets = new RuleSetStore(connections.database()).list();
                if (json) {
                    Json.print(spec.commandLine().getOut(), sets);
                    return;
                }
                if (sets.isEmpty()) {
                    spec.commandLine().getOut().println("no rule sets imported: the built-in defaults (version 0) are in use");
                }
                for (RuleSetInfo r : sets) {
                    spec.commandLine().getOut().printf("%5d  %-40s %s%n", r.version(), r.name(), r.createdAt());
                }
            } catch (SQLException e) {
                throw new CliException(Exit.FAILED, "reading rule sets: " + e.getMessage(), e);
            }
        }
    }

    /**
     * {@code headway rules test}: what a rule set (the shipped one, or {@code --rules FILE}) makes of
     * subjects read on stdin, one JSON object per line, so that an operator tries rules before
     * importing them. The keys are fixed; absent counters are null, never a made-up 1.
     */
    @Command(name = "test", mixinStandardHelpOptions = true,
            description = "Read subjects on stdin, one per line, and print what the rules make of each as one JSON object per line:"
                    + " subject, matched, rule, file, part, total, fileno, files, release, reason.")
    static final class Test implements Runnable {
        private static final ObjectMapper JSON = new ObjectMapper();
        private static final String UNMATCHED = "no rule matched and the built-in parser found no file name";

        @Spec
        CommandSpec spec;
        @Option(names = "--rules", paramLabel = "FILE", description = "a rule set file (default: the shipped rules, as `rules defaults` prints them)")
        Path rules;
        @Option(names = "--group", defaultValue = "alt.binaries.test", description = "the newsgroup the subjects are from (default ${DEFAULT-VALUE})")
        String group;
        @Option(names = "--poster", defaultValue = "", description = "the poster (From) the subjects are from, for poster lists (default none)")
        String poster;

        @Override
        public void run() {
            RuleSet set = ruleSet();
            PrintWriter out = spec.commandLine().getOut();
            Headway root = (Headway) spec.root().userObject();
            try (BufferedReader in = new BufferedReader(new InputStreamReader(root.stdin, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    out.println(JSON.writeValueAsString(row(line, set.match(group, poster, line))));
                }
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e);
            } catch (IOException e) {
                throw new CliException(Exit.FAILED, "reading subjects from stdin: " + e.getMessage(), e);
            }
            out.flush();
        }

        private RuleSet ruleSet() {
            if (rules == null) {
                return RuleSet.defaults(0);
            }
            String json;
            try {
                json = Files.readString(rules);
            } catch (IOException e) {
                throw CliException.badInput("cannot read rule file " + rules + ": " + e.getMessage());
            }
            try {
                return RuleSet.parse(0, json);
            } catch (RuleSetException e) {
                throw CliException.badInput("rule file " + rules + ": " + e.getMessage());
            }
        }

        private static Map<String, Object> row(String subject, SubjectMatch match) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("subject", subject);
            row.put("matched", match instanceof SubjectMatch.Matched);
            ParsedSubject p = match instanceof SubjectMatch.Matched m ? m.subject() : null;
            row.put("rule", match instanceof SubjectMatch.Matched m ? m.ruleName() : null);
            row.put("file", p == null ? null : p.fileName());
            row.put("part", p == null || p.part() < 0 ? null : p.part());
            row.put("total", p == null || p.totalParts() < 0 ? null : p.totalParts());
            row.put("fileno", p == null || p.fileNumber() < 0 ? null : p.fileNumber());
            row.put("files", p == null || p.fileTotal() < 0 ? null : p.fileTotal());
            row.put("release", p == null ? null : p.releaseName());
            row.put("reason", match instanceof SubjectMatch.Rejected r ? r.reason() : p == null ? UNMATCHED : null);
            return row;
        }
    }

    @Command(name = "defaults", mixinStandardHelpOptions = true, description = "Print the built-in rule set, a starting point for your own.")
    static final class Defaults implements Runnable {
        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().getOut().println(headway.index.RuleSet.defaultJson());
        }
    }
}
