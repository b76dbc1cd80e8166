package headway.index;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import headway.category.CategoryRules;
import headway.category.CategoryRulesException;
import headway.index.SubjectTemplate.Counter;
import headway.overview.HeaderFault;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A versioned, immutable set of subject rules read from a JSON document, in front of the built-in
 * {@link SubjectParser}:
 *
 * <pre>{@code
 * {"name": "default",
 *  "groups": [{"pattern": "alt.binaries.*",
 *              "subjectBlacklist": ["(?i)^fwd?:\\s"], "subjectWhitelist": [],
 *              "posterBlacklist": [], "posterWhitelist": [],
 *              "rules": [{"name": "quoted", "regex": "^\"(?<file>[^\"]+)\" yEnc \\((?<part>\\d+)/(?<total>\\d+)\\)$"}]}]}
 * }</pre>
 *
 * <p>Every group entry whose glob matches the newsgroup applies, in document order: their lists
 * are united and their rules concatenated, so a specific entry placed before {@code *} adds rules
 * that are tried first; a subject no rule matches goes to the parser (for groups some entry
 * covers: a group no pattern matches is not indexed). Rules capture the named
 * groups {@code file} (required), {@code part} and {@code total} (both or neither; absent means
 * no article counter, -1), and optionally {@code release}, {@code fileno} and {@code files}.
 * Without {@code release} the release name is the file name less its volume suffix and extension.
 * Every regex runs on RE2/J, in time linear in the subject: a rule that needs backtracking
 * (lookaround, backreferences, possessive or atomic groups) is refused when the set is built, so
 * no operator's rule can stall a group. Subjects longer than {@link SubjectParser#MAX_LENGTH}
 * are rejected before any rule runs. Invariant: every regex compiled when the set was built, so
 * matching never fails; the cost is compiling all rules up front and caching the applicable rules
 * per group name.
 */
public final class RuleSet {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    private static final String DEFAULT_RESOURCE = "/headway/index/default-rules.json";

    private final int version;
    private final String name;
    /** The most characters a rule set document may have. */
    public static final int MAX_CHARS = 1 << 20;

    /** The most rules and black/white list entries a rule set may have, over all its groups. */
    public static final int MAX_REGEXES = 10_000;

    private final List<GroupEntry> entries;
    private final CategoryRules categories;
    private final ConcurrentHashMap<String, GroupRules> perGroup = new ConcurrentHashMap<>();

    /** The part and total of a memoized match ({@link TemplateMemo}), filled in per subject from its counter. */
    private static final int MEMO_PART = Integer.MIN_VALUE;

    private static final SubjectMatch NOT_MEMOIZABLE = new SubjectMatch.Unmatched();
    private static final SubjectMatch.Unusable TOO_LONG =
            new SubjectMatch.Unusable("subject longer than " + SubjectParser.MAX_LENGTH + " characters");

    private RuleSet(int version, String name, List<GroupEntry> entries, CategoryRules categories) {
        this.version = version;
        this.name = name;
        this.entries = entries;
        this.categories = categories;
    }

    /** Parses and compiles a rule set document; a bad regex fails with the group pattern, rule index and regex error. */
    public static RuleSet parse(int version, String json) {
        if (json != null && json.length() > MAX_CHARS) {
            throw new RuleSetException(
                    "rule set is " + json.length() + " characters long, more than " + MAX_CHARS
                            + "; split it by group or drop rules the built-in parser already covers",
                    null);
        }
        Document doc;
        try {
            doc = JSON.readValue(json, Document.class);
        } catch (JsonProcessingException e) {
            throw new RuleSetException(
                    "rule set is not a valid document (" + e.getOriginalMessage()
                            + "); expected {\"name\": ..., \"groups\": [{\"pattern\": ..., \"rules\": [{\"name\": ..., \"regex\": ...}]}]}",
                    e);
        }
        if (doc == null || doc.groups() == null || doc.groups().isEmpty()) {
            throw new RuleSetException(
                    "rule set has no \"groups\"; add at least one {\"pattern\": \"alt.binaries.*\", \"rules\": [...]}",
                    null);
        }
        List<GroupEntry> entries = new ArrayList<>();
        int regexes = 0;
        for (int i = 0; i < doc.groups().size(); i++) {
            GroupDoc g = doc.groups().get(i);
            if (g == null) {
                throw new RuleSetException(
                        "group entry #" + i
                                + " is null; give {\"pattern\": \"alt.binaries.*\", \"rules\": [...]} or remove it",
                        null);
            }
            regexes += size(g.rules())
                    + size(g.subjectBlacklist())
                    + size(g.subjectWhitelist())
                    + size(g.posterBlacklist())
                    + size(g.posterWhitelist());
            if (regexes > MAX_REGEXES) {
                throw new RuleSetException(
                        "rule set has more than " + MAX_REGEXES + " rules and list entries; a subject is tried against"
                                + " each, so keep the set smaller (the built-in parser needs no rule)",
                        null);
            }
            entries.add(GroupEntry.compile(g));
        }
        CategoryRules categories;
        try {
            categories = CategoryRules.of(doc.categories());
        } catch (CategoryRulesException e) {
            throw new RuleSetException(e.getMessage(), e);
        }
        return new RuleSet(version, doc.name() == null ? "" : doc.name(), List.copyOf(entries), categories);
    }

    private static int size(List<?> list) {
        return list == null ? 0 : list.size();
    }

    /** The rule set shipped as {@code headway/index/default-rules.json}. */
    public static RuleSet defaults(int version) {
        return parse(version, defaultJson());
    }

    /** The text of the shipped default rule set, for importing it into the catalog. */
    public static String defaultJson() {
        try (InputStream in = RuleSet.class.getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(DEFAULT_RESOURCE + " is missing from the class path; rebuild the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int version() {
        return version;
    }

    public String name() {
        return name;
    }

    /** The category rules of the document's {@code categories} section, or the shipped defaults without one. */
    public CategoryRules categories() {
        return categories;
    }

    /**
     * Classifies one header of {@code group}: lists first, then the first matching rule, then the
     * parser. Never throws for a subject or poster, whatever its text: a subject over {@link
     * SubjectParser#MAX_LENGTH} or one that the rules or the parser fail on (a failure {@link
     * HeaderFault} lets one header answer for) is {@link SubjectMatch.Unusable}, with the failure
     * named, so every caller (the window, {@code rules test}, chaos's check) sees one answer.
     */
    public SubjectMatch match(String group, String poster, String subject) {
        try {
            return matchOrThrow(group, poster, subject);
        } catch (RuntimeException | Error e) {
            if (!HeaderFault.survivable(e)) {
                throw e;
            }
            return new SubjectMatch.Unusable(HeaderFault.reason("the rules", e));
        }
    }

    private SubjectMatch matchOrThrow(String group, String poster, String subject) {
        GroupRules forGroup = perGroup.get(group);
        if (forGroup == null) {
            forGroup = perGroup.computeIfAbsent(group, g -> new GroupRules(merged(g), new TemplateMemo<>()));
        }
        GroupEntry rules = forGroup.entry();
        String s = subject == null ? "" : subject.strip();
        if (s.length() > SubjectParser.MAX_LENGTH) {
            return TOO_LONG;
        }
        String p = poster == null ? "" : poster;
        Counter counter = Counter.find(s);
        Verdict verdict;
        if (counter == null) {
            verdict = verdict(rules, s, null);
        } else {
            SubjectTemplate key = new SubjectTemplate(s, counter);
            TemplateMemo<Verdict> memo = forGroup.memo();
            verdict = memo.get(key);
            if (verdict == null) {
                verdict = verdict(rules, s, counter);
                memo.put(key, verdict);
            }
        }
        if (verdict.subjectBlack() != null) {
            return verdict.subjectBlack();
        }
        List<Pattern> posterBlacklist = rules.posterBlacklist();
        // by index: an iterator per header was 3 % of the window's allocation
        for (int i = 0; i < posterBlacklist.size(); i++) {
            Pattern black = posterBlacklist.get(i);
            if (black.matcher(p).find()) {
                return new SubjectMatch.Rejected("poster black list " + black.pattern());
            }
        }
        if (verdict.notWhitelisted()) {
            return new SubjectMatch.Rejected("subject white list");
        }
        if (!rules.posterWhitelist().isEmpty()
                && rules.posterWhitelist().stream().noneMatch(w -> w.matcher(p).find())) {
            return new SubjectMatch.Rejected("poster white list");
        }
        SubjectMatch rule = verdict.rule();
        if (rule instanceof SubjectMatch.Matched matched && matched.subject().part() == MEMO_PART) {
            ParsedSubject t = matched.subject();
            if (!SubjectParser.RULE_NAME.equals(matched.ruleName())
                    && (counter.part() > counter.total() || counter.total() <= 0)) {
                return firstRule(rules, s, null);
            }
            return new SubjectMatch.Matched(
                    new ParsedSubject(
                            t.releaseName(),
                            t.fileName(),
                            counter.part(),
                            counter.total(),
                            t.fileNumber(),
                            t.fileTotal()),
                    matched.ruleName());
        }
        return rule == NOT_MEMOIZABLE ? firstRule(rules, s, null) : rule;
    }

    /** How many subject templates the memo holds for {@code group} (tests read it). */
    int memoized(String group) {
        GroupRules rules = perGroup.get(group);
        return rules == null ? 0 : rules.memo().size();
    }

    /** How many times a template of {@code group} was put into its memo, as a miss or moved back into the young generation (tests read it). */
    long memoPuts(String group) {
        GroupRules rules = perGroup.get(group);
        return rules == null ? 0 : rules.memo().puts();
    }

    /** What the subject alone decides: its black list, its white list, and the first rule that matches it. */
    private record Verdict(SubjectMatch.Rejected subjectBlack, boolean notWhitelisted, SubjectMatch rule) {}

    private Verdict verdict(GroupEntry rules, String s, Counter counter) {
        for (Pattern black : rules.subjectBlacklist()) {
            if (black.matcher(s).find()) {
                return new Verdict(new SubjectMatch.Rejected("subject black list " + black.pattern()), false, null);
            }
        }
        boolean notWhitelisted = !rules.subjectWhitelist().isEmpty()
                && rules.subjectWhitelist().stream().noneMatch(w -> w.matcher(s).find());
        return new Verdict(null, notWhitelisted, firstRule(rules, s, counter));
    }

    /**
     * The first rule that matches, else the parser. With a counter, the result is shaped for the
     * memo: when the rule or the parser took part and total from exactly the counter's digits,
     * those are left as {@link #MEMO_PART} to be filled in per subject; when it took them from
     * elsewhere, or found none there, the subject is marked not memoizable.
     */
    private SubjectMatch firstRule(GroupEntry rules, String s, Counter counter) {
        for (Rule rule : rules.rules()) {
            Matcher m = rule.pattern().matcher(s);
            if (m.find()) {
                ParsedSubject parsed = rule.extract(m);
                if (parsed != null) {
                    if (counter == null) {
                        return new SubjectMatch.Matched(parsed, rule.name());
                    }
                    if (!rule.hasParts
                            || m.start("part") != counter.partStart()
                            || m.end("part") != counter.partEnd()
                            || m.start("total") != counter.totalStart()
                            || m.end("total") != counter.totalEnd()) {
                        return NOT_MEMOIZABLE;
                    }
                    return new SubjectMatch.Matched(
                            new ParsedSubject(
                                    parsed.releaseName(),
                                    parsed.fileName(),
                                    MEMO_PART,
                                    MEMO_PART,
                                    parsed.fileNumber(),
                                    parsed.fileTotal()),
                            rule.name());
                }
            }
        }
        SubjectParser.Parsed parsed = rules.covered() ? SubjectParser.parse(s) : null;
        if (parsed == null) {
            return UNMATCHED;
        }
        if (counter == null) {
            return new SubjectMatch.Matched(parsed.subject(), SubjectParser.RULE_NAME);
        }
        if (parsed.partStart() != counter.partStart()
                || parsed.partEnd() != counter.partEnd()
                || parsed.totalStart() != counter.totalStart()
                || parsed.totalEnd() != counter.totalEnd()) {
            return NOT_MEMOIZABLE;
        }
        return new SubjectMatch.Matched(
                new ParsedSubject(
                        parsed.release(), parsed.file(), MEMO_PART, MEMO_PART, parsed.fileNumber(), parsed.fileTotal()),
                SubjectParser.RULE_NAME);
    }

    private static final SubjectMatch UNMATCHED = new SubjectMatch.Unmatched();

    /** A group's merged rules and its memo. */
    private record GroupRules(GroupEntry entry, TemplateMemo<Verdict> memo) {}

    private GroupEntry merged(String group) {
        List<Pattern> sb = new ArrayList<>();
        List<Pattern> sw = new ArrayList<>();
        List<Pattern> pb = new ArrayList<>();
        List<Pattern> pw = new ArrayList<>();
        List<Rule> rules = new ArrayList<>();
        boolean covered = false;
        for (GroupEntry e : entries) {
            if (e.glob().matcher(group).matches()) {
                covered = true;
                sb.addAll(e.subjectBlacklist());
                sw.addAll(e.subjectWhitelist());
                pb.addAll(e.posterBlacklist());
                pw.addAll(e.posterWhitelist());
                rules.addAll(e.rules());
            }
        }
        return new GroupEntry(null, sb, sw, pb, pw, rules, covered);
    }

    record Document(String name, List<GroupDoc> groups, JsonNode categories) {}

    record GroupDoc(
            String pattern,
            List<String> subjectBlacklist,
            List<String> subjectWhitelist,
            List<String> posterBlacklist,
            List<String> posterWhitelist,
            List<RuleDoc> rules) {}

    record RuleDoc(String name, String regex) {}

    /** A group entry as compiled, or the merge of those that apply to one group; {@code covered}: some entry applies, so the parser does too. */
    private record GroupEntry(
            Pattern glob,
            List<Pattern> subjectBlacklist,
            List<Pattern> subjectWhitelist,
            List<Pattern> posterBlacklist,
            List<Pattern> posterWhitelist,
            List<Rule> rules,
            boolean covered) {

        static GroupEntry compile(GroupDoc g) {
            if (g.pattern() == null || g.pattern().isBlank()) {
                throw new RuleSetException(
                        "a group entry has no \"pattern\"; give a glob such as \"alt.binaries.*\"", null);
            }
            String where = "group '" + g.pattern() + "'";
            List<Rule> rules = new ArrayList<>();
            List<RuleDoc> docs = g.rules() == null ? List.of() : g.rules();
            for (int i = 0; i < docs.size(); i++) {
                RuleDoc r = docs.get(i);
                if (r == null) {
                    throw new RuleSetException(
                            where + " rule #" + i + " is null; give {\"name\": ..., \"regex\": ...} or remove it",
                            null);
                }
                String label = where + " rule #" + i + (r.name() == null ? "" : " ('" + r.name() + "')");
                Pattern p = compileRegex(label, r.regex());
                rules.add(Rule.of(label, r.name() == null ? "#" + i : r.name(), p));
            }
            return new GroupEntry(
                    glob(g.pattern()),
                    compileAll(where + " subjectBlacklist", g.subjectBlacklist()),
                    compileAll(where + " subjectWhitelist", g.subjectWhitelist()),
                    compileAll(where + " posterBlacklist", g.posterBlacklist()),
                    compileAll(where + " posterWhitelist", g.posterWhitelist()),
                    List.copyOf(rules),
                    true);
        }

        private static List<Pattern> compileAll(String label, List<String> regexes) {
            List<Pattern> out = new ArrayList<>();
            if (regexes != null) {
                for (int i = 0; i < regexes.size(); i++) {
                    out.add(compileRegex(label + " #" + i, regexes.get(i)));
                }
            }
            return List.copyOf(out);
        }

        private static Pattern compileRegex(String label, String regex) {
            if (regex == null || regex.isEmpty()) {
                throw new RuleSetException(label + " has no \"regex\"; give one", null);
            }
            String unsupported = unsupported(regex);
            if (unsupported != null) {
                throw new RuleSetException(
                        label + " uses " + unsupported + " in " + regex
                                + ", which the linear-time engine (RE2/J) cannot run; rewrite the rule without lookaround,"
                                + " backreferences, possessive quantifiers or atomic groups (capture more and let a later rule or"
                                + " the built-in parser decide) and import the rule set again",
                        null);
            }
            try {
                return Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                throw new RuleSetException(
                        label + " has a bad regex: " + e.getDescription() + " in " + regex
                                + "; fix the regex (RE2 syntax) and import the rule set again",
                        e);
            }
        }

        /** The backtracking feature {@code regex} uses (lookaround, backreference, possessive, atomic), or null. */
        private static String unsupported(String regex) {
            for (int i = 0; i + 1 < regex.length(); i++) {
                char c = regex.charAt(i);
                if (c == '\\') {
                    char next = regex.charAt(i + 1);
                    if (next >= '1' && next <= '9') {
                        return "a backreference \\" + next;
                    }
                    if (next == 'k' && i + 2 < regex.length() && regex.charAt(i + 2) == '<') {
                        return "a named backreference \\k<...>";
                    }
                    i++;
                    continue;
                }
                if (c == '(' && regex.charAt(i + 1) == '?' && i + 2 < regex.length()) {
                    char k = regex.charAt(i + 2);
                    if (k == '=') {
                        return "a lookahead (?=";
                    }
                    if (k == '!') {
                        return "a negative lookahead (?!";
                    }
                    if (k == '>') {
                        return "an atomic group (?>";
                    }
                    if (k == '<'
                            && i + 3 < regex.length()
                            && (regex.charAt(i + 3) == '=' || regex.charAt(i + 3) == '!')) {
                        return "a lookbehind (?<" + regex.charAt(i + 3);
                    }
                }
                if ((c == '*' || c == '+' || c == '?' || c == '}')
                        && regex.charAt(i + 1) == '+'
                        && i > 0
                        && regex.charAt(i - 1) != '\\') {
                    return "a possessive quantifier " + c + "+";
                }
            }
            return null;
        }

        private static Pattern glob(String glob) {
            StringBuilder re = new StringBuilder();
            for (char c : glob.toCharArray()) {
                switch (c) {
                    case '*' -> re.append(".*");
                    case '?' -> re.append('.');
                    default -> re.append(Pattern.quote(String.valueOf(c)));
                }
            }
            return Pattern.compile(re.toString(), Pattern.DOTALL);
        }
    }

    private record Rule(String name, Pattern pattern, boolean hasRelease, boolean hasParts, boolean hasFiles) {

        static Rule of(String label, String name, Pattern p) {
            Map<String, Integer> re = p.namedGroups();
            if (!hasGroup(re, "file")) {
                throw new RuleSetException(
                        label + " has no named group (?<file>...); every rule must capture the file name", null);
            }
            if (hasGroup(re, "part") != hasGroup(re, "total")) {
                throw new RuleSetException(
                        label + " captures only one of (?<part>...) and (?<total>...); capture both or neither", null);
            }
            if (hasGroup(re, "fileno") != hasGroup(re, "files")) {
                throw new RuleSetException(
                        label + " captures only one of (?<fileno>...) and (?<files>...); capture both or neither",
                        null);
            }
            return new Rule(name, p, hasGroup(re, "release"), hasGroup(re, "part"), hasGroup(re, "fileno"));
        }

        private static boolean hasGroup(Map<String, Integer> groups, String group) {
            return groups.containsKey(group);
        }

        ParsedSubject extract(Matcher m) {
            String file = m.group("file");
            if (file == null || file.isBlank()) {
                return null;
            }
            file = file.strip();
            int part = -1;
            int total = -1;
            if (hasParts && m.group("part") != null && m.group("total") != null) {
                part = number(m.group("part"));
                total = number(m.group("total"));
                if (part < 0 || total <= 0 || part > total) {
                    return null;
                }
            }
            int fileNo = -1;
            int files = -1;
            if (hasFiles && m.group("fileno") != null && m.group("files") != null) {
                fileNo = number(m.group("fileno"));
                files = number(m.group("files"));
            }
            String release = hasRelease && m.group("release") != null ? ReleaseNames.clean(m.group("release")) : "";
            if (release.isEmpty()) {
                release = ReleaseNames.fromFileName(file);
            }
            return new ParsedSubject(release, file, part, total, fileNo, files);
        }

        /** The value of at most nine decimal digits (of any script, as {@code \p{Nd}} captures them), else -1. */
        private static int number(String digits) {
            if (digits.isEmpty() || digits.length() > 9) {
                return -1;
            }
            int v = 0;
            for (int i = 0; i < digits.length(); i++) {
                int d = Character.digit(digits.charAt(i), 10);
                if (d < 0) {
                    return -1; // a rule such as (?<part>\S+) captured more than digits
                }
                v = v * 10 + d;
            }
            return v;
        }
    }

    @Override
    public String toString() {
        return "RuleSet[" + name + " v" + version + "]";
    }
}
