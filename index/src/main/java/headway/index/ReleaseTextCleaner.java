package headway.index;

import static headway.index.ReleaseTextFilter.isDomain;
import static headway.index.ReleaseTextFilter.isSceneName;
import static headway.index.ReleaseTextFilter.strip;
import static headway.index.ReleaseTextFilter.weight;
import static headway.index.SubjectParser.isDigit;
import static headway.index.SubjectWords.CREDIT_WORDS;
import static headway.index.SubjectWords.FORMAT_WORDS;
import static headway.index.SubjectWords.REQUEST_WORDS;
import static headway.index.SubjectWords.TAGS;

import java.util.Locale;

/**
 * Cleans the release text the reader chose: strips separators, enclosing brackets and quotes,
 * request words, an uploader's credit or "presents", a prefix glued to a scene name, and picks
 * the scene name out of a run that holds one; and decides when the file name names a release
 * better than the text does (an uploader's tag before a named file).
 */
final class ReleaseTextCleaner {

    private ReleaseTextCleaner() {}

    /** The release text cleaned: request words dropped from its front, brackets or quotes that enclose all of it removed. */
    static String clean(String text) {
        String r = strip(text, " -_:;,~*#|/");
        r = strayOpeners(withoutCredit(strayOpeners(r)));
        r = afterPresents(r);
        r = unwrap(leadingGroup(r));
        r = unwrap(dropTrailingRequestWords(dropRequestWords(withoutPrefix(r))));
        return r.indexOf('"') < 0 ? r : strip(r.replace("\"", ""), " -_:;,"); // "Title" by Author
    }

    /**
     * {@code r} less a prefix glued to a scene name: a request id ({@code REQ.9514.Name-GRP}) or
     * a site and post id ({@code FTN2DAY.NL-169116-Name-GRP}).
     */
    private static String withoutPrefix(String r) {
        String lower = ReleaseNames.lower(r);
        if (lower.startsWith("req.") || lower.startsWith("req#")) {
            int i = 4;
            while (i < r.length() && isDigit(r.charAt(i))) {
                i++;
            }
            if (i > 4 && i < r.length() - 1 && (r.charAt(i) == '.' || r.charAt(i) == '-')) {
                return r.substring(i + 1);
            }
        }
        int dash = r.indexOf('-');
        if (dash > 0 && r.indexOf(' ') < 0 && isDomain(lower.substring(0, dash))) {
            int i = dash + 1;
            while (i < r.length() && isDigit(r.charAt(i))) {
                i++;
            }
            if (i < r.length() - 1 && r.charAt(i) == '-' && isSceneName(r.substring(i + 1))) {
                return r.substring(i + 1);
            }
        }
        return r;
    }

    /** {@code Shaq S01E01 Req}: the text less request words at its end. */
    private static String dropTrailingRequestWords(String r) {
        String out = r;
        int sp = out.lastIndexOf(' ');
        for (int guard = 0; guard < 4 && sp > 0; guard++) {
            String word = strip(out.substring(sp + 1), "*-[]():").toLowerCase(Locale.ROOT);
            int before = out.lastIndexOf(' ', sp - 1);
            String previous = out.substring(before + 1, sp).toLowerCase(Locale.ROOT);
            if (!word.startsWith("req") || !TAGS.contains(word) || previous.equals("by") || previous.equals("on")) {
                break; // Books by Request is a title
            }
            out = strip(out.substring(0, sp), " -_:;,");
            sp = out.lastIndexOf(' ');
        }
        return out;
    }

    /** {@code r} less brackets or quotes that enclose all of it (up to three deep). */
    private static String unwrap(String text) {
        String r = text;
        for (int unwrap = 0; unwrap < 3 && r.length() >= 2; unwrap++) {
            char open = r.charAt(0);
            char close = r.charAt(r.length() - 1);
            boolean encloses = (open == '[' && close == ']')
                    || (open == '(' && close == ')')
                    || (open == '{' && close == '}')
                    || (open == '"' && close == '"')
                    || (open == '\'' && close == '\'');
            if (!encloses || !balanced(r.substring(1, r.length() - 1), open, close)) {
                break;
            }
            r = strip(r.substring(1, r.length() - 1), " -_:;,~*#|");
        }
        return r;
    }

    /**
     * {@code Title - by Uploader}, {@code Title postet by Uploader}, {@code Title - 1990 - AC3 HD720p Avi by
     * Uploader}: the title without its uploader's credit. A bare {@code by} and one word end the text as a
     * credit only after a year or a format ({@code 2014}, {@code Avi}, {@code x264}): no title ends in
     * one, while {@code Stand by Me} or {@code Books by Request} are titles.
     */
    private static String withoutCredit(String r) {
        String lower = ReleaseNames.lower(r);
        for (String credit : new String[] {" - by ", " postet by ", " posted by ", " upped by ", " uploaded by "}) {
            int at = lower.lastIndexOf(credit);
            if (at > 0 && r.indexOf(' ', at + credit.length()) < 0) {
                return strip(r.substring(0, at), " -_:;,~*#|/");
            }
        }
        int at = lower.lastIndexOf(" by ");
        if (at > 0 && at + 4 < r.length() && r.indexOf(' ', at + 4) < 0) {
            int w = at;
            while (w > 0 && r.charAt(w - 1) != ' ') {
                w--;
            }
            if (isFormatWord(lower.substring(w, at))) {
                return strip(r.substring(0, at), " -_:;,~*#|/");
            }
        }
        return r;
    }

    /** A year, or a word that names a format or a quality ({@code Avi}, {@code XviD}, {@code 720p}, {@code AC3}). */
    private static boolean isFormatWord(String word) {
        boolean letter = false;
        boolean digit = false;
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            letter |= Character.isLetter(c);
            digit |= isDigit(c);
        }
        boolean year = !letter && word.length() == 4 && (word.startsWith("19") || word.startsWith("20")) && digit;
        return year || (letter && digit) || FORMAT_WORDS.contains(word);
    }

    /** {@code r} less an opening bracket at its start that nothing closes, or at its end, and a closer at its start. */
    private static String strayOpeners(String r) {
        String t = r;
        while (!t.isEmpty() && (t.charAt(0) == ')' || t.charAt(0) == ']')) {
            t = strip(t.substring(1), " -_:;,~*#|/");
        }
        if (!t.isEmpty() && (t.charAt(t.length() - 1) == '(' || t.charAt(t.length() - 1) == '[')) {
            t = strip(t.substring(0, t.length() - 1), " -_:;,~*#|/");
        }
        if (!t.isEmpty() && (t.charAt(t.length() - 1) == ')' || t.charAt(t.length() - 1) == ']')) {
            char open = t.charAt(t.length() - 1) == ')' ? '(' : '[';
            if (t.indexOf(open) < 0) { // Name-GRP]- : a closer that nothing opened
                t = strip(t.substring(0, t.length() - 1), " -_:;,~*#|/");
            }
        }
        if (!t.isEmpty() && (t.charAt(0) == '(' || t.charAt(0) == '[')) {
            char close = t.charAt(0) == '(' ? ')' : ']';
            if (t.indexOf(close) < 0) {
                t = strip(t.substring(1), " -_:;,~*#|/");
            }
        }
        return t;
    }

    /**
     * {@code Uploader presents Some.Release}, {@code Uploader uppt Title}: the text after the
     * word, in the languages posters use.
     */
    static String afterPresents(String r) {
        String lower = ReleaseNames.lower(r);
        for (String word : CREDIT_WORDS) {
            int at = lower.indexOf(word);
            int end = at + word.length();
            if (at > 0
                    && end < r.length()
                    && !Character.isLetter(lower.charAt(at - 1))
                    && !Character.isLetter(lower.charAt(end))) {
                String after = strip(r.substring(end), " -_.:;,~*#|");
                return after.isEmpty() ? r : after;
            }
        }
        return r;
    }

    /**
     * The content of a leading bracket group when what follows it is a stray remainder, as in
     * {@code ( Title (2013) -- By Someone ) -- By Someone )}; else {@code r}.
     */
    private static String leadingGroup(String r) {
        if (r.isEmpty() || (r.charAt(0) != '(' && r.charAt(0) != '[')) {
            return r;
        }
        char open = r.charAt(0);
        char close = open == '(' ? ')' : ']';
        int depth = 0;
        for (int i = 0; i < r.length(); i++) {
            char c = r.charAt(i);
            if (c == open) {
                depth++;
            } else if (c == close && --depth == 0) {
                String rest = r.substring(i + 1);
                String inner = r.substring(1, i);
                if (i == r.length() - 1 || weight(rest) * 2 > weight(inner) || balanced(rest, open, close)) {
                    return r;
                }
                return strip(inner, " -_:;,~*#|");
            }
        }
        return r;
    }

    private static boolean balanced(String inner, char open, char close) {
        if (open == close) {
            return inner.indexOf(open) < 0;
        }
        int depth = 0;
        for (int i = 0; i < inner.length(); i++) {
            char c = inner.charAt(i);
            if (c == open) {
                depth++;
            } else if (c == close && --depth < 0) {
                return false;
            }
        }
        return depth == 0;
    }

    static String dropRequestWords(String r) {
        String out = r;
        for (int guard = 0; guard < 6; guard++) {
            int sp = out.indexOf(' ');
            if (sp <= 0) {
                break;
            }
            String raw = out.substring(0, sp);
            String word = strip(raw, "*-[]()").toLowerCase(Locale.ROOT);
            String bare = strip(word, "=~+!");
            if (!bare.equals(word) && TAGS.contains(bare)) { // ===NEW=== Title
                out = strip(out.substring(sp + 1), " -_:;,");
                continue;
            }
            int glued = word.indexOf(':');
            if (glued > 0 && glued < word.length() - 1 && REQUEST_WORDS.contains(word.substring(0, glued + 1))) {
                out = strip(out.substring(out.indexOf(':') + 1), " -_:;,");
                continue;
            }
            if (word.equals("your") || word.equals("my")) { // your requests
                String next = out.substring(sp + 1).stripLeading();
                int sp2 = next.indexOf(' ');
                String w2 =
                        strip(sp2 < 0 ? next : next.substring(0, sp2), "*-:").toLowerCase(Locale.ROOT);
                if (!w2.startsWith("req")) {
                    break;
                }
                out = sp2 < 0 ? "" : strip(next.substring(sp2 + 1), " -_:;,");
                continue;
            }
            boolean request = REQUEST_WORDS.contains(word);
            if (!request) {
                break;
            }
            if (word.equals("proudly") || word.startsWith("attn")) {
                out = strip(out.substring(sp + 1), " -_:;,");
                if (word.startsWith("attn")) {
                    int sp2 = out.indexOf(' ');
                    out = sp2 < 0 ? "" : strip(out.substring(sp2 + 1), " -_:;,");
                }
                continue;
            }
            if (word.equals("by")
                    || word.equals("per")
                    || word.equals("as")
                    || word.equals("for")
                    || word.equals("full")) {
                String next = out.substring(sp + 1).stripLeading();
                int sp2 = next.indexOf(' ');
                String w2 =
                        strip(sp2 < 0 ? next : next.substring(0, sp2), "*-:").toLowerCase(Locale.ROOT);
                if (!w2.startsWith("req") && !w2.startsWith("repost") && !word.equals("for")) {
                    break;
                }
                if (word.equals("for")) {
                    break;
                }
            }
            out = strip(out.substring(sp + 1), " -_:;,");
        }
        return out;
    }

    /**
     * The scene name in a run of release text when it carries most of it: {@code [PROPER]
     * FIFA.14.PAL.XBOX360-iNSOMNi} gives {@code FIFA.14.PAL.XBOX360-iNSOMNi}; else the text.
     */
    static String sceneToken(String text) {
        int total = weight(text);
        int n = text.length();
        String scene = null;
        int i = 0;
        while (i < n) {
            while (i < n && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            int j = i;
            while (j < n && !Character.isWhitespace(text.charAt(j))) {
                j++;
            }
            String token = strip(text.substring(i, j), "[](){}\"'-.");
            if (scene == null
                    && j - i < n
                    && isSceneName(token)
                    && weight(token) * 10 >= total * 6
                    && (!text.startsWith(" - ", j) || onlyBracketGroups(text, j + 3))) {
                scene = token;
            } else if (dotted(token) > 1) {
                return text;
            }
            i = j;
        }
        return scene == null ? text : scene;
    }

    /** Whether {@code text} from {@code from} on is only bracket groups: {@code [MULTI6][PCDVD]}. */
    private static boolean onlyBracketGroups(String text, int from) {
        int i = from;
        boolean any = false;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '[') {
                int close = text.indexOf(']', i);
                if (close < 0) {
                    return false;
                }
                any = true;
                i = close + 1;
            } else if (Character.isWhitespace(c)) {
                i++;
            } else {
                return false;
            }
        }
        return any;
    }

    /** How many dots join two letters or digits in {@code t}: two or more make a piece of a dotted name. */
    private static int dotted(String t) {
        int dots = 0;
        for (int i = 1; i + 1 < t.length(); i++) {
            if (t.charAt(i) == '.'
                    && Character.isLetterOrDigit(t.charAt(i - 1))
                    && Character.isLetterOrDigit(t.charAt(i + 1))) {
                dots++;
            }
        }
        return dots;
    }

    /** Text after the file name counts as the release only when it reads like one: {@code Some.Release.Name-GRP}. */
    static boolean looksLikeRelease(String text) {
        if (text.length() < 10 || text.indexOf(' ') >= 0) {
            return false;
        }
        int dots = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '.' || text.charAt(i) == '_') {
                dots++;
            }
        }
        return dots >= 2;
    }

    /**
     * A one-word release text made of letters only (an uploader's name, {@code Wildrose}) gives way
     * to a file name that reads like a name; a token that groups an obfuscated post stays.
     */
    static boolean preferFileName(String release, String file) {
        if (release.isEmpty()) {
            return false;
        }
        if (weight(release) <= 2) {
            return true;
        }
        String base = ReleaseNames.fromFileName(file);
        String token = strip(release, ".:()[]<>=~*$#!");
        if (token.indexOf(' ') < 0
                && token.length() <= 20
                && !isSceneName(token)
                && !joinsWords(token)
                && !serial(token)
                && readsLikeName(base)
                && !ReleaseNames.fold(base).equals(ReleaseNames.fold(token))) {
            return true; // an uploader's or request tag (v2v, trtk09920, =HDvisUalS=) before a named file
        }
        if (release.length() > 12) {
            return false;
        }
        if (release.indexOf(' ') < 0
                && base.indexOf(' ') < 0
                && separators(base) >= 3
                && !ReleaseNames.fold(base).contains(ReleaseNames.fold(release))) {
            return true;
        }
        for (int i = 0; i < release.length(); i++) {
            if (!Character.isLetter(release.charAt(i))) {
                return false;
            }
        }
        return base.indexOf(' ') >= 0 || base.indexOf('.') >= 0 || base.indexOf('-') >= 0 || base.indexOf('_') >= 0;
    }

    /** {@code Hi_Unicode}, {@code Ren-Stimpy}: two words joined by a separator, a title rather than a tag. */
    private static boolean joinsWords(String token) {
        int words = 0;
        int letters = 0;
        for (int i = 0; i <= token.length(); i++) {
            char c = i < token.length() ? token.charAt(i) : ' ';
            if (c == '_' || c == '-' || c == '.' || c == ' ') {
                words += letters >= 2 ? 1 : 0;
                letters = 0;
            } else if (Character.isLetter(c)) {
                letters++;
            } else {
                letters = -100; // a part with digits is a code, not a word
            }
        }
        return words >= 2;
    }

    /** {@code AutoRarPar0005}: a token numbered by an autoposter, which groups its posts. */
    private static boolean serial(String token) {
        int digits = 0;
        for (int i = token.length() - 1; i >= 0 && isDigit(token.charAt(i)); i--) {
            digits++;
        }
        return digits >= 4 && digits < token.length();
    }

    /** {@code Some Title - Author}, {@code some-file-name}: words, not one obfuscated token. */
    private static boolean readsLikeName(String base) {
        int words = 0;
        for (String w : base.split(" ")) {
            words += weight(w) >= 2 ? 1 : 0;
        }
        return words >= 2 || separators(base) >= 2;
    }

    private static int separators(String t) {
        int n = 0;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            n += c == '.' || c == '_' || c == '-' ? 1 : 0;
        }
        return n;
    }
}
