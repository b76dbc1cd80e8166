package headway.inspect.archive;

import headway.inspect.HostileText;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Entry names as text: decoded totally (a malformed byte becomes U+FFFD, never an exception),
 * control and bidirectional-override characters dropped (a right-to-left override makes
 * {@code evil\u202Erar.exe} display as an innocent name), backslashes made slashes, and cut to
 * {@link #MAX_CHARS} without splitting a surrogate pair.
 */
final class Names {

    /**
     * Longest name kept, in chars: Windows paths stop at 260 (32,767 with the long-path prefix,
     * which no release uses) and RAR 5 at 2,048 bytes; a name past 1,024 chars is junk or an
     * attack, and what is searched is its start.
     */
    static final int MAX_CHARS = 1024;

    /** Bytes decoded at most: four bytes a char covers UTF-8 and UTF-16 up to the cut. */
    static final int MAX_BYTES = 4 * MAX_CHARS;

    static final Charset CP437 = Charset.forName("IBM437");

    private Names() {}

    /** Decodes {@code len} bytes at {@code off} in {@code cs}, replacing what is malformed. */
    static String decode(byte[] b, int off, int len, Charset cs) {
        int n = Math.min(len, MAX_BYTES);
        return clean(new String(b, off, n, cs));
    }

    /** UTF-8 when the bytes are valid UTF-8, else CP437: what an old archiver wrote without a flag. */
    static String utf8OrCp437(byte[] b, int off, int len) {
        int n = Math.min(len, MAX_BYTES);
        try {
            CharBuffer chars = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b, off, n));
            return clean(chars);
        } catch (CharacterCodingException e) {
            return decode(b, off, n, CP437);
        }
    }

    /** Maps backslash to slash, then {@link HostileText#clean}: controls and bidi controls dropped, at most {@link #MAX_CHARS}. */
    static String clean(CharSequence s) {
        return HostileText.clean(s.toString().replace('\\', '/'), MAX_CHARS);
    }
}
