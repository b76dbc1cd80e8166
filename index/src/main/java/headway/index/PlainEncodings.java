package headway.index;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Release names some posters write in base64 ({@code U29tZS5Nb3ZpZS4yMDE5...}, standard or URL-safe
 * alphabet, padded or not), so that a name a client searches for is not hidden behind an encoding
 * anyone can undo. A token is decoded only when the result is a plausible release name: strict
 * UTF-8, no control or unassigned characters, letters, and the shape of a name (words or dotted
 * parts); so an obfuscated post's random token, which base64 alphabets also spell, stays as it is.
 * Hex is not decoded: no real subject seen carries a hex-encoded name, and hashes (which do appear)
 * would decode to noise. Pure and linear in the token's length.
 */
final class PlainEncodings {

    /** Shorter tokens are names or ids: 16 characters carry 12 bytes, about the shortest release name. */
    static final int MIN_LENGTH = 16;

    /** Longer tokens are not looked at: no release name is longer than the subject parser's window. */
    static final int MAX_LENGTH = 400;

    private PlainEncodings() {}

    /** The release name {@code token} encodes, or null when it encodes none (it is then a name itself). */
    static String decodedName(String token) {
        if (token == null) {
            return null;
        }
        String t = token.strip();
        int n = t.length();
        if (n < MIN_LENGTH || n > MAX_LENGTH) {
            return null;
        }
        int padding = 0;
        while (padding < 2 && t.charAt(n - 1 - padding) == '=') {
            padding++;
        }
        int body = n - padding;
        if ((padding > 0 && n % 4 != 0) || body % 4 == 1) {
            return null;
        }
        boolean standard = false;
        boolean urlSafe = false;
        boolean lower = false;
        boolean upper = false;
        for (int i = 0; i < body; i++) {
            char c = t.charAt(i);
            if (c == '+' || c == '/') {
                standard = true;
            } else if (c == '-' || c == '_') {
                urlSafe = true;
            } else if (c >= 'a' && c <= 'z') {
                lower = true;
            } else if (c >= 'A' && c <= 'Z') {
                upper = true;
            } else if (c < '0' || c > '9') {
                return null;
            }
        }
        if ((standard && urlSafe) || !lower || !upper) {
            return null; // base64 of text mixes cases; a name in one case is a name
        }
        byte[] bytes;
        try {
            bytes = (urlSafe ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(t.substring(0, body));
        } catch (IllegalArgumentException e) {
            return null;
        }
        String text = utf8(bytes);
        return text != null && plausibleName(text) ? text : null;
    }

    /** {@code bytes} as strict UTF-8, or null when they are not. */
    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /**
     * Whether {@code text} reads like a release name: printable letters, digits, spaces and the
     * punctuation names carry, at least six letters, and words or parts joined by separators
     * ({@code Some.Movie.2019-GRP}, {@code Some Show S01E01}).
     */
    static boolean plausibleName(String text) {
        if (text.length() < 8 || !text.equals(text.strip())) {
            return false;
        }
        int letters = 0;
        int separators = 0;
        int i = 0;
        char previous = 'a';
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            if (Character.isLetter(cp)) {
                letters++;
            } else if (cp == '.' || cp == '_' || cp == '-' || cp == ' ') {
                if (previous == ' ' && cp == ' ') {
                    return false;
                }
                separators++;
            } else if (!Character.isDigit(cp) && "()[]{}&',!+#@~".indexOf(cp) < 0) {
                return false;
            }
            previous = cp == ' ' ? ' ' : 'a';
            i += Character.charCount(cp);
        }
        return letters >= 6 && separators >= 2;
    }
}
