package headway.store;

import headway.index.CompletedBinary;
import headway.index.Segment;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * New binaries sent with {@code COPY ... (FORMAT binary)}: PostgreSQL reads each value as it is
 * stored (no text to split or parse) and grows the table many pages at a time, where an
 * {@code INSERT} grows it one zero-filled page per page filled and checks each key before it
 * inserts. Only for binaries that are not in the catalog yet: a row already there would fail
 * the copy on its primary key (the caller merges those with an upsert instead).
 */
final class BinaryCopy {

    static final String COPY = "copy binaries (group_name, poster, file_name, total_parts, release_name, file_total,"
            + " subject, posted, first_article, last_article, rule_version, part_numbers, segment_bytes, message_ids,"
            + " bytes) from stdin (format binary)";

    private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0};
    private static final int INT4_OID = 23;
    private static final int TEXT_OID = 25;
    /** Seconds from the Unix epoch to PostgreSQL's, 2000-01-01T00:00:00Z. */
    private static final long POSTGRES_EPOCH = 946_684_800L;
    /** How many bytes are encoded before they go to the server. */
    private static final int FLUSH_AT = 1 << 16;

    private BinaryCopy() {}

    /** Copies {@code binaries}, none of them in the catalog, into it. */
    static void copy(Connection conn, List<CompletedBinary> binaries) throws SQLException {
        CopyIn in = conn.unwrap(PGConnection.class).getCopyAPI().copyIn(COPY);
        try {
            ByteArrayOutputStream buf = new ByteArrayOutputStream(FLUSH_AT * 2);
            DataOutputStream out = new DataOutputStream(buf);
            out.write(SIGNATURE);
            out.writeInt(0); // flags
            out.writeInt(0); // header extension
            for (int i = 0; i < binaries.size(); i++) {
                row(
                        out,
                        binaries.get(i),
                        CatalogStore.sortedByPart(binaries.get(i).segments()));
                if (buf.size() >= FLUSH_AT) {
                    in.writeToCopy(buf.toByteArray(), 0, buf.size());
                    buf.reset();
                }
            }
            out.writeShort(-1);
            in.writeToCopy(buf.toByteArray(), 0, buf.size());
            in.endCopy();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
        } finally {
            if (in.isActive()) {
                in.cancelCopy();
            }
        }
    }

    private static void row(DataOutputStream out, CompletedBinary b, List<Segment> segments) throws IOException {
        out.writeShort(15);
        text(out, b.group());
        text(out, b.poster());
        text(out, b.fileName());
        int4(out, b.totalParts());
        text(out, b.releaseName());
        int4(out, b.fileTotal());
        text(out, b.subject());
        Instant posted = b.posted();
        if (posted == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(8);
            out.writeLong((posted.getEpochSecond() - POSTGRES_EPOCH) * 1_000_000L + posted.getNano() / 1_000);
        }
        int8(out, b.firstArticle());
        int8(out, b.lastArticle());
        int4(out, b.ruleVersion());
        int n = segments.size();
        arrayHeader(out, 20 + n * 8, INT4_OID, n);
        for (Segment s : segments) {
            int4(out, s.part());
        }
        arrayHeader(out, 20 + n * 8, INT4_OID, n);
        long bytes = 0;
        for (Segment s : segments) {
            int4(out, s.bytes());
            bytes += s.bytes();
        }
        byte[][] ids = new byte[n][];
        int length = 20;
        for (int i = 0; i < n; i++) {
            ids[i] = segments.get(i).messageId().getBytes(StandardCharsets.UTF_8);
            length += 4 + ids[i].length;
        }
        arrayHeader(out, length, TEXT_OID, n);
        for (byte[] id : ids) {
            out.writeInt(id.length);
            out.write(id);
        }
        int8(out, bytes);
    }

    /** A one-dimensional array without nulls: the field's length, then the array's header. */
    private static void arrayHeader(DataOutputStream out, int length, int elementOid, int n) throws IOException {
        out.writeInt(length);
        out.writeInt(1); // dimensions
        out.writeInt(0); // no nulls
        out.writeInt(elementOid);
        out.writeInt(n);
        out.writeInt(1); // lower bound
    }

    private static void text(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static void int4(DataOutputStream out, int v) throws IOException {
        out.writeInt(4);
        out.writeInt(v);
    }

    private static void int8(DataOutputStream out, long v) throws IOException {
        out.writeInt(8);
        out.writeLong(v);
    }
}
