package headway.coordination;

import headway.store.Holder;
import headway.store.Jdbc;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots in PostgreSQL, so every worker can read them. The window is streamed into 1 MiB
 * chunks inside the holder's fenced transaction, which deletes the old snapshot and inserts the
 * new one: readers see the old snapshot until the new one has committed whole. Reading streams
 * the chunks through a cursor; neither side holds more than one chunk in memory.
 */
public final class PostgresSnapshotStore implements SnapshotStore {

    private static final Logger log = LoggerFactory.getLogger(PostgresSnapshotStore.class);

    static final int CHUNK_BYTES = 1 << 20;

    private static final String DELETE_OLD = "delete from snapshots where group_name = ?";

    private static final String INSERT_SNAPSHOT = """
            insert into snapshots (group_name, epoch, next_article, bytes, sha256) values (?, ?, ?, 0, '\\x')
            returning id, created_at
            """;

    private static final String INSERT_CHUNK = "insert into snapshot_chunks (snapshot_id, seq, data) values (?, ?, ?)";

    private static final String SEAL = "update snapshots set bytes = ?, sha256 = ? where id = ?";

    private static final String META = """
            select id, epoch, next_article, bytes, sha256, created_at from snapshots where group_name = ?
            """;

    private static final String CHUNKS = "select data from snapshot_chunks where snapshot_id = ? order by seq";

    private final DataSource dataSource;
    private final LeaseStore leases;

    public PostgresSnapshotStore(DataSource dataSource, LeaseStore leases) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.leases = Objects.requireNonNull(leases, "leases");
    }

    @Override
    public Meta put(Holder holder, long next, Writer writer) {
        return leases.fence().run(holder, "storing the snapshot of " + holder.group(), c -> {
            Jdbc.update(c, DELETE_OLD, holder.group());
            Created created = Jdbc.one(
                    c,
                    INSERT_SNAPSHOT,
                    rs -> new Created(rs.getLong(1), Jdbc.instant(rs, 2)),
                    holder.group(),
                    holder.epoch(),
                    next);
            long id = created.id();
            SnapshotDigest.Out out;
            try (ChunkOutput chunks = new ChunkOutput(c, id)) {
                out = new SnapshotDigest.Out(chunks);
                writer.writeTo(out);
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("writing the snapshot of " + holder.group(), e);
            }
            Jdbc.update(c, SEAL, out.count, out.digest.digest(), id);
            leases.recordSnapshot(c, holder, next);
            return new Meta(holder.group(), next, holder.epoch(), out.count, created.at());
        });
    }

    @Override
    public <T> Optional<Loaded<T>> get(String group, Reader<T> reader) {
        return Jdbc.inTransaction(dataSource, "reading the snapshot of " + group, c -> {
            Optional<Stored> stored = Jdbc.first(
                    c,
                    META,
                    rs -> new Stored(
                            rs.getLong(1),
                            new Meta(group, rs.getLong(3), rs.getLong(2), rs.getLong(4), Jdbc.instant(rs, 6)),
                            rs.getBytes(5)),
                    group);
            if (stored.isEmpty()) {
                return Optional.empty();
            }
            long id = stored.get().id();
            Meta meta = stored.get().meta();
            byte[] expected = stored.get().sha256();
            try (PreparedStatement s = c.prepareStatement(CHUNKS)) {
                s.setFetchSize(1);
                s.setLong(1, id);
                try (ResultSet rs = s.executeQuery()) {
                    SnapshotDigest.In in = new SnapshotDigest.In(new ChunkInput(rs));
                    T value;
                    try {
                        value = reader.readFrom(in);
                        in.drain();
                    } catch (IOException | RuntimeException e) {
                        log.warn(
                                "snapshot of {} at {} cannot be read, treating it as absent: {}",
                                group,
                                meta.next(),
                                e.toString());
                        return Optional.empty();
                    }
                    if (!MessageDigest.isEqual(expected, in.digest.digest())) {
                        log.warn("snapshot of {} at {} fails its checksum, treating it as absent", group, meta.next());
                        return Optional.empty();
                    }
                    return Optional.of(new Loaded<>(meta, value));
                }
            }
        });
    }

    private record Created(long id, Instant at) {}

    private record Stored(long id, Meta meta, byte[] sha256) {}

    /** Buffers one chunk and inserts it when full; close inserts the last, partial chunk. */
    private static final class ChunkOutput extends OutputStream {
        private final Connection c;
        private final long snapshotId;
        private final byte[] buffer = new byte[CHUNK_BYTES];
        private int filled;
        private int seq;

        ChunkOutput(Connection c, long snapshotId) {
            this.c = c;
            this.snapshotId = snapshotId;
        }

        @Override
        public void write(int b) throws IOException {
            if (filled == buffer.length) {
                flushChunk();
            }
            buffer[filled++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                if (filled == buffer.length) {
                    flushChunk();
                }
                int n = Math.min(len, buffer.length - filled);
                System.arraycopy(b, off, buffer, filled, n);
                filled += n;
                off += n;
                len -= n;
            }
        }

        @Override
        public void close() throws IOException {
            if (filled > 0) {
                flushChunk();
            }
        }

        private void flushChunk() throws IOException {
            try (PreparedStatement s = c.prepareStatement(INSERT_CHUNK)) {
                s.setLong(1, snapshotId);
                s.setInt(2, seq++);
                s.setBytes(3, filled == buffer.length ? buffer : java.util.Arrays.copyOf(buffer, filled));
                s.executeUpdate();
            } catch (SQLException e) {
                throw new IOException("storing snapshot chunk " + seq, e);
            }
            filled = 0;
        }
    }

    /** Reads the chunks of a result set one row at a time. */
    private static final class ChunkInput extends InputStream {
        private final ResultSet rows;
        private byte[] chunk = new byte[0];
        private int pos;

        ChunkInput(ResultSet rows) {
            this.rows = rows;
        }

        @Override
        public int read() throws IOException {
            if (!fill()) {
                return -1;
            }
            return chunk[pos++] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = Math.min(len, chunk.length - pos);
            System.arraycopy(chunk, pos, b, off, n);
            pos += n;
            return n;
        }

        private boolean fill() throws IOException {
            try {
                while (pos >= chunk.length) {
                    if (!rows.next()) {
                        return false;
                    }
                    chunk = rows.getBytes(1);
                    pos = 0;
                }
                return true;
            } catch (SQLException e) {
                throw new IOException("reading a snapshot chunk", e);
            }
        }
    }
}
