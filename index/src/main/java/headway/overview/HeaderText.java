package headway.overview;

import java.nio.charset.StandardCharsets;

/**
 * Header bytes as the text their poster wrote: UTF-8 when the bytes are valid UTF-8, else
 * Windows-1252, which is what newsreaders do, because headers carry no charset and posters write
 * in both. Pure ASCII, nearly every header, costs one scan for a high bit and a byte copy. Strict
 * UTF-8: overlong forms, surrogates and code points past U+10FFFF are not UTF-8, so such bytes read
 * as Windows-1252 (the trade-off: a Windows-1252 field whose bytes happen to form valid UTF-8, such
 * as {@code Ã©}, reads as UTF-8; real text almost never does). Windows-1252's five unassigned bytes
 * read as the C1 controls of the same value, as the WHATWG encoding standard maps them.
 */
public final class HeaderText {

    /** Windows-1252 bytes 0x80..0x9F; the rest of 0xA0..0xFF is ISO-8859-1. */
    private static final char[] CP1252_HIGH = {
        '\u20AC', '\u0081', '\u201A', '\u0192', '\u201E', '\u2026', '\u2020', '\u2021',
        '\u02C6', '\u2030', '\u0160', '\u2039', '\u0152', '\u008D', '\u017D', '\u008F',
        '\u0090', '\u2018', '\u2019', '\u201C', '\u201D', '\u2022', '\u2013', '\u2014',
        '\u02DC', '\u2122', '\u0161', '\u203A', '\u0153', '\u009D', '\u017E', '\u0178'
    };

    private HeaderText() {}

    /** The text of {@code b[from..end)}. */
    public static String decode(byte[] b, int from, int end) {
        if (from >= end) {
            return "";
        }
        int i = from;
        while (i < end && b[i] >= 0) {
            i++;
        }
        if (i == end) {
            return new String(b, from, end - from, StandardCharsets.ISO_8859_1);
        }
        if (isUtf8(b, i, end)) {
            return new String(b, from, end - from, StandardCharsets.UTF_8);
        }
        return cp1252(b, from, end);
    }

    /** The text of all of {@code b}. */
    public static String decode(byte[] b) {
        return decode(b, 0, b.length);
    }

    /**
     * At most {@code max} characters of {@code text}, one fewer when the last would be the first
     * half of a surrogate pair, because a lone half is no character: UTF-8 encoders write it as
     * {@code ?} and XML forbids it.
     */
    public static String cut(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = max > 0 && Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end);
    }

    /** True when {@code b[from..end)} is well-formed UTF-8 (RFC 3629: shortest forms, no surrogates, at most U+10FFFF). */
    static boolean isUtf8(byte[] b, int from, int end) {
        int i = from;
        while (i < end) {
            int c = b[i] & 0xff;
            if (c < 0x80) {
                i++;
                continue;
            }
            int n;
            int lo = 0x80;
            int hi = 0xBF;
            if (c >= 0xC2 && c <= 0xDF) {
                n = 1;
            } else if (c >= 0xE0 && c <= 0xEF) {
                n = 2;
                if (c == 0xE0) {
                    lo = 0xA0;
                } else if (c == 0xED) {
                    hi = 0x9F;
                }
            } else if (c >= 0xF0 && c <= 0xF4) {
                n = 3;
                if (c == 0xF0) {
                    lo = 0x90;
                } else if (c == 0xF4) {
                    hi = 0x8F;
                }
            } else {
                return false;
            }
            if (end - i <= n) {
                return false;
            }
            int second = b[i + 1] & 0xff;
            if (second < lo || second > hi) {
                return false;
            }
            for (int k = 2; k <= n; k++) {
                int cont = b[i + k] & 0xff;
                if (cont < 0x80 || cont > 0xBF) {
                    return false;
                }
            }
            i += n + 1;
        }
        return true;
    }

    private static String cp1252(byte[] b, int from, int end) {
        char[] out = new char[end - from];
        for (int i = from; i < end; i++) {
            int c = b[i] & 0xff;
            out[i - from] = c >= 0x80 && c < 0xA0 ? CP1252_HIGH[c - 0x80] : (char) c;
        }
        return new String(out);
    }
}
