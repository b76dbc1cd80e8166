package headway.catalog;

import headway.index.CompletedBinary;
import headway.index.Segment;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Merges binaries into their rows ({@link CatalogStore}'s upsert path): a row holds each part
 * once, the stored segment kept for a part both hold. The message-ids are packed (V34,
 * {@link PackedIds}), so the union by part number runs here in Java on the rows read and locked
 * ({@code FOR UPDATE}), and the statement writes the union over them; SQL merges the other
 * columns and skips a write that adds nothing. The cost against the merge in SQL it replaced: one
 * more statement per chunk (the read) and a row lock taken before the update takes it anyway.
 */
final class BinaryMerge {

    private BinaryMerge() {}

    /**
     * The stored segments of the binaries a chunk merges, locked until the write commits: the
     * merge by part number runs in Java ({@link #union}), because the message-ids are packed
     * (V34) and SQL cannot unite them without decoding; the lock keeps the row as it was read
     * until the merged arrays replace it.
     */
    private static final String STORED_SEGMENTS = """
            select k.idx, b.part_numbers, b.segment_bytes, b.message_ids
            from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[]) with ordinality as k(g, p, f, t, posted, idx)
            join binaries b on b.group_name = k.g and b.poster = k.p and b.file_name = k.f and b.total_parts = k.t
                           and b.posted_month = coalesce(date_trunc('month', k.posted::timestamptz at time zone 'UTC')::date,
                                                         '-infinity'::date)
            for update of b
            """;

    /**
     * The row's segments are the ones sent, which the writer merged with the stored row it read
     * and locked ({@link #STORED_SEGMENTS}); the other columns merge here. A write that adds
     * nothing is skipped.
     */
    static final String MERGE = """
            on conflict (group_name, poster, file_name, total_parts, posted_month) do update set
                (part_numbers, segment_bytes, message_ids, bytes)
                    = (excluded.part_numbers, excluded.segment_bytes, excluded.message_ids, excluded.bytes),
                first_article = least(binaries.first_article, excluded.first_article),
                last_article = greatest(binaries.last_article, excluded.last_article),
                posted = least(binaries.posted, excluded.posted),
                subject = case when excluded.first_article < binaries.first_article
                               then excluded.subject else binaries.subject end,
                file_total = greatest(binaries.file_total, excluded.file_total),
                release_name = case when excluded.rule_version > binaries.rule_version
                                    then excluded.release_name else binaries.release_name end,
                rule_version = greatest(binaries.rule_version, excluded.rule_version)
            where not (binaries.part_numbers @> excluded.part_numbers
                       and binaries.first_article <= excluded.first_article
                       and binaries.last_article >= excluded.last_article
                       and binaries.file_total >= excluded.file_total
                       and binaries.posted is not distinct from least(binaries.posted, excluded.posted)
                       and binaries.rule_version >= excluded.rule_version)
            """;

    /**
     * One row per binary; its part numbers and sizes come as two strings separated by spaces, split
     * into the row's arrays (splitting a few strings per binary costs PostgreSQL less than parsing
     * and grouping one array element per segment: 0.4 us of 1.6 per segment, measured), its
     * message-ids packed ({@link PackedIds}).
     */
    private static final String INSERT_BINARIES = """
            insert into binaries (group_name, poster, file_name, total_parts, release_name, file_total, subject, posted,
                                  first_article, last_article, rule_version, part_numbers, segment_bytes, message_ids,
                                  bytes, posted_month)
            select k.group_name, k.poster, k.file_name, k.total_parts, k.release_name, k.file_total, k.subject, k.posted,
                   k.first_article, k.last_article, k.rule_version,
                   string_to_array(k.parts, ' ')::int[], string_to_array(k.sizes, ' ')::int[],
                   k.ids,
                   k.bytes,
                   coalesce(date_trunc('month', k.posted at time zone 'UTC')::date, '-infinity'::date)
            from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[], ?::timestamptz[],
                        ?::bigint[], ?::bigint[], ?::int[], ?::text[], ?::text[], ?::bytea[], ?::bigint[])
                 as k(group_name, poster, file_name, total_parts, release_name, file_total, subject, posted,
                      first_article, last_article, rule_version, parts, sizes, ids, bytes)
            """;

    /** Binaries whose rows were read and locked: merged into them. */
    private static final String UPSERT_BINARIES = INSERT_BINARIES + MERGE;

    /** Binaries that had no row when read: inserted unless a row came meanwhile (then they are merged again). */
    private static final String INSERT_NEW_BINARIES = INSERT_BINARIES + "on conflict do nothing";

    /** How often a merge is tried again when rows of its binaries came between its read and its insert. */
    private static final int MERGE_ATTEMPTS = 5;

    /** A binary as its row is sent: its part numbers and sizes as text, its ids packed, its bytes added up. */
    private record BinaryRow(CompletedBinary b, String parts, String sizes, byte[] ids, long bytes) {

        static List<BinaryRow> of(List<CompletedBinary> chunk) throws SQLException {
            List<BinaryRow> rows = new ArrayList<>(chunk.size());
            StringBuilder parts = new StringBuilder();
            StringBuilder sizes = new StringBuilder();
            for (CompletedBinary b : chunk) {
                parts.setLength(0);
                sizes.setLength(0);
                long bytes = 0;
                List<Segment> segments = CatalogStore.sortedByPart(b.segments());
                for (Segment seg : segments) {
                    if (parts.length() > 0) {
                        parts.append(' ');
                        sizes.append(' ');
                    }
                    parts.append(seg.part());
                    sizes.append(seg.bytes());
                    bytes += seg.bytes();
                }
                rows.add(new BinaryRow(b, parts.toString(), sizes.toString(), PackedIds.pack(segments), bytes));
            }
            return rows;
        }
    }

    private static final ColumnArrays<BinaryRow> BINARY_ROWS = ColumnArrays.<BinaryRow>of()
            .text(r -> r.b().group())
            .text(r -> r.b().poster())
            .text(r -> r.b().fileName())
            .int4(r -> r.b().totalParts())
            .text(r -> r.b().releaseName())
            .int4(r -> r.b().fileTotal())
            .text(r -> r.b().subject())
            .text(r -> r.b().posted() == null ? null : r.b().posted().toString())
            .int8(r -> r.b().firstArticle())
            .int8(r -> r.b().lastArticle())
            .int4(r -> r.b().ruleVersion())
            .text(BinaryRow::parts)
            .text(BinaryRow::sizes)
            .bytea(BinaryRow::ids)
            .int8(BinaryRow::bytes);

    /**
     * Merges {@code binaries} into their rows: reads and locks the rows there are, unites each
     * with its binary by part number in Java (the stored segment kept for a part both hold), and
     * writes the unions over them; binaries without a row are inserted, and those whose row another
     * writer inserted meanwhile are merged again.
     */
    static void merge(Connection conn, List<CompletedBinary> binaries) throws SQLException {
        List<CompletedBinary> pending = binaries;
        for (int attempt = 0; attempt < MERGE_ATTEMPTS; attempt++) {
            Map<Integer, List<Segment>> stored = new HashMap<>();
            try (PreparedStatement ps = conn.prepareStatement(STORED_SEGMENTS)) {
                ROW_KEYS.bind(ps, 1, pending);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        int idx = rs.getInt(1) - 1;
                        stored.put(idx, storedSegments(rs, pending.get(idx)));
                    }
                }
            }
            List<CompletedBinary> seen = new ArrayList<>(stored.size());
            List<CompletedBinary> unseen = new ArrayList<>(pending.size() - stored.size());
            for (int i = 0; i < pending.size(); i++) {
                CompletedBinary b = pending.get(i);
                List<Segment> old = stored.get(i);
                if (old == null) {
                    unseen.add(b);
                } else {
                    seen.add(Placements.withSegments(b, unite(old, b.segments())));
                }
            }
            if (!seen.isEmpty()) {
                try (PreparedStatement ps = conn.prepareStatement(UPSERT_BINARIES)) {
                    BINARY_ROWS.bind(ps, 1, BinaryRow.of(seen));
                    ps.executeUpdate();
                }
            }
            if (unseen.isEmpty()) {
                return;
            }
            try (PreparedStatement ps = conn.prepareStatement(INSERT_NEW_BINARIES)) {
                BINARY_ROWS.bind(ps, 1, BinaryRow.of(unseen));
                if (ps.executeUpdate() == unseen.size()) {
                    return;
                }
            }
            pending = unseen;
        }
        throw new SQLException(
                "rows of the binaries written kept coming from another writer in " + MERGE_ATTEMPTS + " merges",
                "40001");
    }

    private static List<Segment> storedSegments(ResultSet rs, CompletedBinary b) throws SQLException {
        Integer[] parts = (Integer[]) CatalogStore.array(rs.getArray(2));
        Integer[] bytes = (Integer[]) CatalogStore.array(rs.getArray(3));
        List<String> ids =
                PackedIds.unpack(rs.getBytes(4), parts.length, "binary " + b.fileName() + " of " + b.group());
        List<Segment> out = new ArrayList<>(parts.length);
        for (int i = 0; i < parts.length; i++) {
            out.add(new Segment(parts[i], bytes[i], ids.get(i)));
        }
        return out;
    }

    /**
     * The stored segments and the new ones by part number, the stored kept for a part both hold;
     * when the stored are the first of the new, part for part (an open binary written again with
     * more parts), the new as they are.
     */
    static List<Segment> unite(List<Segment> stored, List<Segment> fresh) {
        List<Segment> sorted = CatalogStore.sortedByPart(fresh);
        if (stored.size() <= sorted.size() && stored.equals(stripped(sorted.subList(0, stored.size())))) {
            return sorted;
        }
        TreeMap<Integer, Segment> parts = new TreeMap<>();
        for (Segment s : stored) {
            parts.putIfAbsent(s.part(), s);
        }
        for (Segment s : sorted) {
            parts.putIfAbsent(s.part(), s);
        }
        return new ArrayList<>(parts.values());
    }

    /** Segments as a row gives them back: without their article numbers, which it does not keep. */
    private static List<Segment> stripped(List<Segment> segments) {
        List<Segment> out = new ArrayList<>(segments.size());
        for (Segment s : segments) {
            out.add(s.article() < 0 ? s : new Segment(s.part(), s.bytes(), s.messageId()));
        }
        return out;
    }

    /** A binary row's key: its binary's key and when it was posted, whose month is the row's partition. */
    private static final ColumnArrays<CompletedBinary> ROW_KEYS = ColumnArrays.<CompletedBinary>of()
            .text(CompletedBinary::group)
            .text(CompletedBinary::poster)
            .text(CompletedBinary::fileName)
            .int4(CompletedBinary::totalParts)
            .text(b -> b.posted() == null ? null : b.posted().toString());
}
