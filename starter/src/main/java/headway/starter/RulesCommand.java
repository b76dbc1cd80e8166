package headway.starter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import headway.catalog.MissStore;
import headway.catalog.RuleSetInfo;
import headway.category.Category;
import headway.category.CategoryRules;
import headway.category.CategoryTree;
import headway.category.Classification;
import headway.category.ReleaseAttributes;
import headway.index.ParsedSubject;
import headway.index.RuleSet;
import headway.index.RuleSetException;
import headway.index.SubjectMatch;
import headway.index.Window;
import headway.store.UnknownGroupException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code headway rules import FILE | list | defaults | classify | categories | test | misses GROUP}: versioned
 * subject and category rule sets, and what they drop.
 */
@Command(
        name = "rules",
        mixinStandardHelpOptions = true,
        description = "Import, list and try rule sets.",
        subcommands = {
            RulesCommand.Import.class,
            RulesCommand.ListRules.class,
            RulesCommand.Defaults.class,
            RulesCommand.Classify.class,
            RulesCommand.Categories.class,
            RulesCommand.Test.class,
            RulesCommand.Misses.class
        })
final class RulesCommand implements Runnable {
    /** Releases re-categorized per transaction after an import. */
    static final int RECATEGORIZE_BATCH = 1000;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(
                spec.commandLine(), "name a subcommand: import, list, defaults, classify, categories, test or misses");
    }

    @Command(
            name = "import",
            mixinStandardHelpOptions = true,
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
                int version = connections
                        .database()
                        .importRuleSet(name != null ? name : file.getFileName().toString(), json);
                spec.commandLine().getOut().println("imported " + file + " as rule set version " + version);
                long changed = connections
                        .database()
                        .recategorize(RuleSet.parse(version, json).categories(), version, RECATEGORIZE_BATCH);
                spec.commandLine().getOut().println("recategorized " + changed + " releases");
            } catch (RuleSetException e) {
                throw CliException.badInput("rule file " + file + ": " + e.getMessage());
            }
        }
    }

    @Command(
            name = "misses",
            mixinStandardHelpOptions = true,
            description = {
                "Show what the index drops in GROUP: how many headers no rule or the parser matched",
                "(unmatched) or a list rejected (rejected), and the most frequent subject shapes",
                "(digits as #, letters as a), each with its count, verdict and an example."
            })
    static final class Misses implements Runnable {
        @Mixin
        Connections connections;

        @Spec
        CommandSpec spec;

        @Option(names = "--limit", paramLabel = "N", description = "shapes to show (default: ${DEFAULT-VALUE})")
        int limit = 50;

        @Mixin
        JsonOption json;

        @Parameters(paramLabel = "GROUP")
        String group;

        @Override
        public void run() {
            if (limit < 1 || limit > MissStore.SHAPES_KEPT) {
                throw CliException.badInput(
                        "--limit must be between 1 and " + MissStore.SHAPES_KEPT + " (the shapes kept), was " + limit);
            }
            try (Connections open = connections) {
                MissStore.Report r = connections.database().misses().report(group, limit);
                PrintWriter out = spec.commandLine().getOut();
                if (json.printed(r)) {
                    return;
                }
                out.printf("%s: unmatched=%d rejected=%d%n", r.group(), r.unmatched(), r.rejected());
                for (MissStore.ShapeCount s : r.shapes()) {
                    out.printf(
                            "%10d  %-9s %s%n           e.g. %s%n",
                            s.headers(), s.reason().isEmpty() ? "unmatched" : "rejected", s.shape(), s.example());
                }
            } catch (UnknownGroupException e) {
                throw CliException.badInput(e.getMessage());
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List rule set versions.")
    static final class ListRules implements Runnable {
        @Mixin
        Connections connections;

        @Spec
        CommandSpec spec;

        @Mixin
        JsonOption json;

        @Override
        public void run() {
            try (Connections open = connections) {
                List<RuleSetInfo> sets = connections.database().ruleSets();
                if (json.printed(sets)) {
                    return;
                }
                if (sets.isEmpty()) {
                    spec.commandLine()
                            .getOut()
                            .println("no rule sets imported: the built-in defaults (version 0) are in use");
                }
                for (RuleSetInfo r : sets) {
                    spec.commandLine().getOut().printf("%5d  %-40s %s%n", r.version(), r.name(), r.createdAt());
                }
            }
        }
    }

    @Command(
            name = "defaults",
            mixinStandardHelpOptions = true,
            description = "Print the built-in rule set with its categories section, a starting point for your own.")
    static final class Defaults implements Runnable {
        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            ObjectMapper mapper = new ObjectMapper();
            try {
                ObjectNode doc = (ObjectNode) mapper.readTree(RuleSet.defaultJson());
                if (!doc.has("categories")) {
                    doc.set(
                            "categories",
                            mapper.readTree(CategoryRules.defaultJson()).get("categories"));
                }
                spec.commandLine()
                        .getOut()
                        .println(mapper.writerWithDefaultPrettyPrinter().writeValueAsString(doc));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException("the built-in rule set is not valid JSON: " + e.getMessage(), e);
            }
        }
    }

    @Command(
            name = "classify",
            mixinStandardHelpOptions = true,
            description = {
                "Read release names on standard input, one a line; print one JSON object a line with",
                "name, category, category_name, title, season, episode, year, resolution (null where unknown;",
                "a daily show's season is its year and its episode MM-DD)."
            })
    static final class Classify implements Runnable {
        private static final ObjectMapper JSON = new ObjectMapper();

        @Spec
        CommandSpec spec;

        @Option(
                names = "--group",
                paramLabel = "G",
                description = "the newsgroup the releases come from (for rules with a group glob)")
        String group;

        @Option(names = "--rules", paramLabel = "FILE", description = "a rule set file (default: the built-in rules)")
        Path rules;

        /** Standard input; tests replace it. */
        InputStream in = System.in;

        @Override
        public void run() {
            CategoryRules categories = CategoryRules.defaults();
            if (rules != null) {
                try {
                    categories = RuleSet.parse(0, Files.readString(rules)).categories();
                } catch (IOException e) {
                    throw CliException.badInput("cannot read rule file " + rules + ": " + e.getMessage());
                } catch (RuleSetException e) {
                    throw CliException.badInput("rule file " + rules + ": " + e.getMessage());
                }
            }
            PrintWriter out = spec.commandLine().getOut();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    String name = line.strip();
                    if (!name.isEmpty()) {
                        out.println(line(name, categories.classify(group, name)));
                    }
                }
            } catch (IOException e) {
                throw new CliException(Exit.FAILED, "reading release names from standard input: " + e.getMessage(), e);
            }
            out.flush();
        }

        static String line(String name, Classification c) {
            ReleaseAttributes a = c.attributes();
            ObjectNode o = JSON.createObjectNode();
            o.put("name", name);
            o.put("category", c.category().id());
            o.put("category_name", c.category().name());
            o.put("title", a.title() == null || a.title().isEmpty() ? null : a.title());
            o.put("season", a.season());
            if (a.episodeNumber() != null) {
                o.put("episode", a.episodeNumber());
            } else {
                o.put("episode", a.episode());
            }
            o.put("year", a.year());
            o.put("resolution", a.resolution());
            try {
                return JSON.writeValueAsString(o);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
            }
        }
    }

    @Command(
            name = "categories",
            mixinStandardHelpOptions = true,
            description = "List the newznab categories (id, name).")
    static final class Categories implements Runnable {
        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            for (Category c : CategoryTree.standard().all()) {
                spec.commandLine().getOut().printf("%d  %s%n", c.id(), c.name());
            }
        }
    }

    /**
     * {@code headway rules test}: what a rule set (the shipped one, or {@code --rules FILE}) makes of
     * subjects read on stdin, one JSON object per line, so that an operator tries rules before
     * importing them. The keys are fixed; absent counters are null, never a made-up 1. Each subject
     * goes through {@link Window#classify}, as the worker's window classifies a header, so a subject
     * the rules cannot classify prints its reason instead of failing the command.
     */
    @Command(
            name = "test",
            mixinStandardHelpOptions = true,
            description =
                    "Read subjects on stdin, one per line, and print what the rules make of each as one JSON object per line:"
                            + " subject, matched, rule, file, part, total, fileno, files, release, reason.")
    static final class Test implements Runnable {
        private static final ObjectMapper JSON = new ObjectMapper();
        private static final String UNMATCHED = "no rule matched and the built-in parser found no file name";

        @Spec
        CommandSpec spec;

        @Option(
                names = "--rules",
                paramLabel = "FILE",
                description = "a rule set file (default: the shipped rules, as `rules defaults` prints them)")
        Path rules;

        @Option(
                names = "--group",
                defaultValue = "alt.binaries.test",
                description = "the newsgroup the subjects are from (default ${DEFAULT-VALUE})")
        String group;

        @Option(
                names = "--poster",
                defaultValue = "",
                description = "the poster (From) the subjects are from, for poster lists (default none)")
        String poster;

        /** Standard input; tests replace it. */
        InputStream in = System.in;

        @Override
        public void run() {
            RuleSet set = ruleSet();
            PrintWriter out = spec.commandLine().getOut();
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    out.println(JSON.writeValueAsString(row(line, Window.classify(set, group, poster, line))));
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

        /** Why the worker catalogs no segment of the subject, or null when it does. */
        private static String reason(SubjectMatch match) {
            if (match instanceof SubjectMatch.Rejected r) {
                return r.reason();
            }
            if (match instanceof SubjectMatch.Unusable u) {
                return u.reason() + " (the worker puts the header in the rejected-articles ledger)";
            }
            return match instanceof SubjectMatch.Matched ? null : UNMATCHED;
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
            row.put("reason", reason(match));
            return row;
        }
    }
}
