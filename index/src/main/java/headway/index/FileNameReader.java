package headway.index;

import static headway.index.ReleaseTextCleaner.clean;
import static headway.index.ReleaseTextCleaner.dropRequestWords;
import static headway.index.ReleaseTextFilter.isDomain;
import static headway.index.ReleaseTextFilter.keepText;
import static headway.index.SubjectParser.hasExtension;
import static headway.index.SubjectParser.isDigit;
import static headway.index.SubjectParser.isSpace;
import static headway.index.SubjectWords.CREDIT_WORDS;
import static headway.index.SubjectWords.REQUEST_WORDS;

import headway.index.SubjectScan.Counter;
import java.util.List;
import java.util.Locale;

/**
 * Where a subject names its file: in a {@code [PRiVATE]-[WtFnZb]-[name]} wrapper, between quotes
 * (paired, doubled, or one of them lost), unquoted before the tail with an extension, or, when
 * nothing else does, as the text before yEnc. It reads the offsets {@link SubjectScan} found and
 * never crosses a counter or a yEnc token; an uploader's credit, request words, bracket tags and a
 * name posted twice are cut from an unquoted name's front.
 */
final class FileNameReader {

    /** A file name and the span it was read from, quotes included. */
    record FileName(String name, int start, int end, boolean quoted, boolean fileLike) {}

    private final SubjectScan scan;
    private final String s;
    private final int n;
    private final List<Counter> counters;
    private final List<int[]> yencs;
    private final SubjectScan.Stack quotes;
    private final int wrapper;
    private final boolean[] blocked;

    /** A reader of the subject {@code scan} has lexed. */
    FileNameReader(SubjectScan scan) {
        this.scan = scan;
        this.s = scan.s;
        this.n = scan.n;
        this.counters = scan.counters;
        this.yencs = scan.yencs;
        this.quotes = scan.quotes;
        this.wrapper = scan.wrapper;
        this.blocked = scan.blocked;
    }

    private int closer(int i) {
        return scan.closer(i);
    }

    private int skipSpaces(int i) {
        return scan.skipSpaces(i);
    }

    private boolean isYenc(int i) {
        return scan.isYenc(i);
    }

    /**
     * {@code [PRiVATE]-[WtFnZb]-[name]-[x/y] - "" yEnc}: the name is in the last bracket but one
     * (it may hold brackets and a path), the file counter in the last.
     */
    FileName wtfnzb(int[] counter) {
        int p = wrapper;
        if (p < 0) {
            return null;
        }
        int q = s.indexOf("]-[", p + 11);
        if (q < 0) {
            return null;
        }
        q += 3;
        int e = -1;
        for (int i = q; i < n; i++) {
            if (s.charAt(i) == ']') {
                int k = skipSpaces(i + 1);
                if (k < n && s.charAt(k) == '-') {
                    k = skipSpaces(k + 1);
                }
                if (k < n && (s.charAt(k) == '"' || isYenc(k))) {
                    e = i;
                    break;
                }
            }
        }
        if (e < 0) {
            return null;
        }
        String chain = s.substring(q, e);
        int split = chain.lastIndexOf("]-[");
        String name = chain;
        counter[0] = -1;
        counter[1] = -1;
        if (split >= 0) {
            String head = chain.substring(0, split);
            String last = chain.substring(split + 3);
            int sep = 0;
            while (sep < last.length() && isDigit(last.charAt(sep))) {
                sep++;
            }
            if (sep > 0 && sep <= 9 && sep < last.length() && (last.charAt(sep) == '/' || last.charAt(sep) == '_')) {
                String rest = last.substring(sep + 1);
                if (!rest.isEmpty() && rest.length() <= 9 && rest.chars().allMatch(SubjectParser::isDigit)) {
                    name = head;
                    counter[0] = Integer.parseInt(last, 0, sep, 10);
                    counter[1] = Integer.parseInt(rest);
                } else if (last.charAt(sep) == '/' && !rest.isEmpty()) {
                    counter[0] = Integer.parseInt(last, 0, sep, 10);
                    if (number(head)) {
                        counter[1] = Integer.parseInt(head);
                    } else {
                        counter[0] = -1;
                    }
                    name = rest;
                }
            } else if (number(head)) {
                name = last;
            }
        }
        name = pathName(name.strip());
        if (name.isEmpty()) {
            return null;
        }
        return new FileName(name, p, e + 1, true, true);
    }

    private static boolean number(String t) {
        return !t.isEmpty() && t.length() <= 9 && t.chars().allMatch(SubjectParser::isDigit);
    }

    /** The file-like component of a name posted with a path ({@code 1/series/Show.mkv}), less WtFnZb's suffix. */
    private static String pathName(String name) {
        if (name.indexOf('/') < 0) {
            return stripWtf(name);
        }
        String fallback = "";
        for (String part : name.split("/", -1)) {
            String c = stripWtf(part.strip());
            if (!c.isEmpty() && hasExtension(c, true)) {
                return c;
            }
            if (!c.isEmpty()) {
                fallback = c;
            }
        }
        return fallback;
    }

    private static String stripWtf(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith("-wtf[nzb]") ? name.substring(0, name.length() - 9) : name;
    }

    /**
     * The last quoted file name: between a pair of quotes, between doubled quotes
     * ({@code ""name""}), or before a lost partner ({@code name" yEnc}). With {@code fileLike},
     * only names with an extension; without, any non-empty pair (obfuscated names have none).
     */
    FileName quoted(boolean fileLike) {
        int count = quotes.size;
        FileName best = null;
        for (int i = count - 2; i >= 0 && best == null; i--) {
            int a = quotes.at(i);
            int b = quotes.at(i + 1);
            boolean pair = i % 2 == 0;
            if (!pair && !(blank(quotes.at(i - 1) + 1, a) && i + 2 < count && blank(b + 1, quotes.at(i + 2)))) {
                continue;
            }
            int from = a + 1;
            int to = b;
            while (from < to && Character.isWhitespace(s.charAt(from))) {
                from++;
            }
            while (to > from && Character.isWhitespace(s.charAt(to - 1))) {
                to--;
            }
            if (from == to) {
                continue;
            }
            int start = a;
            if (pair && i >= 2 && closesBefore(from, to) && !closesBefore(quotes.at(i - 2) + 1, to)) {
                start = quotes.at(i - 2); // "Title {+ "Inner" pamphlet}.cbz": the quotes inside are the name's
                from = start + 1;
                while (from < to && Character.isWhitespace(s.charAt(from))) {
                    from++;
                }
            }
            boolean like = hasExtension(s, from, to, true);
            if (fileLike && !like) {
                continue;
            }
            int end = b + 1;
            if (!pair) {
                start = quotes.at(i - 1);
                end = quotes.at(i + 2) + 1;
            }
            best = new FileName(s.substring(from, to), start, end, true, like);
        }
        if (count % 2 == 1 && fileLike) {
            int q = quotes.at(count - 1);
            int from = q;
            int floor = count > 1 ? quotes.at(count - 2) + 1 : 0;
            while (from > floor && !isSpace(s.charAt(from - 1))) {
                from--;
            }
            String before = s.substring(from, q).strip();
            if (!before.isEmpty() && hasExtension(before, true) && (best == null || best.end() <= from)) {
                if (count == 1) {
                    // the opening quote is lost: the name runs left as an unquoted one does
                    int dot = s.lastIndexOf('.', q);
                    from = Math.max(from < dot ? nameStart(dot, q, true) : from, floor);
                    from = Math.min(from, q);
                    before = s.substring(from, q).strip();
                }
                return new FileName(before, from, q + 1, true, true);
            }
            if (count == 1) {
                int to = q + 1;
                while (to < n && !isSpace(s.charAt(to)) && !blocked[to]) {
                    to++;
                }
                String afterQuote = s.substring(q + 1, to).strip();
                if (!afterQuote.isEmpty() && hasExtension(afterQuote, false)) {
                    return new FileName(afterQuote, q, to, true, true);
                }
            }
        }
        return best;
    }

    /** Whether {@code s[from, to)} closes a bracket it did not open. */
    private boolean closesBefore(int from, int to) {
        int round = 0;
        int square = 0;
        int curly = 0;
        for (int i = from; i < to; i++) {
            switch (s.charAt(i)) {
                case '(' -> round++;
                case '[' -> square++;
                case '{' -> curly++;
                case ')' -> round--;
                case ']' -> square--;
                case '}' -> curly--;
                default -> {}
            }
            if (round < 0 || square < 0 || curly < 0) {
                return true;
            }
        }
        return false;
    }

    private boolean blank(int from, int to) {
        for (int i = from; i < to; i++) {
            if (!Character.isWhitespace(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * An unquoted file name: the rightmost extension before the tail, extended left over
     * characters a file name may hold until a counter, yEnc or a character no file name holds.
     */
    FileName unquoted(int tailStart) {
        int extEnd = -1;
        int dot = -1;
        for (int i = tailStart - 1; i > 0; i--) {
            char c = s.charAt(i);
            if (c == '.') {
                int e = i + 1;
                while (e < tailStart && e - i <= 6 && Character.isLetterOrDigit(s.charAt(e))) {
                    e++;
                }
                if (e - i >= 2
                        && e - i <= 6
                        && (e == tailStart || isExtensionEnd(s.charAt(e)))
                        && ReleaseNames.isExtension(s.substring(i + 1, e), false)
                        && !blocked[i]
                        && !advertAt(i, e)) {
                    extEnd = e;
                    dot = i;
                    break;
                }
            }
        }
        if (extEnd < 0) {
            return null;
        }
        boolean afterQuote = quotes.size % 2 == 1 && quotes.at(quotes.size - 1) < dot; // "name.ext yEnc: its quote lost
        int start = afterCredit(nameStart(dot, extEnd, afterQuote), dot);
        if (start < dot && s.charAt(start) == '\'' && extEnd < n && s.charAt(extEnd) == '\'') {
            start++;
        }
        String name = s.substring(start, extEnd).strip();
        if (name.isEmpty()) {
            return null;
        }
        return new FileName(name, start, extEnd, false, true);
    }

    /**
     * Where an unquoted file name starting at {@code start} really starts when an uploader's
     * credit comes first ({@code www.site.example Presents Name 2010 1080p.part07.rar}): after
     * the last credit word before {@code dot}; else {@code start}. No file is named "... presents".
     */
    private int afterCredit(int start, int dot) {
        int found = start;
        for (int i = start; i < dot; i++) {
            char c = s.charAt(i);
            if (((c | 0x20) != 'p' && (c | 0x20) != 'u') || (i > start && Character.isLetter(s.charAt(i - 1)))) {
                continue; // every credit word starts with p or u
            }
            for (String word : CREDIT_WORDS) {
                int end = i + word.length();
                if (end < dot && s.regionMatches(true, i, word, 0, word.length()) && isSpace(s.charAt(end))) {
                    found = skipSeparators(end, dot);
                }
            }
        }
        return found < dot ? found : start;
    }

    /**
     * Where an unquoted file name whose extension's dot is at {@code dot} starts: left over
     * characters a file name may hold until a counter, yEnc or a character no file name holds,
     * less leading separators, bracket tags, a request word and an album's name before a track.
     */
    private int nameStart(int dot, int extEnd, boolean quoted) {
        int start = dot;
        boolean bracketed = extEnd < n && s.charAt(extEnd) == ']';
        while (start > 0 && !blocked[start - 1] && !isNameBoundary(s.charAt(start - 1))) {
            if (bracketed && s.charAt(start - 1) == '[' && closer(start - 1) == extEnd) {
                break;
            }
            if (!quoted && afterGap(start)) { // Here's your file!  name.ext: a gap of spaces ends a phrase
                break;
            }
            start--;
        }
        boolean counterBefore = start > 0 && blocked[start - 1];
        boolean addressed = start >= 5 && s.charAt(start - 1) == ':' && s.regionMatches(true, start - 5, "attn", 0, 4);
        start = skipSeparators(start, dot);
        while (start < dot && (s.charAt(start) == ')' || s.charAt(start) == ']' || s.charAt(start) == '}')) {
            start = skipSeparators(start + 1, dot); // (????) name.ext": the closer of a tag before it
        }
        addressed |= s.regionMatches(true, start, "attn", 0, 4)
                && start + 4 < dot
                && (isSpace(s.charAt(start + 4)) || s.charAt(start + 4) == ':');
        if (addressed) { // Attn: some one - name.ext
            int e = start;
            while (e < dot && e - start <= 60 && !(s.charAt(e) == '-' && isSpace(s.charAt(e + 1)))) {
                e++;
            }
            int rest = skipSeparators(e, dot);
            if (e < dot && e - start <= 60 && s.substring(rest, dot).contains(" - ")) {
                start = rest; // what is left still reads Author - Title
            }
        }
        while (start < dot
                && closer(start) > start
                && closer(start) + 1 < dot
                && (s.charAt(start) == '('
                        || (s.charAt(start) == '['
                                && (dashAfter(closer(start) + 1, dot) || requestTag(start + 1, closer(start)))))) {
            start = skipSeparators(closer(start) + 1, dot);
        }
        start = repeated(start, dot);
        start = afterRequestWord(start, dot);
        if (!counterBefore && start == 0) {
            start = trackNumber(start, dot);
        }
        return start;
    }

    /** Whether two or more spaces end at {@code start} after a word, and a word starts there. */
    private boolean afterGap(int start) {
        if (start < 3 || !isSpace(s.charAt(start - 1)) || !isSpace(s.charAt(start - 2))) {
            return false;
        }
        if (!Character.isLetterOrDigit(s.charAt(start))) {
            return false;
        }
        int k = start - 3;
        while (k >= 0 && isSpace(s.charAt(k))) {
            k--;
        }
        return k >= 0 && (Character.isLetterOrDigit(s.charAt(k)) || s.charAt(k) == '!');
    }

    /** Whether {@code s[from, to)} holds request words alone ({@code [ As requested ]}). */
    private boolean requestTag(int from, int to) {
        String left = dropRequestWords(s.substring(from, to).strip());
        return left.isEmpty() || !keepText(left);
    }

    /**
     * Where the file starts in a name posted twice over a separator, {@code Name--Name.par2} or
     * {@code Name.- Name.nzb}: after the separator; else {@code start}. Only the middle is tried.
     */
    private int repeated(int start, int dot) {
        for (int sep = 1; sep <= 3; sep++) {
            int len = dot - start - sep;
            if (len < 16 || len % 2 != 0) {
                continue;
            }
            int p = start + len / 2;
            boolean separator = true;
            boolean dash = false;
            for (int k = p; k < p + sep; k++) {
                char c = s.charAt(k);
                separator &= c == '-' || c == '.' || isSpace(c);
                dash |= c == '-';
            }
            if (separator && dash && s.regionMatches(true, start, s, p + sep, len / 2)) {
                return p + sep;
            }
        }
        return start;
    }

    /** Whether the dotted word ending at {@code e} (its last dot at {@code dot}) is a web address, not a file. */
    private boolean advertAt(int dot, int e) {
        int w = dot;
        while (w > 0 && !isSpace(s.charAt(w - 1)) && !isNameBoundary(s.charAt(w - 1))) {
            w--;
        }
        String word = s.substring(w, e).toLowerCase(Locale.ROOT);
        return word.contains("www.") || (isDomain(word) && !ReleaseNames.hasKnownExtension(word));
    }

    /** After {@code Request - } or {@code REQ - } at {@code start}: a request word set off by a dash is no part of a name. */
    private int afterRequestWord(int start, int limit) {
        int w = start;
        for (int words = 0; words < 2; words++) {
            int from = w;
            while (w < limit && Character.isLetter(s.charAt(w))) {
                w++;
            }
            String word = s.substring(from, w).toLowerCase(Locale.ROOT);
            if (words == 0 && (word.equals("your") || word.equals("my")) && w < limit && s.charAt(w) == ' ') {
                w++; // your requests - name.ext
                continue;
            }
            if (w == from || !REQUEST_WORDS.contains(word)) {
                return start;
            }
            if (dashAfter(w, limit)) {
                return skipSeparators(w, limit);
            }
            if (w >= limit || s.charAt(w) != ' ') {
                return start;
            }
            w++;
        }
        return start;
    }

    /** Whether a dash follows {@code i}, glued or after spaces: {@code ]-name} or {@code ] - name}. */
    private boolean dashAfter(int i, int limit) {
        int k = i;
        while (k < limit && isSpace(s.charAt(k))) {
            k++;
        }
        return k < limit && s.charAt(k) == '-';
    }

    private int skipSeparators(int i, int limit) {
        while (i < limit && (isSpace(s.charAt(i)) || s.charAt(i) == '-' || s.charAt(i) == '_')) {
            i++;
        }
        return i;
    }

    /** In {@code Artist - Album - 06 Artist - Title.flac}, where the track's name starts; else {@code start}. */
    private int trackNumber(int start, int dot) {
        int found = start;
        for (int i = start; i + 4 < dot; i++) {
            if (s.charAt(i) == ' ' && s.charAt(i + 1) == '-' && s.charAt(i + 2) == ' ') {
                int d = i + 3;
                int e = d;
                while (e < dot && isDigit(s.charAt(e))) {
                    e++;
                }
                if (e > d && e - d <= 3 && e + 1 < dot && s.charAt(e) == ' ' && Character.isLetter(s.charAt(e + 1))) {
                    found = d;
                }
            }
        }
        return found;
    }

    /** The text before yEnc when nothing else names a file ({@code [02/39] - SpongeBoZZ yEnc}). */
    FileName beforeYenc() {
        if (yencs.isEmpty()) {
            return null;
        }
        int y = yencs.get(0)[0];
        int start = y;
        while (start > 0 && !blocked[start - 1] && !isNameBoundary(s.charAt(start - 1)) && s.charAt(start - 1) != '"') {
            start--;
        }
        while (start < y && (isSpace(s.charAt(start)) || s.charAt(start) == '-')) {
            start++;
        }
        int end = y;
        while (end > start && (isSpace(s.charAt(end - 1)) || s.charAt(end - 1) == '-')) {
            end--;
        }
        if (end > start) {
            return new FileName(s.substring(start, end), start, end, false, false);
        }
        for (Counter c : counters) {
            if (c.end() <= y && skipSeparatorsOrSpaces(c.end(), y) == y) {
                String title = clean(s.substring(0, c.start()));
                return title.isEmpty() ? null : new FileName(title, 0, c.start(), false, false);
            }
        }
        return null;
    }

    private int skipSeparatorsOrSpaces(int i, int limit) {
        while (i < limit && (isSpace(s.charAt(i)) || s.charAt(i) == '-' || s.charAt(i) == ':')) {
            i++;
        }
        return i;
    }

    private static boolean isExtensionEnd(char c) {
        return isSpace(c)
                || c == '"'
                || c == ')'
                || c == ']'
                || c == '}'
                || c == ','
                || c == '>'
                || c == '<'
                || c == '|'
                || c == ':'
                || c == '('
                || c == '['
                || c == '\'';
    }

    /** Characters no file name holds (Windows forbids them), where an unquoted name stops. */
    private static boolean isNameBoundary(char c) {
        return c == '"' || c == '<' || c == '>' || c == '|' || c == '?' || c == '*' || c == ':' || c == '\\'
                || c == '/';
    }
}
