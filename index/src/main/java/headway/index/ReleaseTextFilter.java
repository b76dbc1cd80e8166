package headway.index;

import static headway.index.ReleaseTextCleaner.afterPresents;
import static headway.index.SubjectParser.isDigit;
import static headway.index.SubjectWords.CREDIT_VERBS;
import static headway.index.SubjectWords.DOMAIN_SET;
import static headway.index.SubjectWords.SECOND_LEVEL;
import static headway.index.SubjectWords.TAGS;
import static headway.index.SubjectWords.TAG_PHRASE_WORDS;
import static headway.index.SubjectWords.UNITS;

import java.util.Locale;

/**
 * Whether a unit of a subject's text is release text or something a poster adds around it: an
 * advert (a web address, a network, "sponsored by"), a tag word or phrase, a request or post id, a
 * hash, a size, a credit. The words it knows are in {@link SubjectWords}; the rest is shape
 * (digits, dots, brackets), so every test looks at a word a bounded number of times.
 */
final class ReleaseTextFilter {

    private ReleaseTextFilter() {}

    /** Whether a unit of text is release text rather than an advert, a network tag, a tag word or a size. */
    static boolean keepText(String raw) {
        String stripped = raw.strip();
        String credited = afterPresents(stripped);
        if (!credited.equals(stripped)) {
            // the poster's own words before "presents" (a site, a network) do not make the name after it an advert
            return keepText(credited);
        }
        String t = strip(raw, " -_.:,;#!~*+=&/'$");
        if (weight(t) < 1) {
            return false;
        }
        String lower = t.toLowerCase(Locale.ROOT);
        if (TAGS.contains(lower) || isLongNumber(t) || isShortId(t)) {
            return false;
        }
        String full = raw.strip().toLowerCase(Locale.ROOT);
        if (full.startsWith("#")
                || lower.contains("@efnet")
                || lower.contains("efnet")
                || lower.contains("@linknet")
                || lower.startsWith("a.b.")
                || lower.startsWith("alt.binaries")
                || lower.startsWith("altbin")) {
            return false;
        }
        if (lower.contains("www.")
                || lower.contains("http:")
                || lower.contains("https:")
                || lower.contains("usenet")
                || lower.contains("ssl-news")
                || lower.contains("sponsored by")
                || lower.contains("powered by")
                || lower.contains("partner of")
                || lower.contains("partner von")
                || lower.contains("download")) {
            return false;
        }
        if (lower.endsWith(" present") || lower.endsWith(" presents") || lower.endsWith(" presenteert")) {
            return false;
        }
        if (postLabel(lower)) {
            return false;
        }
        String[] words = lower.split(" ");
        if (words.length <= 3) {
            for (String word : words) {
                if (isDomain(word)) {
                    return false;
                }
            }
        }
        if (t.indexOf(' ') < 0) {
            if (formatTag(t)) {
                return false;
            }
        } else {
            boolean allTags = true;
            for (String word : words) {
                allTags &= weight(word) == 0
                        || TAGS.contains(word)
                        || TAG_PHRASE_WORDS.contains(word)
                        || TAG_PHRASE_WORDS.contains(withoutDigits(word))
                        || isLongNumber(word)
                        || word.chars().allMatch(SubjectParser::isDigit);
            }
            if (allTags || (words.length <= 3 && words[0].equals("for"))) {
                return false;
            }
        }
        return !isSize(lower);
    }

    /** {@code Postman87 post 1345216}, {@code Cor316 Post Nr 099}: an uploader numbering his posts, not a title. */
    private static boolean postLabel(String lower) {
        String[] words = lower.split(" ");
        if (words.length < 3 || words.length > 4 || !words[1].equals("post")) {
            return false;
        }
        String number = words[words.length - 1];
        boolean nr = words.length == 3 || words[2].equals("nr") || words[2].equals("no") || words[2].equals("#");
        return nr && !number.isEmpty() && number.chars().allMatch(SubjectParser::isDigit);
    }

    /** {@code top100} gives {@code top}. */
    private static String withoutDigits(String word) {
        int end = word.length();
        while (end > 0 && isDigit(word.charAt(end - 1))) {
            end--;
        }
        return word.substring(0, end);
    }

    /** {@code kosova-shqip.eu}: a name with one dot before a top-level domain. */
    static boolean isDomain(String word) {
        int dots = 0;
        for (int i = 0; i < word.length(); i++) {
            dots += word.charAt(i) == '.' ? 1 : 0;
        }
        if (dots == 0 || dots > 2) {
            return false;
        }
        if (dots == 2) {
            int second = word.lastIndexOf('.', word.lastIndexOf('.') - 1);
            if (word.lastIndexOf('.') - second > 5) {
                return false;
            }
            for (String d : SECOND_LEVEL) {
                if (word.endsWith(d) && second > 2) {
                    return true;
                }
            }
            return false;
        }
        int dot = word.lastIndexOf('.');
        return dot > 2 && DOMAIN_SET.contains(word.substring(dot));
    }

    /** A request or post number ({@code 1330543524}) or a hash ({@code f3a543495657d38c361dbe767a8506df}). */
    private static boolean isLongNumber(String t) {
        boolean digits = true;
        boolean hex = true;
        for (int i = 0; i < t.length(); i++) {
            char c = Character.toLowerCase(t.charAt(i));
            digits &= isDigit(c);
            hex &= isDigit(c) || (c >= 'a' && c <= 'f');
        }
        return (digits && t.length() >= 5) || (hex && t.length() >= 16);
    }

    /** {@code 9943 - [085/110]}: a number of three or four digits that is not a year, a request id. */
    private static boolean isShortId(String t) {
        if (t.length() < 3 || t.length() > 4 || !t.chars().allMatch(SubjectParser::isDigit)) {
            return false;
        }
        return !(t.length() == 4 && (t.startsWith("19") || t.startsWith("20")));
    }

    /** {@code AVI.PDF}, {@code MP4.x264}: short format words joined by dots. */
    private static boolean formatTag(String t) {
        if (t.length() > 10 || t.indexOf('.') < 0) {
            return false;
        }
        int token = 0;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '.') {
                if (token == 0) {
                    return false;
                }
                token = 0;
            } else if (Character.isLetterOrDigit(c) && ++token <= 4) {
                continue;
            } else {
                return false;
            }
        }
        return token > 0;
    }

    static boolean isRequestId(String inner) {
        String t = strip(inner, " #?");
        if (t.isEmpty()) {
            return true;
        }
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.startsWith("req")) {
            lower = strip(lower.substring(3).replace("uest", ""), " #:.-");
        }
        if (lower.isEmpty()) {
            return true;
        }
        boolean digits = true;
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            digits &= isDigit(c) || c == '-' || c == '#';
        }
        boolean year = lower.length() == 4 && (lower.startsWith("19") || lower.startsWith("20")) && digits;
        return (digits && !year && !isDate(lower)) || lower.chars().allMatch(c -> c == 'x' || c == '#');
    }

    /** {@code 03-12-2010}, {@code 2014-05-17}: a date, which names a release, not a request. */
    private static boolean isDate(String t) {
        String[] parts = t.split("-", -1);
        if (parts.length != 3) {
            return false;
        }
        int year = parts[0].length() == 4 ? 0 : 2;
        return parts[year].length() == 4
                && parts[1].length() <= 2
                && parts[2 - year].length() <= 2
                && (parts[year].startsWith("19") || parts[year].startsWith("20"));
    }

    private static boolean isSize(String lower) {
        int i = 0;
        int n = lower.length();
        while (i < n && (isDigit(lower.charAt(i)) || lower.charAt(i) == '.' || lower.charAt(i) == ',')) {
            i++;
        }
        if (i == 0) {
            return false;
        }
        while (i < n && lower.charAt(i) == ' ') {
            i++;
        }
        return i < n && UNITS.contains(lower.substring(i));
    }

    /** {@code (by Uploader)}, {@code (Postet by Uploader)}: a bracket group that credits the uploader. */
    static boolean isCredit(String inner) {
        String lower = inner.strip().toLowerCase(Locale.ROOT);
        if (lower.startsWith("by ")) {
            return weight(lower) > 4;
        }
        int sp = lower.indexOf(' ');
        return sp > 0
                && lower.startsWith(" by ", sp)
                && CREDIT_VERBS.contains(lower.substring(0, sp))
                && weight(lower.substring(sp)) > 2;
    }

    /** {@code Some.Release.2013-GRP}, {@code Some_Release_2013}: three or more parts joined by dots or underscores, with letters. */
    static boolean isSceneName(String t) {
        int separators = 0;
        int letters = 0;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '.' || c == '_') {
                separators++;
            } else if (Character.isLetter(c)) {
                letters++;
            }
        }
        return separators >= 2 && letters >= 4;
    }

    /** Letters and digits in {@code t}: how much text a unit carries. */
    static int weight(String t) {
        int w = 0;
        for (int i = 0; i < t.length(); i++) {
            if (Character.isLetterOrDigit(t.charAt(i))) {
                w++;
            }
        }
        return w;
    }

    static String strip(String t, String chars) {
        int a = 0;
        int b = t.length();
        while (a < b && (chars.indexOf(t.charAt(a)) >= 0 || Character.isWhitespace(t.charAt(a)))) {
            a++;
        }
        while (b > a && (chars.indexOf(t.charAt(b - 1)) >= 0 || Character.isWhitespace(t.charAt(b - 1)))) {
            b--;
        }
        return t.substring(a, b);
    }
}
