package headway.simulator;

import java.io.ByteArrayOutputStream;
import java.text.Normalizer;
import java.util.Random;

/**
 * Text from all of Unicode as posters can write it, for the simulator's hostile mode and for
 * property tests: a code point is drawn from one of a list of ranges, each a kind of trouble
 * (characters past U+FFFF, combining marks, right-to-left scripts and bidi controls, U+FFFD and
 * U+0000, unassigned code points and noncharacters, lone surrogates, characters whose case
 * mapping changes their length, digits and brackets of other scripts, spaces that are not ASCII),
 * and a text comes in one of the four normalization forms or as drawn. As bytes it is UTF-8,
 * where a lone surrogate is written as the three bytes UTF-8 forbids, with invalid sequences
 * spliced in at will (overlong forms, truncated sequences, bytes UTF-8 never holds, code points
 * past U+10FFFF). Random-driven, so a seed replays it.
 */
public final class HostileText {

    /** Ranges of code points (first, last), drawn from uniformly: a range, then a code point in it. */
    private static final int[][] ANY = {
        {0x20, 0x7E},
        {0x20, 0x7E},
        {0x20, 0x7E},
        {0x30, 0x39}, // ASCII, its digits, more often
        {0x00, 0x1F},
        {0x7F, 0x9F}, // C0 (NUL, TAB, CR, LF too), DEL and C1
        {0xA0, 0xFF}, // Latin-1
        {0xDF, 0xDF},
        {0x130, 0x131},
        {0x149, 0x149},
        {0x1F0, 0x1F0},
        {0x390, 0x390},
        {0xFB00, 0xFB06}, // case mapping
        {0x300, 0x36F},
        {0x1AB0, 0x1AFF},
        {0x20D0, 0x20FF}, // combining marks
        {0x591, 0x5F4},
        {0x600, 0x6FF},
        {0x700, 0x74F}, // Hebrew, Arabic (and its digits), Syriac
        {0x200B, 0x200F},
        {0x202A, 0x202E},
        {0x2066, 0x2069},
        {0x61C, 0x61C}, // zero-width, bidi controls
        {0x2000, 0x200A},
        {0x2028, 0x2029},
        {0x3000, 0x3000},
        {0xFEFF, 0xFEFF},
        {0x180E, 0x180E}, // spaces
        {0xFFFD, 0xFFFD},
        {0xFFFE, 0xFFFF},
        {0xFDD0, 0xFDEF}, // replacement, noncharacters
        {0xD800, 0xDFFF}, // lone surrogates
        {0x378, 0x379},
        {0x380, 0x383},
        {0x2FE0, 0x2FEF},
        {0x50000, 0x5FFFD}, // unassigned
        {0x4E00, 0x9FFF},
        {0xFF01, 0xFF5E},
        {0xAC00, 0xD7A3}, // CJK, fullwidth forms, Hangul
        {0x1F600, 0x1F64F},
        {0x1F1E6, 0x1F1FF},
        {0x1F3FB, 0x1F3FF},
        {0x200D, 0x200D}, // emoji
        {0x1D400, 0x1D7FF},
        {0x10400, 0x1044F},
        {0x20000, 0x2A6DF}, // math letters and digits, Deseret, CJK B
        {0xE0000, 0xE007F},
        {0xE0100, 0xE01EF},
        {0xF0000, 0x10FFFD}, // tags, variation selectors, private use
        {0x1FFFE, 0x1FFFF},
        {0x10FFFE, 0x10FFFF} // noncharacters past the first plane
    };

    /** {@link #ANY} without ASCII and the C0 controls: text that leaves a subject's structure as it is. */
    private static final int[][] FOREIGN = foreign();

    private static final Normalizer.Form[] FORMS = Normalizer.Form.values();

    private HostileText() {}

    private static int[][] foreign() {
        int n = 0;
        int[][] out = new int[ANY.length][];
        for (int[] range : ANY) {
            if (range[0] >= 0x7F) {
                out[n++] = range;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** A code point of any kind. */
    public static int codePoint(Random r) {
        return draw(r, ANY);
    }

    private static int draw(Random r, int[][] ranges) {
        int[] range = ranges[r.nextInt(ranges.length)];
        return range[0] + r.nextInt(range[1] - range[0] + 1);
    }

    /**
     * Up to {@code maxCodePoints} code points of any kind but TAB, CR and LF (which end an overview
     * field or line), as drawn or in a normalization form.
     */
    public static String text(Random r, int maxCodePoints) {
        return text(r, maxCodePoints, ANY);
    }

    /** Like {@link #text}, without ASCII and the C0 controls, at least one code point. */
    public static String foreign(Random r, int maxCodePoints) {
        return text(r, Math.max(1, maxCodePoints), FOREIGN, 1);
    }

    private static String text(Random r, int maxCodePoints, int[][] ranges) {
        return text(r, maxCodePoints, ranges, 0);
    }

    private static String text(Random r, int maxCodePoints, int[][] ranges, int min) {
        int n = min + r.nextInt(maxCodePoints - min + 1);
        StringBuilder sb = new StringBuilder(n * 2);
        for (int i = 0; i < n; i++) {
            int cp = draw(r, ranges);
            sb.appendCodePoint(cp == '\t' || cp == '\r' || cp == '\n' ? ' ' : cp);
        }
        int form = r.nextInt(FORMS.length * 2);
        return form < FORMS.length ? Normalizer.normalize(sb, FORMS[form]) : sb.toString();
    }

    /** {@code text} as UTF-8, a lone surrogate as the three bytes of its code point (which UTF-8 forbids). */
    public static byte[] utf8(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() * 3);
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (cp < 0x80) {
                out.write(cp);
            } else if (cp < 0x800) {
                out.write(0xC0 | (cp >> 6));
                out.write(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                out.write(0xE0 | (cp >> 12));
                out.write(0x80 | ((cp >> 6) & 0x3F));
                out.write(0x80 | (cp & 0x3F));
            } else {
                out.write(0xF0 | (cp >> 18));
                out.write(0x80 | ((cp >> 12) & 0x3F));
                out.write(0x80 | ((cp >> 6) & 0x3F));
                out.write(0x80 | (cp & 0x3F));
            }
        }
        return out.toByteArray();
    }

    /** One byte sequence that is not UTF-8 (and holds no TAB, CR or LF). */
    public static byte[] invalid(Random r) {
        return switch (r.nextInt(8)) {
            case 0 ->
                new byte[] {(byte) 0xED, (byte) (0xA0 + r.nextInt(32)), (byte) (0x80 + r.nextInt(64))}; // surrogate
            case 1 -> new byte[] {(byte) 0xC0, (byte) 0xAF}; // overlong '/'
            case 2 -> new byte[] {(byte) 0xE0, (byte) 0x80, (byte) 0xA2}; // overlong '"'
            case 3 -> new byte[] {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0xAF}; // overlong, four bytes
            case 4 -> new byte[] {(byte) 0xE2, (byte) 0x82}; // truncated
            case 5 -> new byte[] {(byte) (0x80 + r.nextInt(64))}; // a continuation alone
            case 6 -> new byte[] {(byte) (0xF8 + r.nextInt(8))}; // never in UTF-8
            default -> new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}; // past U+10FFFF
        };
    }

    /** {@code text} as UTF-8 with {@code count} invalid sequences spliced in at random places between code points. */
    public static byte[] corrupted(Random r, String text, int count) {
        byte[] clean = utf8(text);
        ByteArrayOutputStream out = new ByteArrayOutputStream(clean.length + count * 4);
        int[] cuts = new int[count];
        for (int k = 0; k < count; k++) {
            cuts[k] = r.nextInt(text.length() + 1);
        }
        java.util.Arrays.sort(cuts);
        int k = 0;
        for (int i = 0; i <= text.length(); ) {
            while (k < count && cuts[k] <= i) {
                out.writeBytes(invalid(r));
                k++;
            }
            if (i == text.length()) {
                break;
            }
            int cp = text.codePointAt(i);
            int n = Character.charCount(cp);
            out.writeBytes(utf8(text.substring(i, i + n)));
            i += n;
        }
        return out.toByteArray();
    }
}
