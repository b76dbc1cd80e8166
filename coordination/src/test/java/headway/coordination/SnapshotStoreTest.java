package headway.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import headway.store.Holder;
import headway.store.LeaseLostException;
import headway.store.TestDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SnapshotStoreTest {

    private static final Duration TTL = Duration.ofSeconds(30);
    private static final String GROUP = "alt.binaries.snap";

    private static HikariDataSource ds;
    private static LeaseStore leases;

    @TempDir
    Path dir;

    @BeforeAll
    static void database() {
        ds = TestDatabase.migrated("snap");
        leases = new LeaseStore(ds, 0);
    }

    @AfterAll
    static void close() {
        ds.close();
    }

    @BeforeEach
    void group() {
        TestDatabase.execute(ds, "truncate groups, lease_events, clock_skew cascade");
        new GroupStore(ds).add(GROUP, 0);
        new GroupStore(ds).plan(GROUP, 1, 1000, 100, 1);
    }

    private SnapshotStore store(String kind) {
        return kind.equals("postgres")
                ? new PostgresSnapshotStore(ds, leases)
                : new DirectorySnapshotStore(dir, leases);
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgres", "directory"})
    void aLargeSnapshotRoundTripsAndRecordsItsCursor(String kind) throws Exception {
        SnapshotStore store = store(kind);
        Holder h = leases.lease(GROUP, "n1", TTL).holder();
        long size = 3L * PostgresSnapshotStore.CHUNK_BYTES + 12345;

        SnapshotStore.Meta meta = store.put(h, 500, out -> writeRandom(out, size, 7));

        assertThat(meta.bytes()).isEqualTo(size);
        Optional<SnapshotStore.Loaded<byte[]>> loaded = store.get(GROUP, SnapshotStoreTest::sha256);
        assertThat(loaded).isPresent();
        assertThat(loaded.get().meta().next()).isEqualTo(500);
        assertThat(loaded.get().meta().epoch()).isEqualTo(h.epoch());
        assertThat(loaded.get().value()).isEqualTo(sha256OfRandom(size, 7));
        assertThat(TestDatabase.queryLong(ds, "select snapshot_next from group_leases"))
                .isEqualTo(500);
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgres", "directory"})
    void aNewSnapshotReplacesTheOld(String kind) throws Exception {
        SnapshotStore store = store(kind);
        Holder h = leases.lease(GROUP, "n1", TTL).holder();
        store.put(h, 100, out -> writeRandom(out, 1000, 1));
        store.put(h, 200, out -> writeRandom(out, 2000, 2));
        SnapshotStore.Loaded<byte[]> loaded =
                store.get(GROUP, SnapshotStoreTest::sha256).orElseThrow();
        assertThat(loaded.meta().next()).isEqualTo(200);
        assertThat(loaded.value()).isEqualTo(sha256OfRandom(2000, 2));
        if (kind.equals("postgres")) {
            assertThat(TestDatabase.queryLong(ds, "select count(*) from snapshots"))
                    .isEqualTo(1);
        } else {
            try (var files = Files.list(dir)) {
                assertThat(files.count()).as("no temporary files left").isEqualTo(1);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgres", "directory"})
    void aCorruptSnapshotReadsAsAbsent(String kind) throws Exception {
        SnapshotStore store = store(kind);
        Holder h = leases.lease(GROUP, "n1", TTL).holder();
        store.put(h, 300, out -> writeRandom(out, PostgresSnapshotStore.CHUNK_BYTES + 10, 3));
        if (kind.equals("postgres")) {
            TestDatabase.execute(
                    ds,
                    "update snapshot_chunks set data = overlay(data placing '\\xff'::bytea from 1000 for 1) where seq = 1");
        } else {
            try (FileChannel ch = FileChannel.open(dir.resolve(GROUP + ".snap"), StandardOpenOption.WRITE)) {
                ch.write(java.nio.ByteBuffer.wrap(new byte[] {42, 43}), 5000);
            }
        }
        assertThat(store.get(GROUP, SnapshotStoreTest::sha256)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgres", "directory"})
    void aSnapshotItsReaderCannotParseReadsAsAbsent(String kind) {
        SnapshotStore store = store(kind);
        Holder h = leases.lease(GROUP, "n1", TTL).holder();
        store.put(h, 300, out -> writeRandom(out, 100, 3));
        assertThat(store.get(GROUP, in -> {
                    throw new IOException("not a window");
                }))
                .isEmpty();
        assertThat(store.get("alt.binaries.none", SnapshotStoreTest::sha256)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgres", "directory"})
    void aStaleHolderCannotReplaceTheSnapshot(String kind) {
        SnapshotStore store = store(kind);
        Holder zombie = leases.lease(GROUP, "n1", TTL).holder();
        Holder current = leases.lease(GROUP, "n1", TTL).holder();
        store.put(current, 400, out -> writeRandom(out, 100, 4));

        assertThatThrownBy(() -> store.put(zombie, 900, out -> writeRandom(out, 100, 5)))
                .isInstanceOf(LeaseLostException.class);

        SnapshotStore.Loaded<byte[]> loaded =
                store.get(GROUP, SnapshotStoreTest::sha256).orElseThrow();
        assertThat(loaded.meta().next()).isEqualTo(400);
        assertThat(TestDatabase.queryLong(ds, "select snapshot_next from group_leases"))
                .isEqualTo(400);
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgres", "directory"})
    void aFailedWriteLeavesThePreviousSnapshot(String kind) {
        SnapshotStore store = store(kind);
        Holder h = leases.lease(GROUP, "n1", TTL).holder();
        store.put(h, 100, out -> writeRandom(out, 100, 6));
        assertThatThrownBy(() -> store.put(h, 200, out -> {
                    writeRandom(out, PostgresSnapshotStore.CHUNK_BYTES * 2L, 8);
                    throw new IOException("window serialization failed");
                }))
                .hasMessageContaining("snapshot");
        assertThat(store.get(GROUP, SnapshotStoreTest::sha256)
                        .orElseThrow()
                        .meta()
                        .next())
                .isEqualTo(100);
    }

    private static void writeRandom(OutputStream out, long size, long seed) throws IOException {
        Random random = new Random(seed);
        byte[] buf = new byte[65536];
        for (long left = size; left > 0; ) {
            random.nextBytes(buf);
            int n = (int) Math.min(buf.length, left);
            out.write(buf, 0, n);
            left -= n;
        }
    }

    private static byte[] sha256OfRandom(long size, long seed) throws IOException {
        MessageDigest md = SnapshotDigest.sha256();
        writeRandom(
                new OutputStream() {
                    @Override
                    public void write(int b) {
                        md.update((byte) b);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) {
                        md.update(b, off, len);
                    }
                },
                size,
                seed);
        return md.digest();
    }

    private static byte[] sha256(InputStream in) throws IOException {
        MessageDigest md = SnapshotDigest.sha256();
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) >= 0; ) {
            md.update(buf, 0, n);
        }
        return md.digest();
    }
}
