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
 * deleted when empty. The cost is one placement row per article (new articles are placed by one
 * insert; only articles already placed are looked up), and one probe per binary written (whether
 * a newer rule set renames its release); a binary's id comes back from its upsert, and is probed
 * only for a binary the upsert left alone (a redo of parts it holds already).
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

    /** The ids of binaries the upsert left alone (they held all of it already), by their index in the list asked for. */
    private static final String BINARY_IDS = """
            select k.idx, b.id
            from unnest(?::text[], ?::text[], ?::text[], ?::int[]) with ordinality as k(g, p, f, t, idx)
            cross join lateral (select b.id from binaries b
                                where b.group_name = k.g and b.poster = k.p and b.file_name = k.f and b.total_parts = k.t
                                offset 0) b
            """;

    /**
     * Places every segment written that is not placed yet, and returns the others that are placed
     * in another binary, with where: the common write places new articles only and probes nothing
     * more. The lookup reads the placements as they were before the insert (one statement, one
     * snapshot) and is lateral with {@code offset 0} behind the anti-join, so it stays one index
     * probe per segment already placed whatever plan a prepared statement gets (as a join, a
     * generic plan re-ran lookups per segment: measured 12 times the database CPU of the write).
     */
    private static final String PLACE = """
            with n as materialized (select * from unnest(?::text[], ?::text[], ?::bigint[], ?::int[]) as n(g, m, id, v)
                                    where n.m <> ''),
                 ins as (insert into article_placements (group_name, message_id, binary_id, rule_version)
                         select n.g, n.m, n.id, n.v from n
                         on conflict (group_name, message_id) do nothing
                         returning group_name, message_id),
                 placed as (select * from n
                            where not exists (select 1 from ins where ins.group_name = n.g and ins.message_id = n.m)
                            offset 0)
            select p.g, p.m, p.id, p.v, a.binary_id, a.rule_version
            from placed p
            cross join lateral (select a.binary_id, a.rule_version from article_placements a
                                where a.group_name = p.g and a.message_id = p.m
                                offset 0) a
            where a.binary_id <> p.id
            """;

    /** Moves placements to the binaries of a newer rule set. */
    private static final String MOVE = """
            update article_placements a
            set binary_id = u.id, rule_version = u.v
            from unnest(?::text[], ?::text[], ?::bigint[], ?::int[]) as u(g, m, id, v)
            where a.group_name = u.g and a.message_id = u.m
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
    static Set<List<String>> place(Connection conn, List<CompletedBinary> chunk, long[] upserted) throws SQLException {
        int n = chunk.size();
        long[] binaryIds = upserted.clone();
        List<Integer> unknown = new ArrayList<>();
        int segments = 0;
        for (int i = 0; i < n; i++) {
            segments += chunk.get(i).segments().size();
            if (binaryIds[i] == 0) {
                unknown.add(i);
            }
        }
        PGConnection pg = conn.unwrap(PGConnection.class);
        if (!unknown.isEmpty()) {
            int u = unknown.size();
            String[] groups = new String[u];
            String[] posters = new String[u];
            String[] files = new String[u];
            int[] totals = new int[u];
            for (int j = 0; j < u; j++) {
                CompletedBinary b = chunk.get(unknown.get(j));
                groups[j] = b.group();
                posters[j] = b.poster();
                files[j] = b.fileName();
                totals[j] = b.totalParts();
            }
            try (PreparedStatement ps = conn.prepareStatement(BINARY_IDS)) {
                ps.setArray(1, pg.createArrayOf("text", groups));
                ps.setArray(2, pg.createArrayOf("text", posters));
                ps.setArray(3, pg.createArrayOf("text", files));
                ps.setArray(4, pg.createArrayOf("int4", totals));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        binaryIds[unknown.get((int) rs.getLong(1) - 1)] = rs.getLong(2);
                    }
                }
            }
        }
        String[] segGroups = new String[segments];
        String[] ids = new String[segments];
        long[] owners = new long[segments];
        int[] versions = new int[segments];
        int s = 0;
        for (int i = 0; i < n; i++) {
            CompletedBinary b = chunk.get(i);
            for (Segment seg : b.segments()) {
                segGroups[s] = b.group();
                ids[s] = seg.messageId();
                owners[s] = binaryIds[i];
                versions[s] = b.ruleVersion();
                s++;
            }
        }
        List<Long> losers = new ArrayList<>();
        List<String> lost = new ArrayList<>();
        List<String> movedGroups = new ArrayList<>();
        List<String> moved = new ArrayList<>();
        List<Long> movedTo = new ArrayList<>();
        List<Integer> movedVersions = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(PLACE)) {
            ps.setArray(1, pg.createArrayOf("text", segGroups));
            ps.setArray(2, pg.createArrayOf("text", ids));
            ps.setArray(3, pg.createArrayOf("int8", owners));
            ps.setArray(4, pg.createArrayOf("int4", versions));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String messageId = rs.getString(2);
                    long newId = rs.getLong(3);
                    int newVersion = rs.getInt(4);
                    long oldId = rs.getLong(5);
                    int oldVersion = rs.getInt(6);
                    lost.add(messageId);
                    if (newVersion >= oldVersion) {
                        losers.add(oldId);
                        movedGroups.add(rs.getString(1));
                        moved.add(messageId);
                        movedTo.add(newId);
                        movedVersions.add(newVersion);
                    } else {
                        losers.add(newId);
                    }
                }
            }
        }
        if (!moved.isEmpty()) {
            try (PreparedStatement ps = conn.prepareStatement(MOVE)) {
                ps.setArray(1, pg.createArrayOf("text", movedGroups.toArray(new String[0])));
                ps.setArray(2, pg.createArrayOf("text", moved.toArray(new String[0])));
                ps.setArray(3, pg.createArrayOf("int8", movedTo.toArray(new Long[0])));
                ps.setArray(4, pg.createArrayOf("int4", movedVersions.toArray(new Integer[0])));
                ps.executeUpdate();
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
