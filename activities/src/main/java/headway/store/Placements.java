package headway.store;

import headway.index.CompletedBinary;
import headway.index.Segment;
import headway.index.Window;
import java.sql.Array;
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
import org.postgresql.PGConnection;

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
                 k as (select * from unnest(?::text[], ?::text[], ?::text[], ?::int[]) with ordinality as k(g, p, f, t, idx)),
                 o as (select * from unnest(?::text[], ?::bigint[], ?::bigint[], ?::bigint[]) as o(g, lo, hi, w))
            select n.idx, n.m, b.poster, b.file_name, b.total_parts, b.rule_version
            from o
            join binaries b on b.group_name = o.g
                           and b.first_article between o.lo - o.w and o.hi and b.last_article >= o.lo
            cross join lateral unnest(b.message_ids) as x(m)
            join n on n.m = x.m
            join k on k.idx = n.idx and k.g = b.group_name
            where (b.poster, b.file_name, b.total_parts) is distinct from (k.p, k.f, k.t)
            """;

    /** Removes the given message-ids from their binaries; returns the releases of the binaries changed. */
    private static final String REMOVE = """
            with x as (select l.g, l.p, l.f, l.t, array_agg(l.m) as ms
                       from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[]) as l(g, p, f, t, m)
                       group by l.g, l.p, l.f, l.t)
            update binaries b
            set (part_numbers, segment_bytes, message_ids, bytes) = (
                select coalesce(array_agg(u.p order by u.p), '{}'), coalesce(array_agg(u.y order by u.p), '{}'),
                       coalesce(array_agg(u.m order by u.p), '{}'), coalesce(sum(u.y), 0)
                from unnest(b.part_numbers, b.segment_bytes, b.message_ids) as u(p, y, m)
                where u.m <> all(x.ms))
            from x
            where b.group_name = x.g and b.poster = x.p and b.file_name = x.f and b.total_parts = x.t
            returning b.group_name, b.poster, b.release_name
            """;

    private static final String DELETE_EMPTY_BINARIES = """
            delete from binaries b
            using unnest(?::text[], ?::text[], ?::text[], ?::int[]) as k(g, p, f, t)
            where b.group_name = k.g and b.poster = k.p and b.file_name = k.f and b.total_parts = k.t
              and cardinality(b.part_numbers) = 0
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
        Map<String, Integer> owner = new HashMap<>();
        List<CompletedBinary> out = null;
        for (int i = 0; i < binaries.size(); i++) {
            CompletedBinary b = binaries.get(i);
            List<Segment> kept = null;
            for (int s = 0; s < b.segments().size(); s++) {
                Segment seg = b.segments().get(s);
                Integer first = seg.messageId().isEmpty() ? null : owner.putIfAbsent(seg.messageId(), i);
                if (first != null) {
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
        int n = chunk.size();
        String[] groups = new String[n];
        String[] posters = new String[n];
        String[] files = new String[n];
        int[] totals = new int[n];
        String[] releases = new String[n];
        int[] versions = new int[n];
        for (int i = 0; i < n; i++) {
            CompletedBinary b = chunk.get(i);
            groups[i] = b.group();
            posters[i] = b.poster();
            files[i] = b.fileName();
            totals[i] = b.totalParts();
            releases[i] = b.releaseName();
            versions[i] = b.ruleVersion();
        }
        PGConnection pg = conn.unwrap(PGConnection.class);
        Set<List<String>> out = new LinkedHashSet<>();
        try (PreparedStatement ps = conn.prepareStatement(RELINKED)) {
            ps.setArray(1, pg.createArrayOf("text", groups));
            ps.setArray(2, pg.createArrayOf("text", posters));
            ps.setArray(3, pg.createArrayOf("text", files));
            ps.setArray(4, pg.createArrayOf("int4", totals));
            ps.setArray(5, pg.createArrayOf("text", releases));
            ps.setArray(6, pg.createArrayOf("int4", versions));
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
        int n = chunk.size();
        String[] groups = new String[n];
        int[] versions = new int[n];
        long[] firsts = new long[n];
        long[] lasts = new long[n];
        for (int i = 0; i < n; i++) {
            CompletedBinary b = chunk.get(i);
            groups[i] = b.group();
            versions[i] = b.ruleVersion();
            firsts[i] = b.firstArticle();
            lasts[i] = b.lastArticle();
        }
        PGConnection pg = conn.unwrap(PGConnection.class);
        List<Overlap> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(SPANS)) {
            ps.setInt(1, keying);
            ps.setArray(2, pg.createArrayOf("text", groups));
            ps.setArray(3, pg.createArrayOf("int4", versions));
            ps.setArray(4, pg.createArrayOf("int8", firsts));
            ps.setArray(5, pg.createArrayOf("int8", lasts));
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
        String[] groups = new String[n];
        String[] posters = new String[n];
        String[] files = new String[n];
        int[] totals = new int[n];
        int segments = 0;
        for (int i = 0; i < n; i++) {
            CompletedBinary b = chunk.get(i);
            groups[i] = b.group();
            posters[i] = b.poster();
            files[i] = b.fileName();
            totals[i] = b.totalParts();
            segments += b.segments().size();
        }
        int[] owners = new int[segments];
        String[] ids = new String[segments];
        int s = 0;
        for (int i = 0; i < n; i++) {
            for (Segment seg : chunk.get(i).segments()) {
                owners[s] = i + 1;
                ids[s] = seg.messageId();
                s++;
            }
        }
        int o = overlaps.size();
        String[] overlapGroups = new String[o];
        long[] froms = new long[o];
        long[] tos = new long[o];
        long[] widest = new long[o];
        for (int j = 0; j < o; j++) {
            Overlap ov = overlaps.get(j);
            overlapGroups[j] = ov.group();
            froms[j] = ov.from();
            tos[j] = ov.to();
            widest[j] = ov.widest();
        }
        PGConnection pg = conn.unwrap(PGConnection.class);
        List<String> loserGroups = new ArrayList<>();
        List<String> loserPosters = new ArrayList<>();
        List<String> loserFiles = new ArrayList<>();
        List<Integer> loserTotals = new ArrayList<>();
        List<String> lost = new ArrayList<>();
        Map<Integer, Set<String>> kept = new HashMap<>();
        try (PreparedStatement ps = conn.prepareStatement(HELD)) {
            ps.setArray(1, pg.createArrayOf("int4", owners));
            ps.setArray(2, pg.createArrayOf("text", ids));
            ps.setArray(3, pg.createArrayOf("text", groups));
            ps.setArray(4, pg.createArrayOf("text", posters));
            ps.setArray(5, pg.createArrayOf("text", files));
            ps.setArray(6, pg.createArrayOf("int4", totals));
            ps.setArray(7, pg.createArrayOf("text", overlapGroups));
            ps.setArray(8, pg.createArrayOf("int8", froms));
            ps.setArray(9, pg.createArrayOf("int8", tos));
            ps.setArray(10, pg.createArrayOf("int8", widest));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int idx = rs.getInt(1) - 1;
                    String messageId = rs.getString(2);
                    if (chunk.get(idx).ruleVersion() >= rs.getInt(6)) {
                        loserGroups.add(groups[idx]);
                        loserPosters.add(rs.getString(3));
                        loserFiles.add(rs.getString(4));
                        loserTotals.add(rs.getInt(5));
                        lost.add(messageId);
                    } else {
                        kept.computeIfAbsent(idx, i -> new HashSet<>()).add(messageId);
                    }
                }
            }
        }
        if (!lost.isEmpty()) {
            Array g = pg.createArrayOf("text", loserGroups.toArray(new String[0]));
            Array p = pg.createArrayOf("text", loserPosters.toArray(new String[0]));
            Array f = pg.createArrayOf("text", loserFiles.toArray(new String[0]));
            Array t = pg.createArrayOf("int4", loserTotals.toArray(new Integer[0]));
            try (PreparedStatement ps = conn.prepareStatement(REMOVE)) {
                ps.setArray(1, g);
                ps.setArray(2, p);
                ps.setArray(3, f);
                ps.setArray(4, t);
                ps.setArray(5, pg.createArrayOf("text", lost.toArray(new String[0])));
                readKeys(ps, changed);
            }
            try (PreparedStatement ps = conn.prepareStatement(DELETE_EMPTY_BINARIES)) {
                ps.setArray(1, g);
                ps.setArray(2, p);
                ps.setArray(3, f);
                ps.setArray(4, t);
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
        int n = releases.size();
        String[] groups = new String[n];
        String[] posters = new String[n];
        String[] names = new String[n];
        int i = 0;
        for (List<String> k : releases) {
            groups[i] = k.get(0);
            posters[i] = k.get(1);
            names[i] = k.get(2);
            i++;
        }
        PGConnection pg = conn.unwrap(PGConnection.class);
        try (PreparedStatement ps = conn.prepareStatement(DELETE_EMPTY_RELEASES)) {
            ps.setArray(1, pg.createArrayOf("text", groups));
            ps.setArray(2, pg.createArrayOf("text", posters));
            ps.setArray(3, pg.createArrayOf("text", names));
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

    private static CompletedBinary withSegments(CompletedBinary b, List<Segment> segments) {
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
                segments);
    }
}
