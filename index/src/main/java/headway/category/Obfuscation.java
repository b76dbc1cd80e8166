package headway.category;

/**
 * Whether a release name looks obfuscated: a hash, a UUID, base64, or words of random letters and
 * digits, which posters use to hide releases from takedowns; such a release belongs in
 * Other/Hashed whatever group it came from. Heuristic and linear: it reads the name's words once.
 */
public final class Obfuscation {

    private Obfuscation() {}

    /** Whether {@code name} looks like a hash, a UUID, base64 or random words rather than a release name. */
    public static boolean looksHashed(String name) {
        ReleaseTokens t = ReleaseTokens.of(name);
        int n = t.size();
        if (n == 0) {
            return false;
        }
        int letters = 0;
        int digits = 0;
        boolean hex = true;
        int core = 0;
        for (int i = 0; i < n; i++) {
            String w = t.lower[i];
            core += w.length();
            for (int k = 0; k < w.length(); k++) {
                char c = w.charAt(k);
                if (Character.isDigit(c)) {
                    digits++;
                } else {
                    letters++;
                    if (c > 'f') {
                        hex = false;
                    }
                }
            }
        }
        if (core < 12) {
            return false;
        }
        if (hex && digits > 0 && letters > 0 && core >= 16) {
            return true;
        }
        if (n == 1) {
            String w = t.word(0);
            if (w.length() >= 16 && digits > 0 && letters > 0 && transitions(w) >= 2) {
                return true;
            }
            if (w.length() >= 16 && vowelless(t.lower[0])) {
                return true;
            }
        }
        int random = 0;
        for (int i = 0; i < n; i++) {
            if (randomWord(t.word(i))) {
                random++;
            }
        }
        return n >= 3 && random * 10 >= n * 7;
    }

    /** Letter-digit and lower-upper changes inside a word. */
    private static int transitions(String w) {
        int count = 0;
        for (int k = 1; k < w.length(); k++) {
            char a = w.charAt(k - 1);
            char b = w.charAt(k);
            if (Character.isDigit(a) != Character.isDigit(b)
                    || (Character.isLetter(a)
                            && Character.isLetter(b)
                            && Character.isUpperCase(a) != Character.isUpperCase(b))) {
                count++;
            }
        }
        return count;
    }

    private static boolean vowelless(String w) {
        for (int k = 0; k < w.length(); k++) {
            if ("aeiou".indexOf(w.charAt(k)) >= 0 || Character.isDigit(w.charAt(k))) {
                return false;
            }
        }
        return true;
    }

    /** A short word that mixes letters and digits more than once ({@code aB3c}, {@code 5gH6i}), unlike {@code x264} or {@code S01E02}. */
    private static boolean randomWord(String w) {
        return w.length() >= 3 && w.length() <= 8 && transitions(w) >= 3 && !seasonEpisode(w);
    }

    /** {@code S01E22}, {@code s1e2e3}: an episode marker, which a multi-episode name repeats ({@code s01e22 s01e23}). */
    private static boolean seasonEpisode(String w) {
        int k = 0;
        int groups = 0;
        while (k < w.length()) {
            char c = Character.toLowerCase(w.charAt(k));
            if (c != (groups == 0 ? 's' : 'e')) {
                return false;
            }
            int d = ++k;
            while (k < w.length() && Character.isDigit(w.charAt(k))) {
                k++;
            }
            if (k == d) {
                return false;
            }
            groups++;
        }
        return groups >= 2;
    }
}
