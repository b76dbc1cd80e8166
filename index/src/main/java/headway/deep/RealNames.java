package headway.deep;

import headway.category.Obfuscation;
import headway.index.ReleaseNames;
import headway.inspect.HostileText;
import java.util.Optional;

/**
 * Which texts read inside files may become a release's real name, and their clean form. A name is
 * cleaned like the release text of a subject ({@link ReleaseNames#clean}) after its control and
 * bidirectional characters are dropped, and is refused when it is blank, longer than {@link
 * #MAX_CHARS}, holds a replacement character (bytes that did not decode) or a path separator, has
 * fewer than two letters or fewer than two words, or looks hashed ({@link Obfuscation#looksHashed}),
 * as a whole or in one of its words (a random token with a random extension):
 * a garbage or obfuscated inner name never becomes a real name.
 */
public final class RealNames {

    /**
     * Longest real name, in chars: a name is also a file name, which file systems stop at 255, and
     * 255 chars stay under the catalog key's {@code Poison.KEY_BYTES} in UTF-8, so a real name is
     * never keyed by a bounded form. Longer text is refused, not cut: a cut name is a wrong name.
     */
    public static final int MAX_CHARS = 255;

    private RealNames() {}

    /** The clean form of {@code raw} when it may be a real name, else empty. */
    public static Optional<String> accept(String raw) {
        if (raw == null || raw.length() > 4 * MAX_CHARS) {
            return Optional.empty();
        }
        String name =
                ReleaseNames.clean(HostileText.clean(raw, raw.length()).strip()).strip();
        if (name.isEmpty()
                || name.length() > MAX_CHARS
                || name.indexOf('\uFFFD') >= 0
                || name.indexOf('/') >= 0
                || name.indexOf('\\') >= 0
                || letters(name) < 2
                || ReleaseNames.fold(name).indexOf(' ') < 0
                || Obfuscation.looksHashed(name)
                || hashedWord(name)) {
            return Optional.empty();
        }
        return Optional.of(name);
    }

    /** The release name a file's name stands for: its last path part less volume suffix and extension. */
    static String ofFile(String path) {
        String p = path == null ? "" : path;
        String base = p.substring(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
        return ReleaseNames.fromFileName(base);
    }

    /** The key under which two names are one: lower case, every run of separators one space. */
    static String key(String name) {
        return ReleaseNames.fold(name == null ? "" : name);
    }

    /** A word that looks hashed by itself: a random token with a random extension ({@code 0f25….w95}). */
    private static boolean hashedWord(String name) {
        for (String word : ReleaseNames.fold(name).split(" ")) {
            if (Obfuscation.looksHashed(word)) {
                return true;
            }
        }
        return false;
    }

    private static int letters(String s) {
        int n = 0;
        for (int i = 0; i < s.length() && n < 2; i = s.offsetByCodePoints(i, 1)) {
            if (Character.isLetter(s.codePointAt(i))) {
                n++;
            }
        }
        return n;
    }
}
