package headway.index;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import headway.nntp.OverviewLine;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;

/**
 * The binaries of one newsgroup still being assembled, fed headers in article order across
 * ranges. A binary is keyed by group, poster, file name and total parts; it leaves the window
 * (into the outbox that {@link #drain()} empties) when every part is present, or as incomplete
 * when its first article falls more than {@code maxAgeArticles} behind the newest article seen.
 * Invariants: a part is held once (a repeat is counted, not added), and the open binaries are
 * kept in the order they were first seen, so aging looks only at the head; the cost is that
 * headers fed far out of article order age late, and that every open segment sits in memory
 * (about 200 bytes each with a 50-character message-id).
 */
public final class Window {

    private static final String FORMAT = "headway.window";
    private static final int FORMAT_VERSION = 1;
    private static final JsonFactory JSON = JsonFactory.builder()
            .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
            .build()
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .disable(JsonParser.Feature.AUTO_CLOSE_SOURCE);

    private final String group;
    private final long maxAgeArticles;
    private final LinkedHashMap<Key, Open> open = new LinkedHashMap<>();
    private final List<CompletedBinary> outbox = new ArrayList<>();
    private long newestArticle = -1;
    /** The first article of the oldest open binary (the head of {@link #open}), or MAX_VALUE when none is open: aging looks at it alone. */
    private long headFirst = Long.MAX_VALUE;

    private long segments;
    private long accepted;
    private long unmatched;
    private long rejected;
    private long duplicates;

    /** Sizes and counters: what is open now, and what was fed since the window was made (snapshots keep them). */
    public record Stats(int binaries, long segments, long accepted, long unmatched, long rejected, long duplicates) {}

    private record Key(String poster, String fileName, int totalParts) {}

    private static final class Open {
        final String releaseName;
        final int fileTotal;
        final String subject;
        final Instant posted;
        final long firstArticle;
        final int ruleVersion;
        long lastArticle;
        /** Changed since the catalog last got a copy (see {@link Window#changedOpen()}); true for a binary read from a snapshot. */
        boolean changed = true;

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
        if (group == null || group.isBlank()) {
            throw new IllegalArgumentException("group must be a newsgroup name such as alt.binaries.test");
        }
        if (maxAgeArticles <= 0) {
            throw new IllegalArgumentException("maxAgeArticles must be positive, e.g. 500000; got " + maxAgeArticles);
        }
        this.group = group;
        this.maxAgeArticles = maxAgeArticles;
    }

    public String group() {
        return group;
    }

    public long maxAgeArticles() {
        return maxAgeArticles;
    }

    /** The newest article number fed so far, or -1. */
    public long newestArticle() {
        return newestArticle;
    }

    /** Classifies one header and adds its segment; completed and aged binaries go to the outbox. */
    public void accept(OverviewLine line, RuleSet rules) {
        newestArticle = Math.max(newestArticle, line.article());
        SubjectMatch match = rules.match(group, line.from(), line.subject());
        if (match instanceof SubjectMatch.Matched m) {
            accepted++;
            add(line, m.subject(), rules.version());
        } else if (match instanceof SubjectMatch.Rejected) {
            rejected++;
        } else {
            unmatched++;
        }
        ageTo(newestArticle);
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
                Key key = e.getKey();
                copies.add(new CompletedBinary(
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
                        b.parts.view()));
            }
        }
        return copies;
    }

    /** Records that the catalog has every open binary as it is now, after {@link #changedOpen()} was written. */
    public void markOpenWritten() {
        for (Open b : open.values()) {
            b.changed = false;
        }
    }

    /** Returns and forgets the binaries that left the window since the last call. */
    public List<CompletedBinary> drain() {
        List<CompletedBinary> out = List.copyOf(outbox);
        outbox.clear();
        return out;
    }

    public Stats stats() {
        return new Stats(open.size(), segments, accepted, unmatched, rejected, duplicates);
    }

    private void add(OverviewLine line, ParsedSubject p, int ruleVersion) {
        Key key = new Key(line.from(), p.fileName(), p.totalParts());
        Open b = open.get(key);
        if (b == null) {
            b = new Open(
                    p.releaseName(),
                    p.fileTotal(),
                    line.subject(),
                    HeaderDates.parse(line.date()),
                    line.article(),
                    line.article(),
                    ruleVersion);
            if (open.isEmpty()) {
                headFirst = b.firstArticle;
            }
            open.put(key, b);
        }
        Segment s = new Segment(
                p.part(), (int) Math.max(0, Math.min(Integer.MAX_VALUE, line.bytes())), bareId(line.messageId()));
        if (!b.parts.add(s)) {
            duplicates++;
            return;
        }
        segments++;
        b.changed = true;
        b.lastArticle = Math.max(b.lastArticle, line.article());
        if (b.parts.size() >= key.totalParts()) {
            open.remove(key);
            close(key, b);
            if (b.firstArticle == headFirst) {
                findHead();
            }
        }
    }

    private void close(Key key, Open b) {
        segments -= b.parts.size();
        outbox.add(new CompletedBinary(
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
                b.parts.view()));
    }

    private static String bareId(String messageId) {
        String id = messageId == null ? "" : messageId.strip();
        if (id.startsWith("<") && id.endsWith(">") && id.length() >= 2) {
            id = id.substring(1, id.length() - 1);
        }
        return id;
    }

    /** Streams the open binaries, one at a time, as gzip-compressed JSON; fails if the outbox was not drained, because a snapshot must not hold binaries the catalog has not got. */
    public void writeTo(OutputStream out) throws IOException {
        if (!outbox.isEmpty()) {
            throw new IllegalStateException(
                    outbox.size()
                            + " binaries left the window but were not drained; call drain() and write them to the catalog before the snapshot");
        }
        GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16);
        try (JsonGenerator g = JSON.createGenerator(gz)) {
            g.writeStartObject();
            g.writeStringField("format", FORMAT);
            g.writeNumberField("formatVersion", FORMAT_VERSION);
            g.writeStringField("group", group);
            g.writeNumberField("maxAgeArticles", maxAgeArticles);
            g.writeNumberField("newestArticle", newestArticle);
            g.writeNumberField("accepted", accepted);
            g.writeNumberField("unmatched", unmatched);
            g.writeNumberField("rejected", rejected);
            g.writeNumberField("duplicates", duplicates);
            g.writeArrayFieldStart("binaries");
            for (Map.Entry<Key, Open> e : open.entrySet()) {
                Key k = e.getKey();
                Open b = e.getValue();
                g.writeStartObject();
                g.writeStringField("poster", k.poster());
                g.writeStringField("file", k.fileName());
                g.writeNumberField("total", k.totalParts());
                g.writeStringField("release", b.releaseName);
                g.writeNumberField("fileTotal", b.fileTotal);
                g.writeStringField("subject", b.subject);
                if (b.posted != null) {
                    g.writeStringField("posted", b.posted.toString());
                }
                g.writeNumberField("first", b.firstArticle);
                g.writeNumberField("last", b.lastArticle);
                g.writeNumberField("rule", b.ruleVersion);
                g.writeArrayFieldStart("segments");
                for (Segment s : b.parts.view()) {
                    g.writeStartArray();
                    g.writeNumber(s.part());
                    g.writeNumber(s.bytes());
                    g.writeString(s.messageId());
                    g.writeEndArray();
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        gz.finish();
        gz.flush();
    }

    /** Reads a snapshot written by {@link #writeTo}, one binary at a time; anything else throws {@link BadSnapshotException}. */
    public static Window readFrom(InputStream in) throws BadSnapshotException {
        try {
            return read(new GZIPInputStream(in, 1 << 16));
        } catch (BadSnapshotException e) {
            throw e;
        } catch (ZipException e) {
            throw new BadSnapshotException("window snapshot is not gzip data (" + e.getMessage() + ")", e);
        } catch (EOFException e) {
            throw new BadSnapshotException("window snapshot is truncated (" + e.getMessage() + ")", e);
        } catch (JsonProcessingException e) {
            throw new BadSnapshotException("window snapshot is not valid JSON (" + e.getOriginalMessage() + ")", e);
        } catch (IOException | RuntimeException e) {
            throw new BadSnapshotException("window snapshot unreadable (" + e + ")", e);
        }
    }

    private static Window read(InputStream in) throws IOException {
        try (JsonParser p = JSON.createParser(in)) {
            expect(p, p.nextToken(), JsonToken.START_OBJECT);
            String format = null;
            Window w = null;
            String group = null;
            long maxAge = -1;
            long newest = -1;
            long[] counters = new long[4];
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken t = p.nextToken();
                switch (field) {
                    case "format" -> format = p.getValueAsString();
                    case "formatVersion" -> {
                        if (!FORMAT.equals(format) || p.getIntValue() != FORMAT_VERSION) {
                            throw new BadSnapshotException(
                                    "not a window snapshot of format " + FORMAT + " v" + FORMAT_VERSION, null);
                        }
                    }
                    case "group" -> group = p.getValueAsString();
                    case "maxAgeArticles" -> maxAge = p.getLongValue();
                    case "newestArticle" -> newest = p.getLongValue();
                    case "accepted" -> counters[0] = p.getLongValue();
                    case "unmatched" -> counters[1] = p.getLongValue();
                    case "rejected" -> counters[2] = p.getLongValue();
                    case "duplicates" -> counters[3] = p.getLongValue();
                    case "binaries" -> {
                        if (format == null || group == null || maxAge <= 0) {
                            throw new BadSnapshotException(
                                    "window snapshot header incomplete before its binaries", null);
                        }
                        w = new Window(group, maxAge);
                        w.newestArticle = newest;
                        w.accepted = counters[0];
                        w.unmatched = counters[1];
                        w.rejected = counters[2];
                        w.duplicates = counters[3];
                        expect(p, t, JsonToken.START_ARRAY);
                        while (p.nextToken() == JsonToken.START_OBJECT) {
                            w.readBinary(p);
                        }
                        expect(p, p.currentToken(), JsonToken.END_ARRAY);
                    }
                    default -> throw new BadSnapshotException("unknown field '" + field + "' in window snapshot", null);
                }
            }
            expect(p, p.currentToken(), JsonToken.END_OBJECT);
            if (w == null) {
                throw new BadSnapshotException("window snapshot has no binaries array", null);
            }
            if (p.nextToken() != null) {
                throw new BadSnapshotException("window snapshot has data after its end", null);
            }
            in.transferTo(OutputStream.nullOutputStream());
            return w;
        }
    }

    private void readBinary(JsonParser p) throws IOException {
        String poster = null;
        String file = null;
        int total = -1;
        String release = null;
        int fileTotal = -1;
        String subject = null;
        Instant posted = null;
        long first = -1;
        long last = -1;
        int rule = -1;
        List<Segment> segs = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            switch (field) {
                case "poster" -> poster = p.getValueAsString();
                case "file" -> file = p.getValueAsString();
                case "total" -> total = p.getIntValue();
                case "release" -> release = p.getValueAsString();
                case "fileTotal" -> fileTotal = p.getIntValue();
                case "subject" -> subject = p.getValueAsString();
                case "posted" -> posted = Instant.parse(p.getValueAsString());
                case "first" -> first = p.getLongValue();
                case "last" -> last = p.getLongValue();
                case "rule" -> rule = p.getIntValue();
                case "segments" -> {
                    expect(p, t, JsonToken.START_ARRAY);
                    while (p.nextToken() == JsonToken.START_ARRAY) {
                        expect(p, p.nextToken(), JsonToken.VALUE_NUMBER_INT);
                        int part = p.getIntValue();
                        expect(p, p.nextToken(), JsonToken.VALUE_NUMBER_INT);
                        int bytes = p.getIntValue();
                        expect(p, p.nextToken(), JsonToken.VALUE_STRING);
                        String id = p.getText();
                        expect(p, p.nextToken(), JsonToken.END_ARRAY);
                        segs.add(new Segment(part, bytes, id));
                    }
                    expect(p, p.currentToken(), JsonToken.END_ARRAY);
                }
                default -> throw new BadSnapshotException("unknown field '" + field + "' in a snapshot binary", null);
            }
        }
        expect(p, p.currentToken(), JsonToken.END_OBJECT);
        if (poster == null
                || file == null
                || total <= 0
                || release == null
                || subject == null
                || first < 0
                || segs.isEmpty()) {
            throw new BadSnapshotException(
                    "a snapshot binary lacks poster, file, total, release, subject, first or segments", null);
        }
        Open b = new Open(release, fileTotal, subject, posted, first, last, rule);
        for (Segment s : segs) {
            b.parts.add(s);
        }
        if (open.isEmpty()) {
            headFirst = b.firstArticle;
        }
        open.put(new Key(poster, file, total), b);
        segments += b.parts.size();
    }

    private static void expect(JsonParser p, JsonToken actual, JsonToken expected) throws BadSnapshotException {
        if (actual != expected) {
            throw new BadSnapshotException(
                    "window snapshot malformed at " + p.currentLocation().offsetDescription() + ": expected " + expected
                            + " but found " + actual,
                    null);
        }
    }
}
