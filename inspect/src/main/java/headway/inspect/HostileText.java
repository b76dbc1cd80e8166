package headway.inspect;

import java.nio.charset.StandardCharsets;

/**
 * Bytes from a poster as text, totally: a name or a line from yEnc headers, PAR2 packets or an
 * NFO never throws, whatever its bytes. Valid UTF-8 (strict: shortest forms, no surrogates, at most
 * U+10FFFF) reads as UTF-8, anything else as Windows-1252, because posters write both and nothing
 * says which (the trade-off: Windows-1252 text whose bytes happen to be valid UTF-8, such as
 * {@code Ã©}, reads as UTF-8; real names almost never do). Windows-1252's five unassigned bytes
 * read as the C1 controls of the same value, as the WHATWG encoding standard maps them, and
 * {@link #clean} then drops them with every other control character. The same rule as the NNTP
 * client's header text, which this pure module cannot reach.
 */
public final class HostileText {

    /** Windows-1252 bytes 0x80..0x9F; the rest of 0xA0..0xFF is ISO-8859-1. */
    private static final char[] CP1252_HIGH = {
        '\u20AC', '\u0081', '\u201A', '\u0192', '\u201E', '\u2026', '\u2020', '\u2021',
        '\u02C6', '\u2030', '\u0160', '\u2039', '\u0152', '\u008D', '\u017D', '\u008F',
        '\u0090', '\u2018', '\u2019', '\u201C', '\u201D', '\u2022', '\u2013', '\u2014',
        '\u02DC', '\u2122', '\u0161', '\u203A', '\u0153', '\u009D', '\u017E', '\u0178'
    };

    private HostileText() {}

    /** A name from {@code b[from..end)}: decoded, control characters dropped, trimmed, at most {@code maxChars}. */
    public static String name(byte[] b, int from, int end, int maxChars) {
        return clean(decode(b, from, end), maxChars).strip();
    }

    /** The text of {@code b[from..end)}: UTF-8 when valid, else Windows-1252; never throws. */
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

    /** True when some byte of {@code b[from..end)} is non-ASCII and all of it is well-formed UTF-8. */
    public static boolean isMultiByteUtf8(byte[] b, int from, int end) {
        int i = from;
        while (i < end && b[i] >= 0) {
            i++;
        }
        return i < end && isUtf8(b, i, end);
    }

    /**
     * {@code s} without control characters (Unicode category Cc, and the bidirectional overrides,
     * isolates and separators that make a name display as another), at most {@code maxChars} long, never cut
     * inside a surrogate pair.
     */
    public static String clean(CharSequence s, int maxChars) {
        StringBuilder out = new StringBuilder(Math.min(s.length(), maxChars));
        for (int i = 0; i < s.length() && out.length() < maxChars; i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c) || isBidiControl(c)) {
                continue;
            }
            if (Character.isHighSurrogate(c)) {
                boolean paired = i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
                if (!paired) {
                    out.append('\uFFFD');
                } else if (out.length() + 2 <= maxChars) {
                    out.append(c).append(s.charAt(++i));
                } else {
                    break;
                }
                continue;
            }
            out.append(Character.isLowSurrogate(c) ? '\uFFFD' : c);
        }
        return out.toString();
    }

    /** The characters that make a name display as another: bidi marks, overrides and isolates, line separators, a BOM. */
    private static boolean isBidiControl(char c) {
        return (c >= '\u202A' && c <= '\u202E')
                || (c >= '\u2066' && c <= '\u2069')
                || c == '\u200E'
                || c == '\u200F'
                || c == '\u061C'
                || c == '\u2028'
                || c == '\u2029'
                || c == '\uFEFF';
    }

    /** True when {@code b[from..end)} is well-formed UTF-8 (RFC 3629: shortest forms, no surrogates, at most U+10FFFF). */
    public static boolean isUtf8(byte[] b, int from, int end) {
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

    /** Windows-1252 text of {@code b[from..end)}. */
    static String cp1252(byte[] b, int from, int end) {
        char[] out = new char[end - from];
        for (int i = from; i < end; i++) {
            int c = b[i] & 0xff;
            out[i - from] = c >= 0x80 && c < 0xA0 ? CP1252_HIGH[c - 0x80] : (char) c;
        }
        return new String(out);
    }
}
