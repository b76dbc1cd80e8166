package headway.index;

import static headway.index.SubjectParser.isDigit;
import static headway.index.SubjectParser.isSpace;
import static headway.index.SubjectWords.UNITS;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The subject parser's lexer: one pass over a subject that finds its counters ({@code [x/y]},
 * {@code x of y}, ...), its yEnc tokens, its quotes and which bracket closes which, and then where
 * its tail of counters, sizes and yEnc starts. The file-name reader ({@link FileNameReader}) and
 * the release-text reader ({@link ReleaseText}) work on what it found; nothing here backtracks.
 */
final class SubjectScan {

    /** A counter {@code a/b} (or {@code a of b}, {@code a|b}, {@code a_b}) and where it lies. */
    record Counter(
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

    /** A growable array of offsets: bracket openers waiting for their closers, quote characters. */
    static final class Stack {
        private int[] items = new int[16];
        int size;

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

    /** ASCII characters that open nothing in the lexer: no quote, bracket, digit or the y of yEnc. */
    private static final boolean[] PLAIN = new boolean[128];

    static {
        for (char c = 0; c < 128; c++) {
            PLAIN[c] = "\"()[]{}yY".indexOf(c) < 0 && !isDigit(c);
        }
    }

    final String s;
    final int n;
    final List<Counter> counters = new ArrayList<>();
    final List<int[]> yencs = new ArrayList<>();
    /** Offsets of the quote characters, in order. */
    final Stack quotes = new Stack();
    /** For each bracket opener, one more than the index of its closer (same kind, nested), else 0. */
    final int[] match;
    /** Where {@code [PRiVATE]-[} starts, or -1. */
    int wrapper = -1;
    /** Offsets covered by a counter or a yEnc token: an unquoted file name never crosses them. */
    final boolean[] blocked;

    SubjectScan(String s) {
        this.s = s;
        this.n = s.length();
        this.match = new int[n];
        this.blocked = new boolean[n];
    }

    void lex() {
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

    boolean isYenc(int i) {
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
        if (ib == '/' || ia == '/' || ia == '.' || ia == ',' || (ib == '.' && !open) || Character.isLetterOrDigit(ia)) {
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
    int tail() {
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
