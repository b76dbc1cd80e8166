package headway.catalog;

import headway.index.CompletedBinary;
import headway.index.PostingMonth;
import headway.index.Segment;
import headway.index.Window;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where each article of a group is cataloged: the invariant "an article is in a group's catalog
 * at most once, whatever rule set keyed the writes", kept by the catalog's write path in the
 * writer's fenced transaction. Writes of one rule version and one keying ({@link Window#KEYING},
 * how the writing build keys a header beyond the rule set) key an article alike, so it lands in
 * the same binary row and merges; a write that carries one message-id twice keeps its first
 * segment; and an article has one number in its group. So {@code rule_spans} records per group,
 * rule version and keying the span of article numbers written and the widest binary, and a chunk
 * whose span meets no other span of its group is written as it is, with nothing per article
 * beyond the upsert. A chunk whose span meets another (a redo or re-index under a newer rule set
 * or after an upgrade, or a late write under an older rule set) compares its message-ids, before
 * its upsert, with the binaries in the overlap that hold them under another key: the newer rule
 * set keeps the article (the write on a tie); a binary of an older version gives it up (and is
 * deleted when left without parts, its release recomputed or deleted), and a segment of the chunk
 * that a newer version holds is not written. A binary the newer version keys alike moves to the
 * newer version's release.
 */
final class Placements {

    /** Binaries that a write under a newer rule set moves to another release: their old releases. */
    private static final String RELINKED = """
            select b.group_name, b.poster, b.release_name
            from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::int[]) as k(g, p, f, t, n, v)
            cross join lateral (select * from binaries b
                                where b.group_name = k.g and b.poster = k.p and b.file_name = k.f and b.total_parts = k.t
                                offset 0) b
            where b.rule_version < k.v and b.release_name <> k.n
            """;

    /**
     * Grows the spans of the chunk's (group, rule version) at this keying and returns, per group
     * whose span meets a span of another rule version or keying, the chunk's span there and the
     * widest binary of the spans met (the join reads the spans as they were before the insert:
     * one statement, one snapshot).
     */
    private static final String SPANS = """
            with k as (select ?::int as y, k.g, k.v, min(k.lo) as lo, max(k.hi) as hi, max(k.hi - k.lo) as w
                       from unnest(?::text[], ?::int[], ?::bigint[], ?::bigint[]) as k(g, v, lo, hi)
                       group by k.g, k.v),
                 grown as (insert into rule_spans as s (group_name, rule_version, keying, first_article, last_article, widest)
                           select k.g, k.v, k.y, k.lo, k.hi, k.w from k
                           on conflict (group_name, rule_version, keying) do update
                           set first_article = least(s.first_article, excluded.first_article),
                               last_article = greatest(s.last_article, excluded.last_article),
                               widest = greatest(s.widest, excluded.widest)
                           where excluded.first_article < s.first_article or excluded.last_article > s.last_article
                              or excluded.widest > s.widest)
            select k.g, min(k.lo), max(k.hi), max(s.widest)
            from k
            join rule_spans s on s.group_name = k.g and (s.rule_version, s.keying) <> (k.v, k.y)
                             and s.first_article <= k.hi and s.last_article >= k.lo
            group by k.g
            """;

    /**
     * The binaries in the overlap, with their packed message-ids, which the writer compares with
     * the chunk's (in Java: the ids are packed, V34). The binaries are found by
     * {@code binaries_span}: a binary of a span met meets the chunk's span only if its first
     * article is within that span's widest binary of it.
     */
    private static final String HELD = """
            select b.group_name, b.poster, b.file_name, b.total_parts, b.rule_version, b.posted_month::text,
                   cardinality(b.part_numbers), b.message_ids
            from unnest(?::text[], ?::bigint[], ?::bigint[], ?::bigint[]) as o(g, lo, hi, w)
            join binaries b on b.group_name = o.g
                           and b.first_article between o.lo - o.w and o.hi and b.last_article >= o.lo
            """;

    /** A binary's key: group, poster, file name, total parts (the posting month apart). */
    private static final ColumnArrays<CompletedBinary> KEYS = ColumnArrays.<CompletedBinary>of()
            .text(CompletedBinary::group)
            .text(CompletedBinary::poster)
            .text(CompletedBinary::fileName)
            .int4(CompletedBinary::totalParts);

    private static final ColumnArrays<CompletedBinary> RELINK_COLUMNS =
            KEYS.text(CompletedBinary::releaseName).int4(CompletedBinary::ruleVersion);

    private static final ColumnArrays<CompletedBinary> SPAN_COLUMNS = ColumnArrays.<CompletedBinary>of()
            .text(CompletedBinary::group)
            .int4(CompletedBinary::ruleVersion)
            .int8(CompletedBinary::firstArticle)
            .int8(CompletedBinary::lastArticle);

    private static final ColumnArrays<Overlap> OVERLAPS = ColumnArrays.<Overlap>of()
            .text(Overlap::group)
            .int8(Overlap::from)
            .int8(Overlap::to)
            .int8(Overlap::widest);

    /** An article the chunk takes from the binary row (group, poster, file, total, month) that holds it. */
    private record Lost(String group, String poster, String file, int total, String month, String messageId) {}

    private static final ColumnArrays<Lost> LOST_FROM = ColumnArrays.<Lost>of()
            .text(Lost::group)
            .text(Lost::poster)
            .text(Lost::file)
            .int4(Lost::total)
            .text(Lost::month);

    private static final ColumnArrays<List<String>> RELEASE_KEYS = ColumnArrays.<List<String>>of()
            .text(k -> k.get(0))
            .text(k -> k.get(1))
            .text(k -> k.get(2));

    /** The rows that lose articles, locked: their segments, which the writer filters in Java (the ids are packed). */
    private static final String LOSERS = """
            select b.group_name, b.poster, b.file_name, b.total_parts, b.posted_month::text, b.release_name,
                   b.part_numbers, b.segment_bytes, b.message_ids
            from (select distinct * from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[])
                                              as l(g, p, f, t, month)) l
            join binaries b on b.group_name = l.g and b.poster = l.p and b.file_name = l.f and b.total_parts = l.t
                           and b.posted_month = l.month::date
            for update of b
            """;

    /** Writes rows' segments left after the articles they lost. */
    private static final String KEEP = """
            update binaries b
            set part_numbers = string_to_array(k.parts, ' ')::int[], segment_bytes = string_to_array(k.sizes, ' ')::int[],
                message_ids = k.ids, bytes = k.bytes
            from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::text[], ?::text[], ?::bytea[], ?::bigint[])
                 as k(g, p, f, t, month, parts, sizes, ids, bytes)
            where b.group_name = k.g and b.poster = k.p and b.file_name = k.f and b.total_parts = k.t
              and b.posted_month = k.month::date
            """;

    private static final String DELETE_EMPTY_BINARIES = """
            delete from binaries b
            using unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[]) as k(g, p, f, t, month)
            where b.group_name = k.g and b.poster = k.p and b.file_name = k.f and b.total_parts = k.t
              and b.posted_month = k.month::date and cardinality(b.part_numbers) = 0
            """;

    private static final String DELETE_EMPTY_RELEASES = """
            delete from releases r
            using unnest(?::text[], ?::text[], ?::text[]) as k(g, p, n)
            where r.group_name = k.g and r.poster = k.p and r.name = k.n
              and not exists (select 1 from binaries b
                              where b.group_name = r.group_name and b.poster = r.poster and b.release_name = r.name)
            """;

    private Placements() {}

    /**
     * Drops from {@code binaries} every segment whose message-id an earlier segment of the same
     * write holds already, and the binaries left empty, because one write places an article once.
     */
    static List<CompletedBinary> firstPlacements(List<CompletedBinary> binaries) {
        int segments = 0;
        for (CompletedBinary b : binaries) {
            segments += b.segments().size();
        }
        Set<String> placed = new HashSet<>(Math.max(16, segments * 4 / 3 + 1));
        List<CompletedBinary> out = null;
        for (int i = 0; i < binaries.size(); i++) {
            CompletedBinary b = binaries.get(i);
            List<Segment> kept = null;
            for (int s = 0; s < b.segments().size(); s++) {
                Segment seg = b.segments().get(s);
                if (!seg.messageId().isEmpty() && !placed.add(seg.messageId())) {
                    if (kept == null) {
                        kept = new ArrayList<>(b.segments().subList(0, s));
                    }
                } else if (kept != null) {
                    kept.add(seg);
                }
            }
            if (kept != null && out == null) {
                out = new ArrayList<>(binaries.subList(0, i));
            }
            if (out != null) {
                if (kept == null) {
                    out.add(b);
                } else if (!kept.isEmpty()) {
                    out.add(withSegments(b, kept));
                }
            }
        }
        return out == null ? binaries : out;
    }

    /** The releases that the chunk's binaries leave because a newer rule set names them otherwise; call before the upsert. */
    static Set<List<String>> relinked(Connection conn, List<CompletedBinary> chunk) throws SQLException {
        Set<List<String>> out = new LinkedHashSet<>();
        try (PreparedStatement ps = conn.prepareStatement(RELINKED)) {
            RELINK_COLUMNS.bind(ps, 1, chunk);
            readKeys(ps, out);
        }
        return out;
    }

    /** A group where a chunk meets spans of other rule versions or keyings: the chunk's span there, and the widest binary of those. */
    record Overlap(String group, long from, long to, long widest) {}

    /**
     * Grows the spans of the chunk's rule versions at {@code keying}; returns the groups where the
     * chunk meets other spans (none in the common write).
     */
    static List<Overlap> spans(Connection conn, List<CompletedBinary> chunk, int keying) throws SQLException {
        List<Overlap> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(SPANS)) {
            ps.setInt(1, keying);
            SPAN_COLUMNS.bind(ps, 2, chunk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Overlap(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)));
                }
            }
        }
        return out;
    }

    /**
     * Before the upsert of a chunk that meets other spans: takes each of the chunk's articles that
     * a binary of the same or an older rule version holds under another key out of that binary
     * (deleting binaries left without parts), and returns the chunk without the segments that a
     * binary of a newer version holds. The releases of the binaries changed go to {@code changed}.
     */
    static List<CompletedBinary> place(
            Connection conn, List<CompletedBinary> chunk, List<Overlap> overlaps, Set<List<String>> changed)
            throws SQLException {
        int n = chunk.size();
        Map<String, List<Integer>> owners = new HashMap<>();
        for (int i = 0; i < n; i++) {
            for (Segment seg : chunk.get(i).segments()) {
                if (!seg.messageId().isEmpty()) {
                    List<Integer> of = owners.computeIfAbsent(seg.messageId(), m -> new ArrayList<>(1));
                    if (of.isEmpty() || of.get(of.size() - 1) != i) {
                        of.add(i);
                    }
                }
            }
        }
        List<Lost> lost = new ArrayList<>();
        Map<Integer, Set<String>> kept = new HashMap<>();
        try (PreparedStatement ps = conn.prepareStatement(HELD)) {
            OVERLAPS.bind(ps, 1, overlaps);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String group = rs.getString(1);
                    String poster = rs.getString(2);
                    String file = rs.getString(3);
                    int total = rs.getInt(4);
                    int version = rs.getInt(5);
                    String month = rs.getString(6);
                    List<String> ids =
                            PackedIds.unpack(rs.getBytes(8), rs.getInt(7), "binary " + file + " of " + group);
                    for (String messageId : new LinkedHashSet<>(ids)) {
                        List<Integer> of = owners.get(messageId);
                        if (of == null) {
                            continue;
                        }
                        for (int idx : of) {
                            CompletedBinary b = chunk.get(idx);
                            if (!b.group().equals(group)
                                    || (b.poster().equals(poster)
                                            && b.fileName().equals(file)
                                            && b.totalParts() == total
                                            && month(b).equals(month))) {
                                continue;
                            }
                            if (b.ruleVersion() >= version) {
                                lost.add(new Lost(group, poster, file, total, month, messageId));
                            } else {
                                kept.computeIfAbsent(idx, i -> new HashSet<>()).add(messageId);
                            }
                        }
                    }
                }
            }
        }
        if (!lost.isEmpty()) {
            remove(conn, lost, changed);
            try (PreparedStatement ps = conn.prepareStatement(DELETE_EMPTY_BINARIES)) {
                LOST_FROM.bind(ps, 1, lost);
                ps.executeUpdate();
            }
        }
        if (kept.isEmpty()) {
            return chunk;
        }
        List<CompletedBinary> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            CompletedBinary b = chunk.get(i);
            Set<String> heldByNewer = kept.get(i);
            if (heldByNewer == null) {
                out.add(b);
                continue;
            }
            List<Segment> left = new ArrayList<>();
            for (Segment seg : b.segments()) {
                if (!heldByNewer.contains(seg.messageId())) {
                    left.add(seg);
                }
            }
            if (!left.isEmpty()) {
                out.add(withSegments(b, left));
            }
        }
        return out;
    }

    /** The posting month of a binary's row as PostgreSQL writes the date: its first day, or -infinity. */
    private static String month(CompletedBinary b) {
        return b.posted() == null
                ? "-infinity"
                : PostingMonth.firstDay(b.posted()).toString();
    }

    /** A row's segments after it lost articles. */
    private record Left(Lost key, String parts, String sizes, byte[] ids, long bytes) {}

    private static final ColumnArrays<Left> LEFT = ColumnArrays.<Left>of()
            .text(l -> l.key().group())
            .text(l -> l.key().poster())
            .text(l -> l.key().file())
            .int4(l -> l.key().total())
            .text(l -> l.key().month())
            .text(Left::parts)
            .text(Left::sizes)
            .bytea(Left::ids)
            .int8(Left::bytes);

    /** Takes the {@code lost} articles out of the rows that hold them; their releases go to {@code changed}. */
    private static void remove(Connection conn, List<Lost> lost, Set<List<String>> changed) throws SQLException {
        Map<List<Object>, Set<String>> byRow = new HashMap<>();
        for (Lost l : lost) {
            byRow.computeIfAbsent(List.of(l.group(), l.poster(), l.file(), l.total(), l.month()), k -> new HashSet<>())
                    .add(l.messageId());
        }
        List<Left> left = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(LOSERS)) {
            LOST_FROM.bind(ps, 1, lost);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Lost key = new Lost(
                            rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getString(5), "");
                    Set<String> gone =
                            byRow.get(List.of(key.group(), key.poster(), key.file(), key.total(), key.month()));
                    Integer[] parts = (Integer[]) rs.getArray(7).getArray();
                    Integer[] sizes = (Integer[]) rs.getArray(8).getArray();
                    List<String> ids = PackedIds.unpack(rs.getBytes(9), parts.length, "binary " + key.file());
                    List<Segment> kept = new ArrayList<>(parts.length);
                    StringBuilder p = new StringBuilder();
                    StringBuilder y = new StringBuilder();
                    long bytes = 0;
                    for (int i = 0; i < parts.length; i++) {
                        if (gone.contains(ids.get(i))) {
                            continue;
                        }
                        kept.add(new Segment(parts[i], sizes[i], ids.get(i)));
                        if (p.length() > 0) {
                            p.append(' ');
                            y.append(' ');
                        }
                        p.append(parts[i]);
                        y.append(sizes[i]);
                        bytes += sizes[i];
                    }
                    left.add(new Left(key, p.toString(), y.toString(), PackedIds.pack(kept), bytes));
                    changed.add(List.of(key.group(), key.poster(), rs.getString(6)));
                }
            }
        }
        try (PreparedStatement ps = conn.prepareStatement(KEEP)) {
            LEFT.bind(ps, 1, left);
            ps.executeUpdate();
        }
    }

    /** Deletes those of {@code releases} that no binary names any more. */
    static void deleteEmptyReleases(Connection conn, Set<List<String>> releases) throws SQLException {
        if (releases.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = conn.prepareStatement(DELETE_EMPTY_RELEASES)) {
            RELEASE_KEYS.bind(ps, 1, List.copyOf(releases));
            ps.executeUpdate();
        }
    }

    private static void readKeys(PreparedStatement ps, Set<List<String>> out) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(List.of(rs.getString(1), rs.getString(2), rs.getString(3)));
            }
        }
    }

    /** {@code b} with {@code segments} instead of its own. */
    static CompletedBinary withSegments(CompletedBinary b, List<Segment> segments) {
        return new CompletedBinary(
                b.group(),
                b.poster(),
                b.fileName(),
                b.totalParts(),
                b.releaseName(),
                b.fileTotal(),
                b.subject(),
                b.posted(),
                b.firstArticle(),
                b.lastArticle(),
                b.ruleVersion(),
                segments,
                b.fresh());
    }
}
