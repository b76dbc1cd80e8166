package headway.coordination;

import headway.store.Holder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;

/**
 * Where group windows are kept between holders. A snapshot is written whole and checksummed
 * before it replaces the previous one, and the write is fenced by the holder's epoch; a snapshot
 * that fails its checksum, or that the reader cannot parse, reads as absent, never as a crash,
 * because a lost window only costs a redo while a crash would stop the group.
 */
public interface SnapshotStore {

    /** Writes the window's bytes to the stream it is given; it must not close the stream. */
    @FunctionalInterface
    interface Writer {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Reads a window back from a stream of its bytes. */
    @FunctionalInterface
    interface Reader<T> {
        T readFrom(InputStream in) throws IOException;
    }

    /** A stored snapshot: the cursor it covers up to (exclusive), the epoch that wrote it, its size. */
    record Meta(String group, long next, long epoch, long bytes, java.time.Instant takenAt) {}

    /** A snapshot read back with what the reader made of it. */
    record Loaded<T>(Meta meta, T value) {}

    /** Stores the holder's window at cursor {@code next}, replacing the previous snapshot only once it is whole. */
    Meta put(Holder holder, long next, Writer writer);

    /** Reads the group's snapshot; empty when there is none, or it is corrupt. */
    <T> Optional<Loaded<T>> get(String group, Reader<T> reader);
}
