package headway.simulator;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.TextStyle;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;

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
    private static final long SALT_BODY = 0x8c2b7d45L;
    private static final long SALT_DATA = 0x9d4e1f63L;
    /** Decoded bytes in each part of a generated file: bodies stay cheap to make, whatever OVER's {@code :bytes} say. */
    static final int PART_BYTES = 64 * 1024;

    final NewsSimulator.GroupSpec spec;
    private final long tag;
    private final byte[] idSuffix;
    private final byte[] xrefPrefix;
    private volatile Layout layout = new Layout(new long[16], new long[16], new int[16], new int[16], 0, 0);
    /** The high-water mark; the low one is always 1. */
    volatile long high;
    /** Posted articles by number: a group holds either these or generated articles, never both. */
    private final Map<Long, Article> stored = new ConcurrentHashMap<>();

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
        if (!stored.isEmpty()) {
            return ArticleKind.VALID;
        }
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

    /** How article {@code n}'s body is spoiled, or null when it is served whole; posted articles are served as posted. */
    HostileBody hostileBody(long n) {
        if (spec.hostileBodyFraction() == 0 || !stored.isEmpty() || unit(SALT_BODY, n) >= spec.hostileBodyFraction()) {
            return null;
        }
        HostileBody[] kinds = HostileBody.values();
        return kinds[(int) Long.remainderUnsigned(hash(SALT_BODY + 1, n), kinds.length)];
    }

    /** The posted article {@code n}, or null when the group's articles are generated. */
    Article stored(long n) {
        return stored.get(n);
    }

    /** True when the group holds posted articles. */
    boolean holdsPosted() {
        return !stored.isEmpty();
    }

    /** Posted article {@code n}'s head as served: its headers and an Xref line. */
    byte[] storedHead(long n) {
        byte[] head = stored.get(n).head();
        OverviewBuffer b = new OverviewBuffer(head.length + 64);
        b.bytes(head).bytes(xrefPrefix).num(n).crlf();
        return Arrays.copyOf(b.a, b.len);
    }

    /** Posted article {@code n}'s size as ARTICLE serves it, not dot-stuffed: RFC 3977's {@code :bytes}. */
    long storedBytes(long n) {
        return storedHead(n).length + 2L + stored.get(n).body().length;
    }

    /** Appends posted article {@code n}'s overview line, TABs in its fields served as spaces. */
    void renderStored(OverviewBuffer b, long n) {
        Article a = stored.get(n);
        b.num(n).tab();
        field(b, a.header("Subject")).tab();
        field(b, a.header("From")).tab();
        field(b, a.header("Date")).tab();
        b.bytes(a.messageId().getBytes(StandardCharsets.UTF_8)).tab();
        field(b, a.header("References")).tab();
        b.num(storedBytes(n))
                .tab()
                .num(a.lines())
                .tab()
                .bytes(xrefPrefix)
                .num(n)
                .crlf();
    }

    private static OverviewBuffer field(OverviewBuffer b, String value) {
        return value == null ? b : b.bytes(value.replace('\t', ' ').getBytes(StandardCharsets.UTF_8));
    }

    /** Stores {@code a} as the next article and returns its number. */
    synchronized long postArticle(Article a) {
        if (high > stored.size()) {
            throw new IllegalStateException("group " + spec.name() + " holds " + high
                    + " generated articles: post articles to a group made with initialArticles 0");
        }
        stored.put(high + 1, a);
        high++;
        return high;
    }

    /**
     * The number of the generated article served with message-id {@code id} (with angle brackets),
     * or -1; the served form of poison ids is matched too.
     */
    long generatedNumber(String id) {
        if (!stored.isEmpty() || !id.endsWith(new String(idSuffix, StandardCharsets.ISO_8859_1))) {
            return -1;
        }
        int i = 1;
        while (i < id.length() && id.charAt(i) == 'z') {
            i++;
        }
        int digits = i;
        while (digits < id.length() && digits - i < 12 && Character.isDigit(id.charAt(digits))) {
            digits++;
        }
        if (digits == i) {
            return -1;
        }
        long n = Long.parseLong(id.substring(i, digits));
        if (n < 1 || n > high || kind(n) == ArticleKind.GAP) {
            return -1;
        }
        PoisonKind p = kind(n) == ArticleKind.POISON ? poisonKind(n) : null;
        String served = cursorAt(n).servedMessageId(p);
        return id.equals("<" + served + ">") ? n : -1;
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
        if (n > 0 && !stored.isEmpty()) {
            throw new IllegalStateException(
                    "group " + spec.name() + " holds posted articles: generated and posted articles do not mix");
        }
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

        /** The file name the subject gives, between its quotes. */
        String fileName() {
            String s = new String(subjectPrefix, StandardCharsets.UTF_8);
            int open = s.indexOf('"');
            return s.substring(open + 1, s.indexOf('"', open + 1));
        }

        /**
         * This article's yEnc part: {@link #PART_BYTES} bytes of its file, a pure function of seed,
         * post, file and part, spoiled as {@code hostile} says ({@link HostileBody#ENDLESS} is the
         * server's to write: this gives its first lines).
         */
        byte[] body(HostileBody hostile) {
            int part = part();
            int from = (part - 1) * PART_BYTES;
            long fileSize = (long) parts * PART_BYTES;
            byte[] file = new byte[part == parts ? parts * PART_BYTES : from + PART_BYTES];
            long fileCrc = -1;
            if (part == parts) {
                for (int p = 1; p <= parts; p++) {
                    fill(file, p);
                }
                CRC32 crc = new CRC32();
                crc.update(file);
                fileCrc = crc.getValue();
            } else {
                fill(file, part);
            }
            YencWriter.Hostile h = hostile == null
                    ? YencWriter.Hostile.NONE
                    : switch (hostile) {
                        case TRUNCATED, ENDLESS -> YencWriter.Hostile.TRUNCATED;
                        case WRONG_CRC -> YencWriter.Hostile.WRONG_CRC;
                        case HUGE_SIZE -> YencWriter.Hostile.HUGE_SIZE;
                    };
            return YencWriter.part(file, from, from + PART_BYTES, fileSize, fileName(), part, parts, fileCrc, h);
        }

        private void fill(byte[] file, int part) {
            byte[] chunk = new byte[PART_BYTES];
            new SplittableRandom(g.hash(SALT_DATA + post * 0x632BE59BD9B4E019L, (long) slot - part() + part))
                    .nextBytes(chunk);
            System.arraycopy(chunk, 0, file, (part - 1) * PART_BYTES, PART_BYTES);
        }

        /**
         * This article's head, built from the overview line it is served with (poison included, a
         * malformed line's well-formed twin), so HEAD and OVER always agree.
         */
        byte[] head(ArticleKind kind, PoisonKind poison) {
            OverviewBuffer line = new OverviewBuffer(512);
            if (kind == ArticleKind.POISON) {
                renderPoison(line, poison);
            } else {
                render(line, false);
            }
            int[] tabs = new int[9];
            int t = 0;
            for (int i = 0; i < line.len - 2 && t < 8; i++) {
                if (line.a[i] == '\t') {
                    tabs[t++] = i;
                }
            }
            tabs[8] = line.len - 2;
            OverviewBuffer h = new OverviewBuffer(1024);
            h.ascii("Path: " + DOMAIN + "!not-for-mail").crlf();
            field(h.ascii("From: "), line, tabs, 1).crlf();
            h.ascii("Newsgroups: " + g.spec.name()).crlf();
            field(h.ascii("Subject: "), line, tabs, 0).crlf();
            field(h.ascii("Date: "), line, tabs, 2).crlf();
            if (tabs[4] > tabs[3] + 1) {
                field(h.ascii("Message-ID: "), line, tabs, 3).crlf();
            }
            field(h, line, tabs, 7).crlf();
            return Arrays.copyOf(h.a, h.len);
        }

        /** Appends overview field {@code i + 1} of {@code line}: the bytes after tab {@code i}, up to the next. */
        private static OverviewBuffer field(OverviewBuffer to, OverviewBuffer line, int[] tabs, int i) {
            int from = tabs[i] + 1;
            int len = tabs[i + 1] - from;
            to.bytes(Arrays.copyOfRange(line.a, from, from + len));
            return to;
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
