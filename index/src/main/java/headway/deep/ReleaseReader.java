package headway.deep;

import headway.inspect.archive.ArchiveFormat;
import headway.inspect.archive.Archives;
import headway.inspect.archive.Listing;
import headway.inspect.archive.VolumeRole;
import headway.inspect.nfo.Nfo;
import headway.inspect.nfo.NfoReader;
import headway.inspect.par2.Par2Reader;
import headway.inspect.par2.Par2Set;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;

/**
 * The inspection of one release: fetches the articles {@link FetchPlan} names, within the release's
 * article budget, reads each by its content (PAR2, 7z, another archive, an NFO; never by its
 * name), and asks {@link ReleaseNamer} what the evidence supports. Pure: the bodies come from an
 * injected {@link Bodies}, so the worker fetches them over NNTP and tests hand them over from
 * memory, and the same bodies give the same answer.
 *
 * <p>Once an article turns out to be a 7z's first volume, the next one fetched is the one that
 * holds its header ({@link FetchPlan#sevenZipTail}) instead of the plan's next, and then, while
 * the header neither reads from the last volume's end fetched so far nor shows itself encrypted,
 * the article before that end (a header that crosses an article boundary), within the budget and
 * never before the last volume's first article; a header that starts in an earlier volume is
 * noted, not chased. When no first
 * volume was read (a shuffled post puts it anywhere among the volumes), the ends of files no reader
 * recognised are read for a 7z's header alone ({@code Archives.sevenZipEnd}): 7-Zip writes the
 * header last, so the last volume's end holds it, and a small last volume is among the files the
 * plan fetches first. The posted sizes
 * the caller knows before any fetch are estimates (an overview line counts an article's encoded
 * bytes and headers), so a head fetched replaces its file's size with the yEnc header's, and the
 * last volume is matched exactly when the sizes are exact, else by the estimate nearest to the
 * size it must have (within {@link #SIZE_SLACK}). A body that cannot be read (missing, damaged,
 * not yEnc) is a named {@link Result#failures() failure}; what the readers could not read is a
 * {@link Result#notes() note}. Neither is ever an exception.
 */
public final class ReleaseReader {

    /** How far an estimated file size may be off the size a 7z's last volume must have, as a fraction. */
    static final double SIZE_SLACK = 0.08;

    /** What a body gave: its decoded bytes and where they sit in the file, or why it gave none. */
    public interface Bodies {
        /** The decoded part of article {@code messageId}; a failed connection is thrown, unchecked. */
        Body fetch(String messageId);
    }

    /**
     * One fetched article, decoded.
     *
     * @param data the decoded bytes (a prefix when the fetcher kept fewer), empty on failure
     * @param fileSize the whole file's size as its yEnc header states it, or -1
     * @param offset where {@code data} starts in the file, from 0
     * @param failure why the article gave no trustworthy bytes, or null
     */
    @SuppressWarnings("ArrayRecordComponent")
    public record Body(byte[] data, long fileSize, long offset, String failure) {

        public Body {
            Objects.requireNonNull(data, "data");
        }

        /** A part decoded whole. */
        public static Body of(byte[] data, long fileSize, long offset) {
            return new Body(data, fileSize, offset, null);
        }

        /** An article that gave nothing to read, and why. */
        public static Body failed(String failure) {
            return new Body(new byte[0], -1, 0, Objects.requireNonNull(failure, "failure"));
        }
    }

    /**
     * What was read and decided.
     *
     * @param naming what to record for the release
     * @param posted the posted files, with the sizes and 16 KiB hashes the fetched heads gave
     * @param evidence what the readers read
     * @param articles the articles fetched (at most the budget)
     * @param failures the articles that gave nothing, each with its reason
     * @param notes what the readers could not read whole, each with its reason
     */
    public record Result(
            Naming naming,
            List<PostedFile> posted,
            Evidence evidence,
            int articles,
            List<String> failures,
            List<String> notes) {
        public Result {
            posted = List.copyOf(posted);
            failures = List.copyOf(failures);
            notes = List.copyOf(notes);
        }
    }

    private ReleaseReader() {}

    /**
     * Reads a release within {@code budget} articles and decides its naming.
     *
     * @param currentName the release's name now
     * @param obfuscated whether that name looks obfuscated
     * @param files the posted files, in posting order; sizes may be estimates
     * @param messageIds each file's message-ids in part order (the i-th list is the i-th file's)
     * @param budget the most articles to fetch
     * @param bodies where the articles come from
     */
    public static Result read(
            String currentName,
            boolean obfuscated,
            List<PostedFile> files,
            List<List<String>> messageIds,
            int budget,
            Bodies bodies) {
        if (files.size() != messageIds.size()) {
            throw new IllegalArgumentException(
                    "one list of message-ids per file: " + files.size() + " files, " + messageIds.size() + " lists");
        }
        State s = new State(files);
        ArrayDeque<Fetch> queue = new ArrayDeque<>(FetchPlan.plan(files, budget));
        Set<Fetch> done = new HashSet<>();
        while (s.articles < budget && !queue.isEmpty()) {
            Fetch f = queue.poll();
            List<String> ids = messageIds.get(f.file());
            if (f.segment() < 1 || f.segment() > ids.size() || !done.add(new Fetch(f.file(), f.segment(), ""))) {
                continue;
            }
            s.articles++;
            Body b = bodies.fetch(ids.get(f.segment() - 1));
            if (b.failure() != null) {
                s.failures.add(files.get(f.file()).name() + " part " + f.segment() + ": " + b.failure());
                continue;
            }
            s.read(f, b, ids.size()).ifPresent(queue::addFirst);
        }
        Evidence evidence = s.evidence();
        Naming naming = ReleaseNamer.decide(currentName, obfuscated, s.posted, evidence);
        return new Result(naming, s.posted, evidence, s.articles, s.failures, s.notes);
    }

    /** What one reading gathered so far. */
    private static final class State {
        final List<PostedFile> posted;
        final List<Par2Set> par2 = new ArrayList<>();
        final List<Nfo> nfos = new ArrayList<>();
        final List<Listing> listings = new ArrayList<>();
        final List<String> failures = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        final List<Body> ends = new ArrayList<>();
        /** Ends of files whose content no reader recognised: a 7z's last volume among them ends with its header. */
        final List<Body> unknownEnds = new ArrayList<>();

        /** Every body read, by file and segment: a 7z's header that crosses an article boundary is read from several. */
        final Map<Integer, TreeMap<Integer, Body>> parts = new HashMap<>();

        Body sevenZipHead;
        String sevenZipMiss = "its header's article was not read";
        /** The file that ends the 7z (its last volume) once its first volume was read, else -1. */
        int tailFile = -1;

        int articles;

        State(List<PostedFile> files) {
            this.posted = new ArrayList<>(files);
        }

        /**
         * Reads one body by its content; returns the article to fetch next: a 7z's last article
         * after its first, or the article before the last volume's end while the header does not
         * read from what was fetched of it.
         */
        Optional<Fetch> read(Fetch f, Body b, int segments) {
            parts.computeIfAbsent(f.file(), k -> new TreeMap<>()).put(f.segment(), b);
            Optional<Fetch> next = readContent(f, b, segments);
            return next.isPresent() || f.file() != tailFile ? next : moreTail();
        }

        /** Reads one body by its content; returns the article that ends the 7z when it was a 7z's first. */
        private Optional<Fetch> readContent(Fetch f, Body b, int segments) {
            PostedFile p = posted.get(f.file());
            long size = b.fileSize() > 0 ? b.fileSize() : p.size();
            boolean whole = b.fileSize() > 0 && b.offset() + b.data().length == b.fileSize();
            if (f.segment() == segments && whole) {
                ends.add(0, b);
            }
            if (b.offset() != 0) {
                if (f.segment() == segments && whole) {
                    unknownEnds.add(b);
                }
                return Optional.empty();
            }
            posted.set(f.file(), new PostedFile(p.name(), size, p.segments(), md5Of16k(b.data(), size)));
            byte[] d = b.data();
            Optional<ArchiveFormat> format = Archives.sniff(d);
            if (Par2Reader.recognizes(d)) {
                Par2Set set = Par2Reader.read(d);
                note(p, "PAR2", set.files().isEmpty() ? set.reason() : null);
                par2.add(set);
            } else if (format.isPresent() && format.get() == ArchiveFormat.SEVEN_ZIP) {
                sevenZipHead = b;
                return tail(f.file(), sevenZipSize(d));
            } else if (format.isPresent()) {
                Optional<Listing> l = Archives.list(d, new byte[0], 0);
                l.ifPresent(listings::add);
                note(
                        p,
                        format.get().name(),
                        l.isEmpty() || (l.get().entries().isEmpty() && !l.get().headersEncrypted())
                                ? l.map(Listing::reason).orElse("no listing")
                                : null);
            } else if (NfoReader.looksLikeNfo(d)) {
                Nfo nfo = NfoReader.read(d);
                note(p, "NFO", nfo.reason());
                nfos.add(nfo);
            } else if (f.segment() == segments && whole) {
                unknownEnds.add(b);
            }
            return Optional.empty();
        }

        /**
         * The article that ends a 7z of {@code archiveSize} bytes whose first volume is file
         * {@code first}; when that article was read already (a small last volume the plan
         * fetched first), the one before it if the header does not read from what is at hand.
         */
        Optional<Fetch> tail(int first, long archiveSize) {
            Optional<Fetch> last = lastArticle(first, archiveSize);
            if (last.isEmpty()) {
                return last;
            }
            tailFile = last.get().file();
            TreeMap<Integer, Body> held = parts.get(tailFile);
            return held != null && held.containsKey(last.get().segment()) ? moreTail() : last;
        }

        /**
         * The article before the last volume's end read so far, while the 7z's header neither
         * reads from that end nor shows itself encrypted: the header crosses an article boundary
         * when the last volume's last article holds only its end. Stops at the volume's first
         * article (a header that starts in an earlier volume is noted, not chased) and, as every
         * fetch, at the budget.
         */
        private Optional<Fetch> moreTail() {
            Optional<Suffix> suffix = suffix(tailFile);
            if (suffix.isEmpty() || sevenZipHead == null) {
                return Optional.empty();
            }
            Listing l = sevenZipListing(suffix.get().body());
            if (l.complete() || l.headersEncrypted() || suffix.get().firstSegment() <= 1) {
                return Optional.empty();
            }
            return Optional.of(new Fetch(
                    tailFile, suffix.get().firstSegment() - 1, "the article before: the 7z's header crosses into it"));
        }

        /**
         * The longest run of bodies read of file {@code file} that ends at the file's end, each
         * starting where the one before ends, joined into one body; empty without its last article
         * or when the bodies lie about where they sit.
         */
        private Optional<Suffix> suffix(int file) {
            TreeMap<Integer, Body> held = parts.get(file);
            if (held == null || held.isEmpty()) {
                return Optional.empty();
            }
            int segment = held.lastKey();
            Body last = held.get(segment);
            long fileSize = last.fileSize();
            if (fileSize <= 0 || last.offset() + last.data().length != fileSize) {
                return Optional.empty();
            }
            List<Body> run = new ArrayList<>(List.of(last));
            long start = last.offset();
            long bytes = last.data().length;
            for (Body prev = held.get(segment - 1);
                    prev != null
                            && prev.fileSize() == fileSize
                            && prev.data().length > 0
                            && prev.offset() + prev.data().length == start
                            && bytes + prev.data().length <= MAX_TAIL_BYTES;
                    prev = held.get(segment - 1)) {
                run.add(0, prev);
                start = prev.offset();
                bytes += prev.data().length;
                segment--;
            }
            byte[] joined = new byte[(int) bytes];
            int at = 0;
            for (Body b : run) {
                System.arraycopy(b.data(), 0, joined, at, b.data().length);
                at += b.data().length;
            }
            return Optional.of(new Suffix(Body.of(joined, fileSize, start), segment));
        }

        /** The 7z's listing from its first volume's head and {@code end}, which ends the archive. */
        private Listing sevenZipListing(Body end) {
            long size = sevenZipSize(sevenZipHead.data());
            if (size <= 0 || end.data().length > size) {
                return new Listing(
                        ArchiveFormat.SEVEN_ZIP,
                        List.of(),
                        false,
                        VolumeRole.UNSTATED,
                        OptionalInt.empty(),
                        "the end read is longer than the archive it ends");
            }
            return Archives.sevenZip(sevenZipHead.data(), end.data(), size - end.data().length);
        }

        /** The article that ends a 7z of {@code archiveSize} bytes whose first volume is file {@code first}. */
        private Optional<Fetch> lastArticle(int first, long archiveSize) {
            if (archiveSize <= 0) {
                notes.add(posted.get(first).name() + ": a 7z signature header that states no size");
                return Optional.empty();
            }
            Optional<Fetch> exact = FetchPlan.sevenZipTail(posted, first, archiveSize);
            if (exact.isPresent()) {
                return exact;
            }
            long volume = posted.get(first).size();
            long last = archiveSize - ((archiveSize - 1) / Math.max(1, volume)) * volume;
            int best = -1;
            for (int i = 0; i < posted.size(); i++) {
                long off = Math.abs(posted.get(i).size() - last);
                if (i != first
                        && posted.get(i).size() > 0
                        && off <= Math.max(4096, last * SIZE_SLACK)
                        && (best < 0 || off < Math.abs(posted.get(best).size() - last))) {
                    best = i;
                }
            }
            return best < 0
                    ? Optional.empty()
                    : Optional.of(new Fetch(best, Math.max(1, posted.get(best).segments()), "a 7z's last volume"));
        }

        Evidence evidence() {
            List<Listing> all = new ArrayList<>(listings);
            Optional<Listing> sevenZip = sevenZipFromHead().or(this::sevenZipFromEnd);
            sevenZip.ifPresent(all::add);
            if (sevenZip.isEmpty() && sevenZipHead != null) {
                notes.add("7z: " + sevenZipMiss);
            }
            return new Evidence(par2, nfos, all);
        }

        /**
         * The 7z's listing from a file's end alone, when the first volume was not read or did not
         * join a tail: a shuffled post puts the first volume anywhere, but a 7z ends with its
         * header, and the last volume's end (often the whole of a small last volume, which the
         * plan fetches first) holds it.
         */
        private Optional<Listing> sevenZipFromEnd() {
            for (Body end : unknownEnds) {
                Listing l = Archives.sevenZipEnd(end.data());
                if (l.complete() || l.headersEncrypted()) {
                    return Optional.of(l);
                }
            }
            return Optional.empty();
        }

        /** The 7z's listing from its first volume's head and a file's end that completes it. */
        private Optional<Listing> sevenZipFromHead() {
            if (sevenZipHead != null) {
                long size = sevenZipSize(sevenZipHead.data());
                Listing found = null;
                List<Body> candidates = new ArrayList<>();
                suffix(tailFile).ifPresent(t -> candidates.add(t.body()));
                candidates.addAll(ends);
                for (Body end : candidates) {
                    if (size <= 0 || end.data().length > size) {
                        continue;
                    }
                    Listing l = Archives.sevenZip(sevenZipHead.data(), end.data(), size - end.data().length);
                    if (l.complete() || l.headersEncrypted()) {
                        found = l;
                        break;
                    }
                    found = found == null ? l : found;
                }
                if (found != null && (found.complete() || found.headersEncrypted())) {
                    return Optional.of(found);
                }
                sevenZipMiss = found == null ? "its header's article was not read" : found.reason();
            }
            return Optional.empty();
        }

        private void note(PostedFile p, String what, String reason) {
            if (reason != null) {
                notes.add(p.name() + " (" + what + "): " + reason);
            }
        }
    }

    /** The most bytes of a last volume's end joined from its articles: a 7z's header is far smaller. */
    static final long MAX_TAIL_BYTES = 64L << 20;

    /** A file's end joined from its articles, and the segment it starts in. */
    private record Suffix(Body body, int firstSegment) {}

    /**
     * A file's decoded size estimated from its articles' sizes as overview lines give them: each
     * article's head and yEnc lines (about {@value #ARTICLE_OVERHEAD} bytes) taken off, then yEnc's
     * growth (escapes and line ends, about 3 %). Good to a few per cent, which is what
     * {@link #SIZE_SLACK} allows when a 7z's last volume is matched by size.
     */
    public static long estimatedSize(long articleBytes, int articles) {
        if (articleBytes <= 0) {
            return -1;
        }
        long payload = Math.max(0, articleBytes - (long) ARTICLE_OVERHEAD * Math.max(1, articles));
        return Math.round(payload / 1.03);
    }

    /** An article's bytes besides its data: headers and the =ybegin, =ypart and =yend lines. */
    static final int ARTICLE_OVERHEAD = 600;

    /** A 7z archive's size from its signature header (32 bytes, then the next header's offset and size); -1 when cut or lying. */
    static long sevenZipSize(byte[] head) {
        if (head.length < 32) {
            return -1;
        }
        ByteBuffer sig = ByteBuffer.wrap(head, 12, 16).order(ByteOrder.LITTLE_ENDIAN);
        long offset = sig.getLong();
        long size = sig.getLong();
        if (offset < 0 || size < 0 || offset > (1L << 50) || size > (1L << 40)) {
            return -1;
        }
        return 32 + offset + size;
    }

    /** The MD5 PAR2 keeps of a file's first min(16384, size) bytes, or empty when fewer were fetched. */
    static String md5Of16k(byte[] data, long size) {
        int covered = (int) Math.min(Par2Set.HASH_16K, Math.max(0, size));
        if (size < 0 || data.length < covered) {
            return "";
        }
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            md.update(data, 0, covered);
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has MD5", e);
        }
    }
}
