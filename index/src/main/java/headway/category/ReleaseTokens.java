package headway.category;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A release name split into words at every code point that is neither a letter nor a digit (so
 * {@code WEB-DL}, {@code WEB.DL} and {@code WEB_DL} all read {@code web dl}), with each word's
 * position in the name. One linear scan; words are lower-cased for lookups.
 */
final class ReleaseTokens {

    final String text;
    final int[] start;
    final int[] end;
    final String[] lower;

    private ReleaseTokens(String text, int[] start, int[] end, String[] lower) {
        this.text = text;
        this.start = start;
        this.end = end;
        this.lower = lower;
    }

    static ReleaseTokens of(String text) {
        List<int[]> spans = new ArrayList<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            // by code point: a letter past U+FFFF (𠀀, 𝔸) is two characters, neither of them a letter
            while (i < n && !Character.isLetterOrDigit(text.codePointAt(i))) {
                i += Character.charCount(text.codePointAt(i));
            }
            int s = i;
            while (i < n && Character.isLetterOrDigit(text.codePointAt(i))) {
                i += Character.charCount(text.codePointAt(i));
            }
            if (i > s) {
                spans.add(new int[] {s, i});
            }
        }
        int[] start = new int[spans.size()];
        int[] end = new int[spans.size()];
        String[] lower = new String[spans.size()];
        for (int k = 0; k < spans.size(); k++) {
            start[k] = spans.get(k)[0];
            end[k] = spans.get(k)[1];
            lower[k] = text.substring(start[k], end[k]).toLowerCase(Locale.ROOT);
        }
        return new ReleaseTokens(text, start, end, lower);
    }

    int size() {
        return lower.length;
    }

    String word(int i) {
        return text.substring(start[i], end[i]);
    }

    /** The characters between word {@code i - 1} and word {@code i} (from the start of the name for the first). */
    String before(int i) {
        return text.substring(i == 0 ? 0 : end[i - 1], start[i]);
    }

    /** The characters between word {@code i} and word {@code i + 1} (to the end of the name for the last). */
    String after(int i) {
        return text.substring(end[i], i + 1 < size() ? start[i + 1] : text.length());
    }

    /** Whether the words from {@code i} on are {@code phrase}, word for word. */
    boolean matches(int i, String[] phrase) {
        if (i + phrase.length > size()) {
            return false;
        }
        for (int k = 0; k < phrase.length; k++) {
            if (!lower[i + k].equals(phrase[k])) {
                return false;
            }
        }
        return true;
    }
}
