package headway.store;

import headway.index.CompletedBinary;
import headway.index.Segment;
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
 * Where each article of a group is cataloged: the invariant "a message-id is in a group's catalog
 * at most once", kept by the primary key of {@code article_placements} and by the catalog's write
 * path, in the writer's transaction. When a write places an article in another binary than the
 * one that holds it (a redo or re-index under a newer rule set keys it differently), the placement
 * of the newer rule set wins (the write's on a tie), the article is removed from the other binary,
 * a binary left without parts is deleted, and the releases that lost binaries are recomputed or
 * deleted when empty. The cost is one placement row and one index probe per segment written, and a
 * probe per binary for a release that a newer rule set renames.
 */
final class Placements {

    /** Binaries that a write under a newer rule set moves to another release: their old releases. */
    private static final String RELINKED = """
            select b.group_name, b.poster, b.release_name
            from binaries b
            join unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::int[]) as k(g, p, f, t, n, v)
              on b.group_name = k.g and b.poster = k.p and b.file_name = k.f and b.total_parts = k.t
            where b.rule_version < k.v and b.release_name <> k.n
            """;

    /**
     * Places every segment written and returns each article that was already placed in another
     * binary, with the binary that must give it up. The select of {@code moved} sees the
     * placements as they were before the insert, because all parts of one statement share a snapshot.
     */
    private static final String PLACE = """
            with k as (select * from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::int[])
                                     with ordinality as k(g, p, f, t, v, idx)),
                 kb as (select k.idx, k.g, k.v, b.id
                        from k join binaries b
                          on b.group_name = k.g and b.poster = k.p and b.file_name = k.f and b.total_parts = k.t),
                 n as (select kb.g, s.m, kb.id, kb.v
                       from unnest(?::bigint[], ?::text[]) as s(o, m) join kb on kb.idx = s.o
                       where s.m <> ''),
                 moved as (select a.message_id, a.binary_id as old_id, a.rule_version as old_v, n.id as new_id, n.v as new_v
                           from article_placements a join n on a.group_name = n.g and a.message_id = n.m
                           where a.binary_id <> n.id),
                 up as (insert into article_placements (group_name, message_id, binary_id, rule_version)
                        select n.g, n.m, n.id, n.v from n
                        on conflict (group_name, message_id) do update
                            set binary_id = excluded.binary_id, rule_version = excluded.rule_version
                        where article_placements.binary_id <> excluded.binary_id
                          and article_placements.rule_version <= excluded.rule_version)
            select message_id, case when new_v >= old_v then old_id else new_id end from moved
            """;

    /** Removes the given message-ids from their binaries; returns the releases of the binaries changed. */
    private static final String REMOVE = """
            with x as (select l.id, array_agg(l.m) as ms from unnest(?::bigint[], ?::text[]) as l(id, m) group by l.id)
            update binaries b
            set (part_numbers, segment_bytes, message_ids) = (
                select coalesce(array_agg(u.p order by u.p), '{}'), coalesce(array_agg(u.y order by u.p), '{}'),
                       coalesce(array_agg(u.m order by u.p), '{}')
                from unnest(b.part_numbers, b.segment_bytes, b.message_ids) as u(p, y, m)
                where u.m <> all(x.ms))
            from x
            where b.id = x.id
            returning b.group_name, b.poster, b.release_name
            """;

    private static final String DELETE_EMPTY_BINARIES = """
            delete from binaries where id = any(?) and cardinality(part_numbers) = 0
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

    /**
     * Places the chunk's segments (after its upsert) and takes each article a placement moved out
     * of the binary that lost it; returns the releases of the binaries that lost articles.
     */
    static Set<List<String>> place(Connection conn, List<CompletedBinary> chunk) throws SQLException {
        int n = chunk.size();
        String[] groups = new String[n];
        String[] posters = new String[n];
        String[] files = new String[n];
        int[] totals = new int[n];
        int[] versions = new int[n];
        int segments = 0;
        for (CompletedBinary b : chunk) {
            segments += b.segments().size();
        }
        long[] owner = new long[segments];
        String[] ids = new String[segments];
        int s = 0;
        for (int i = 0; i < n; i++) {
            CompletedBinary b = chunk.get(i);
            groups[i] = b.group();
            posters[i] = b.poster();
            files[i] = b.fileName();
            totals[i] = b.totalParts();
            versions[i] = b.ruleVersion();
            for (Segment seg : b.segments()) {
                owner[s] = i + 1L;
                ids[s] = seg.messageId();
                s++;
            }
        }
        PGConnection pg = conn.unwrap(PGConnection.class);
        List<Long> losers = new ArrayList<>();
        List<String> lost = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(PLACE)) {
            ps.setArray(1, pg.createArrayOf("text", groups));
            ps.setArray(2, pg.createArrayOf("text", posters));
            ps.setArray(3, pg.createArrayOf("text", files));
            ps.setArray(4, pg.createArrayOf("int4", totals));
            ps.setArray(5, pg.createArrayOf("int4", versions));
            ps.setArray(6, pg.createArrayOf("int8", owner));
            ps.setArray(7, pg.createArrayOf("text", ids));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    lost.add(rs.getString(1));
                    losers.add(rs.getLong(2));
                }
            }
        }
        Set<List<String>> out = new LinkedHashSet<>();
        if (losers.isEmpty()) {
            return out;
        }
        long[] loserIds = losers.stream().mapToLong(Long::longValue).toArray();
        try (PreparedStatement ps = conn.prepareStatement(REMOVE)) {
            ps.setArray(1, pg.createArrayOf("int8", loserIds));
            ps.setArray(2, pg.createArrayOf("text", lost.toArray(new String[0])));
            readKeys(ps, out);
        }
        try (PreparedStatement ps = conn.prepareStatement(DELETE_EMPTY_BINARIES)) {
            ps.setArray(1, pg.createArrayOf("int8", new HashSet<>(losers).toArray(new Long[0])));
            ps.executeUpdate();
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
