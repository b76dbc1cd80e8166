package headway.index;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a binary post's subject as posters write it: the file name (quoted, doubled or empty quotes
 * with the name in a {@code [PRiVATE]-[WtFnZb]-[name]} wrapper, or unquoted), the file counter
 * ({@code [x/y]}, {@code (x/y)}, {@code x of y}, {@code File x of y}, {@code (x|y)}, {@code [x~y]},
 * {@code <<x/y>>}, a bare {@code x/y}), the article counter ({@code yEnc (k/N)}, glued, doubled,
 * zero-padded, before Nyuu's byte count) and the poster's release text with adverts, network tags,
 * request ids, credits and remarks dropped; an uploader's tag before a file that reads like a name
 * gives way to the file. Its rules are general, not per form: they were checked on a second corpus
 * from other sources (subjects-holdout.tsv in the tests). It is a hand-written scanner: every step walks the subject a bounded number of times and
 * nothing backtracks, so a parse costs time linear in the subject's length whatever the subject is
 * (the caller bounds the length, see {@link #MAX_LENGTH}). The trade-off is that the forms are in
 * code, not data: a form it does not know is added here, or by an operator's rule set in front of it.
 */
public final class SubjectParser {

    /**
     * Longer subjects are not parsed, because no posting tool writes one (a header line is at most
     * 998 characters by RFC 5322, yEnc's draft asks for subjects under 256) and a bound keeps the
     * worst header's cost, and the memo's keys, small.
     */
    public static final int MAX_LENGTH = 1000;

    /**
     * How far from the file name release text is looked for, because no poster writes a release
     * name longer, and the units of text cost the most time of a parse.
     */
    static final int RELEASE_WINDOW = 300;

    /** The name under which the parser's matches are reported. */
    public static final String RULE_NAME = "parser";

    /**
     * What one subject holds. Counters that are absent are -1, never a made-up 1; {@code partStart}
     * .. {@code totalEnd} are the offsets of the article counter's digits in the subject as parsed
     * (stripped), -1 when there is none or when the subject was rewritten before the scan (an
     * HTML-escaped quote such as {@code &quot;} or nZEDb's {@code #34;}), so that the caller can
     * memoize by the rest of the subject.
     */
    public record Parsed(
            String file,
            String release,
            int part,
            int total,
            int fileNumber,
            int fileTotal,
            int partStart,
            int partEnd,
            int totalStart,
            int totalEnd) {

        ParsedSubject subject() {
            return new ParsedSubject(release, file, part, total, fileNumber, fileTotal);
        }
    }

    private SubjectParser() {}

    /** The parse of {@code subject} (stripped by the caller), or null when it names no file: not a binary post. */
    public static Parsed parse(String subject) {
        if (subject == null || subject.isEmpty() || subject.length() > MAX_LENGTH) {
            return null;
        }
        String s = subject;
        if (s.indexOf('#') >= 0 || s.indexOf('&') >= 0) {
            s = s.replace("&quot;", "\"").replace("&#34;", "\"").replace("#34;", "\"");
        }
        Parsed parsed = new Scan(s).run();
        if (parsed != null && s.length() != subject.length()) {
            return new Parsed(
                    parsed.file(),
                    parsed.release(),
                    parsed.part(),
                    parsed.total(),
                    parsed.fileNumber(),
                    parsed.fileTotal(),
                    -1,
                    -1,
                    -1,
                    -1);
        }
        return parsed;
    }

    /** A counter {@code a/b} (or {@code a of b}, {@code a|b}, {@code a_b}) and where it lies. */
    private record Counter(
            int start,
            int end,
            int aStart,
            int aEnd,
            int bStart,
            int bEnd,
            int a,
            int b,
            boolean of,
            boolean bracketed) {}

    /** A file name and the span it was read from, quotes included. */
    private record FileName(String name, int start, int end, boolean quoted, boolean fileLike) {}

    /** A growable array of offsets: bracket openers waiting for their closers, quote characters. */
    private static final class Stack {
        private int[] items = new int[16];
        private int size;

        void push(int i) {
            if (size == items.length) {
                items = java.util.Arrays.copyOf(items, size * 2);
            }
            items[size++] = i;
        }

        int pop() {
            return items[--size];
        }

        int at(int i) {
            return items[i];
        }
    }

    /** Words with which an uploader credits a post to himself, followed by what he posts. */
    private static final String[] CREDIT_WORDS = {
        "presents", "praesentiert", "pr\u00e4sentiert", "presenteren", "postet", "uppt"
    };

    /** ASCII characters that open nothing in the lexer: no quote, bracket, digit or the y of yEnc. */
    private static final boolean[] PLAIN = new boolean[128];

    static {
        for (char c = 0; c < 128; c++) {
            PLAIN[c] = "\"()[]{}yY".indexOf(c) < 0 && !isDigit(c);
        }
    }

    private static final class Scan {
        private final String s;
        private final int n;
        private final List<Counter> counters = new ArrayList<>();
        private final List<int[]> yencs = new ArrayList<>();
        /** Offsets of the quote characters, in order. */
        private final Stack quotes = new Stack();
        /** For each bracket opener, one more than the index of its closer (same kind, nested), else 0. */
        private final int[] match;
        /** Where {@code [PRiVATE]-[} starts, or -1. */
        private int wrapper = -1;
        /** Offsets covered by a counter or a yEnc token: an unquoted file name never crosses them. */
        private final boolean[] blocked;

        Scan(String s) {
            this.s = s;
            this.n = s.length();
            this.match = new int[n];
            this.blocked = new boolean[n];
        }

        Parsed run() {
            lex();
            int tailStart = tail();
            int[] wtf = new int[2];
            FileName file = wtfnzb(wtf);
            boolean wrapped = file != null;
            if (file == null) {
                file = quoted(true);
            }
            if (file == null) {
                file = unquoted(tailStart);
            }
            if (file == null) {
                file = quoted(false);
            }
            if (file == null) {
                file = beforeYenc();
            }
            if (file == null || file.name().isEmpty()) {
                return null;
            }
            int yTail = -1;
            for (int i = yencs.size() - 1; i >= 0; i--) {
                if (yencs.get(i)[0] >= tailStart) {
                    yTail = i;
                    break;
                }
            }
            Counter article = null;
            Counter fileCounter = null;
            List<Counter> before = new ArrayList<>();
            List<Counter> after = new ArrayList<>();
            List<Counter> afterYenc = new ArrayList<>();
            for (Counter c : counters) {
                if (c.start() >= file.start() && c.end() <= file.end()) {
                    continue;
                }
                if (yTail >= 0 && c.start() >= yencs.get(yTail)[1]) {
                    afterYenc.add(c);
                } else if (c.end() <= file.start()) {
                    before.add(c);
                } else if (c.start() >= file.end()) {
                    after.add(c);
                }
            }
            if (!afterYenc.isEmpty()) {
                article = afterYenc.get(afterYenc.size() - 1);
            } else if (yTail < 0 || !before.isEmpty() || wrapped) {
                for (Counter c : after) {
                    if (c.start() >= tailStart && !c.of()) {
                        article = c;
                    }
                }
            }
            if (wrapped) {
                fileCounter = null;
            } else if (!before.isEmpty()) {
                fileCounter = before.get(before.size() - 1);
            } else {
                for (Counter c : after) {
                    if (!c.equals(article)) {
                        fileCounter = c;
                        break;
                    }
                }
            }
            boolean atTail = skipSpaces(file.end()) >= tailStart;
            boolean binary = wrapped
                    || !yencs.isEmpty()
                    || !counters.isEmpty()
                    || (file.quoted() && file.fileLike() && atTail)
                    // one volume of a set, quoted or ending the subject, with its counters cut off (as
                    // indexers store subjects) or never written: nothing but a binary post names one
                    || (file.fileLike() && (file.quoted() || atTail) && ReleaseNames.isVolume(file.name()));
            if (!binary) {
                return null;
            }
            String release;
            if (wrapped) {
                release = "";
            } else {
                ReleaseText text = new ReleaseText(
                        this,
                        fileCounter,
                        file.name(),
                        Math.max(0, file.start() - RELEASE_WINDOW),
                        file.end() + RELEASE_WINDOW);
                release = text.read(Math.max(0, file.start() - RELEASE_WINDOW), file.start());
                if (release.isEmpty()) {
                    String afterText = text.read(
                            file.end(), Math.max(file.end(), Math.min(tailStart, file.end() + RELEASE_WINDOW)));
                    if (looksLikeRelease(afterText)) {
                        release = afterText;
                    }
                }
                if (!release.isEmpty() && ReleaseNames.hasKnownExtension(release)) {
                    release = ReleaseNames.fromFileName(release);
                }
                if (preferFileName(release, file.name())) {
                    release = "";
                }
            }
            if (release.isEmpty()) {
                release = ReleaseNames.fromFileName(file.name());
            }
            int fileNo = -1;
            int files = -1;
            if (wrapped) {
                fileNo = wtf[0];
                files = wtf[1];
            } else if (fileCounter != null) {
                fileNo = fileCounter.a();
                files = fileCounter.b();
            }
            if (article == null) {
                return new Parsed(file.name(), release, -1, -1, fileNo, files, -1, -1, -1, -1);
            }
            return new Parsed(
                    file.name(),
                    release,
                    article.a(),
                    article.b(),
                    fileNo,
                    files,
                    article.aStart(),
                    article.aEnd(),
                    article.bStart(),
                    article.bEnd());
        }

        // ------------------------------------------------------------------ lexing

        private void lex() {
            Stack round = new Stack();
            Stack square = new Stack();
            Stack curly = new Stack();
            for (int i = 0; i < n; ) {
                char c = s.charAt(i);
                if (c < 128 && PLAIN[c]) {
                    i++;
                    continue;
                }
                switch (c) {
                    case '"' -> quotes.push(i);
                    case '(' -> round.push(i);
                    case '[' -> {
                        square.push(i);
                        if (wrapper < 0
                                && i + 11 <= n
                                && (s.charAt(i + 1) | 0x20) == 'p'
                                && s.regionMatches(true, i, "[private]-[", 0, 11)) {
                            wrapper = i;
                        }
                    }
                    case '{' -> curly.push(i);
                    case ')' -> close(round, i);
                    case ']' -> close(square, i);
                    case '}' -> close(curly, i);
                    default -> {}
                }
                if ((c == 'y' || c == 'Y') && isYenc(i)) {
                    yencs.add(new int[] {i, i + 4});
                    for (int k = i; k < i + 4; k++) {
                        blocked[k] = true;
                    }
                    i += 4;
                    continue;
                }
                if (isDigit(c) && (i == 0 || !isDigit(s.charAt(i - 1)))) {
                    int aEnd = i;
                    while (aEnd < n && isDigit(s.charAt(aEnd))) {
                        aEnd++;
                    }
                    Counter counter = counterAt(i, aEnd);
                    if (counter != null) {
                        counters.add(counter);
                        for (int k = counter.start(); k < counter.end(); k++) {
                            blocked[k] = true;
                        }
                        i = counter.bEnd();
                        continue;
                    }
                    i = aEnd;
                    continue;
                }
                i++;
            }
        }

        /** Pairs the closer at {@code i} with the innermost open bracket of its kind. */
        private void close(Stack open, int i) {
            if (open.size > 0) {
                match[open.pop()] = i + 1;
            }
        }

        private boolean isYenc(int i) {
            return i + 4 <= n
                    && (s.charAt(i + 1) | 0x20) == 'e'
                    && (s.charAt(i + 2) | 0x20) == 'n'
                    && (s.charAt(i + 3) | 0x20) == 'c'
                    && (i == 0 || !Character.isLetterOrDigit(s.charAt(i - 1)))
                    && (i + 4 == n || !Character.isLetter(s.charAt(i + 4)));
        }

        /** The counter whose first number is {@code s[aStart, aEnd)}, or null. */
        private Counter counterAt(int aStart, int aEnd) {
            if (aEnd - aStart > 9) {
                return null;
            }
            int k = skipSpaces(aEnd);
            if (k >= n) {
                return null;
            }
            char sep = s.charAt(k);
            boolean of = false;
            if (sep == '/' || sep == '|' || sep == '_' || sep == '~') {
                if (sep == '_' && k != aEnd) {
                    return null;
                }
                k++;
            } else if (k > aEnd
                    && k + 2 < n
                    && (sep == 'o' || sep == 'O')
                    && (s.charAt(k + 1) == 'f' || s.charAt(k + 1) == 'F')
                    && isSpace(s.charAt(k + 2))) {
                of = true;
                k += 2;
            } else {
                return null;
            }
            int bStart = skipSpaces(k);
            if (bStart >= n || !isDigit(s.charAt(bStart))) {
                return null;
            }
            int bEnd = bStart;
            while (bEnd < n && isDigit(s.charAt(bEnd))) {
                bEnd++;
            }
            if (bEnd - bStart > 9) {
                return null;
            }
            int a = Integer.parseInt(s, aStart, aEnd, 10);
            int b = Integer.parseInt(s, bStart, bEnd, 10);
            int before = skipSpacesBack(aStart - 1);
            int after = skipSpaces(bEnd);
            char pc = before >= 0 ? s.charAt(before) : 0;
            char nc = after < n ? s.charAt(after) : 0;
            boolean open = pc == '(' || pc == '[' || pc == '{' || pc == '<';
            boolean close = nc == ')' || nc == ']' || nc == '}' || nc == '>';
            char ib = aStart > 0 ? s.charAt(aStart - 1) : ' ';
            char ia = bEnd < n ? s.charAt(bEnd) : ' ';
            if (ib == '/'
                    || ia == '/'
                    || ia == '.'
                    || ia == ','
                    || (ib == '.' && !open)
                    || Character.isLetterOrDigit(ia)) {
                return null;
            }
            if ((sep == '|' || sep == '_' || sep == '~') && !(open && close)) { // [106~106] only in brackets
                return null;
            }
            int start = open ? before : aStart;
            int end = close ? after + 1 : bEnd;
            if (open && pc == '<' && before > 0 && s.charAt(before - 1) == '<') {
                start = before - 1;
            }
            if (close && nc == '>' && after + 1 < n && s.charAt(after + 1) == '>') {
                end = after + 2;
            }
            if (of) {
                if (!open && Character.isLetterOrDigit(ib)) {
                    return null;
                }
                if (!open && before >= 0 && Character.isLetterOrDigit(pc)) {
                    int w = before;
                    while (w > 0 && Character.isLetter(s.charAt(w - 1))) {
                        w--;
                    }
                    if (before - w != 3 || !s.regionMatches(true, w, "file", 0, 4)) {
                        return null;
                    }
                    start = w;
                    int ob = skipSpacesBack(w - 1);
                    if (ob >= 0 && (s.charAt(ob) == '[' || s.charAt(ob) == '(')) {
                        start = ob;
                    }
                }
            } else if (!open && !close) {
                if (Character.isLetterOrDigit(ib) || ib == ':' || a > b) {
                    return null;
                }
            }
            return new Counter(start, end, aStart, aEnd, bStart, bEnd, a, b, of, open || close);
        }

        /**
         * The start of the subject's tail: from the end, counters, yEnc, sizes ({@code 1,22 GB}),
         * a byte count next to either, and dashes. Counters there after yEnc are article counters.
         */
        private int tail() {
            int pos = n;
            int ci = counters.size() - 1;
            int yi = yencs.size() - 1;
            while (pos > 0) {
                int p = skipSpacesBack(pos - 1) + 1;
                if (p == 0) {
                    return 0;
                }
                while (ci >= 0 && counters.get(ci).end() > p) {
                    ci--;
                }
                if (ci >= 0 && counters.get(ci).end() == p && counters.get(ci).bracketed()) {
                    pos = counters.get(ci).start();
                    ci--;
                    continue;
                }
                while (yi >= 0 && yencs.get(yi)[1] > p) {
                    yi--;
                }
                if (yi >= 0 && yencs.get(yi)[1] == p) {
                    pos = yencs.get(yi)[0];
                    yi--;
                    continue;
                }
                char c = s.charAt(p - 1);
                if (c == '-' || c == '>' || c == '<' || c == '~' || c == '|') {
                    pos = p - 1;
                    continue;
                }
                int size = sizeEndingAt(p);
                if (size >= 0) {
                    pos = size;
                    continue;
                }
                if (isDigit(c)) {
                    int d = p;
                    while (d > 0 && isDigit(s.charAt(d - 1))) {
                        d--;
                    }
                    int q = skipSpacesBack(d - 1) + 1;
                    if (q < d && q > 0 && (endsCounter(q, ci) || endsYenc(q, yi))) {
                        pos = d;
                        continue;
                    }
                }
                return p;
            }
            return 0;
        }

        private boolean endsCounter(int q, int ci) {
            for (int i = ci; i >= 0; i--) {
                int e = counters.get(i).end();
                if (e == q) {
                    return counters.get(i).bracketed();
                }
                if (e < q) {
                    return false;
                }
            }
            return false;
        }

        private boolean endsYenc(int q, int yi) {
            for (int i = yi; i >= 0; i--) {
                int e = yencs.get(i)[1];
                if (e == q) {
                    return true;
                }
                if (e < q) {
                    return false;
                }
            }
            return false;
        }

        /** The start of a size such as {@code 1,22 GB}, {@code 686 B} or {@code (541,61 MB)} ending at {@code p}, else -1. */
        private int sizeEndingAt(int p) {
            int e = p;
            boolean paren = false;
            if (s.charAt(e - 1) == ')') {
                paren = true;
                e = skipSpacesBack(e - 2) + 1;
                if (e <= 0) {
                    return -1;
                }
            }
            int w = e;
            while (w > 0 && e - w <= 6 && Character.isLetter(s.charAt(w - 1))) {
                w--;
            }
            if (w == e
                    || e - w > 6
                    || (w > 0 && Character.isLetter(s.charAt(w - 1)))
                    || !UNITS.contains(s.substring(w, e).toLowerCase(Locale.ROOT))) {
                return -1;
            }
            int d = skipSpacesBack(w - 1) + 1;
            int num = d;
            while (num > 0
                    && d - num <= 16
                    && (isDigit(s.charAt(num - 1)) || s.charAt(num - 1) == '.' || s.charAt(num - 1) == ',')) {
                num--;
            }
            if (num == d || !isDigit(s.charAt(d - 1)) || (num > 0 && Character.isLetterOrDigit(s.charAt(num - 1)))) {
                return -1;
            }
            if (paren) {
                int o = skipSpacesBack(num - 1);
                return o >= 0 && s.charAt(o) == '(' ? o : -1;
            }
            return num;
        }

        // ------------------------------------------------------------------ the file name

        /**
         * {@code [PRiVATE]-[WtFnZb]-[name]-[x/y] - "" yEnc}: the name is in the last bracket but one
         * (it may hold brackets and a path), the file counter in the last.
         */
        private FileName wtfnzb(int[] counter) {
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
                if (sep > 0
                        && sep <= 9
                        && sep < last.length()
                        && (last.charAt(sep) == '/' || last.charAt(sep) == '_')) {
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
        private FileName quoted(boolean fileLike) {
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
        private FileName unquoted(int tailStart) {
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
            boolean afterQuote =
                    quotes.size % 2 == 1 && quotes.at(quotes.size - 1) < dot; // "name.ext yEnc: its quote lost
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
            boolean addressed =
                    start >= 5 && s.charAt(start - 1) == ':' && s.regionMatches(true, start - 5, "attn", 0, 4);
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
                    if (e > d
                            && e - d <= 3
                            && e + 1 < dot
                            && s.charAt(e) == ' '
                            && Character.isLetter(s.charAt(e + 1))) {
                        found = d;
                    }
                }
            }
            return found;
        }

        /** The text before yEnc when nothing else names a file ({@code [02/39] - SpongeBoZZ yEnc}). */
        private FileName beforeYenc() {
            if (yencs.isEmpty()) {
                return null;
            }
            int y = yencs.get(0)[0];
            int start = y;
            while (start > 0
                    && !blocked[start - 1]
                    && !isNameBoundary(s.charAt(start - 1))
                    && s.charAt(start - 1) != '"') {
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

        // ------------------------------------------------------------------ helpers

        /** The index of the closer of the bracket opened at {@code i}, or -1. */
        int closer(int i) {
            return match[i] - 1;
        }

        int skipSpaces(int i) {
            while (i < n && isSpace(s.charAt(i))) {
                i++;
            }
            return i;
        }

        int skipSpacesBack(int i) {
            while (i >= 0 && isSpace(s.charAt(i))) {
                i--;
            }
            return i;
        }
    }

    /**
     * The poster's release text in a stretch of the subject: the stretch is cut into units (bracket
     * groups, quoted strings, text between {@code " - "}), adverts, network tags, request ids, sizes,
     * counters and yEnc are dropped, and the longest run of units left is the release text.
     */
    private static final class ReleaseText {
        private final Scan scan;
        private final String s;
        /** Offsets that are not release text: the file counter, counters in brackets, yEnc. */
        private final boolean[] removed;
        /** The post's file name: a short leading tag it starts with too is a name, not a tag. */
        private final String fileName;

        /** Reads release text within {@code [from, to)} only (sizes are looked for there alone). */
        ReleaseText(Scan scan, Counter fileCounter, String fileName, int from, int to) {
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
                boolean keep = keepText(text) && !slogan(i, j, text);
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
                while (k < units.size()
                        && (units.get(k).keep() || separatorOnly(units.get(k)) || language(units.get(k)))) {
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

    // ------------------------------------------------------------------ classification

    private static final Set<String> UNITS = Set.of(
            "b", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib", "bytes", "kbytes", "mbytes", "gbytes", "k", "m",
            "g");

    /** Words that, alone, are tags: status, category, posting jargon. */
    private static final Set<String> TAGS = Set.of(
            "full",
            "repost",
            "re-post",
            "reup",
            "re-up",
            "new",
            "req",
            "request",
            "requested",
            "fill",
            "filled",
            "private",
            "wtfnzb",
            "encryptnzb",
            "n3wz",
            "part",
            "partial",
            "incomplete",
            "description",
            "town",
            "tv",
            "pc",
            "pc game",
            "game",
            "games",
            "xxx",
            "mp3",
            "flac",
            "ebook",
            "ebooks",
            "movie",
            "movies",
            "nzb",
            "nzb only",
            "file",
            "files",
            "par2",
            "rar",
            "sample",
            "sfv",
            "nfo",
            "yenc",
            "none",
            "old",
            "repack",
            "dvd",
            "dvdr",
            "mkv",
            "avi",
            "cd",
            "cd1",
            "cd2",
            "pw",
            "no pw",
            "drm",
            "vip",
            "nl",
            "de",
            "german",
            "re",
            "fw",
            "fwd",
            "subs",
            "proof",
            "thx",
            "thanks",
            "enjoy",
            "dox",
            "only",
            "nr",
            "compressed",
            "info",
            "noname");

    /** Tag words that name a release's language: inside release text they are part of it. */
    private static final Set<String> LANGUAGES = Set.of("german", "nl", "de");

    /** Words that are tags only in company ({@code Album Top 100}, {@code NEW PAR SET}, {@code Have Fun}), not alone. */
    private static final Set<String> TAG_PHRASE_WORDS = Set.of(
            "album",
            "top",
            "chart",
            "charts",
            "par",
            "pars",
            "set",
            "have",
            "fun",
            "single",
            "singles",
            "scan",
            "scans",
            "original",
            "damaged");

    private static final String[] DOMAINS = {
        ".com", ".net", ".org", ".info", ".eu", ".ag", ".tk", ".pw", ".to", ".me", ".nl", ".de", ".ws", ".cc", ".biz",
        ".us", ".ru", ".in", ".ua", ".se", ".be", ".fr", ".it", ".ch", ".at", ".tv", ".cz", ".pl", ".co", ".uk", ".re",
        ".club", ".xyz", ".sk", ".hu", ".ro", ".dk", ".no", ".fi", ".es", ".pt", ".gr", ".lu", ".li", ".su", ".ms",
        ".la", ".ly", ".io", ".ir", ".cn", ".jp", ".kr", ".br", ".ar", ".mx", ".ca", ".au", ".nu", ".st", ".vc"
    };

    private static final Set<String> DOMAIN_SET = Set.of(DOMAINS);

    /** Top-level domains seen under a second level ({@code site.wz.cz}, {@code site.org.ua}). */
    private static final String[] SECOND_LEVEL = {".cz", ".ua", ".uk", ".br", ".au", ".ru", ".pl"};

    /** Whether a unit of text is release text rather than an advert, a network tag, a tag word or a size. */
    private static boolean keepText(String raw) {
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
    private static boolean isDomain(String word) {
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

    private static boolean isRequestId(String inner) {
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

    /** {@code (by Uploader)}, {@code (Postet by Uploader)}: a bracket group that credits the uploader. */
    private static boolean isCredit(String inner) {
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

    private static final Set<String> CREDIT_VERBS =
            Set.of("postet", "posted", "gepost", "upped", "uploaded", "made", "ripped", "encoded", "repacked");

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

    private static final Set<String> FORMAT_WORDS = Set.of(
            "avi", "mkv", "mp4", "xvid", "divx", "hdtv", "dvdrip", "bdrip", "webrip", "bluray", "dvd", "dvdr", "pdf",
            "epub", "mp3", "flac");

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
    private static String afterPresents(String r) {
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

    private static final Set<String> REQUEST_WORDS = Set.of(
            "re",
            "re:",
            "fw",
            "fw:",
            "fwd",
            "fwd:",
            "req",
            "req:",
            "request",
            "request:",
            "requests",
            "requested",
            "requested:",
            "repost",
            "repost:",
            "reposting",
            "by",
            "per",
            "as",
            "filling",
            "filled",
            "fill",
            "for",
            "new:",
            "full",
            "req#",
            "presents",
            "presents:",
            "proudly",
            "attn:",
            "attn");

    private static String dropRequestWords(String r) {
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
    private static String sceneToken(String text) {
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

    /** {@code Some.Release.2013-GRP}, {@code Some_Release_2013}: three or more parts joined by dots or underscores, with letters. */
    private static boolean isSceneName(String t) {
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

    /** Text after the file name counts as the release only when it reads like one: {@code Some.Release.Name-GRP}. */
    private static boolean looksLikeRelease(String text) {
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
    private static boolean preferFileName(String release, String file) {
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

    /** Letters and digits in {@code t}: how much text a unit carries. */
    private static int weight(String t) {
        int w = 0;
        for (int i = 0; i < t.length(); i++) {
            if (Character.isLetterOrDigit(t.charAt(i))) {
                w++;
            }
        }
        return w;
    }

    private static String strip(String t, String chars) {
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

    /** Whether {@code name} ends in an extension ({@code .mkv}, {@code .part01.rar}, {@code .001} when {@code numeric}). */
    static boolean hasExtension(String name, boolean numeric) {
        return hasExtension(name, 0, name.length(), numeric);
    }

    /** Whether {@code s[from, to)} ends in an extension; looks at its last six characters only. */
    static boolean hasExtension(String s, int from, int to, boolean numeric) {
        int dot = -1;
        for (int i = to - 1; i >= Math.max(from, to - 6); i--) {
            if (s.charAt(i) == '.') {
                dot = i;
                break;
            }
        }
        if (dot < 0 || dot == to - 1) {
            return false;
        }
        return ReleaseNames.isExtension(s.substring(dot + 1, to), numeric);
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

    static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }
}
