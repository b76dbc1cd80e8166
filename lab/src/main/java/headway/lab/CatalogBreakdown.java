package headway.lab;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a catalog's {@code binaries} bytes go, per header: the columns of its rows (message-ids
 * inline, the part-number and size arrays, the texts, the fixed-width columns), the rows' tuple
 * headers and line pointers, the pages' headers, and what is left of the heap (alignment padding
 * and free space at the ends of pages); the TOAST relations' chunk data against their pages and
 * indexes; and each index of the month partitions. For {@code bench catalog}: a figure to change
 * has to be found here first.
 */
final class CatalogBreakdown {

    /** The heap's rows by component, over every partition of {@code binaries}. */
    private static final String ROWS = """
            select count(*),
                   coalesce(sum(pg_column_size(message_ids))
                            filter (where pg_column_toast_chunk_id(message_ids) is null), 0),
                   coalesce(sum((pg_column_toast_chunk_id(message_ids) is not null)::int
                                + (pg_column_toast_chunk_id(part_numbers) is not null)::int
                                + (pg_column_toast_chunk_id(segment_bytes) is not null)::int), 0),
                   coalesce(sum(case when pg_column_toast_chunk_id(part_numbers) is null
                                     then pg_column_size(part_numbers) else 0 end
                                + case when pg_column_toast_chunk_id(segment_bytes) is null
                                       then pg_column_size(segment_bytes) else 0 end), 0),
                   coalesce(sum(pg_column_size(group_name) + pg_column_size(poster) + pg_column_size(file_name)
                                + pg_column_size(release_name) + pg_column_size(subject)), 0),
                   count(*) filter (where posted is null or bytes is null)
            from binaries
            """;

    /** The heap pages of the partitions, and how many hold a single row. */
    private static final String PAGES = """
            select coalesce(sum(pg_relation_size(i.inhrelid)), 0)::bigint / 8192,
                   (select count(*) from (select 1 from binaries group by tableoid, (ctid::text::point)[0]
                                          having count(*) = 1) as one)
            from pg_inherits i where i.inhparent = 'binaries'::regclass
            """;

    /** The TOAST relations of the partitions: name, heap bytes, index bytes. */
    private static final String TOASTS = """
            select t.relname, pg_relation_size(t.oid), pg_indexes_size(t.oid)
            from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class t on t.oid = c.reltoastrelid
            where i.inhparent = 'binaries'::regclass
            """;

    /** The bytes of each index of {@code binaries} over the partitions, by the parent index. */
    private static final String INDEXES = """
            select p.relname, count(*), sum(pg_relation_size(i.inhrelid))::bigint
            from pg_index x join pg_class p on p.oid = x.indexrelid
            join pg_inherits i on i.inhparent = p.oid
            where x.indrelid = 'binaries'::regclass
            group by p.relname order by 3 desc
            """;

    /** Fixed-width columns of a row: total_parts, file_total, rule_version, parts_present, posted_month (4
     * each), posted, first_article, last_article, bytes (8 each), complete (1). */
    private static final int FIXED = 5 * 4 + 4 * 8 + 1;

    private static final int TUPLE_HEADER = 24;

    private static final int LINE_POINTER = 4;

    private static final int PAGE_HEADER = 24;

    private CatalogBreakdown() {}

    /** Prints the breakdown, bytes per header each, on two lines. */
    static void print(Connection c, long headers, PrintWriter out) throws SQLException {
        long rows;
        long idsInline;
        long outOfLine;
        long arrays;
        long texts;
        long withNulls;
        long pages;
        long singlePages;
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery(ROWS)) {
                rs.next();
                rows = rs.getLong(1);
                idsInline = rs.getLong(2);
                outOfLine = rs.getLong(3);
                arrays = rs.getLong(4);
                texts = rs.getLong(5);
                withNulls = rs.getLong(6);
            }
            try (ResultSet rs = s.executeQuery(PAGES)) {
                rs.next();
                pages = rs.getLong(1);
                singlePages = rs.getLong(2);
            }
        }
        long heap = pages * 8192;
        long toastPointers = outOfLine * 18;
        // a row with a null has a null bitmap: its header is 32 bytes, not 24
        long headersBytes = rows * (TUPLE_HEADER + LINE_POINTER) + withNulls * 8;
        long fixed = rows * FIXED;
        long rest = heap - idsInline - toastPointers - arrays - texts - fixed - headersBytes - pages * PAGE_HEADER;
        double h = headers;
        out.printf(
                Locale.ROOT,
                "catalog: binaries heap per header: rows=%d (%.1f headers a row) pages=%d (%d holding one row)"
                        + " ids_inline=%.2f toast_pointers=%.2f (%d values) sizes_and_numbers_inline=%.2f texts=%.2f fixed=%.2f"
                        + " tuple_headers=%.2f page_headers=%.2f padding_and_free=%.2f heap=%.2f%n",
                rows,
                rows == 0 ? 0.0 : h / rows,
                pages,
                singlePages,
                idsInline / h,
                toastPointers / h,
                outOfLine,
                arrays / h,
                texts / h,
                fixed / h,
                headersBytes / h,
                pages * PAGE_HEADER / h,
                rest / h,
                heap / h);
        long chunks = 0;
        long chunkData = 0;
        long toastHeap = 0;
        long toastIndexes = 0;
        List<String> toasts = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(TOASTS)) {
            while (rs.next()) {
                toasts.add(rs.getString(1));
                toastHeap += rs.getLong(2);
                toastIndexes += rs.getLong(3);
            }
        }
        for (String t : toasts) {
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("select count(*), coalesce(sum(octet_length(chunk_data)), 0) from"
                            + " pg_toast." + t.replaceAll("[^a-z0-9_]", ""))) {
                rs.next();
                chunks += rs.getLong(1);
                chunkData += rs.getLong(2);
            }
        }
        StringBuilder sb = new StringBuilder();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(INDEXES)) {
            while (rs.next()) {
                sb.append(String.format(
                        Locale.ROOT, " %s=%.2f (%d partitions)", rs.getString(1), rs.getLong(3) / h, rs.getLong(2)));
            }
        }
        out.printf(
                Locale.ROOT,
                "catalog: binaries toast per header: chunks=%d chunk_data=%.2f heap=%.2f index=%.2f; indexes per"
                        + " header:%s%n",
                chunks,
                chunkData / h,
                toastHeap / h,
                toastIndexes / h,
                sb);
    }
}
