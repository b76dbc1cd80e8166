package headway.index;

import static headway.index.ReleaseTextCleaner.clean;
import static headway.index.ReleaseTextCleaner.sceneToken;
import static headway.index.ReleaseTextFilter.isCredit;
import static headway.index.ReleaseTextFilter.isDomain;
import static headway.index.ReleaseTextFilter.isRequestId;
import static headway.index.ReleaseTextFilter.isSceneName;
import static headway.index.ReleaseTextFilter.keepText;
import static headway.index.ReleaseTextFilter.strip;
import static headway.index.ReleaseTextFilter.weight;
import static headway.index.SubjectParser.hasExtension;
import static headway.index.SubjectParser.isDigit;
import static headway.index.SubjectParser.isSpace;
import static headway.index.SubjectWords.LANGUAGES;
import static headway.index.SubjectWords.UNITS;

import headway.index.SubjectScan.Counter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The poster's release text in a stretch of the subject: the stretch is cut into units (bracket
 * groups, quoted strings, text between {@code " - "}), adverts, network tags, request ids, sizes,
 * counters and yEnc are dropped, and the longest run of units left is the release text.
 */
final class ReleaseText {
    private final SubjectScan scan;
    private final String s;
    /** Offsets that are not release text: the file counter, counters in brackets, yEnc. */
    private final boolean[] removed;
    /** The post's file name: a short leading tag it starts with too is a name, not a tag. */
    private final String fileName;

    /** Reads release text within {@code [from, to)} only (sizes are looked for there alone). */
    ReleaseText(SubjectScan scan, Counter fileCounter, String fileName, int from, int to) {
        this.scan = scan;
        this.s = scan.s;
        this.fileName = fileName;
        this.removed = new boolean[scan.n];
        for (int[] y : scan.yencs) {
            for (int k = y[0]; k < y[1]; k++) {
                removed[k] = true;
            }
        }
        for (Counter c : scan.counters) {
            if (c.bracketed() || c.equals(fileCounter)) {
                for (int k = c.start(); k < c.end(); k++) {
                    removed[k] = true;
                }
            }
        }
        markSizes(from, Math.min(scan.n, to));
    }

    /** Marks sizes ({@code 8,27 GB}, {@code 1861K}) that start in {@code [from, to)}, in one pass. */
    private void markSizes(int from, int to) {
        int n = scan.n;
        int i = from;
        while (i < to) {
            char c = s.charAt(i);
            if (!isDigit(c)
                    || (i > 0
                            && (Character.isLetterOrDigit(s.charAt(i - 1))
                                    || s.charAt(i - 1) == '.'
                                    || s.charAt(i - 1) == ','))) {
                i++;
                continue;
            }
            int j = i;
            while (j < n && j - i < 16 && (isDigit(s.charAt(j)) || s.charAt(j) == '.' || s.charAt(j) == ',')) {
                j++;
            }
            int k = j;
            if (k < n && isSpace(s.charAt(k))) {
                k++;
            }
            int w = k;
            while (w < n && w - k <= 6 && Character.isLetter(s.charAt(w))) {
                w++;
            }
            if (w > k
                    && w - k <= 6
                    && (w == n || !Character.isLetterOrDigit(s.charAt(w)))
                    && "bkmgtBKMGT".indexOf(s.charAt(k)) >= 0
                    && UNITS.contains(s.substring(k, w).toLowerCase(Locale.ROOT))) {
                for (int m = i; m < w; m++) {
                    removed[m] = true;
                }
                i = w;
            } else {
                i = j > i ? j : i + 1;
            }
        }
    }

    /** A unit of the stretch: {@code [start, end)}, whether it is kept, and whether it is a bracket group. */
    private record Unit(int start, int end, boolean keep, boolean bracket) {}

    String read(int from, int to) {
        List<Unit> units = new ArrayList<>();
        int i = from;
        boolean leading = true;
        while (i < to) {
            char c = s.charAt(i);
            if (removed(i)) {
                int j = i;
                while (j < to && removed(j)) {
                    j++;
                }
                units.add(new Unit(i, j, false, false));
                i = j;
                continue;
            }
            if ((c == '[' || c == '(' || c == '{') && closer(i) > i && closer(i) < to) {
                int j = closer(i) + 1;
                boolean keep = keepBracket(i, j, leading);
                units.add(new Unit(i, j, keep, true));
                leading &= !keep;
                i = j;
                continue;
            }
            if (c == '"') {
                int j = s.indexOf('"', i + 1);
                if (j > i && j < to) {
                    String inner = s.substring(i + 1, j).strip();
                    boolean keep = !inner.isEmpty() && !hasExtension(inner, true) && keepText(inner);
                    units.add(new Unit(i, j + 1, keep, false));
                    leading &= !keep;
                    i = j + 1;
                    continue;
                }
            }
            if (isBreak(i, to)) {
                units.add(new Unit(i, i + 1, false, false));
                i++;
                continue;
            }
            int j = i;
            while (j < to
                    && !removed(j)
                    && !isBreak(j, to)
                    && s.charAt(j) != '"'
                    && !((s.charAt(j) == '[' || s.charAt(j) == '(' || s.charAt(j) == '{')
                            && closer(j) > j
                            && closer(j) < to)
                    && !(j > i
                            && s.charAt(j) == '-'
                            && isSpace(s.charAt(j - 1))
                            && j + 1 < to
                            && isSpace(s.charAt(j + 1)))) {
                j++;
            }
            if (j == i) {
                j = i + 1;
            }
            int advert = advertWord(i, j);
            if (advert > i) { // site.info Release Name: the advert is a unit of its own
                units.add(new Unit(i, advert, false, false));
                i = advert;
                continue;
            }
            int tail = trailingAdverts(i, j);
            if (tail < j) { // Name-GRP TEAM.NL & CLUB.NET: the adverts after it are a unit of their own
                String text = s.substring(i, tail);
                boolean keep = keepText(text);
                units.add(new Unit(i, tail, keep, false));
                units.add(new Unit(tail, j, false, false));
                leading &= !keep;
                i = j;
                continue;
            }
            String text = s.substring(i, j);
            boolean keep = (keepText(text) && !slogan(i, j, text)) || episodeAfterTitle(units, text);
            units.add(new Unit(i, j, keep, false));
            leading &= !keep;
            i = j;
        }
        return best(units);
    }

    /** The longest run of kept units, cleaned; a run of bracket groups alone gives its longest group. */
    private String best(List<Unit> units) {
        String best = "";
        int bestWeight = 0;
        int k = 0;
        while (k < units.size()) {
            if (!units.get(k).keep()) {
                k++;
                continue;
            }
            int first = k;
            while (k < units.size() && (units.get(k).keep() || separatorOnly(units.get(k)) || language(units.get(k)))) {
                k++;
            }
            int last = k - 1;
            while (last > first && !units.get(last).keep()) {
                last--;
            }
            boolean onlyBrackets = true;
            int kept = 0;
            for (int u = first; u <= last; u++) {
                Unit unit = units.get(u);
                if (unit.keep()) {
                    kept++;
                    onlyBrackets &= unit.bracket() || weight(s.substring(unit.start(), unit.end())) <= 5;
                }
            }
            String text;
            if (onlyBrackets && kept > 1) {
                text = "";
                for (int u = first; u <= last; u++) {
                    Unit unit = units.get(u);
                    String t = clean(s.substring(unit.start(), unit.end()));
                    if (unit.keep() && unit.bracket() && weight(t) > weight(text)) {
                        text = t;
                    }
                }
            } else {
                String scene = sceneAmongProse(units, first, last);
                text = scene != null
                        ? scene
                        : sceneToken(clean(s.substring(
                                units.get(first).start(), units.get(last).end())));
            }
            int w = weight(text);
            if (w > bestWeight) {
                best = text;
                bestWeight = w;
            }
        }
        return bestWeight >= 2 ? best : "";
    }

    /**
     * The one scene name in a run whose other units are prose ({@code [Name.S03E11-GRP] - NOT
     * ORIGINAL RARS, REPACKED. Sorry.}), else null: a remark is no part of the release.
     */
    private String sceneAmongProse(List<Unit> units, int first, int last) {
        Unit candidate = null;
        for (int u = first; u <= last; u++) {
            Unit unit = units.get(u);
            if (!unit.keep()) {
                continue;
            }
            int a = unit.start();
            int b = unit.end();
            if (unit.bracket()) {
                a = scan.skipSpaces(a + 1);
                b = scan.skipSpacesBack(b - 2) + 1;
            }
            boolean space = false;
            boolean digit = false;
            for (int k = a; k < b; k++) {
                space |= isSpace(s.charAt(k)) && k > a && k < b - 1 && !isSpace(s.charAt(k + 1));
                digit |= isDigit(s.charAt(k));
            }
            if (!space) {
                if (candidate != null) {
                    return null;
                }
                candidate = unit;
            } else if (digit || unit.bracket()) {
                return null; // words with digits or in brackets are more than a remark
            }
        }
        if (candidate == null || last == first) {
            return null;
        }
        String t = clean(s.substring(candidate.start(), candidate.end()));
        return t.indexOf(' ') < 0 && isSceneName(t) && weight(t) >= 10 ? t : null;
    }

    /**
     * Whether a unit dropped as a tag is a language ({@code (German)}, {@code [NL]}): one inside the
     * release text ({@code Title - 1990 - (German) - AC3 HD720p}) is part of what the release is, so
     * it joins the text on both sides rather than ending the run; one at either end still goes.
     */
    private boolean language(Unit u) {
        if (u.keep()) {
            return false;
        }
        String t = strip(s.substring(u.start(), u.end()), " -_.,[](){}");
        return LANGUAGES.contains(t.toLowerCase(Locale.ROOT));
    }

    /**
     * {@code Anime Title - 101 [720p]}, {@code One Piece - 1100}: a number of up to four digits (and a
     * version, {@code 12v2}) after {@code " - "} right after kept text is the episode of a title, as
     * fansub groups number them, not a request id ({@code 9943 - [085/110]}, where nothing kept comes
     * before it).
     */
    private boolean episodeAfterTitle(List<Unit> units, String text) {
        String t = text.strip();
        if (!t.startsWith("-") || units.isEmpty()) {
            return false;
        }
        t = t.substring(1).strip();
        int digits = 0;
        while (digits < t.length() && isDigit(t.charAt(digits))) {
            digits++;
        }
        boolean version = digits < t.length()
                && (t.charAt(digits) == 'v' || t.charAt(digits) == 'V')
                && t.length() == digits + 2
                && isDigit(t.charAt(digits + 1));
        if (digits < 1 || digits > 4 || (digits < t.length() && !version)) {
            return false;
        }
        Unit before = units.get(units.size() - 1);
        return before.keep() && !before.bracket();
    }

    private boolean separatorOnly(Unit u) {
        if (u.bracket() || u.keep()) {
            return false;
        }
        for (int i = u.start(); i < u.end(); i++) {
            char c = s.charAt(i);
            if (!isSpace(c) && c != '-' && c != '_' && c != '.' && c != ',') {
                return false;
            }
        }
        return true;
    }

    private boolean removed(int i) {
        return removed[i];
    }

    private int closer(int i) {
        return scan.closer(i);
    }

    /**
     * The end of the last advert word ({@code brothers-of-usenet.info}, {@code www.site.org},
     * {@code alt.binaries.x}) in the text {@code [i, j)} when more words follow it, else {@code i}:
     * {@code Join us at u4all.eu Some.Release-GRP} gives the release its own unit.
     */
    private int advertWord(int i, int j) {
        int last = i;
        int first = -1;
        int a = i;
        while (a < j) {
            while (a < j && isSpace(s.charAt(a))) {
                a++;
            }
            int e = a;
            while (e < j && !isSpace(s.charAt(e))) {
                e++;
            }
            if (e > a && mayBeAdvert(a, e) && advert(s.substring(a, e))) {
                last = e;
            } else if (e > a && first < 0) {
                first = a;
            }
            a = e;
        }
        String rest = s.substring(last, j).strip();
        if (last == i || rest.isEmpty() || weight(rest) < 2 || rest.endsWith(":")) { // Makaveli Post: is no name
            return i;
        }
        // after words of the poster's own (Join us at site.eu Name-GRP), only a scene name is the release
        return first < 0 || first > last || (rest.indexOf(' ') < 0 && isSceneName(rest)) ? last : i;
    }

    /** Where the advert words that end the text {@code [i, j)} start ({@code Name TEAM.NL & CLUB.NET}), else {@code j}. */
    private int trailingAdverts(int i, int j) {
        int cut = j;
        int e = j;
        boolean any = false;
        while (e > i) {
            while (e > i && isSpace(s.charAt(e - 1))) {
                e--;
            }
            int a = e;
            while (a > i && !isSpace(s.charAt(a - 1))) {
                a--;
            }
            if (a == e) {
                break;
            }
            boolean ad = mayBeAdvert(a, e) && advert(s.substring(a, e));
            boolean connector = (e - a == 1 && (s.charAt(a) == '&' || s.charAt(a) == '+'))
                    || (e - a == 3 && s.regionMatches(true, a, "and", 0, 3));
            if (!ad && !connector) {
                break;
            }
            any |= ad;
            cut = a;
            e = a;
        }
        String kept = s.substring(i, cut).strip();
        return any && kept.indexOf(' ') < 0 && isSceneName(kept) ? cut : j;
    }

    /** A cheap test before {@link #advert}: every advert word has a dot, or says usenet or http. */
    private boolean mayBeAdvert(int a, int e) {
        for (int k = a; k < e; k++) {
            char c = s.charAt(k);
            if (c == '.'
                    || ((c == 'u' || c == 'U') && s.regionMatches(true, k, "usenet", 0, 6))
                    || ((c == 'h' || c == 'H') && s.regionMatches(true, k, "http", 0, 4))) {
                return true;
            }
        }
        return false;
    }

    private static boolean advert(String raw) {
        String word = raw.toLowerCase(Locale.ROOT);
        return word.contains("www.")
                || word.contains("usenet")
                || word.contains("http")
                || word.contains("ssl-news")
                || word.contains("alt.binaries")
                || isDomain(strip(word, "()[]<>-_:;,.!"));
    }

    private boolean isBreak(int i, int to) {
        char c = s.charAt(i);
        if (c == '<' || c == '>' || c == '|' || c == '~' || c == '\\' || c == '*' || c == '^') {
            return true;
        }
        return c == ':' && i + 1 < to && (s.charAt(i + 1) == ':' || s.charAt(i + 1) == '/');
    }

    /** {@code <Have Fun>}, {@code <<<Old but Sold>>>}: a few words without digits between angle brackets. */
    private boolean slogan(int start, int end, String text) {
        int before = scan.skipSpacesBack(start - 1);
        int after = scan.skipSpaces(end);
        if (before < 0 || s.charAt(before) != '<' || after >= scan.n || s.charAt(after) != '>') {
            return false;
        }
        String t = text.strip();
        for (int i = 0; i < t.length(); i++) {
            if (isDigit(t.charAt(i))) {
                return false;
            }
        }
        return t.split("\\s+").length <= 3;
    }

    private boolean keepBracket(int start, int end, boolean leading) {
        String inner = s.substring(start + 1, end - 1).strip();
        if (inner.isEmpty() || inner.indexOf('"') >= 0 || !keepText(inner)) {
            return false;
        }
        if (isRequestId(inner) || isCredit(inner)) {
            return false;
        }
        boolean shortTag = inner.length() <= 6 && inner.indexOf(' ') < 0 && inner.indexOf('.') < 0;
        // a fansub group's tag ([GJM], [Leeson]) opens its file names too; a status tag does not
        return !(leading && shortTag) || s.regionMatches(start, fileName, 0, end - start);
    }
}
