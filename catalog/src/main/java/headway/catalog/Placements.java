package headway.catalog;

import headway.index.CompletedBinary;
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
     * The chunk's articles that binaries in the overlap hold under another key, before the
     * chunk's upsert: by the chunk's binary (its index) and message-id, with the holder's key and
     * rule version. The holders are found by {@code binaries_span}: a binary of a span met meets
     * the chunk's span only if its first article is within that span's widest binary of it.
     */
    private static final String HELD = """
            with n as materialized (select * from unnest(?::int[], ?::text[]) as n(idx, m) where n.m <> ''),
                 k as (select * from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[])
                                     with ordinality as k(g, p, f, t, posted, idx)),
                 o as (select * from unnest(?::text[], ?::bigint[], ?::bigint[], ?::bigint[]) as o(g, lo, hi, w))
            select n.idx, n.m, b.poster, b.file_name, b.total_parts, b.rule_version, b.posted_month::text
            from o
            join binaries b on b.group_name = o.g
                           and b.first_article between o.lo - o.w and o.hi and b.last_article >= o.lo
            cross join lateral unnest(message_id_array(b.message_ids)) as x(m)
            join n on n.m = x.m
            join k on k.idx = n.idx and k.g = b.group_name
            where (b.poster, b.file_name, b.total_parts, b.posted_month)
                  is distinct from (k.p, k.f, k.t,
                                    coalesce(date_trunc('month', k.posted::timestamptz at time zone 'UTC')::date,
                                             '-infinity'::date))
            """;

    /** A binary's key: group, poster, file name, total parts (the posting month apart). */
    private static final ColumnArrays<CompletedBinary> KEYS = ColumnArrays.<CompletedBinary>of()
            .text(CompletedBinary::group)
            .text(CompletedBinary::poster)
            .text(CompletedBinary::fileName)
            .int4(CompletedBinary::totalParts);

    /** A binary row's key: its binary's key and when it was posted, whose month is the row's partition. */
    private static final ColumnArrays<CompletedBinary> ROW_KEYS =
            KEYS.text(b -> b.posted() == null ? null : b.posted().toString());

    private static final ColumnArrays<CompletedBinary> RELINK_COLUMNS =
            KEYS.text(CompletedBinary::releaseName).int4(CompletedBinary::ruleVersion);

    private static final ColumnArrays<CompletedBinary> SPAN_COLUMNS = ColumnArrays.<CompletedBinary>of()
            .text(CompletedBinary::group)
            .int4(CompletedBinary::ruleVersion)
            .int8(CompletedBinary::firstArticle)
            .int8(CompletedBinary::lastArticle);

    /** A segment of the chunk: its binary's place in the chunk (from 1) and its message-id. */
    private record Owned(int binary, String messageId) {}

    private static final ColumnArrays<Owned> OWNED =
            ColumnArrays.<Owned>of().int4(Owned::binary).text(Owned::messageId);

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

    private static final ColumnArrays<Lost> LOST = LOST_FROM.text(Lost::messageId);

    private static final ColumnArrays<List<String>> RELEASE_KEYS = ColumnArrays.<List<String>>of()
            .text(k -> k.get(0))
            .text(k -> k.get(1))
            .text(k -> k.get(2));

    /** Removes the given message-ids from their binaries; returns the releases of the binaries changed. */
    private static final String REMOVE = """
            with x as (select l.g, l.p, l.f, l.t, l.month::date as month, array_agg(l.m) as ms
                       from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::text[])
                            as l(g, p, f, t, month, m)
                       group by l.g, l.p, l.f, l.t, l.month)
            update binaries b
            set (part_numbers, segment_bytes, message_ids, bytes) = (
                select coalesce(array_agg(u.p order by u.p), '{}'), coalesce(array_agg(u.y order by u.p), '{}'),
                       coalesce(string_agg(u.m, E'\t' order by u.p), ''), coalesce(sum(u.y), 0)
                from unnest(b.part_numbers, b.segment_bytes, message_id_array(b.message_ids)) as u(p, y, m)
                where u.m <> all(x.ms))
            from x
            where b.group_name = x.g and b.poster = x.p and b.file_name = x.f and b.total_parts = x.t
              and b.posted_month = x.month
            returning b.group_name, b.poster, b.release_name
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
        List<Owned> owned = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (Segment seg : chunk.get(i).segments()) {
                owned.add(new Owned(i + 1, seg.messageId()));
            }
        }
        List<Lost> lost = new ArrayList<>();
        Map<Integer, Set<String>> kept = new HashMap<>();
        try (PreparedStatement ps = conn.prepareStatement(HELD)) {
            int next = OWNED.bind(ps, 1, owned);
            next = ROW_KEYS.bind(ps, next, chunk);
            OVERLAPS.bind(ps, next, overlaps);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int idx = rs.getInt(1) - 1;
                    String messageId = rs.getString(2);
                    if (chunk.get(idx).ruleVersion() >= rs.getInt(6)) {
                        lost.add(new Lost(
                                chunk.get(idx).group(),
                                rs.getString(3),
                                rs.getString(4),
                                rs.getInt(5),
                                rs.getString(7),
                                messageId));
                    } else {
                        kept.computeIfAbsent(idx, i -> new HashSet<>()).add(messageId);
                    }
                }
            }
        }
        if (!lost.isEmpty()) {
            try (PreparedStatement ps = conn.prepareStatement(REMOVE)) {
                LOST.bind(ps, 1, lost);
                readKeys(ps, changed);
            }
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
