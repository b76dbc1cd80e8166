package headway.simulator;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.TextStyle;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * One simulated group's articles. Invariant: every article is a pure function of (seed, group
 * name, article number) plus a compact per-post layout (one entry per post: its first article
 * number, part count and number of parts actually posted), so memory grows with posts, not
 * articles, and {@link Truth} can recompute exactly what OVER serves. Article numbers run 1..high
 * without holes in the numbering; a <em>gap</em> is a number whose article no longer exists, a
 * <em>missing part</em> is a part that was never posted and so got no number at all, and a
 * <em>malformed</em> article is served with a broken overview line. The layout only grows.
 */
final class ArticleGenerator {
    private static final String DOMAIN = "sim.test";
    private static final long BASE_EPOCH = LocalDate.of(2026, 6, 1).toEpochDay() * 86_400L;
    private static final long SECONDS_PER_ARTICLE = 7;
    private static final String[] WORDS = {
        "Blue", "Planet", "Night", "River", "Winter", "Summer", "Story", "Déjà", "Vu", "Über", "Café", "Black",
        "Mirror", "Silent", "Harbor", "Crème", "Brûlée", "Lost", "City", "Ocean", "Dawn", "Iron", "Garden", "Echo",
        "Señor", "Frozen", "Signal", "Empire", "Nord", "Fjörd"
    };
    private static final String[] QUALITY = {
        "1080p.WEB-DL.x264",
        "720p.HDTV.x264",
        "2160p.BluRay.x265",
        "FLAC",
        "MP3.320",
        "DVDRip.XviD",
        "1080p.BluRay.DTS",
        "PDF.eBook"
    };
    private static final long SALT_PARTS = 0x1b873593L;
    private static final long SALT_MISSING = 0x2d4f6a1bL;
    private static final long SALT_GAP = 0x38b34ae5L;
    private static final long SALT_MALFORMED = 0x4c8fa7d1L;
    private static final long SALT_BYTES = 0x5e2d58d8L;
    private static final long SALT_NAME = 0x6a09e667L;
    private static final long SALT_POISON = 0x7b3f1a2dL;

    final NewsSimulator.GroupSpec spec;
    private final long tag;
    private final byte[] idSuffix;
    private final byte[] xrefPrefix;
    private volatile Layout layout = new Layout(new long[16], new long[16], new int[16], new int[16], 0, 0);
    /** The high-water mark; the low one is always 1. */
    volatile long high;

    ArticleGenerator(NewsSimulator.GroupSpec spec) {
        this.spec = spec;
        long h = spec.seed() * 0x9E3779B97F4A7C15L;
        for (int i = 0; i < spec.name().length(); i++) {
            h = (h ^ spec.name().charAt(i)) * 0x100000001b3L;
        }
        this.tag = mix(h);
        this.idSuffix = ("." + Long.toHexString(tag) + "@" + DOMAIN + ">").getBytes(StandardCharsets.ISO_8859_1);
        this.xrefPrefix = ("Xref: " + DOMAIN + " " + spec.name() + ":").getBytes(StandardCharsets.ISO_8859_1);
        post(spec.initialArticles());
    }

    private long hash(long salt, long x) {
        return mix(tag ^ mix(x * 0x9E3779B97F4A7C15L + salt));
    }

    private double unit(long salt, long x) {
        return (hash(salt, x) >>> 11) * 0x1.0p-53;
    }

    /** What article {@code n} (1..high) is. */
    ArticleKind kind(long n) {
        if (spec.gapFraction() > 0 && unit(SALT_GAP, n) < spec.gapFraction()) {
            return ArticleKind.GAP;
        }
        if (spec.malformedFraction() > 0 && unit(SALT_MALFORMED, n) < spec.malformedFraction()) {
            return ArticleKind.MALFORMED;
        }
        if (spec.poisonFraction() > 0 && unit(SALT_POISON, n) < spec.poisonFraction()) {
            return ArticleKind.POISON;
        }
        return ArticleKind.VALID;
    }

    /** How poison article {@code n} is served. */
    PoisonKind poisonKind(long n) {
        PoisonKind[] kinds = PoisonKind.values();
        return kinds[(int) Long.remainderUnsigned(hash(SALT_POISON + 1, n), kinds.length)];
    }

    private int partsOf(long post) {
        int span = spec.maxParts() - spec.minParts() + 1;
        return spec.minParts() + (int) Long.remainderUnsigned(hash(SALT_PARTS, post), span);
    }

    private boolean partMissing(long post, int slot) {
        return spec.missingPartFraction() > 0
                && unit(SALT_MISSING + post * 0x632BE59BD9B4E019L, slot) < spec.missingPartFraction();
    }

    /** Appends {@code n} new articles and returns the new high-water mark. */
    synchronized long post(long n) {
        long target = high + n;
        Layout l = layout;
        if (l.total < target) {
            long[] ids = l.postId;
            long[] first = l.first;
            int[] parts = l.parts;
            int[] present = l.present;
            int count = l.count;
            long total = l.total;
            long nextPost = count == 0 ? 0 : ids[count - 1] + 1;
            while (total < target) {
                int p = partsOf(nextPost);
                int slots = p * spec.filesPerPost();
                int here = 0;
                for (int s = 0; s < slots; s++) {
                    if (!partMissing(nextPost, s)) {
                        here++;
                    }
                }
                if (here > 0) {
                    if (count == ids.length) {
                        int cap = count * 2;
                        ids = Arrays.copyOf(ids, cap);
                        first = Arrays.copyOf(first, cap);
                        parts = Arrays.copyOf(parts, cap);
                        present = Arrays.copyOf(present, cap);
                    }
                    ids[count] = nextPost;
                    first[count] = total + 1;
                    parts[count] = p;
                    present[count] = here;
                    count++;
                    total += here;
                }
                nextPost++;
            }
            layout = new Layout(ids, first, parts, present, count, total);
        }
        high = target;
        return target;
    }

    /** A cursor at {@code article} over the layout as it is now. */
    Cursor cursorAt(long article) {
        Cursor c = new Cursor(this, layout);
        c.seek(article);
        return c;
    }

    /** Posts in article order: post id, first article number, parts per file, parts actually posted. */
    private record Layout(long[] postId, long[] first, int[] parts, int[] present, int count, long total) {}

    /** Walks articles in order, caching what is shared by a post or a file. */
    static final class Cursor {
        private final ArticleGenerator g;
        private final Layout l;
        private int index = -1;
        private long post;
        private int parts;
        private int slot;
        private long n;
        private int file = -1;
        private String release;
        private String base;
        private int shape;
        private byte[] from;
        private byte[] subjectPrefix;
        private byte[] partSuffix;
        private long day = Long.MIN_VALUE;
        private byte[] dayPrefix;

        private Cursor(ArticleGenerator g, Layout l) {
            this.g = g;
            this.l = l;
        }

        private void seek(long article) {
            int lo = 0;
            int hi = l.count() - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (l.first()[mid] <= article) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            loadPost(lo);
            long skip = article - l.first()[lo];
            slot = firstPresent(0);
            for (long i = 0; i < skip; i++) {
                slot = firstPresent(slot + 1);
            }
            n = article;
            loadFile();
        }

        void advance() {
            n++;
            if (n >= l.first()[index] + l.present()[index]) {
                loadPost(index + 1);
                slot = firstPresent(0);
            } else {
                slot = firstPresent(slot + 1);
            }
            loadFile();
        }

        private int firstPresent(int from) {
            int s = from;
            while (g.partMissing(post, s)) {
                s++;
            }
            return s;
        }

        private void loadPost(int i) {
            index = i;
            post = l.postId()[i];
            parts = l.parts()[i];
            file = -1;
            long h = g.hash(SALT_NAME, post);
            shape = (int) Long.remainderUnsigned(h, 3);
            StringBuilder sb = new StringBuilder();
            int words = 2 + (int) ((h >>> 8) & 1) + (int) ((h >>> 9) & 1);
            for (int w = 0; w < words; w++) {
                sb.append(WORDS[(int) ((h >>> (12 + 5 * w)) % WORDS.length)]).append('.');
            }
            if (shape == 1) {
                sb.append(String.format(Locale.ROOT, "S%02dE%02d.", 1 + (h >>> 34) % 9, 1 + (h >>> 40) % 24));
            } else {
                sb.append(1990 + (h >>> 34) % 36).append('.');
            }
            sb.append(QUALITY[(int) ((h >>> 46) % QUALITY.length)])
                    .append("-GRP")
                    .append((char) ('A' + (h >>> 52) % 26));
            release = sb.toString();
            base = release.toLowerCase(Locale.ROOT);
            String poster = "poster" + ((h >>> 56) % 40);
            from = (poster + " <" + poster + "@" + DOMAIN + ">").getBytes(StandardCharsets.ISO_8859_1);
            partSuffix = ("/" + parts + ")").getBytes(StandardCharsets.ISO_8859_1);
        }

        private void loadFile() {
            int f = slot / parts;
            if (f == file) {
                return;
            }
            file = f;
            int files = g.spec.filesPerPost();
            int width = Math.max(2, Integer.toString(files).length());
            String pos = pad(f + 1, width) + "/" + pad(files, width);
            String s = switch (shape) {
                case 0 -> "[" + pos + "] - \"" + base + ".part" + pad(f + 1, width) + ".rar\" yEnc (";
                case 1 ->
                    release + " - [" + pos + "] - \"" + base + (f == 0 ? ".rar" : ".r" + pad(f - 1, 2)) + "\" yEnc (";
                default ->
                    "(" + release.replace('.', ' ') + ") [" + (f + 1) + "/" + files + "] - \"" + base
                            + (f == 0 ? ".nfo" : f == 1 ? ".sfv" : ".7z." + pad(f - 1, 3)) + "\" yEnc (";
            };
            subjectPrefix = s.getBytes(StandardCharsets.UTF_8);
        }

        int part() {
            return slot % parts + 1;
        }

        long bytes() {
            return 400_000 + Long.remainderUnsigned(g.hash(SALT_BYTES, n), 400_001);
        }

        String subject() {
            return new String(subjectPrefix, StandardCharsets.UTF_8) + part() + "/" + parts + ")";
        }

        String messageId() {
            return "<" + n + new String(g.idSuffix, StandardCharsets.ISO_8859_1);
        }

        /** Appends this article's overview line (CRLF-terminated), or a malformed variant of it. */
        void render(OverviewBuffer b, boolean malformed) {
            b.num(n).tab().bytes(subjectPrefix).num(part()).bytes(partSuffix);
            if (malformed) {
                switch ((int) Long.remainderUnsigned(g.hash(SALT_MALFORMED + 1, n), 3)) {
                    case 0 -> b.crlf();
                    case 1 -> {
                        b.put((byte) ' ').bytes(from).put((byte) ' ');
                        date(b);
                        b.crlf();
                    }
                    default -> {
                        b.tab().bytes(from).tab();
                        date(b);
                        b.crlf();
                    }
                }
                return;
            }
            long bytes = bytes();
            b.tab().bytes(from).tab();
            date(b);
            b.tab()
                    .put((byte) '<')
                    .num(n)
                    .bytes(g.idSuffix)
                    .tab()
                    .tab()
                    .num(bytes)
                    .tab()
                    .num(bytes / 128 + 3)
                    .tab()
                    .bytes(g.xrefPrefix)
                    .num(n)
                    .crlf();
        }

        /** Appends this article's overview line served as poison of {@code kind}. */
        void renderPoison(OverviewBuffer b, PoisonKind kind) {
            Random hostile = new Random(g.hash(SALT_POISON + 2, n));
            b.num(n).tab();
            if (kind == PoisonKind.NUL_SUBJECT) {
                b.put((byte) 0);
            }
            if (kind == PoisonKind.UNICODE_SUBJECT) {
                b.bytes(HostileText.utf8(HostileText.foreign(hostile, 6) + " "));
            }
            if (kind == PoisonKind.INVALID_UTF8_SUBJECT) {
                b.bytes(HostileText.invalid(hostile)).put((byte) ' ');
            }
            b.bytes(subjectPrefix).num(part()).bytes(partSuffix);
            if (kind == PoisonKind.LONG_SUBJECT) {
                b.ascii(" " + "x".repeat(4000));
            }
            b.tab();
            if (kind == PoisonKind.CONTROL_POSTER) {
                b.put((byte) 1).put((byte) 0).put((byte) 0x7f);
            }
            if (kind == PoisonKind.UNICODE_POSTER) {
                b.bytes(HostileText.utf8(HostileText.foreign(hostile, 12) + " "));
            }
            b.bytes(from);
            if (kind == PoisonKind.LONG_POSTER) {
                b.ascii(" (" + "y".repeat(3000) + ")");
            }
            b.tab();
            if (kind == PoisonKind.BAD_DATE) {
                b.ascii("the day after tomorrow");
            } else {
                date(b);
            }
            b.tab();
            if (kind == PoisonKind.LONG_MESSAGE_ID) {
                b.put((byte) '<').ascii("z".repeat(300)).num(n).bytes(g.idSuffix);
            } else if (kind == PoisonKind.UNICODE_MESSAGE_ID) {
                b.put((byte) '<')
                        .num(n)
                        .bytes(HostileText.utf8(unicodeId(hostile)))
                        .bytes(g.idSuffix);
            } else if (kind != PoisonKind.NO_MESSAGE_ID) {
                b.put((byte) '<').num(n).bytes(g.idSuffix);
            }
            long bytes = bytes();
            b.tab()
                    .tab()
                    .num(bytes)
                    .tab()
                    .num(bytes / 128 + 3)
                    .tab()
                    .bytes(g.xrefPrefix)
                    .num(n)
                    .crlf();
        }

        /**
         * What a {@link PoisonKind#UNICODE_MESSAGE_ID} holds after its number: text from all of
         * Unicode but ASCII, less what a message-id cannot hold around it (white space, which
         * {@code strip} would take from its ends).
         */
        private static String unicodeId(Random hostile) {
            StringBuilder sb = new StringBuilder();
            String text = HostileText.foreign(hostile, 6);
            for (int i = 0; i < text.length(); ) {
                int cp = text.codePointAt(i);
                i += Character.charCount(cp);
                if (!Character.isWhitespace(cp) && !Character.isSpaceChar(cp)) {
                    sb.appendCodePoint(cp);
                }
            }
            return sb.toString();
        }

        /** The message-id this article is served with, without angle brackets (none: empty). */
        String servedMessageId(PoisonKind kind) {
            String suffix = new String(g.idSuffix, StandardCharsets.ISO_8859_1);
            String id = suffix.substring(0, suffix.length() - 1);
            if (kind == null) {
                return n + id;
            }
            return switch (kind) {
                case NO_MESSAGE_ID -> "";
                case LONG_MESSAGE_ID -> "z".repeat(300) + n + id;
                case UNICODE_MESSAGE_ID -> n + unicodeId(new Random(g.hash(SALT_POISON + 2, n))) + id;
                default -> n + id;
            };
        }

        private void date(OverviewBuffer b) {
            long epoch = BASE_EPOCH + n * SECONDS_PER_ARTICLE;
            long d = Math.floorDiv(epoch, 86_400L);
            if (d != day) {
                day = d;
                LocalDate date = LocalDate.ofEpochDay(d);
                dayPrefix = (date.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ROOT) + ", "
                                + pad(date.getDayOfMonth(), 2) + " "
                                + date.getMonth().getDisplayName(TextStyle.SHORT, Locale.ROOT) + " " + date.getYear()
                                + " ")
                        .getBytes(StandardCharsets.ISO_8859_1);
            }
            int sec = (int) (epoch - d * 86_400L);
            b.bytes(dayPrefix)
                    .two(sec / 3600)
                    .put((byte) ':')
                    .two(sec / 60 % 60)
                    .put((byte) ':')
                    .two(sec % 60)
                    .ascii(" +0000");
        }

        private static String pad(int v, int width) {
            String s = Integer.toString(v);
            return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
        }
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
