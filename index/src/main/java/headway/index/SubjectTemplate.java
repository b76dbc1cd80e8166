package headway.index;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A subject with its counter's digit spans masked, as a memo key: equal, with equal hashes,
 * for every part of one file. It hashes and compares the subject around the spans in place,
 * because building the masked string and hashing it anew per header was a tenth of the
 * window's cost; and it does so on the subject's ISO-8859-1 bytes, eight at a time, because
 * {@code charAt} loops over a subject of a hundred characters cost about 150 ns a header (the
 * bytes, one array copy, about 40). The bytes are exact only when they hold no {@code '?'}, which
 * is what a character past U+00FF becomes: two exact keys compare by their bytes, any other
 * pair by their strings, so that {@code 公} and {@code 字} never make one key. The bytes are one
 * a character, as every offset here is a character's: the encoder makes one {@code '?'} of a
 * surrogate pair (an emoji, U+1D538), so a subject holding one is copied character by character
 * instead (measured before this: one emoji before the counter threw past the array's end).
 */
final class SubjectTemplate {
    private static final long MIX = 0x9E37_79B9_7F4A_7C15L;

    private final String s;
    private final Counter c;
    private final byte[] b;
    private final boolean exact;
    private final int hash;

    SubjectTemplate(String s, Counter c) {
        this.s = s;
        this.c = c;
        this.b = latin1(s);
        int end = c.partStart();
        long h = mix(MIX, end);
        long q = 0;
        int i = 0;
        for (; i + 8 <= end; i += 8) {
            long w = Words.at(b, i);
            q |= Words.hasByte(w, '?');
            h = mix(h, w);
        }
        if (i < end) { // the last few bytes, as the word that ends with them
            long w = end >= 8 ? Words.at(b, end - 8) : word(0, end);
            q |= Words.hasByte(w, '?');
            h = mix(h, w);
        }
        // what lies between and after the counter's digits (ASCII, as Counter.find reads them): a few
        // characters, or the digits of Nyuu's byte count
        h = mix(h, word(c.partEnd(), c.totalStart()) * 31 + word(c.totalEnd(), s.length()));
        this.exact = q == 0;
        this.hash = (int) (h ^ (h >>> 32));
    }

    /** One byte a character of {@code s}: the character when it is at most U+00FF, else {@code '?'}. */
    static byte[] latin1(String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        if (b.length == s.length()) {
            return b;
        }
        b = new byte[s.length()];
        for (int i = 0; i < b.length; i++) {
            char ch = s.charAt(i);
            b[i] = ch <= 0xFF ? (byte) ch : (byte) '?';
        }
        return b;
    }

    private static long mix(long h, long w) {
        h = (h ^ w) * 0xFF51_AFD7_ED55_8CCDL;
        return h ^ (h >>> 29);
    }

    /** The first eight bytes of {@code b[from, to)} as a number, with its length (the rest is compared, not hashed). */
    private long word(int from, int to) {
        long w = (long) to - from;
        for (int i = from; i < Math.min(to, from + 8); i++) {
            w = w << 8 | (b[i] & 0xff);
        }
        return w;
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SubjectTemplate t) || t.hash != hash) {
            return false;
        }
        Counter d = t.c;
        int between = c.totalStart() - c.partEnd();
        int tail = s.length() - c.totalEnd();
        if (c.partStart() != d.partStart()
                || between != d.totalStart() - d.partEnd()
                || tail != t.s.length() - d.totalEnd()) {
            return false;
        }
        if (exact && t.exact) {
            return Arrays.equals(b, 0, c.partStart(), t.b, 0, d.partStart())
                    && Arrays.equals(b, c.partEnd(), c.totalStart(), t.b, d.partEnd(), d.totalStart())
                    && Arrays.equals(b, c.totalEnd(), s.length(), t.b, d.totalEnd(), t.s.length());
        }
        return s.regionMatches(0, t.s, 0, c.partStart())
                && s.regionMatches(c.partEnd(), t.s, d.partEnd(), between)
                && s.regionMatches(c.totalEnd(), t.s, d.totalEnd(), tail);
    }

    /**
     * The trailing part counter of a subject, {@code (12/50)}, {@code [12/50]} or {@code {12/50}},
     * before Nyuu's byte count if there is one: the digit spans and their values. Found by a scan
     * from the end, without a regex.
     */
    record Counter(int partStart, int partEnd, int totalStart, int totalEnd, int part, int total) {

        static Counter find(String s) {
            int i = s.length() - 1;
            if (i < 4) {
                return null;
            }
            if (isDigit(s.charAt(i))) {
                int digits = i;
                while (i >= 0 && isDigit(s.charAt(i))) {
                    i--;
                }
                if (i < 4 || digits - i > 15 || s.charAt(i) != ' ') {
                    return null;
                }
                i = skipSpaces(s, i);
            }
            char close = s.charAt(i);
            if (close != ')' && close != ']' && close != '}') {
                return null;
            }
            i = skipSpaces(s, i - 1);
            int totalEnd = i + 1;
            while (i >= 0 && isDigit(s.charAt(i))) {
                i--;
            }
            int totalStart = i + 1;
            if (totalStart == totalEnd) {
                return null;
            }
            i = skipSpaces(s, i);
            if (i < 0 || s.charAt(i) != '/') {
                return null;
            }
            i = skipSpaces(s, i - 1);
            int partEnd = i + 1;
            while (i >= 0 && isDigit(s.charAt(i))) {
                i--;
            }
            int partStart = i + 1;
            if (partStart == partEnd || partEnd - partStart > 9 || totalEnd - totalStart > 9) {
                return null;
            }
            i = skipSpaces(s, i);
            if (i < 0 || (s.charAt(i) != '(' && s.charAt(i) != '[' && s.charAt(i) != '{')) {
                return null;
            }
            return new Counter(
                    partStart,
                    partEnd,
                    totalStart,
                    totalEnd,
                    number(s, partStart, partEnd),
                    number(s, totalStart, totalEnd));
        }

        /** The value of at most nine ASCII digits. */
        private static int number(String s, int from, int to) {
            int v = 0;
            for (int i = from; i < to; i++) {
                v = v * 10 + (s.charAt(i) - '0');
            }
            return v;
        }

        private static int skipSpaces(String s, int i) {
            while (i >= 0 && s.charAt(i) == ' ') {
                i--;
            }
            return i;
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }
    }
}
