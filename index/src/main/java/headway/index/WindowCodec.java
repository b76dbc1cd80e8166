package headway.index;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;

/**
 * The window's snapshot format: gzip-compressed JSON written and read with Jackson's streaming
 * generator and parser, one open binary at a time, so neither side holds the encoded window in
 * memory beside the window itself. A header (format, version, group, maximum age, newest article,
 * counters) comes first, then the binaries in the order they were first seen, each with its
 * segments as {@code [part, bytes, message-id, article]} in part order, the article as its distance
 * from the binary's first (a few digits, where the number itself cost a quarter more bytes), left
 * out when it is not known (read as -1: see {@link Segment}), and after the binaries the obfuscated
 * posts being read ({@link Posts}) as {@code [poster, file total, name, last article, [file
 * numbers]]}, least recently fed first. Format version 4: every binary holds parts of one posting
 * month (the month of its {@code posted}, see {@link Window.Key}). Versions 1 to 3, which builds
 * before the catalog was partitioned by month wrote, are refused like a damaged snapshot: their
 * binaries may mix parts of two months, and writing such a binary would put the parts of one
 * month in the other month's row, so the holder rebuilds the window from the catalog's cursor
 * instead (a redo of at most the window's maximum age, once per group). Reading is strict: an
 * unknown field, a missing one, a wrong token, a bad gzip stream or data after the end is a
 * {@link BadSnapshotException} naming what was wrong, which the snapshot stores treat as no
 * snapshot. The trade-off of a hand-written codec over data binding is code to keep in step with
 * {@link Window}'s fields, for no intermediate object per binary and a clear error per defect.
 *
 * <p>gzip compresses at its fastest level: a snapshot of a group's window of 50,000 articles (726
 * open binaries, the window benchmark's data) takes 13 ms of CPU and 243 kB at level 1, against 28
 * ms and 203 kB at the default level 6 (`bin/headway bench window`, 2026-12-07, format 1; format 2's
 * article numbers add a tenth: 263,098 against 289,869 bytes at 300,000 articles a group). A worker
 * snapshots every group it holds every few ranges, and writes the bytes once.
 */
final class WindowCodec {

    private static final String FORMAT = "headway.window";
    private static final int FORMAT_VERSION = 4;

    private static final JsonFactory JSON = JsonFactory.builder()
            .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
            .build()
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .disable(JsonParser.Feature.AUTO_CLOSE_SOURCE);

    private WindowCodec() {}

    /** Streams {@code w}'s counters and open binaries to {@code out}, which it leaves open. */
    static void write(Window w, OutputStream out) throws IOException {
        Window.Stats stats = w.stats();
        GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16) {
            {
                def.setLevel(Deflater.BEST_SPEED);
            }
        };
        try (JsonGenerator g = JSON.createGenerator(gz)) {
            g.writeStartObject();
            g.writeStringField("format", FORMAT);
            g.writeNumberField("formatVersion", FORMAT_VERSION);
            g.writeStringField("group", w.group());
            g.writeNumberField("maxAgeArticles", w.maxAgeArticles());
            g.writeNumberField("newestArticle", w.newestArticle());
            g.writeNumberField("accepted", stats.accepted());
            g.writeNumberField("unmatched", stats.unmatched());
            g.writeNumberField("rejected", stats.rejected());
            g.writeNumberField("duplicates", stats.duplicates());
            g.writeArrayFieldStart("binaries");
            for (Map.Entry<Window.Key, Window.Open> e : w.openBinaries().entrySet()) {
                writeBinary(g, e.getKey(), e.getValue());
            }
            g.writeEndArray();
            g.writeArrayFieldStart("posts");
            for (Map.Entry<Posts.Key, Posts.Post> e : w.posts().all()) {
                writePost(g, e.getKey(), e.getValue());
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        gz.finish();
        gz.flush();
    }

    /** Reads a window written by {@link #write}; anything else throws {@link BadSnapshotException}. */
    static Window read(InputStream in) throws BadSnapshotException {
        try {
            return readWindow(new GZIPInputStream(in, 1 << 16));
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

    /** A post as {@code [poster, file total, name, last article, [file numbers]]}. */
    private static void writePost(JsonGenerator g, Posts.Key k, Posts.Post post) throws IOException {
        g.writeStartArray();
        g.writeString(k.poster());
        g.writeNumber(k.fileTotal());
        g.writeString(post.name);
        g.writeNumber(post.lastArticle);
        int[] files = post.files();
        g.writeArray(files, 0, files.length);
        g.writeEndArray();
    }

    private static void writeBinary(JsonGenerator g, Window.Key k, Window.Open b) throws IOException {
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
            if (s.article() >= 0) {
                g.writeNumber(s.article() - b.firstArticle);
            }
            g.writeEndArray();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static Window readWindow(InputStream in) throws IOException {
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
                        int version = p.getIntValue();
                        if (!FORMAT.equals(format) || version != FORMAT_VERSION) {
                            throw new BadSnapshotException(
                                    "not a window snapshot of format " + FORMAT + " v" + FORMAT_VERSION
                                            + " (older versions may mix posting months in a binary: rebuild)",
                                    null);
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
                        w.restoreCounters(newest, counters[0], counters[1], counters[2], counters[3]);
                        expect(p, t, JsonToken.START_ARRAY);
                        while (p.nextToken() == JsonToken.START_OBJECT) {
                            readBinary(p, w);
                        }
                        expect(p, p.currentToken(), JsonToken.END_ARRAY);
                    }
                    case "posts" -> {
                        if (w == null) {
                            throw new BadSnapshotException("window snapshot has posts before its binaries", null);
                        }
                        expect(p, t, JsonToken.START_ARRAY);
                        while (p.nextToken() == JsonToken.START_ARRAY) {
                            readPost(p, w);
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

    private static void readBinary(JsonParser p, Window w) throws IOException {
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
        List<Long> distances = new ArrayList<>();
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
                        JsonToken next = p.nextToken();
                        Long distance = null;
                        if (next == JsonToken.VALUE_NUMBER_INT) {
                            distance = p.getLongValue();
                            next = p.nextToken();
                        }
                        expect(p, next, JsonToken.END_ARRAY);
                        segs.add(new Segment(part, bytes, id));
                        distances.add(distance);
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
        Window.Open b = new Window.Open(release, fileTotal, subject, posted, first, last, rule);
        for (int i = 0; i < segs.size(); i++) {
            Segment s = segs.get(i);
            Long distance = distances.get(i);
            b.parts.add(distance == null ? s : new Segment(s.part(), s.bytes(), s.messageId(), first + distance));
        }
        w.restoreOpen(new Window.Key(poster, file, total, new PostingMonth().of(posted)), b);
    }

    private static void readPost(JsonParser p, Window w) throws IOException {
        expect(p, p.nextToken(), JsonToken.VALUE_STRING);
        String poster = p.getText();
        expect(p, p.nextToken(), JsonToken.VALUE_NUMBER_INT);
        int fileTotal = p.getIntValue();
        expect(p, p.nextToken(), JsonToken.VALUE_STRING);
        String name = p.getText();
        expect(p, p.nextToken(), JsonToken.VALUE_NUMBER_INT);
        long last = p.getLongValue();
        expect(p, p.nextToken(), JsonToken.START_ARRAY);
        List<Integer> files = new ArrayList<>();
        while (p.nextToken() == JsonToken.VALUE_NUMBER_INT) {
            int file = p.getIntValue();
            if (file < 0 || file > fileTotal || files.size() > fileTotal) {
                throw new BadSnapshotException(
                        "a snapshot post of " + fileTotal + " files has file " + file + " or too many files", null);
            }
            files.add(file);
        }
        expect(p, p.currentToken(), JsonToken.END_ARRAY);
        expect(p, p.nextToken(), JsonToken.END_ARRAY);
        if (fileTotal < 2 || files.isEmpty()) {
            throw new BadSnapshotException("a snapshot post lacks its file total or its files", null);
        }
        w.posts()
                .restore(
                        new Posts.Key(poster, fileTotal),
                        new Posts.Post(
                                name, files.stream().mapToInt(Integer::intValue).toArray(), last));
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
