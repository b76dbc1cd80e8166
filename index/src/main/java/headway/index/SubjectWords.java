package headway.index;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The word lists of the subject parser, read once from {@code subject-words.txt} next to this
 * class, where each list says what it is for. Data, not code, so that a word is added without
 * reading the scanner. The file is read strictly (UTF-8, every list present once, not empty, lower
 * case, no word twice, ending with {@code [end]}): a missing, cut or garbled file throws here, so
 * the class cannot load and the first subject parsed fails naming the file, rather than every
 * subject being parsed with a list short. The cost is a few hundred words read at class load.
 */
final class SubjectWords {

    static final String RESOURCE = "subject-words.txt";

    /** The lists the file holds, in its order; {@code end} closes it. */
    static final List<String> SECTIONS = List.of(
            "units",
            "tags",
            "languages",
            "tag-phrase-words",
            "domains",
            "second-level-domains",
            "credit-words",
            "credit-verbs",
            "format-words",
            "request-words");

    private static final String END = "end";

    static final Set<String> UNITS;
    static final Set<String> TAGS;
    static final Set<String> LANGUAGES;
    static final Set<String> TAG_PHRASE_WORDS;
    static final Set<String> DOMAIN_SET;
    static final List<String> SECOND_LEVEL;
    /** In the file's order, which is the order they are tried in. */
    static final List<String> CREDIT_WORDS;

    static final Set<String> CREDIT_VERBS;
    static final Set<String> FORMAT_WORDS;
    static final Set<String> REQUEST_WORDS;

    static {
        Map<String, List<String>> lists = read(SubjectWords.class.getResourceAsStream(RESOURCE));
        UNITS = Set.copyOf(lists.get("units"));
        TAGS = Set.copyOf(lists.get("tags"));
        LANGUAGES = Set.copyOf(lists.get("languages"));
        TAG_PHRASE_WORDS = Set.copyOf(lists.get("tag-phrase-words"));
        DOMAIN_SET = Set.copyOf(lists.get("domains"));
        SECOND_LEVEL = lists.get("second-level-domains");
        CREDIT_WORDS = lists.get("credit-words");
        CREDIT_VERBS = Set.copyOf(lists.get("credit-verbs"));
        FORMAT_WORDS = Set.copyOf(lists.get("format-words"));
        REQUEST_WORDS = Set.copyOf(lists.get("request-words"));
    }

    private SubjectWords() {}

    /** The lists of the resource opened as {@code in} (null when it is missing), by section. */
    static Map<String, List<String>> read(InputStream in) {
        if (in == null) {
            throw new IllegalStateException(
                    "headway/index/" + RESOURCE + " is missing from the class path; rebuild the jar");
        }
        try (in) {
            return parse(decode(in.readAllBytes()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read headway/index/" + RESOURCE, e);
        }
    }

    /** The text of {@code bytes} as UTF-8, failing on any malformed byte rather than reading it as U+FFFD. */
    private static String decode(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw garbled("is not UTF-8 (" + e + ")");
        }
    }

    /** The lists of a word file's text, by section, each in the file's order. */
    static Map<String, List<String>> parse(String text) {
        Map<String, List<String>> lists = new LinkedHashMap<>();
        List<String> current = null;
        String section = null;
        boolean ended = false;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int number = i + 1;
            if (ended) {
                throw garbled("has text after [end] on line " + number);
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                section = line.substring(1, line.length() - 1);
                if (section.equals(END)) {
                    ended = true;
                    continue;
                }
                if (!SECTIONS.contains(section)) {
                    throw garbled("has an unknown section [" + section + "] on line " + number + "; the sections are "
                            + SECTIONS);
                }
                if (lists.containsKey(section)) {
                    throw garbled("has section [" + section + "] twice (again on line " + number + ")");
                }
                current = new ArrayList<>();
                lists.put(section, current);
                continue;
            }
            if (current == null) {
                throw garbled("has a word before the first section, on line " + number);
            }
            checkWord(section, line, number, current);
            current.add(line);
        }
        if (!ended) {
            throw garbled("does not end with [end]: it was cut short");
        }
        for (String s : SECTIONS) {
            List<String> words = lists.get(s);
            if (words == null || words.isEmpty()) {
                throw garbled("has no words in section [" + s + "]");
            }
            lists.put(s, List.copyOf(words));
        }
        return lists;
    }

    private static void checkWord(String section, String word, int number, List<String> seen) {
        if (!word.equals(word.toLowerCase(Locale.ROOT))) {
            throw garbled("has '" + word + "' on line " + number
                    + ", not in lower case: subjects are compared in lower case, so it would never match");
        }
        for (int k = 0; k < word.length(); k++) {
            if (Character.isISOControl(word.charAt(k)) || Character.isSurrogate(word.charAt(k))) {
                throw garbled("has a control character in the word on line " + number);
            }
        }
        if (seen.contains(word)) {
            throw garbled("has '" + word + "' twice in section [" + section + "] (again on line " + number + ")");
        }
        if (section.equals("credit-words") && word.charAt(0) != 'p' && word.charAt(0) != 'u') {
            throw garbled("has credit word '" + word + "' on line " + number
                    + ": the file-name reader looks for credit words only where a p or u starts one");
        }
    }

    private static IllegalStateException garbled(String what) {
        return new IllegalStateException(
                "headway/index/" + RESOURCE + " " + what + "; restore it from the source tree and rebuild the jar");
    }
}
