package headway.index;

import static headway.index.ReleaseTextFilter.isSceneName;
import static headway.index.ReleaseTextFilter.strip;
import static headway.index.ReleaseTextFilter.weight;

import java.util.Locale;

/**
 * The last pass over a post's release, whichever way it was found (the poster's text or the file
 * name): what a client would read as part of the name is cut. A release written in base64 is
 * decoded ({@link PlainEncodings}); a banner around the name ({@code =  SOMEONE POST  =-: Name},
 * {@code =-= Name =-=}) goes; a phrase crediting the poster and everything after it ({@code Name
 * uploaded by X for you}) goes (only phrases no title holds: greetings are titles too, as in
 * {@code Greetings from Asbury Park}); and a tag glued to a scene name's group ({@code Name.S01E01.720p-GRP[site]})
 * goes, so the release group stays the name's last {@code -GROUP}. Each step keeps the release as
 * it was when what would be left is too short to be a name. Linear in the release's length.
 */
final class ReleaseTextTrim {

    /** Characters posters draw banners with; a run of them holding one of {@link #MARKS} is decoration. */
    private static final String DECORATION = "=~*#-+";

    private static final String MARKS = "=~*#";

    /** Phrases that credit whoever posted: the name ends before them. */
    private static final String[] CREDITS = {
        " uploaded by ", " reposted by ", " posted by ", " postet by ", " upped by "
    };

    private ReleaseTextTrim() {}

    /** {@code release} with an encoding undone and banners, credits and glued tags cut; never empty unless it was. */
    static String trim(String release) {
        String decoded = PlainEncodings.decodedName(release);
        String r = decoded != null ? decoded : release;
        r = withoutBanner(r);
        r = withoutCreditPhrase(r);
        r = withoutGluedTag(r);
        return r.isEmpty() ? release : r;
    }

    /**
     * {@code =  SOMEONE POST  =-: Name}, {@code =-= Name =-=}: the name without the decoration around
     * it. A banner stands apart from the name (a space or a colon between them): {@code
     * =HDvisUalS=BD25.Saw...}, glued, is a name as posted and stays.
     */
    static String withoutBanner(String r) {
        String t = r;
        int first = decorationEnd(t, 0);
        int next = first > 0 ? nextDecoration(t, first) : -1;
        int close = next > first ? decorationEnd(t, next) : -1;
        if (close > 0 && close < t.length() && t.charAt(close) == ':') {
            close++;
        }
        if (close > 0 && (close == t.length() || t.charAt(close - 1) == ' ' || t.charAt(close - 1) == ':')) {
            String rest = strip(t.substring(close), " :-");
            t = weight(rest) >= 4 ? rest : t.substring(first, next);
        }
        int end = t.length();
        while (end > 0 && (DECORATION.indexOf(t.charAt(end - 1)) >= 0 || t.charAt(end - 1) == ' ')) {
            end--;
        }
        if (end < t.length() && t.charAt(end) == ' ' && banner(t, end, t.length())) {
            t = t.substring(0, end);
        }
        t = t.strip();
        return weight(t) >= 4 ? t : r;
    }

    /** The end of a decoration run starting at {@code from} (spaces inside it included), or -1 when none starts there. */
    private static int decorationEnd(String t, int from) {
        int i = from;
        while (i < t.length() && (DECORATION.indexOf(t.charAt(i)) >= 0 || t.charAt(i) == ' ')) {
            i++;
        }
        return i > from && banner(t, from, i) ? i : -1;
    }

    /** Whether {@code t[from, to)} is a banner's decoration: an {@code =}, or two marks ({@code ***}, not {@code #1} or {@code C#}). */
    private static boolean banner(String t, int from, int to) {
        int marks = 0;
        for (int i = from; i < to; i++) {
            char c = t.charAt(i);
            if (c == '=') {
                return true;
            }
            marks += c != ' ' ? 1 : 0;
        }
        return marks >= 2 && hasMark(t, from, to);
    }

    /** Where the next decoration run after {@code from} starts, or -1. */
    private static int nextDecoration(String t, int from) {
        for (int i = from; i < t.length(); i++) {
            if (MARKS.indexOf(t.charAt(i)) >= 0) {
                int a = i;
                while (a > from && (DECORATION.indexOf(t.charAt(a - 1)) >= 0 || t.charAt(a - 1) == ' ')) {
                    a--;
                }
                return a;
            }
        }
        return -1;
    }

    private static boolean hasMark(String t, int from, int to) {
        for (int i = from; i < to; i++) {
            if (MARKS.indexOf(t.charAt(i)) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** {@code Name uploaded by Someone for you}: the name before the first phrase that credits a poster. */
    static String withoutCreditPhrase(String r) {
        String lower = r.toLowerCase(Locale.ROOT);
        int cut = -1;
        for (String credit : CREDITS) {
            int at = lower.indexOf(credit);
            if (at > 0 && (cut < 0 || at < cut)) {
                cut = at;
            }
        }
        if (cut < 0) {
            return r;
        }
        String before = strip(r.substring(0, cut), " -_:;,~*#|/");
        return weight(before) >= 6 ? before : r;
    }

    /**
     * {@code Name.S01E01.720p-GRP[site.tld]}, {@code Name-GRP[rarbg]}: a domain or a word glued in
     * brackets to the group of a scene name is a site's or a tracker's tag, not part of the release.
     */
    static String withoutGluedTag(String r) {
        int n = r.length();
        if (n < 4 || (r.charAt(n - 1) != ']' && r.charAt(n - 1) != ')')) {
            return r;
        }
        char open = r.charAt(n - 1) == ']' ? '[' : '(';
        int o = r.lastIndexOf(open);
        if (o <= 0 || !Character.isLetterOrDigit(r.charAt(o - 1))) {
            return r;
        }
        String inner = r.substring(o + 1, n - 1);
        boolean letters = inner.chars().allMatch(Character::isLetter);
        if (inner.length() < 2 || !(letters || ReleaseTextFilter.isDomain(inner.toLowerCase(Locale.ROOT)))) {
            return r; // [25fps], [1080p]: what the release is, not where it was taken from
        }
        int dash = r.lastIndexOf('-', o - 1);
        if (dash <= 0 || o - dash - 1 > 15) {
            return r;
        }
        String group = r.substring(dash + 1, o);
        if (group.chars().anyMatch(c -> !Character.isLetterOrDigit(c))
                || group.chars().noneMatch(Character::isLetter)) {
            return r;
        }
        String name = r.substring(0, o);
        return isSceneName(name) && name.indexOf(' ') < 0 ? name : r;
    }
}
