package headway.rig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A hot standby of an {@link EmbeddedDatabase}, streaming from it over a physical replication
 * slot: a real PostgreSQL replica, for the tests of reads that go to one. The embedded binaries
 * ship no {@code pg_basebackup}, so the base backup is PostgreSQL's low-level one
 * ({@code pg_backup_start}, a file copy of the data directory, {@code pg_backup_stop} and its
 * {@code backup_label}), which is what {@code pg_basebackup} does over the replication protocol.
 * The slot is made before the copy, so the primary keeps every WAL segment the standby needs from
 * the backup's start. Stopping and freezing (SIGSTOP, as a standby cut off by the network looks to
 * its clients) act on this standby's own processes only, found by its postmaster's pid.
 */
public final class StreamingReplica implements AutoCloseable {

    /** What the copy leaves out, as pg_basebackup does: the server's run-time files and WAL (streamed instead). */
    private static final Set<String> NOT_COPIED = Set.of(
            "postmaster.pid",
            "postmaster.opts",
            "epg-lock",
            "pg_wal",
            "pg_replslot",
            "pg_dynshmem",
            "pg_notify",
            "pg_serial",
            "pg_snapshots",
            "pg_stat_tmp",
            "pg_subtrans");

    private final Path dataDir;
    private final String slot;
    private final EmbeddedDatabase primary;
    private EmbeddedDatabase standby;

    private StreamingReplica(Path dataDir, String slot, EmbeddedDatabase primary, EmbeddedDatabase standby) {
        this.dataDir = dataDir;
        this.slot = slot;
        this.primary = primary;
        this.standby = standby;
    }

    /**
     * Makes a standby of {@code primary} (which must have been started with a data directory of
     * its own, {@code primaryDir}) and starts it, streaming; returns once it accepts connections.
     */
    public static StreamingReplica of(EmbeddedDatabase primary, Path primaryDir) {
        String slot = "headway_replica_" + ProcessHandle.current().pid() + "_" + System.nanoTime() % 100_000;
        try {
            Path dir = Files.createTempDirectory("embedded-pg-replica-");
            try (Connection c = primary.postgresDatabase().getConnection();
                    Statement s = c.createStatement()) {
                s.execute("select pg_create_physical_replication_slot('" + slot + "', true)");
                s.execute("select pg_backup_start('headway-replica', true)");
                copy(primaryDir, dir);
                try (ResultSet rs = s.executeQuery("select labelfile, spcmapfile from pg_backup_stop(false)")) {
                    rs.next();
                    Files.writeString(dir.resolve("backup_label"), rs.getString(1), StandardCharsets.UTF_8);
                    String map = rs.getString(2);
                    if (map != null && !map.isEmpty()) {
                        Files.writeString(dir.resolve("tablespace_map"), map, StandardCharsets.UTF_8);
                    }
                }
            }
            for (String empty : NOT_COPIED) {
                if (empty.startsWith("pg_")) {
                    Files.createDirectories(dir.resolve(empty));
                }
            }
            Files.createFile(dir.resolve("standby.signal"));
            Files.writeString(
                    dir.resolve("postgresql.auto.conf"),
                    "\nprimary_conninfo = 'host=127.0.0.1 port=" + primary.port() + " user=postgres'\n"
                            + "primary_slot_name = '" + slot + "'\nhot_standby = on\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            return new StreamingReplica(dir, slot, primary, EmbeddedDatabase.start(dir));
        } catch (IOException e) {
            throw new UncheckedIOException("making a standby", e);
        } catch (SQLException e) {
            throw new IllegalStateException("making a standby: " + e.getMessage(), e);
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> top = Files.list(from)) {
            for (Path p : top.toList()) {
                if (NOT_COPIED.contains(p.getFileName().toString())) {
                    continue;
                }
                try (Stream<Path> tree = Files.walk(p)) {
                    for (Path f : tree.toList()) {
                        Path target = to.resolve(from.relativize(f).toString());
                        if (Files.isDirectory(f)) {
                            Files.createDirectories(target);
                        } else {
                            try {
                                Files.copy(f, target);
                            } catch (java.nio.file.NoSuchFileException gone) {
                                // a temporary file the server removed during the copy, as pg_basebackup skips it
                            }
                        }
                    }
                }
            }
        }
    }

    /** The standby's JDBC URL for {@code database}. */
    public String jdbcUrl(String database) {
        return standby.jdbcUrl(database);
    }

    public int port() {
        return standby.port();
    }

    /** Runs {@code sql} on the standby's {@code postgres} database (pausing and resuming replay). */
    public void execute(String sql) {
        try (Connection c = standby.postgresDatabase().getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** Waits until the standby has replayed everything the primary has written by now. */
    public void awaitCaughtUp(Duration within) {
        long until = System.nanoTime() + within.toNanos();
        try (Connection p = primary.postgresDatabase().getConnection();
                Statement ps = p.createStatement();
                // the insert position, not the write position: the test databases run with
                // synchronous_commit off, so a commit's record can sit unwritten for up to
                // wal_writer_delay, and a standby past the write position may not have it yet
                ResultSet at = ps.executeQuery("select pg_current_wal_insert_lsn()::text")) {
            at.next();
            String target = at.getString(1);
            while (true) {
                try (Connection c = standby.postgresDatabase().getConnection();
                        Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("select pg_last_wal_replay_lsn() >= '" + target + "'::pg_lsn")) {
                    rs.next();
                    if (rs.getBoolean(1)) {
                        return;
                    }
                }
                if (System.nanoTime() - until > 0) {
                    throw new IllegalStateException("the standby has not replayed " + target + " within " + within);
                }
                Thread.sleep(20);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("waiting for the standby: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the standby", e);
        }
    }

    /** SIGSTOP (true) or SIGCONT (false) to the standby's postmaster and every process it started. */
    public void freeze(boolean frozen) {
        long postmaster = postmasterPid();
        List<ProcessHandle> all = Stream.concat(
                        ProcessHandle.of(postmaster).stream(),
                        ProcessHandle.of(postmaster).stream().flatMap(ProcessHandle::children))
                .toList();
        for (ProcessHandle h : all) {
            try {
                Process kill = new ProcessBuilder("kill", frozen ? "-STOP" : "-CONT", Long.toString(h.pid()))
                        .redirectErrorStream(true)
                        .start();
                kill.getInputStream().readAllBytes();
                kill.waitFor();
            } catch (IOException e) {
                throw new UncheckedIOException("signalling the standby", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted signalling the standby", e);
            }
        }
    }

    private long postmasterPid() {
        try {
            return Long.parseLong(
                    Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).strip());
        } catch (IOException e) {
            throw new UncheckedIOException("reading the standby's postmaster.pid", e);
        }
    }

    /** Stops the standby (it goes away; {@link #start()} brings it back on the same port, resuming the stream). */
    public void stop() {
        if (standby != null) {
            standby.close();
            standby = null;
        }
    }

    /** Starts a stopped standby again on its port. */
    public void start(int port) {
        if (standby == null) {
            standby = EmbeddedDatabase.start(dataDir, port);
        }
    }

    /** Stops the standby, drops its slot on the primary and removes its files. */
    @Override
    public void close() {
        stop();
        try (Connection c = primary.postgresDatabase().getConnection();
                Statement s = c.createStatement()) {
            s.execute("select pg_drop_replication_slot('" + slot + "')");
        } catch (SQLException e) {
            // the primary is gone already: its slot went with it
        }
        try {
            new ProcessBuilder("rm", "-rf", "--", dataDir.toString())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            // no rm: the directory stays in the temporary directory
        }
    }
}
