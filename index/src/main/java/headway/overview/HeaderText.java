package headway.overview;

import headway.inspect.HostileText;

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

    private HeaderText() {}

    /** The text of {@code b[from..end)}: UTF-8 when valid, else Windows-1252 ({@link HostileText#decode}, the one decoder). */
    public static String decode(byte[] b, int from, int end) {
        return HostileText.decode(b, from, end);
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
        return HostileText.isUtf8(b, from, end);
    }
}
