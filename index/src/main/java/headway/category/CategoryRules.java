package headway.category;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code categories} section of a rule set: an ordered list of rules, the first that matches
 * a release decides its category.
 *
 * <pre>{@code
 * "categories": [
 *   {"name": "hashed", "hashed": true, "category": 8020},
 *   {"name": "tv-uhd", "tv": true, "resolution": ["2160p"], "category": 5045},
 *   {"name": "ebook", "group": "alt.binaries.e-book*", "words": ["epub", "mobi"], "category": 7020},
 *   {"name": "custom", "pattern": "(?i)^Some\\.Show\\.", "category": 5040},
 *   {"name": "rest", "category": 8010}]
 * }</pre>
 *
 * <p>Every condition given must hold: {@code group} (a glob over the newsgroup, default
 * {@code *}), {@code pattern} (an RE2 regex searched in the release name; RE2/J runs in linear
 * time, so a rule cannot make a hostile name expensive), {@code unless} (an RE2 regex that must
 * not match), {@code words} (any of these words or phrases occurs in the name, compared word by
 * word, case-insensitively, with {@code . _ - space} all separating words, so {@code "web-dl"}
 * matches {@code WEB.DL}), {@code tv}, {@code anime}, {@code hashed} (what the
 * {@link ReleaseNameParser} found) and {@code resolution} (any of these). {@code category} must
 * be an id of the {@link CategoryTree}. A release no rule matches is Other/Misc (8010). A rule
 * set without a {@code categories} section uses the shipped defaults
 * ({@code headway/category/default-categories.json}). Invariant: every regex compiled and every
 * id checked when the section was read, so classifying never fails.
 */
public final class CategoryRules {

    /** Where a release that no rule matches goes. */
    public static final int FALLBACK = 8010;

    private static final String DEFAULT_RESOURCE = "/headway/category/default-categories.json";
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    private static final CategoryRules DEFAULTS = parse(defaultSection(), true);

    private final List<Rule> rules;
    private final CategoryTree tree;
    private final boolean fromDefaults;

    private CategoryRules(List<Rule> rules, boolean fromDefaults) {
        this.rules = rules;
        this.tree = CategoryTree.standard();
        this.fromDefaults = fromDefaults;
    }

    /** The shipped default rules. */
    public static CategoryRules defaults() {
        return DEFAULTS;
    }

    /** Reads a {@code categories} section (a JSON array); null or missing means the defaults. */
    public static CategoryRules of(JsonNode section) {
        if (section == null || section.isNull() || section.isMissingNode()) {
            return DEFAULTS;
        }
        return parse(section, false);
    }

    /** Reads the {@code categories} section of a whole rule-set document. */
    public static CategoryRules ofRuleSet(String ruleSetJson) {
        try {
            return of(JSON.readTree(ruleSetJson).get("categories"));
        } catch (JsonProcessingException e) {
            throw new CategoryRulesException("rule set is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Whether these are the shipped defaults (the rule set had no {@code categories} section). */
    public boolean isDefault() {
        return fromDefaults;
    }

    public CategoryTree tree() {
        return tree;
    }

    /** Parses {@code name} and finds its category; {@code group} may be null (then only rules for every group apply). */
    public Classification classify(String group, String name) {
        String n = name == null ? "" : name;
        ReleaseAttributes attributes = ReleaseNameParser.parse(n);
        Words words = new Words(ReleaseTokens.of(n));
        String g = group == null ? "" : group;
        for (Rule rule : rules) {
            if (rule.matches(g, n, attributes, words)) {
                return new Classification(rule.category, attributes);
            }
        }
        return new Classification(tree.byId(FALLBACK).orElseThrow(), attributes);
    }

    /** The default section's text, for {@code headway rules defaults}. */
    public static String defaultJson() {
        try (InputStream in = CategoryRules.class.getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(DEFAULT_RESOURCE + " is missing from the class path; rebuild the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode defaultSection() {
        try {
            return JSON.readTree(defaultJson()).get("categories");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(DEFAULT_RESOURCE + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static CategoryRules parse(JsonNode section, boolean defaults) {
        if (!section.isArray()) {
            throw new CategoryRulesException(
                    "\"categories\" must be an array of rules such as "
                            + "{\"name\": \"tv-hd\", \"tv\": true, \"resolution\": [\"720p\", \"1080p\"], \"category\": 5040}",
                    null);
        }
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < section.size(); i++) {
            RuleDoc doc;
            try {
                doc = JSON.treeToValue(section.get(i), RuleDoc.class);
            } catch (JsonProcessingException e) {
                throw new CategoryRulesException(
                        "categories rule #" + i + " is not valid (" + e.getOriginalMessage()
                                + "); its keys are name, group, pattern, unless, words, tv, anime, hashed, resolution, category",
                        e);
            }
            rules.add(Rule.compile(i, doc, CategoryTree.standard()));
        }
        return new CategoryRules(List.copyOf(rules), defaults);
    }

    /** One rule as written in the document. */
    record RuleDoc(
            String name,
            String group,
            String pattern,
            String unless,
            List<String> words,
            Boolean tv,
            Boolean anime,
            Boolean hashed,
            List<String> resolution,
            Integer category) {}

    /** The words of a name, for {@code words} conditions: a set for single words, the sequence for phrases. */
    private static final class Words {
        final ReleaseTokens tokens;
        final Set<String> set;

        Words(ReleaseTokens tokens) {
            this.tokens = tokens;
            this.set = new HashSet<>(List.of(tokens.lower));
        }

        boolean containsAny(List<String[]> phrases) {
            for (String[] p : phrases) {
                if (p.length == 1) {
                    if (set.contains(p[0])) {
                        return true;
                    }
                } else if (set.contains(p[0])) {
                    for (int i = 0; i < tokens.size(); i++) {
                        if (tokens.matches(i, p)) {
                            return true;
                        }
                    }
                }
            }
            return false;
        }
    }

    private record Rule(
            String label,
            Pattern glob,
            Pattern pattern,
            Pattern unless,
            List<String[]> words,
            Boolean tv,
            Boolean anime,
            Boolean hashed,
            Set<String> resolution,
            Category category) {

        static Rule compile(int index, RuleDoc d, CategoryTree tree) {
            String label = "categories rule #" + index + (d.name() == null ? "" : " ('" + d.name() + "')");
            if (d.category() == null) {
                throw new CategoryRulesException(label + " has no \"category\"; give a newznab id such as 5040", null);
            }
            Category category = tree.byId(d.category())
                    .orElseThrow(() -> new CategoryRulesException(
                            label + " names category " + d.category()
                                    + ", which is not a newznab category; use one of the ids `headway rules categories` lists",
                            null));
            List<String[]> words = new ArrayList<>();
            if (d.words() != null) {
                for (String w : d.words()) {
                    String[] phrase = ReleaseTokens.of(w == null ? "" : w).lower;
                    if (phrase.length == 0) {
                        throw new CategoryRulesException(label + " has an empty word in \"words\"; remove it", null);
                    }
                    words.add(phrase);
                }
            }
            Set<String> resolutions = null;
            if (d.resolution() != null) {
                resolutions = new HashSet<>();
                for (String r : d.resolution()) {
                    resolutions.add(r.toLowerCase(Locale.ROOT));
                }
            }
            return new Rule(
                    label,
                    glob(d.group() == null ? "*" : d.group()),
                    regex(label + " pattern", d.pattern()),
                    regex(label + " unless", d.unless()),
                    List.copyOf(words),
                    d.tv(),
                    d.anime(),
                    d.hashed(),
                    resolutions == null ? null : Set.copyOf(resolutions),
                    category);
        }

        boolean matches(String group, String name, ReleaseAttributes a, Words w) {
            return (tv == null || tv == a.tv())
                    && (anime == null || anime == a.anime())
                    && (hashed == null || hashed == a.hashed())
                    && (resolution == null || (a.resolution() != null && resolution.contains(a.resolution())))
                    && (words.isEmpty() || w.containsAny(words))
                    && (glob == null || glob.matches(group))
                    && (pattern == null || pattern.matcher(name).find())
                    && (unless == null || !unless.matcher(name).find());
        }

        private static Pattern regex(String label, String regex) {
            if (regex == null) {
                return null;
            }
            if (regex.isEmpty()) {
                throw new CategoryRulesException(label + " is empty; give a regex or leave the key out", null);
            }
            try {
                return Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                throw new CategoryRulesException(
                        label + " is not a valid RE2 regex (" + e.getMessage()
                                + "); RE2 has no backreferences or lookaround; fix it and import the rule set again",
                        e);
            }
        }

        private static Pattern glob(String glob) {
            if (glob.equals("*")) {
                return null;
            }
            StringBuilder re = new StringBuilder();
            for (char c : glob.toCharArray()) {
                switch (c) {
                    case '*' -> re.append(".*");
                    case '?' -> re.append('.');
                    default -> re.append(Pattern.quote(String.valueOf(c)));
                }
            }
            return Pattern.compile(re.toString());
        }
    }
}
