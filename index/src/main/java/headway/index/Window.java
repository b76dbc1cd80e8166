package headway.index;

import headway.overview.HeaderFault;
import headway.overview.OverviewLine;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The binaries of one newsgroup still being assembled, fed headers in article order across
 * ranges. A binary is keyed by group, poster, file name and total parts; it leaves the window
 * (into the outbox that {@link #drain()} empties) when every part is present, or as incomplete
 * when its first article falls more than {@code maxAgeArticles} behind the newest article seen.
 * Invariants: a part is held once (a repeat is counted, not added), and the open binaries are
 * kept in the order they were first seen, so aging looks only at the head; the cost is that
 * headers fed far out of article order age late, and that every open segment sits in memory
 * (about 200 bytes each with a 50-character message-id). {@link #writeTo} and {@link #readFrom}
 * carry the open binaries across holders in the format of {@link WindowCodec}. A post without an
 * article counter is held as part 1 of 1. Every file of one post gets one spelling of its release
 * name: a release whose name differs from one the same poster used before only in case or in
 * {@code . _ -} and spaces (the {@code .nfo} named {@code Show.S01E01}, the rars {@code
 * show.s01e01}) takes the first spelling, so the catalog, which keys releases by exact name, holds
 * one release; the spellings of the last {@value #SPELLINGS} releases are remembered, and those of
 * a snapshot's open binaries are learnt back when it is read. The files of an obfuscated post,
 * each with a random name of its own, take the release of the post's first file ({@link Posts},
 * carried in the snapshot). A matched header the catalog cannot
 * take, and a header that could not be read at all (see {@link #accept}), is not added but put on
 * a list of rejects, and long names are keyed by a bounded form whose
 * whole text is put on a list of long names (see {@link Poison}); the holder drains both with the
 * binaries of each batch ({@link #drainRejected()}, {@link #drainLongNames()}), and a header fed
 * again puts its entries on them again, because the catalog takes each once. Headers that nothing
 * cataloged are kept as {@link Misses} until the holder drains them with each batch
 * ({@link #drainMisses()}).
 */
public final class Window {

    private final String group;
    private final long maxAgeArticles;
    /** Reads a header's date: {@link HeaderDates#parse}. */
    private final Function<String, Instant> dates;

    private final LinkedHashMap<Key, Open> open = new LinkedHashMap<>();
    /** The obfuscated posts being read, which name the releases of their files ({@link Posts}). */
    private final Posts posts;

    private static final int SPELLINGS = 10_000;
    /** Poster and folded release name to the first spelling seen, least recently used first. */
    private final LinkedHashMap<String, String> spellings = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > SPELLINGS;
        }
    };

    /** Where {@link Poison#clean(OverviewLine, byte[])} reads a header's texts (the window is fed by one thread at a time). */
    private final byte[] scratch = new byte[SubjectParser.MAX_LENGTH + 1];

    /** The month of a header's date, remembered for the day of the last one (headers come in date order). */
    private final PostingMonth months = new PostingMonth();

    /** Where {@link #read} collects a header's long names before they are added with it. */
    private final Map<String, String> scratchNames = new HashMap<>();

    private final List<CompletedBinary> outbox = new ArrayList<>();
    private final List<RejectedArticle> rejectedOut = new ArrayList<>();
    private final Map<String, String> longNames = new LinkedHashMap<>();
    private Misses misses = new Misses();
    private long newestArticle = -1;
    /** No article of the group past this is in the catalog but what this window handed over; MAX_VALUE until told. */
    private long catalogHoldsUpTo = Long.MAX_VALUE;
    /** The first article of the oldest open binary (the head of {@link #open}), or MAX_VALUE when none is open: aging looks at it alone. */
    private long headFirst = Long.MAX_VALUE;

    private long segments;
    private long accepted;
    private long unmatched;
    private long rejected;
    private long duplicates;

    /** Sizes and counters: what is open now, and what was fed since the window was made (snapshots keep them). */
    public record Stats(int binaries, long segments, long accepted, long unmatched, long rejected, long duplicates) {}

    /**
     * The version of how this build keys a header's binary beyond what a rule set says: the
     * built-in subject parser, the defaults for a missing counter and the bounds on names. Bump
     * it with any change that keys some header differently; {@code KeyingTest} fails until the
     * fingerprint of the corpus's keys and this number are updated together. The catalog treats
     * writes of two keyings like writes of two rule versions (see {@code Placements}), so a redo
     * or re-index after an upgrade moves articles to their new keys instead of cataloging them
     * twice.
     */
    public static final int KEYING = 2;

    /**
     * An open binary's key: poster, file name, total parts and the month its parts were posted in
     * ({@link PostingMonth}), because the catalog keeps a binary's parts of each month in a row of
     * that month's partition, and an article must land in the same row however the headers are cut
     * into writes. A file posted across a month boundary is two binaries here and two rows there.
     * Its hash leaves the poster out: every part of a file shares one file-name string (the rule
     * memo's), whose hash is computed once, where the poster is a new string per header whose hash
     * would be computed per header. Keys that share a file name and differ by poster meet in one
     * bucket; being comparable, they keep a crowded bucket a tree, so that posting one file name
     * under many posters cannot make look-ups linear.
     */
    record Key(String poster, String fileName, int totalParts, int month) implements Comparable<Key> {
        private static final Comparator<Key> ORDER = Comparator.comparing(Key::fileName)
                .thenComparing(Key::poster)
                .thenComparingInt(Key::totalParts)
                .thenComparingInt(Key::month);

        @Override
        public int hashCode() {
            return 31 * (31 * fileName.hashCode() + totalParts) + month;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k
                    && totalParts == k.totalParts
                    && month == k.month
                    && fileName.equals(k.fileName)
                    && poster.equals(k.poster);
        }

        @Override
        public int compareTo(Key other) {
            return ORDER.compare(this, other);
        }
    }

    static final class Open {
        final String releaseName;
        final int fileTotal;
        final String subject;
        final Instant posted;
        final long firstArticle;
        final int ruleVersion;
        long lastArticle;
        /** Changed since the catalog last got a copy (see {@link Window#changedOpen()}); true for a binary read from a snapshot. */
        boolean changed = true;
        /**
         * The catalog may hold a copy: it was opened by a header at or below the newest article the
         * window or the catalog had seen, a copy was written, or it was read from a snapshot.
         */
        boolean catalogMayHold = true;

        final Parts parts = new Parts();

        Open(
                String releaseName,
                int fileTotal,
                String subject,
                Instant posted,
                long firstArticle,
                long lastArticle,
                int ruleVersion) {
            this.releaseName = releaseName;
            this.fileTotal = fileTotal;
            this.subject = subject;
            this.posted = posted;
            this.firstArticle = firstArticle;
            this.lastArticle = lastArticle;
            this.ruleVersion = ruleVersion;
        }
    }

    /**
     * The segments of an open binary, sorted by part number and unique per part, in an array that
     * grows by doubling: parts mostly arrive in order, so adding one is an append, and a copy for
     * the catalog is one array copy (a TreeMap cost a node, a boxed key and a rebalance per part).
     */
    static final class Parts {
        private Segment[] segments = new Segment[8];
        private int size;

        int size() {
            return size;
        }

        /** Adds {@code s} in part order; false (and nothing added) when its part is already held. */
        boolean add(Segment s) {
            int at;
            if (size == 0 || segments[size - 1].part() < s.part()) {
                at = size;
            } else {
                at = find(s.part());
                if (at >= 0) {
                    return false;
                }
                at = -at - 1;
            }
            if (size == segments.length) {
                segments = Arrays.copyOf(segments, size * 2);
            }
            System.arraycopy(segments, at, segments, at + 1, size - at);
            segments[at] = s;
            size++;
            return true;
        }

        /** A live view in part order; whoever keeps it copies it ({@link CompletedBinary} does). */
        List<Segment> view() {
            return Arrays.asList(segments).subList(0, size);
        }

        private int find(int part) {
            int lo = 0;
            int hi = size - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                int p = segments[mid].part();
                if (p < part) {
                    lo = mid + 1;
                } else if (p > part) {
                    hi = mid - 1;
                } else {
                    return mid;
                }
            }
            return -(lo + 1);
        }
    }

    public Window(String group, long maxAgeArticles) {
        this(group, maxAgeArticles, HeaderDates::parse);
    }

    /** As above, reading a header's date with {@code dates} (tests make it fail). */
    Window(String group, long maxAgeArticles, Function<String, Instant> dates) {
        if (group == null || group.isBlank()) {
            throw new IllegalArgumentException("group must be a newsgroup name such as alt.binaries.test");
        }
        if (maxAgeArticles <= 0) {
            throw new IllegalArgumentException("maxAgeArticles must be positive, e.g. 500000; got " + maxAgeArticles);
        }
        this.group = group;
        this.maxAgeArticles = maxAgeArticles;
        this.dates = dates;
        this.posts = new Posts(maxAgeArticles);
    }

    public String group() {
        return group;
    }

    public long maxAgeArticles() {
        return maxAgeArticles;
    }

    /**
     * Tells the window that the catalog holds no binary of its group with an article past {@code
     * article} (the group's rule spans when it was taken), and that from now on only this window
     * writes the group's binaries. A binary then opened by a header past both that and every
     * article fed before, and never handed over since, leaves the window {@link
     * CompletedBinary#fresh() fresh}. A window never told marks nothing fresh.
     */
    public void catalogHoldsUpTo(long article) {
        catalogHoldsUpTo = article;
    }

    /** The newest article number fed so far, or -1. */
    public long newestArticle() {
        return newestArticle;
    }

    /**
     * Classifies one header and adds its segment; completed and aged binaries go to the outbox.
     * No header can fail this, whatever its bytes: the header is read, classified and keyed first
     * ({@link #read}), without changing the window, and only then added ({@link #apply}), which
     * looks at none of its text. A failure while it is read that {@link HeaderFault} lets one header
     * answer for puts the header on the list of rejects with a reason naming the failure and where
     * it was thrown, and leaves the window exactly as it was (no part of its segment added, nothing
     * on the lists of misses or long names); any other failure ends the caller's batch as before.
     */
    public void accept(OverviewLine served, RuleSet rules) {
        try {
            read(served, rules, pending);
        } catch (RuntimeException | Error e) {
            if (!HeaderFault.survivable(e)) {
                throw e;
            }
            rejectedOut.add(failed(served, e));
            return;
        }
        apply(pending);
        ageTo(newestArticle);
    }

    /**
     * What the window makes of {@code subject} from {@code poster}: their texts cleaned as {@link
     * #accept} cleans a header's ({@link Poison}), then classified by {@code rules}, which gives
     * {@link SubjectMatch.Unusable} for a subject over the bound or one it fails on (the window puts
     * such a header in the ledger). {@code headway rules test} says what the worker does through it.
     */
    public static SubjectMatch classify(RuleSet rules, String group, String poster, String subject) {
        return rules.match(group, Poison.clean(poster), Poison.clean(subject));
    }

    /**
     * What one header does to the window, as {@link #read} found it before anything changed: one
     * instance per window, filled anew for each header, because an object a header was a tenth of
     * what the window allocated.
     */
    private static final class Pending {
        /** The header goes to the ledger ({@link #entry}), is a miss ({@link #miss}), or is a segment of binary {@link #key}. */
        static final int REJECT = 0;

        static final int MISS = 1;
        static final int PART = 2;

        int kind;
        long article;
        RejectedArticle entry;
        Misses.Miss miss;
        /** The binary's key; {@link #existing} when it is open, else it is opened with the fields after it. */
        Key key;

        Open existing;
        Segment segment;
        String release;
        /** Poster and folded release name, which find the release's first spelling. */
        String spellingKey;
        /** The post a new obfuscated file belongs to ({@link Posts}), or null when its name groups it. */
        Posts.Key post;

        int fileNumber;

        int fileTotal;
        String subject;
        Instant posted;
        int ruleVersion;
        boolean unseen;
        /** The header's long names with their whole texts, or an empty map. */
        Map<String, String> longNames;
        /** When a new binary opens: the open binary of its file in the month before or after ({@link #sibling}), or null. */
        Open sibling;
    }

    private final Pending pending = new Pending();

    /**
     * Reads, classifies and keys one header into {@code out}, changing nothing in the window: every
     * piece of work on the header's text is here.
     */
    private void read(OverviewLine served, RuleSet rules, Pending out) {
        long article = served.article();
        out.article = article;
        OverviewLine line = Poison.clean(served, scratch); // as classify(), reading through the scratch buffer
        SubjectMatch match = rules.match(group, line.from(), line.subject());
        if (match instanceof SubjectMatch.Matched m) {
            String id = Poison.bareId(line.messageId());
            Instant posted = dates.apply(line.date());
            String poison = Poison.reason(id, line.date(), posted);
            if (poison != null) {
                out.kind = Pending.REJECT;
                out.entry = Poison.rejected(group, served, poison);
                return;
            }
            ParsedSubject p = m.subject();
            Map<String, String> names = scratchNames;
            names.clear();
            Key key = key(line.from(), p, names, months.of(posted));
            String release = Poison.bounded(p.releaseName(), names);
            Open existing = open.get(key);
            Open sibling = existing == null ? sibling(key) : null;
            out.post = existing == null
                            && sibling == null
                            && Posts.groups(Posts.obfuscated(release), p.fileNumber(), p.fileTotal())
                    ? new Posts.Key(key.poster(), p.fileTotal())
                    : null;
            out.fileNumber = p.fileNumber();
            out.spellingKey = existing == null && sibling == null && out.post == null
                    ? key.poster() + '\n' + ReleaseNames.fold(release)
                    : null;
            out.sibling = sibling;
            int part = p.part() >= 0 ? p.part() : 1;
            out.segment = new Segment(part, (int) Math.max(0, Math.min(Integer.MAX_VALUE, line.bytes())), id, article);
            out.longNames = names.isEmpty() ? Map.of() : Map.copyOf(names);
            out.key = key;
            out.existing = existing;
            out.release = release;
            // a post of no files ([01/0]) counts none: the catalog divides by the count (measured: division by zero)
            out.fileTotal = p.fileTotal() > 0 ? p.fileTotal() : -1;
            out.subject = line.subject();
            out.posted = posted;
            out.ruleVersion = rules.version();
            out.unseen = article > newestArticle && article > catalogHoldsUpTo;
            out.kind = Pending.PART;
        } else if (match instanceof SubjectMatch.Unusable u) {
            out.entry = Poison.rejected(group, served, u.reason());
            out.kind = Pending.REJECT;
        } else {
            out.miss = Misses.miss(line.subject(), match instanceof SubjectMatch.Rejected r ? r.reason() : null);
            out.kind = Pending.MISS;
        }
    }

    /** The ledger's entry for a header whose read failed with {@code e}; its excerpt too when that can be made. */
    private RejectedArticle failed(OverviewLine served, Throwable e) {
        String reason = HeaderFault.reason("reading the header", e);
        try {
            return Poison.rejected(group, served, reason);
        } catch (RuntimeException | Error again) {
            if (!HeaderFault.survivable(again)) {
                throw again;
            }
            return new RejectedArticle(group, served.article(), null, reason, "");
        }
    }

    /** Adds what {@link #read} found: bookkeeping over values already made, none of the header's text looked at. */
    private void apply(Pending p) {
        newestArticle = Math.max(newestArticle, p.article);
        switch (p.kind) {
            case Pending.PART -> {
                accepted++;
                if (!p.longNames.isEmpty()) {
                    longNames.putAll(p.longNames);
                }
                add(p);
            }
            case Pending.MISS -> {
                if (p.miss.reason() != null) {
                    rejected++;
                } else {
                    unmatched++;
                }
                misses.add(p.article, p.miss);
            }
            default -> rejectedOut.add(p.entry);
        }
        p.entry = null;
        p.miss = null;
        p.key = null;
        p.existing = null;
        p.segment = null;
        p.subject = null;
        p.posted = null;
        p.longNames = null;
        p.post = null;
        p.sibling = null;
    }

    /**
     * The open binary of {@code key}'s file posted in the month before or after {@code key}'s, or
     * without a date, or null: a file posted across a month boundary is two binaries (see {@link
     * Key}), and its second
     * takes the release of the first rather than starting an obfuscated post or a spelling of its
     * own.
     */
    private Open sibling(Key key) {
        if (key.month() == PostingMonth.UNDATED) {
            return null;
        }
        Open before = open.get(new Key(key.poster(), key.fileName(), key.totalParts(), key.month() - 1));
        if (before != null) {
            return before;
        }
        Open after = open.get(new Key(key.poster(), key.fileName(), key.totalParts(), key.month() + 1));
        return after != null
                ? after
                : open.get(new Key(key.poster(), key.fileName(), key.totalParts(), PostingMonth.UNDATED));
    }

    /** Ages out binaries against {@code currentArticle}, because a range with no matching headers still moves time on. */
    public void ageTo(long currentArticle) {
        newestArticle = Math.max(newestArticle, currentArticle);
        long horizon = currentArticle - maxAgeArticles;
        if (headFirst >= horizon) {
            return;
        }
        Iterator<Map.Entry<Key, Open>> it = open.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Key, Open> e = it.next();
            if (e.getValue().firstArticle >= horizon) {
                break;
            }
            it.remove();
            close(e.getKey(), e.getValue());
        }
        findHead();
    }

    private void findHead() {
        headFirst = open.isEmpty() ? Long.MAX_VALUE : open.values().iterator().next().firstArticle;
    }

    /** Moves every open binary to the outbox as it stands, e.g. when a group is retired. */
    public void closeAll() {
        for (Map.Entry<Key, Open> e : open.entrySet()) {
            close(e.getKey(), e.getValue());
        }
        open.clear();
        headFirst = Long.MAX_VALUE;
    }

    /**
     * Copies of the open binaries that gained parts since {@link #markOpenWritten()}, as they are
     * now (incomplete), without taking them out of the window. The holder writes them to the
     * catalog with each snapshot, so that everything indexed up to a snapshot is searchable; the
     * catalog merges the later, fuller copy by part number.
     */
    public List<CompletedBinary> changedOpen() {
        List<CompletedBinary> copies = new ArrayList<>();
        for (Map.Entry<Key, Open> e : open.entrySet()) {
            Open b = e.getValue();
            if (b.changed) {
                copies.add(completed(e.getKey(), b));
            }
        }
        return copies;
    }

    /** Records that the catalog has every open binary as it is now, after {@link #changedOpen()} was written. */
    public void markOpenWritten() {
        for (Open b : open.values()) {
            b.changed = false;
            b.catalogMayHold = true;
        }
    }

    /** Returns and forgets the binaries that left the window since the last call. */
    public List<CompletedBinary> drain() {
        List<CompletedBinary> out = List.copyOf(outbox);
        outbox.clear();
        return out;
    }

    /** Returns and forgets the headers rejected since the last call, for the ledger. */
    public List<RejectedArticle> drainRejected() {
        List<RejectedArticle> out = List.copyOf(rejectedOut);
        rejectedOut.clear();
        return out;
    }

    /** Returns and forgets the bounded keys made since the last call, with the whole text of each. */
    public Map<String, String> drainLongNames() {
        Map<String, String> out = Map.copyOf(longNames);
        longNames.clear();
        return out;
    }

    /** Returns and forgets the headers nothing cataloged since the last call, for the miss counts. */
    public Misses drainMisses() {
        Misses out = misses;
        misses = new Misses();
        return out;
    }

    public Stats stats() {
        return new Stats(open.size(), segments, accepted, unmatched, rejected, duplicates);
    }

    /**
     * The key of the binary a header of {@code from} parsed as {@code p} and posted in {@code month}
     * ({@link PostingMonth#of}) belongs to; long names go to {@code longNames}.
     */
    static Key key(String from, ParsedSubject p, Map<String, String> longNames, int month) {
        int total = p.totalParts() > 0 ? p.totalParts() : 1;
        return new Key(Poison.bounded(from, longNames), Poison.bounded(p.fileName(), longNames), total, month);
    }

    /** Adds {@code p}'s segment to its binary, opening it when it is not open; a complete binary leaves. */
    private void add(Pending p) {
        Key key = p.key;
        Open b = p.existing;
        if (b == null) {
            b = new Open(
                    p.post != null
                            ? posts.release(p.post, p.fileNumber, p.release, p.article)
                            : p.sibling != null ? p.sibling.releaseName : spelling(p.spellingKey, p.release),
                    p.fileTotal,
                    p.subject,
                    p.posted,
                    p.article,
                    p.article,
                    p.ruleVersion);
            // halves of one file: neither is new to its release, whose sums must count the file once
            b.catalogMayHold = !p.unseen || p.sibling != null;
            if (p.sibling != null) {
                p.sibling.catalogMayHold = true;
            }
            if (open.isEmpty()) {
                headFirst = b.firstArticle;
            }
            open.put(key, b);
        }
        if (!b.parts.add(p.segment)) {
            duplicates++;
            return;
        }
        segments++;
        b.changed = true;
        b.lastArticle = Math.max(b.lastArticle, p.article);
        if (b.parts.size() >= key.totalParts()) {
            open.remove(key);
            close(key, b);
            if (b.firstArticle == headFirst) {
                findHead();
            }
        }
    }

    /** The spelling this poster's earlier files of the release gave ({@code key}: poster and folded name), or {@code release} (remembered). */
    private String spelling(String key, String release) {
        String first = spellings.putIfAbsent(key, release);
        return first == null ? release : first;
    }

    private void close(Key key, Open b) {
        segments -= b.parts.size();
        outbox.add(completed(key, b));
    }

    /**
     * Binary {@code key} as it stands, complete or not: the one place the window makes a
     * {@link CompletedBinary}, so a binary that leaves and the copy written with a snapshot
     * cannot differ. {@code fresh} is the window's word that no copy was written yet.
     */
    private CompletedBinary completed(Key key, Open b) {
        return new CompletedBinary(
                group,
                key.poster(),
                key.fileName(),
                key.totalParts(),
                b.releaseName,
                b.fileTotal,
                b.subject,
                b.posted,
                b.firstArticle,
                b.lastArticle,
                b.ruleVersion,
                b.parts.view(),
                !b.catalogMayHold);
    }

    /**
     * Streams the open binaries, one at a time, as a snapshot ({@link WindowCodec}); fails if the
     * outbox was not drained, because a snapshot must not hold binaries the catalog has not got.
     */
    public void writeTo(OutputStream out) throws IOException {
        if (!outbox.isEmpty()) {
            throw new IllegalStateException(
                    outbox.size()
                            + " binaries left the window but were not drained; call drain() and write them to the catalog before the snapshot");
        }
        WindowCodec.write(this, out);
    }

    /** Reads a snapshot written by {@link #writeTo}, one binary at a time; anything else throws {@link BadSnapshotException}. */
    public static Window readFrom(InputStream in) throws BadSnapshotException {
        return WindowCodec.read(in);
    }

    /** The open binaries in the order they were first seen, for {@link WindowCodec}; callers must not change it. */
    Map<Key, Open> openBinaries() {
        return open;
    }

    /** The obfuscated posts being read, for {@link WindowCodec}. */
    Posts posts() {
        return posts;
    }

    /** Restores the counters of a window read back from a snapshot, before its binaries. */
    void restoreCounters(long newest, long accepted, long unmatched, long rejected, long duplicates) {
        this.newestArticle = newest;
        this.accepted = accepted;
        this.unmatched = unmatched;
        this.rejected = rejected;
        this.duplicates = duplicates;
    }

    /** Adds an open binary read back from a snapshot, after the ones read before it. */
    void restoreOpen(Key key, Open b) {
        spellings.putIfAbsent(key.poster() + '\n' + ReleaseNames.fold(b.releaseName), b.releaseName);
        if (open.isEmpty()) {
            headFirst = b.firstArticle;
        }
        open.put(key, b);
        segments += b.parts.size();
    }
}
