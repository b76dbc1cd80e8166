package headway.catalog;

import headway.category.CategoryRules;
import headway.index.CompletedBinary;
import headway.index.PostingMonth;
import headway.index.RejectedArticle;
import headway.index.Segment;
import headway.index.Window;
import headway.overview.HeaderFault;
import headway.store.CatalogCap;
import headway.store.Jdbc;
import headway.store.LeaseLostException;
import headway.store.StoreException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.postgresql.PGStatement;

/**
 * Reads and writes binaries, releases and missing-article runs. Invariant: a binary row holds
 * each part once, whatever order and however often it was written, because an upsert unites the
 * stored and the new segments by part number (the stored one wins a tie) and skips the row when
 * the new write adds nothing; its release row is then recomputed from the binaries. A binary's
 * release name is that of its first write, so a merge under the same rules never moves it to
 * another release; a write under a newer rule set (a redo or re-index) renames it, and the
 * release it left is recomputed or deleted when empty. A message-id is in a group's catalog at
 * most once ({@link Placements}): an article that a newer rule set keys into another binary
 * moves there. A batch is
 * written in chunks of {@value #CHUNK} binaries or {@value #CHUNK_SEGMENTS} segments: the binaries
 * the window marked fresh (opened past everything the catalog held when it took the group, never
 * handed over since) by binary COPY straight into the table ({@link BinaryCopy}, 0.25 us less of
 * PostgreSQL per header than the upsert, measured), the rest by one upsert statement of column arrays, which
 * measured as fast as COPY into a staging table when it was chosen. The cost is a read of the
 * stored arrays on every conflict, and a chunk held in memory at once.
 */
public final class CatalogStore {

    static final int CHUNK = 10_000;
    static final int CHUNK_SEGMENTS = 250_000;
    static final String FOREIGN_KEY_VIOLATION = "23503";
    private static final String UNIQUE_VIOLATION = "23505";

    /** How the writing build keys headers ({@link Window#KEYING}); another only in tests of an upgrade. */
    private final int keying;

    public CatalogStore() {
        this(Window.KEYING);
    }

    CatalogStore(int keying) {
        this.keying = keying;
    }

    private static final String SELECT_RELEASE = """
            select group_name, poster, name, files_expected, files_present, files_complete, bytes, posted,
                   completion_percent, complete, rule_version, category, title, season, episode, year, resolution,
                   real_name, named_by, password, imdb, episode_kind, last_episode, air_date, tvdb, tvmaze
            from releases
            where group_name = ? and poster = ? and name = ?
            """;

    private static final String NAMED_RELEASES = """
            select group_name, poster, name, files_expected, files_present, files_complete, bytes, posted,
                   completion_percent, complete, rule_version, category, title, season, episode, year, resolution,
                   real_name, named_by, password, imdb, episode_kind, last_episode, air_date, tvdb, tvmaze
            from releases
            where name ilike ? escape '\\' or real_name ilike ? escape '\\'
            order by posted desc nulls last, name, group_name, poster
            limit 1000
            """;

    private static final String SELECT_BINARIES_OF_RELEASE = """
            select group_name, poster, file_name, total_parts, release_name, file_total, subject, posted,
                   first_article, last_article, rule_version, part_numbers, segment_bytes, message_ids
            from binaries
            where group_name = ? and poster = ? and release_name = ?
            order by file_name, total_parts, posted_month
            """;

    /**
     * Whether one of the binaries just copied has a row of its file in one of the months given (by
     * {@link #hasSiblings}): planned with the months known, so only their partitions are read, one
     * look-up of the primary key in each per binary.
     */
    private static final String SIBLINGS_IN = """
            select exists (
                select 1
                from unnest(?::text[], ?::text[], ?::text[], ?::int[]) as k(g, p, f, t)
                join binaries b on b.group_name = k.g and b.poster = k.p and b.file_name = k.f and b.total_parts = k.t
                where b.posted_month = any(?::date[]))
            """;

    /** As {@link #SIBLINGS_IN}, for binaries without a date: a row of the file in any dated month. */
    private static final String SIBLINGS_DATED = """
            select exists (
                select 1
                from unnest(?::text[], ?::text[], ?::text[], ?::int[]) as k(g, p, f, t)
                join binaries b on b.group_name = k.g and b.poster = k.p and b.file_name = k.f and b.total_parts = k.t
                where b.posted_month > '-infinity'::date)
            """;

    /**
     * How near the start or end of its month a binary copied must have been posted for the other
     * half of its file to be looked for in the month beside it: a file is posted in minutes to hours,
     * so a half posted days into its month has no other half in the month before or after.
     */
    static final Duration NEAR_BOUNDARY = Duration.ofDays(2);

    /** {@link #writeBinaries(Connection, List, CategoryRules, int)} with the shipped default categories as version 0. */
    public void writeBinaries(Connection conn, List<CompletedBinary> binaries) throws SQLException {
        writeBinaries(conn, binaries, CategoryRules.defaults(), 0);
    }

    /**
     * Upserts binaries and recomputes their releases; repeats and partial re-writes merge by part
     * number. Each release is categorized by {@code categories}, the categories of rule-set
     * version {@code categoryVersion}; a release already categorized by a newer version keeps its
     * category, because its writer may still hold an older rule set after an import. No binary's
     * content can fail the write (see {@link #isolated}): in a transaction, a binary the catalog
     * cannot take is left out, and each of its articles goes to the {@code rejected_articles}
     * ledger, in this transaction, with the failure as its reason; those entries are returned.
     */
    public List<RejectedArticle> writeBinaries(
            Connection conn, List<CompletedBinary> binaries, CategoryRules categories, int categoryVersion)
            throws SQLException {
        List<CompletedBinary> unique = Placements.firstPlacements(mergeByKey(binaries));
        Set<List<String>> leftBehind = new LinkedHashSet<>();
        List<RejectedArticle> refused = new ArrayList<>();
        int from = 0;
        while (from < unique.size()) {
            int to = from;
            long segments = 0;
            while (to < unique.size()
                    && to - from < CHUNK
                    && (to == from || segments + unique.get(to).partsPresent() <= CHUNK_SEGMENTS)) {
                segments += unique.get(to).partsPresent();
                to++;
            }
            List<CompletedBinary> chunk = unique.subList(from, to);
            Map<CompletedBinary, Throwable> failed = isolated(
                    conn,
                    chunk,
                    part -> {
                        Set<List<String>> left = new LinkedHashSet<>();
                        writeChunk(conn, part, categories, categoryVersion, left);
                        return left;
                    },
                    leftBehind::addAll);
            failed.forEach((b, e) -> refused.addAll(refusal(b, e)));
            from = to;
        }
        if (!leftBehind.isEmpty()) {
            // a release whose recount fails alone keeps its row as it was: it holds none of this write's articles
            isolated(
                    conn,
                    new ArrayList<>(leftBehind),
                    keys -> {
                        ReleaseWriter.upsertReleaseKeys(conn, keys, categories, categoryVersion);
                        Placements.deleteEmptyReleases(conn, new LinkedHashSet<>(keys));
                        return null;
                    },
                    done -> {});
        }
        recordRejected(conn, refused);
        return refused;
    }

    /** Writes one chunk: its spans and placements, its binaries, their releases; releases it leaves go to {@code leftBehind}. */
    private void writeChunk(
            Connection conn,
            List<CompletedBinary> chunk,
            CategoryRules categories,
            int categoryVersion,
            Set<List<String>> leftBehind)
            throws SQLException {
        try {
            List<Placements.Overlap> overlaps = Placements.spans(conn, chunk, keying);
            boolean alone = overlaps.isEmpty();
            if (!alone) {
                leftBehind.addAll(Placements.relinked(conn, chunk));
                chunk = Placements.place(conn, chunk, overlaps, leftBehind);
            }
            if (!chunk.isEmpty()) {
                List<CompletedBinary> copied = upsertChunk(conn, chunk, alone);
                ReleaseWriter.writeReleases(conn, chunk, copied, categories, categoryVersion);
            }
        } catch (SQLException e) {
            throw unknownGroup(e);
        }
    }

    /** One write of some items, giving what {@code accept} takes when it went through. */
    @FunctionalInterface
    private interface Write<T, R> {
        R run(List<T> items) throws SQLException;
    }

    /**
     * Runs {@code write} on {@code items} under a savepoint, and when it fails for what the items
     * hold ({@link #refusedContent}), rolls back to it and runs each item alone under one of its own:
     * returns the items the catalog refused alone, each with its failure. What a write that went
     * through returns goes to {@code accept}. A failure of the database itself (the connection, a
     * lock, a cancelled statement, a full disk) ends the write as before. Without a transaction
     * (autocommit) there is no savepoint: the write runs as it is and its failure is the caller's.
     * The cost: two statements per write (the savepoint and its release); the refused content is
     * written again one item at a time, once.
     */
    private static <T, R> Map<T, Throwable> isolated(
            Connection conn, List<T> items, Write<T, R> write, Consumer<R> accept) throws SQLException {
        if (conn.getAutoCommit()) {
            accept.accept(write.run(items));
            return Map.of();
        }
        Throwable failure = attempt(conn, items, write, accept);
        if (failure == null) {
            return Map.of();
        }
        Map<T, Throwable> refused = new LinkedHashMap<>();
        if (items.size() == 1) {
            refused.put(items.get(0), failure);
            return refused;
        }
        for (T item : items) {
            Throwable alone = attempt(conn, List.of(item), write, accept);
            if (alone != null) {
                refused.put(item, alone);
            }
        }
        return refused;
    }

    /** {@code write} under a savepoint: null when it went through, else its content failure, rolled back. */
    private static <T, R> Throwable attempt(Connection conn, List<T> items, Write<T, R> write, Consumer<R> accept)
            throws SQLException {
        Savepoint before = conn.setSavepoint();
        R result;
        try {
            result = write.run(items);
        } catch (SQLException e) {
            if (!refusedContent(e)) {
                throw e;
            }
            conn.rollback(before);
            return e;
        } catch (RuntimeException | Error e) {
            if (e instanceof StoreException || e instanceof LeaseLostException || !HeaderFault.survivable(e)) {
                throw e;
            }
            conn.rollback(before);
            return e;
        }
        conn.releaseSavepoint(before);
        accept.accept(result);
        return null;
    }

    /**
     * Whether PostgreSQL (or the driver, before sending) refused the values of a write rather than
     * failed itself: a data exception (class 22: a NUL, a character the database's encoding lacks,
     * a date out of range), an integrity violation other than a missing group (class 23), or a
     * program limit (class 54: an index row too large).
     */
    static boolean refusedContent(SQLException e) {
        String state = e.getSQLState();
        if (state == null || state.length() != 5) {
            return false;
        }
        return state.startsWith("22")
                || state.startsWith("54")
                || (state.startsWith("23") && !FOREIGN_KEY_VIOLATION.equals(state));
    }

    /** The ledger's entries for the articles of {@code b}, which the catalog refused with {@code failure}. */
    private static List<RejectedArticle> refusal(CompletedBinary b, Throwable failure) {
        String reason = failure instanceof SQLException e
                ? "the catalog refused its binary: " + e.getSQLState() + " " + e.getMessage()
                : HeaderFault.reason("writing its binary", failure);
        String excerpt = b.subject() + '\t' + b.poster();
        List<RejectedArticle> out = new ArrayList<>(b.segments().size());
        for (Segment s : b.segments()) {
            if (s.article() >= 0) { // -1: read from an older build's snapshot, which did not keep the number
                out.add(new RejectedArticle(b.group(), s.article(), s.messageId(), reason, excerpt));
            }
        }
        return out;
    }

    /** Records that articles {@code from..to} (inclusive) are missing on the server; recording the same run again is a no-op. */
    public void recordMissing(Connection conn, String group, long from, long to) throws SQLException {
        CatalogLedger.recordMissing(conn, group, from, to, List.<long[]>of(new long[] {from, to}));
    }

    /** See {@link CatalogLedger#recordMissing(Connection, String, long, long, List)}. */
    public void recordMissing(Connection conn, String group, long from, long to, List<long[]> runs)
            throws SQLException {
        CatalogLedger.recordMissing(conn, group, from, to, runs);
    }

    /** See {@link CatalogLedger#recordRejected}. */
    public void recordRejected(Connection conn, List<RejectedArticle> rejected) throws SQLException {
        CatalogLedger.recordRejected(conn, rejected);
    }

    /** See {@link CatalogLedger#recordLongNames}. */
    public void recordLongNames(Connection conn, Map<String, String> longNames) throws SQLException {
        CatalogLedger.recordLongNames(conn, longNames);
    }

    /** The ledger of one group: article number to reason, in article order. */
    public Map<Long, String> rejected(Connection conn, String group) throws SQLException {
        return CatalogLedger.rejected(conn, group);
    }

    /** The recorded missing runs of a group, in article order. */
    public List<MissingRun> missing(DataSource ds, String group) throws SQLException {
        return CatalogLedger.missing(ds, group);
    }

    /** See {@link ReleaseWriter#recategorize}; returns how many releases changed. */
    public long recategorize(DataSource ds, CategoryRules categories, int version, int batch) throws SQLException {
        return ReleaseWriter.recategorize(ds, categories, version, batch);
    }

    public Optional<Release> release(DataSource ds, String group, String poster, String name) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return Jdbc.first(c, SELECT_RELEASE, CatalogStore::release, group, poster, name);
        }
    }

    /**
     * The releases named exactly {@code name} (by the subjects' name or the real name inspection
     * found), or when there are none, those whose name equals it but for case; newest first, at
     * most 1,000.
     */
    public List<Release> named(DataSource ds, String name) throws SQLException {
        String literal = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
        List<Release> found;
        try (Connection c = ds.getConnection()) {
            found = Jdbc.list(c, NAMED_RELEASES, CatalogStore::release, literal, literal);
        }
        List<Release> exact = found.stream()
                .filter(r -> r.name().equals(name) || name.equals(r.realName()))
                .toList();
        return exact.isEmpty() ? found : exact;
    }

    /** The binaries of a release with their segments in part order, ready for {@link headway.index.NzbWriter}. */
    public List<CompletedBinary> binaries(DataSource ds, Release release) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return mergeMonths(Jdbc.list(
                    c,
                    SELECT_BINARIES_OF_RELEASE,
                    CatalogStore::binary,
                    release.group(),
                    release.poster(),
                    release.name()));
        }
    }

    /**
     * One binary per file out of rows in posting-month order: the rows of a file posted across a
     * month boundary (one per month) become one, the earlier month's segment kept for a part both
     * hold, so an NZB lists each file once.
     */
    static List<CompletedBinary> mergeMonths(List<CompletedBinary> rows) {
        List<CompletedBinary> out = new ArrayList<>(rows.size());
        for (CompletedBinary b : rows) {
            CompletedBinary last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null
                    && last.totalParts() == b.totalParts()
                    && last.fileName().equals(b.fileName())
                    && last.poster().equals(b.poster())
                    && last.group().equals(b.group())) {
                out.set(out.size() - 1, union(last, b));
            } else {
                out.add(b);
            }
        }
        return out;
    }

    /** The catalog's on-disk size as the database function catalog_bytes() defines it: what the size cap compares. */
    public long catalogBytes(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return CatalogCap.catalogBytes(c);
        }
    }

    private static SQLException unknownGroup(SQLException e) {
        if (!FOREIGN_KEY_VIOLATION.equals(e.getSQLState())) {
            return e;
        }
        return new SQLException(
                "the group is not in table groups (" + e.getMessage()
                        + "); add the group before writing its binaries or missing runs",
                e.getSQLState(),
                e);
    }

    /** The binaries with one per row key: group, poster, file, total parts and posting month (the row's partition). */
    static List<CompletedBinary> mergeByKey(List<CompletedBinary> binaries) {
        Map<List<Object>, CompletedBinary> byKey = new LinkedHashMap<>();
        for (CompletedBinary b : binaries) {
            LocalDate month = PostingMonth.firstDay(b.posted());
            byKey.merge(
                    Arrays.asList(b.group(), b.poster(), b.fileName(), b.totalParts(), month), b, CatalogStore::union);
        }
        return new ArrayList<>(byKey.values());
    }

    private static CompletedBinary union(CompletedBinary a, CompletedBinary b) {
        TreeMap<Integer, Segment> parts = new TreeMap<>();
        for (Segment s : a.segments()) {
            parts.putIfAbsent(s.part(), s);
        }
        for (Segment s : b.segments()) {
            parts.putIfAbsent(s.part(), s);
        }
        CompletedBinary first = a.firstArticle() <= b.firstArticle() ? a : b;
        Instant posted = a.posted() == null
                ? b.posted()
                : b.posted() == null ? a.posted() : a.posted().isBefore(b.posted()) ? a.posted() : b.posted();
        return new CompletedBinary(
                a.group(),
                a.poster(),
                a.fileName(),
                a.totalParts(),
                a.releaseName(),
                Math.max(a.fileTotal(), b.fileTotal()),
                first.subject(),
                posted,
                Math.min(a.firstArticle(), b.firstArticle()),
                Math.max(a.lastArticle(), b.lastArticle()),
                a.ruleVersion(),
                new ArrayList<>(parts.values()),
                a.fresh() && b.fresh());
    }

    /**
     * Writes the chunk's binaries. When the chunk met no other rule spans ({@code alone}), those
     * the window marked {@link CompletedBinary#fresh() fresh} go by binary {@code COPY} ({@link
     * BinaryCopy}), and should one be in the catalog after all (a late part of a binary that aged
     * out, a repost under the same key, a holder fenced out mid-commit), the copy is rolled back to
     * its savepoint and the whole chunk merged. The rest are merged into their rows by one
     * statement of column arrays.
     */
    private static List<CompletedBinary> upsertChunk(Connection conn, List<CompletedBinary> chunk, boolean alone)
            throws SQLException {
        List<CompletedBinary> fresh = new ArrayList<>();
        List<CompletedBinary> merged = new ArrayList<>();
        for (CompletedBinary b : chunk) {
            (alone && b.fresh() ? fresh : merged).add(b);
        }
        if (!fresh.isEmpty() && !conn.getAutoCommit()) {
            Savepoint before = conn.setSavepoint();
            boolean copied;
            try {
                BinaryCopy.copy(conn, fresh);
                copied = !hasSiblings(conn, fresh);
            } catch (SQLException e) {
                if (!UNIQUE_VIOLATION.equals(e.getSQLState())) {
                    throw e;
                }
                copied = false;
            }
            if (copied) {
                conn.releaseSavepoint(before);
            } else {
                conn.rollback(before);
                merged = chunk;
                fresh = List.of();
            }
        } else {
            merged = chunk;
            fresh = List.of();
        }
        if (!merged.isEmpty()) {
            BinaryMerge.merge(conn, merged);
        }
        return fresh;
    }

    /**
     * Whether a binary just copied has a row of its file in another month, where a window may have
     * handed over the other half of a file posted across a month boundary (one it no longer held):
     * the month before or after for a binary posted within {@link #NEAR_BOUNDARY} of them, the
     * month of parts without a date for every one, and any dated month for one without a date.
     * Then its release must be recomputed rather than added to, or it would count the file twice.
     * One statement per set of months (usually two a chunk).
     */
    private static boolean hasSiblings(Connection conn, List<CompletedBinary> copied) throws SQLException {
        Map<List<String>, List<CompletedBinary>> byMonths = new LinkedHashMap<>();
        List<CompletedBinary> undated = new ArrayList<>();
        for (CompletedBinary b : copied) {
            if (b.posted() == null) {
                undated.add(b);
                continue;
            }
            LocalDate month = PostingMonth.firstDay(b.posted());
            Instant start = month.atStartOfDay(ZoneOffset.UTC).toInstant();
            Instant end = month.plusMonths(1).atStartOfDay(ZoneOffset.UTC).toInstant();
            boolean near = b.posted().isBefore(start.plus(NEAR_BOUNDARY))
                    || !b.posted().isBefore(end.minus(NEAR_BOUNDARY));
            List<String> months = new ArrayList<>(3);
            if (near) {
                // the months beside it that the catalog can hold: a binary of December 9999 has no month after it
                for (LocalDate beside : List.of(month.minusMonths(1), month.plusMonths(1))) {
                    if (beside.getYear() >= 1 && beside.getYear() <= 9999) {
                        months.add(beside.toString());
                    }
                }
            }
            months.add(UNDATED);
            byMonths.computeIfAbsent(months, m -> new ArrayList<>()).add(b);
        }
        for (Map.Entry<List<String>, List<CompletedBinary>> e : byMonths.entrySet()) {
            if (siblings(conn, SIBLINGS_IN, e.getValue(), e.getKey())) {
                return true;
            }
        }
        return !undated.isEmpty() && siblings(conn, SIBLINGS_DATED, undated, List.of());
    }

    /** The month of parts without a date, as the catalog writes it. */
    private static final String UNDATED = "-infinity";

    private static boolean siblings(Connection conn, String sql, List<CompletedBinary> binaries, List<String> months)
            throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            // never a server-side prepared statement: planned with the months known, it reads their partitions alone
            ps.unwrap(PGStatement.class).setPrepareThreshold(0);
            int next = SIBLING_KEYS.bind(ps, 1, binaries);
            if (!months.isEmpty()) {
                ps.setArray(next, conn.createArrayOf("date", months.toArray()));
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private static final ColumnArrays<CompletedBinary> SIBLING_KEYS = ColumnArrays.<CompletedBinary>of()
            .text(CompletedBinary::group)
            .text(CompletedBinary::poster)
            .text(CompletedBinary::fileName)
            .int4(CompletedBinary::totalParts);

    /**
     * A binary's segments in part order, each part once (the first): as {@link CompletedBinary}
     * promises and the window hands them over, so this copies only for a caller that did not.
     */
    static List<Segment> sortedByPart(List<Segment> segments) {
        for (int i = 1; i < segments.size(); i++) {
            if (segments.get(i).part() <= segments.get(i - 1).part()) {
                TreeMap<Integer, Segment> byPart = new TreeMap<>();
                for (Segment s : segments) {
                    byPart.putIfAbsent(s.part(), s);
                }
                return new ArrayList<>(byPart.values());
            }
        }
        return segments;
    }

    static Release release(ResultSet rs) throws SQLException {
        int expected = rs.getInt("files_expected");
        if (rs.wasNull()) {
            expected = -1;
        }
        Timestamp posted = rs.getTimestamp("posted");
        return new Release(
                rs.getString("group_name"),
                rs.getString("poster"),
                rs.getString("name"),
                expected,
                rs.getInt("files_present"),
                rs.getInt("files_complete"),
                rs.getLong("bytes"),
                posted == null ? null : posted.toInstant(),
                rs.getBigDecimal("completion_percent"),
                rs.getBoolean("complete"),
                rs.getInt("rule_version"),
                (Integer) rs.getObject("category"),
                rs.getString("title"),
                (Integer) rs.getObject("season"),
                rs.getString("episode"),
                (Integer) rs.getObject("year"),
                rs.getString("resolution"),
                rs.getString("real_name"),
                rs.getString("named_by"),
                rs.getInt("password"),
                rs.getString("imdb"),
                rs.getString("episode_kind"),
                (Integer) rs.getObject("last_episode"),
                rs.getObject("air_date", LocalDate.class),
                (Long) rs.getObject("tvdb"),
                (Long) rs.getObject("tvmaze"));
    }

    private static CompletedBinary binary(ResultSet rs) throws SQLException {
        Integer[] parts = (Integer[]) array(rs.getArray("part_numbers"));
        Integer[] bytes = (Integer[]) array(rs.getArray("segment_bytes"));
        List<String> ids = PackedIds.unpack(
                rs.getBytes("message_ids"),
                parts.length,
                "binary " + rs.getString("file_name") + " of " + rs.getString("group_name"));
        List<Segment> segments = new ArrayList<>(parts.length);
        for (int i = 0; i < parts.length; i++) {
            segments.add(new Segment(parts[i], bytes[i], ids.get(i)));
        }
        Timestamp posted = rs.getTimestamp("posted");
        return new CompletedBinary(
                rs.getString("group_name"),
                rs.getString("poster"),
                rs.getString("file_name"),
                rs.getInt("total_parts"),
                rs.getString("release_name"),
                rs.getInt("file_total"),
                rs.getString("subject"),
                posted == null ? null : posted.toInstant(),
                rs.getLong("first_article"),
                rs.getLong("last_article"),
                rs.getInt("rule_version"),
                segments);
    }

    static Object array(Array a) throws SQLException {
        try {
            return a.getArray();
        } finally {
            a.free();
        }
    }
}
