package headway.index;

import headway.overview.HeaderText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The headers of one batch that nothing cataloged: no rule or parser result (unmatched), or a
 * list's verdict (rejected). Each is kept as its article number and its subject's shape, so an
 * operator sees what the index drops without the store keeping every subject. A shape is the
 * subject with each run of digits written {@code #}, each run of letters (any script) {@code a},
 * each run of white space one space, and at most {@value #SHAPE_LENGTH} characters: {@code [01/12] -
 * "Show.S01E02.part01.rar" yEnc (1/50)} is {@code [#/#] - "a.a#a#.a#.a" a (#/#)}. At most
 * {@value #SHAPES_PER_BATCH} distinct shapes are kept per batch; misses past that are counted
 * without a shape, and at most {@value #MAX_MISSES} misses in all. Not thread-safe: the window's thread fills it.
 */
public final class Misses {

    /** The longest shape kept, because a shape is a key and long subjects differ only in their tails. */
    public static final int SHAPE_LENGTH = 120;

    /** The longest example subject kept with a shape. */
    public static final int EXAMPLE_LENGTH = 300;

    static final int SHAPES_PER_BATCH = 1000;

    /** The most misses held, so a window that nobody drains (a benchmark, a tool) stays bounded. */
    static final int MAX_MISSES = 1_000_000;

    /** One distinct shape of a batch, with the first subject seen of it and why it was dropped ("" when unmatched). */
    public record Shape(String shape, String example, String reason) {}

    private final List<Shape> shapes = new ArrayList<>();
    private final Map<String, Integer> ordinals = new HashMap<>();
    private long[] articles = new long[16];
    /** Per miss, its shape's index in {@link #shapes}, or -1 when the batch had too many shapes. */
    private int[] shapeOf = new int[16];

    private boolean[] rejected = new boolean[16];
    private int size;

    /** A header nothing cataloged, as a batch keeps it: its subject's shape, the subject as an example, and why. */
    record Miss(String shape, String example, String reason) {}

    /** The miss of a header with {@code subject}; {@code reason} is the list's verdict, or null when nothing matched. */
    static Miss miss(String subject, String reason) {
        return new Miss(shape(subject), HeaderText.cut(subject, EXAMPLE_LENGTH), reason);
    }

    /** Adds one miss; {@code reason} is the list's verdict, or null when nothing matched. */
    void add(long article, String subject, String reason) {
        add(article, miss(subject, reason));
    }

    /** Adds the miss of article {@code article}. */
    void add(long article, Miss m) {
        if (size >= MAX_MISSES) {
            return;
        }
        Integer ordinal = ordinals.get(m.shape());
        if (ordinal == null && shapes.size() < SHAPES_PER_BATCH) {
            ordinal = shapes.size();
            ordinals.put(m.shape(), ordinal);
            shapes.add(new Shape(m.shape(), m.example(), m.reason() == null ? "" : m.reason()));
        }
        if (size == articles.length) {
            articles = Arrays.copyOf(articles, size * 2);
            shapeOf = Arrays.copyOf(shapeOf, size * 2);
            rejected = Arrays.copyOf(rejected, size * 2);
        }
        articles[size] = article;
        shapeOf[size] = ordinal == null ? -1 : ordinal;
        rejected[size] = m.reason() != null;
        size++;
    }

    /** How many misses. */
    public int size() {
        return size;
    }

    /** The distinct shapes, in the order first seen. */
    public List<Shape> shapes() {
        return List.copyOf(shapes);
    }

    /** The article number of miss {@code i}. */
    public long article(int i) {
        return articles[i];
    }

    /** The index in {@link #shapes()} of miss {@code i}'s shape, or -1 when it has none. */
    public int shapeOf(int i) {
        return shapeOf[i];
    }

    /** True when miss {@code i} was rejected by a list, false when nothing matched it. */
    public boolean rejected(int i) {
        return rejected[i];
    }

    /** How many of the misses a list rejected. */
    public long rejectedCount() {
        long n = 0;
        for (int i = 0; i < size; i++) {
            if (rejected[i]) {
                n++;
            }
        }
        return n;
    }

    /** The shape of a subject, as the class comment defines it. */
    public static String shape(String subject) {
        StringBuilder sb = new StringBuilder(Math.min(subject.length(), SHAPE_LENGTH));
        char last = 0;
        for (int i = 0; i < subject.length() && sb.length() < SHAPE_LENGTH; ) {
            int cp = subject.codePointAt(i);
            i += Character.charCount(cp);
            char c;
            if ((cp >= '0' && cp <= '9') || Character.isDigit(cp)) {
                c = '#';
            } else if (Character.isLetter(cp)) {
                c = 'a';
            } else if (Character.isWhitespace(cp) || Character.isISOControl(cp)) {
                c = ' ';
            } else if (Character.isBmpCodePoint(cp)) {
                c = (char) cp;
                last = 0;
                sb.append(c);
                continue;
            } else {
                c = '?';
            }
            if (c != last) {
                sb.append(c);
            }
            last = c;
        }
        return sb.toString().strip();
    }
}
