package headway.coordination;

import headway.store.Holder;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots as files in a directory, for a shared volume that every worker mounts. A snapshot is
 * written to a temporary file, forced to disk, then renamed over the old one atomically; the
 * rename happens inside the holder's fenced transaction so a stale holder cannot replace a
 * newer snapshot. Layout: a header (magic, next, epoch, time), the window's bytes, and a trailer
 * (byte count and SHA-256) that the reader checks.
 */
public final class DirectorySnapshotStore implements SnapshotStore {

    private static final Logger log = LoggerFactory.getLogger(DirectorySnapshotStore.class);

    private static final long MAGIC = 0x4857534e41503031L; // "HWSNAP01"
    private static final int HEADER_BYTES = 8 + 8 + 8 + 8;
    private static final int TRAILER_BYTES = 8 + 32;

    private final Path directory;
    private final LeaseStore leases;

    public DirectorySnapshotStore(Path directory, LeaseStore leases) {
        this.directory = Objects.requireNonNull(directory, "directory");
        this.leases = Objects.requireNonNull(leases, "leases");
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "snapshot directory " + directory
                            + " cannot be created: set HEADWAY_SNAPSHOT_DIR to a writable directory",
                    e);
        }
    }

    @Override
    public Meta put(Holder holder, long next, Writer writer) {
        Path target = file(holder.group());
        Path temporary = directory.resolve(target.getFileName() + ".tmp-" + UUID.randomUUID());
        Instant now = Instant.now();
        try {
            long bytes;
            try (FileChannel channel =
                            FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    DataOutputStream out =
                            new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel), 65536))) {
                out.writeLong(MAGIC);
                out.writeLong(next);
                out.writeLong(holder.epoch());
                out.writeLong(now.toEpochMilli());
                SnapshotDigest.Out body = new SnapshotDigest.Out(out);
                writer.writeTo(body);
                body.flush();
                bytes = body.count;
                out.writeLong(bytes);
                out.write(body.digest.digest());
                out.flush();
                channel.force(true);
            }
            return leases.fence().run(holder, "storing the snapshot of " + holder.group(), c -> {
                moveAtomically(temporary, target);
                leases.recordSnapshot(c, holder, next);
                return new Meta(holder.group(), next, holder.epoch(), bytes, now);
            });
        } catch (IOException e) {
            throw new UncheckedIOException("writing the snapshot of " + holder.group() + " to " + directory, e);
        } finally {
            deleteQuietly(temporary);
        }
    }

    @Override
    public <T> Optional<Loaded<T>> get(String group, Reader<T> reader) {
        Path path = file(group);
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(path), 65536)) {
            long size = Files.size(path);
            if (size < HEADER_BYTES + TRAILER_BYTES) {
                log.warn("snapshot {} is truncated ({} bytes), treating it as absent", path, size);
                return Optional.empty();
            }
            DataInputStream in = new DataInputStream(raw);
            if (in.readLong() != MAGIC) {
                log.warn("snapshot {} is not a headway snapshot, treating it as absent", path);
                return Optional.empty();
            }
            long next = in.readLong();
            long epoch = in.readLong();
            Instant takenAt = Instant.ofEpochMilli(in.readLong());
            long bodyBytes = size - HEADER_BYTES - TRAILER_BYTES;
            SnapshotDigest.In body = new SnapshotDigest.In(new Bounded(in, bodyBytes));
            T value;
            try {
                value = reader.readFrom(body);
                body.drain();
            } catch (IOException | RuntimeException e) {
                log.warn("snapshot {} cannot be read, treating it as absent: {}", path, e.toString());
                return Optional.empty();
            }
            long declared = in.readLong();
            byte[] sha = in.readNBytes(32);
            if (declared != bodyBytes || !MessageDigest.isEqual(sha, body.digest.digest())) {
                log.warn("snapshot {} fails its checksum, treating it as absent", path);
                return Optional.empty();
            }
            return Optional.of(new Loaded<>(new Meta(group, next, epoch, bodyBytes, takenAt), value));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            log.warn("snapshot {} cannot be read, treating it as absent: {}", path, e.toString());
            return Optional.empty();
        }
    }

    private Path file(String group) {
        GroupStore.requireValidName(group);
        return directory.resolve(group + ".snap");
    }

    private static void moveAtomically(Path from, Path to) {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new UncheckedIOException(
                    "the snapshot directory does not support atomic rename; use a local or POSIX shared volume", e);
        } catch (IOException e) {
            throw new UncheckedIOException("renaming snapshot " + from + " to " + to, e);
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            log.warn("could not delete temporary snapshot {}: {}", path, e.toString());
        }
    }

    /** At most {@code limit} bytes of the underlying stream. */
    private static final class Bounded extends InputStream {
        private final InputStream in;
        private long left;

        Bounded(InputStream in, long limit) {
            this.in = in;
            this.left = limit;
        }

        @Override
        public int read() throws IOException {
            if (left <= 0) {
                return -1;
            }
            int b = in.read();
            if (b >= 0) {
                left--;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n > 0) {
                left -= n;
            }
            return n;
        }
    }
}
