package headway.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.HexFormat;

/**
 * The file name of a release's NZB, the one rule for {@code headway nzb}'s default file and the
 * API's {@code Content-Disposition}: letters, marks and digits of any script (NFC), and
 * {@code . _ - ( ) [ ] + ,} and spaces are kept, anything else becomes {@code _} (no leading dot
 * or space), at most {@value #NAME_BYTES} bytes of UTF-8, plus {@code .nzb}. A name that had to
 * change gets {@code ~} and 12 hex digits of the SHA-256 of the whole name as sent: {@code ~} is
 * never kept, so a changed name never equals one that stayed as it was, and two names changed
 * alike ({@code a/b}, {@code a:b}) differ by their hashes. The ASCII form, for the
 * {@code filename=} that old clients read, keeps only ASCII and follows the same rule.
 */
public final class NzbFileNames {

    /** The most bytes of a name before its suffix: with the hash and {@code .nzb} within any file system's 255. */
    static final int NAME_BYTES = 200;

    private static final String KEPT = "._- ()[]+,";

    private NzbFileNames() {}

    /** The file name, letters of every script kept. */
    public static String of(String releaseName) {
        return name(releaseName, false);
    }

    /** The file name in ASCII alone. */
    public static String ascii(String releaseName) {
        return name(releaseName, true);
    }

    private static String name(String releaseName, boolean ascii) {
        String name = Normalizer.normalize(releaseName, Normalizer.Form.NFC);
        StringBuilder safe = new StringBuilder(Math.min(name.length(), NAME_BYTES));
        int bytes = 0;
        boolean cut = false;
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            i += Character.charCount(cp);
            boolean kept = cp < 0x80
                    ? Character.isLetterOrDigit(cp) || KEPT.indexOf(cp) >= 0
                    : !ascii && (Character.isLetterOrDigit(cp) || isMark(cp));
            if (safe.length() == 0 && (cp == '.' || cp == ' ')) {
                kept = false;
            }
            String piece = kept ? new String(Character.toChars(cp)) : "_";
            int n = piece.getBytes(StandardCharsets.UTF_8).length;
            if (bytes + n > NAME_BYTES) {
                cut = true;
                break;
            }
            safe.append(piece);
            bytes += n;
        }
        String base = safe.length() == 0 ? "release" : safe.toString();
        if (cut || !base.equals(releaseName)) {
            base = base + "~" + HexFormat.of().formatHex(sha256(releaseName), 0, 6);
        }
        return base + ".nzb";
    }

    /** A combining mark: an accent written after its letter, part of the word it marks. */
    private static boolean isMark(int cp) {
        int type = Character.getType(cp);
        return type == Character.NON_SPACING_MARK
                || type == Character.COMBINING_SPACING_MARK
                || type == Character.ENCLOSING_MARK;
    }

    /**
     * The SHA-256 of the name's code points in UTF-8, a lone surrogate as its own three bytes (as
     * WTF-8 does): {@code getBytes(UTF_8)} would make every lone surrogate {@code ?}, so
     * {@code "\uD86C"} and {@code "?"} would share a hash. For a well-formed name the bytes are
     * its UTF-8.
     */
    private static byte[] sha256(String s) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            s.codePoints().forEach(cp -> {
                if (cp < 0x80) {
                    digest.update((byte) cp);
                } else if (cp < 0x800) {
                    digest.update((byte) (0xC0 | (cp >> 6)));
                    digest.update((byte) (0x80 | (cp & 0x3F)));
                } else if (cp < 0x10000) {
                    digest.update((byte) (0xE0 | (cp >> 12)));
                    digest.update((byte) (0x80 | ((cp >> 6) & 0x3F)));
                    digest.update((byte) (0x80 | (cp & 0x3F)));
                } else {
                    digest.update((byte) (0xF0 | (cp >> 18)));
                    digest.update((byte) (0x80 | ((cp >> 12) & 0x3F)));
                    digest.update((byte) (0x80 | ((cp >> 6) & 0x3F)));
                    digest.update((byte) (0x80 | (cp & 0x3F)));
                }
            });
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }
}
