package headway.catalog;

import headway.index.CompletedBinary;
import headway.index.PostingMonth;
import headway.index.Segment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
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
            + " bytes, posted_month) from stdin (format binary)";

    private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0};
    private static final int INT4_OID = 23;
    /** Seconds from the Unix epoch to PostgreSQL's, 2000-01-01T00:00:00Z. */
    private static final long POSTGRES_EPOCH = 946_684_800L;
    /** Days from the Unix epoch to PostgreSQL's. */
    private static final long POSTGRES_EPOCH_DAY = 10_957;
    /** The binary form of the date {@code -infinity}: the month of a part without a date. */
    private static final int DATE_MINUS_INFINITY = Integer.MIN_VALUE;
    /** How many bytes are encoded before they go to the server. */
    private static final int FLUSH_AT = 1 << 16;

    private BinaryCopy() {}

    /** Copies {@code binaries}, none of them in the catalog, into it. */
    static void copy(Connection conn, List<CompletedBinary> binaries) throws SQLException {
        CopyIn in = conn.unwrap(PGConnection.class).getCopyAPI().copyIn(COPY);
        try {
            Rows out = new Rows(FLUSH_AT + (FLUSH_AT >> 1));
            out.bytes(SIGNATURE);
            out.int32(0); // flags
            out.int32(0); // header extension
            for (int i = 0; i < binaries.size(); i++) {
                row(
                        out,
                        binaries.get(i),
                        CatalogStore.sortedByPart(binaries.get(i).segments()));
                if (out.size >= FLUSH_AT) {
                    in.writeToCopy(out.buf, 0, out.size);
                    out.size = 0;
                }
            }
            out.int16(-1);
            in.writeToCopy(out.buf, 0, out.size);
            in.endCopy();
        } finally {
            if (in.isActive()) {
                in.cancelCopy();
            }
        }
    }

    private static void row(Rows out, CompletedBinary b, List<Segment> segments) throws SQLException {
        out.int16(16);
        out.text(b.group());
        out.text(b.poster());
        out.text(b.fileName());
        int4(out, b.totalParts());
        out.text(b.releaseName());
        int4(out, b.fileTotal());
        out.text(b.subject());
        Instant posted = b.posted();
        if (posted == null) {
            out.int32(-1);
        } else {
            out.int32(8);
            out.int64((posted.getEpochSecond() - POSTGRES_EPOCH) * 1_000_000L + posted.getNano() / 1_000);
        }
        int month = posted == null
                ? DATE_MINUS_INFINITY
                : (int) (PostingMonth.firstDay(posted).toEpochDay() - POSTGRES_EPOCH_DAY);
        int8(out, b.firstArticle());
        int8(out, b.lastArticle());
        int4(out, b.ruleVersion());
        int n = segments.size();
        arrayHeader(out, 20 + n * 8, INT4_OID, n);
        for (int i = 0; i < n; i++) {
            int4(out, segments.get(i).part());
        }
        arrayHeader(out, 20 + n * 8, INT4_OID, n);
        long bytes = 0;
        for (int i = 0; i < n; i++) {
            int size = segments.get(i).bytes();
            int4(out, size);
            bytes += size;
        }
        byte[] ids = PackedIds.pack(segments);
        out.int32(ids.length);
        out.bytes(ids);
        int8(out, bytes);
        int4(out, month); // a date is four bytes, days from 2000-01-01
    }

    /** A one-dimensional array without nulls: the field's length, then the array's header. */
    private static void arrayHeader(Rows out, int length, int elementOid, int n) {
        out.int32(length);
        out.int32(1); // dimensions
        out.int32(0); // no nulls
        out.int32(elementOid);
        out.int32(n);
        out.int32(1); // lower bound
    }

    private static void int4(Rows out, int v) {
        out.int32(4);
        out.int32(v);
    }

    private static void int8(Rows out, long v) {
        out.int32(8);
        out.int64(v);
    }

    /**
     * The rows being encoded: a growable array written in network byte order. Written by hand
     * because a {@code DataOutputStream} over a {@code ByteArrayOutputStream} makes four
     * synchronized one-byte writes of every int, and those were a third of the copy's CPU.
     */
    static final class Rows {
        private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
        private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

        byte[] buf;
        int size;

        Rows(int capacity) {
            buf = new byte[capacity];
        }

        private void room(int n) {
            if (size + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
            }
        }

        void int16(int v) {
            room(2);
            buf[size] = (byte) (v >>> 8);
            buf[size + 1] = (byte) v;
            size += 2;
        }

        void int32(int v) {
            room(4);
            INTS.set(buf, size, v);
            size += 4;
        }

        void int32At(int at, int v) {
            INTS.set(buf, at, v);
        }

        void int64(long v) {
            room(8);
            LONGS.set(buf, size, v);
            size += 8;
        }

        void bytes(byte[] b) {
            room(b.length);
            System.arraycopy(b, 0, buf, size, b.length);
            size += b.length;
        }

        /** A text field: its UTF-8 length, then its UTF-8 bytes. */
        void text(String s) {
            int lengthAt = size;
            int32(0);
            utf8(s);
            int32At(lengthAt, size - lengthAt - 4);
        }

        /** {@code s} in UTF-8: ASCII copied as it is, anything else as {@code getBytes} encodes it. */
        void utf8(String s) {
            int n = s.length();
            room(n);
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c >= 0x80) {
                    bytes(s.getBytes(StandardCharsets.UTF_8));
                    return;
                }
                buf[size + i] = (byte) c;
            }
            size += n;
        }
    }
}
