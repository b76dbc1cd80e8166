package headway.lab;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * What a PostgreSQL server (17 or later) wrote, cumulatively: WAL bytes, blocks written to its
 * files by any process, checkpoints, and blocks the autovacuum workers read, so that a benchmark
 * can say how much of its database CPU went to writing and whether a checkpoint or a vacuum fell
 * into a timed phase (the cluster-wide statistics views, which backends flush to within a second
 * or so; reading them costs a query).
 */
record PostgresActivity(long walBytes, long blocksWritten, long checkpoints, long vacuumBlocks) {

    static PostgresActivity of(DataSource server) {
        try (Connection c = server.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("""
                        select (select wal_bytes from pg_stat_wal)::bigint,
                               (select coalesce(sum(writes), 0) from pg_stat_io)::bigint,
                               (select num_timed + num_requested from pg_stat_checkpointer)::bigint,
                               (select coalesce(sum(coalesce(reads, 0) + coalesce(hits, 0)), 0) from pg_stat_io
                                where backend_type = 'autovacuum worker')::bigint
                        """)) {
            rs.next();
            return new PostgresActivity(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4));
        } catch (SQLException e) {
            throw new IllegalStateException("reading PostgreSQL's write statistics: " + e.getMessage(), e);
        }
    }

    /** WAL bytes and blocks written per header since {@code start}, the checkpoints begun, and the blocks autovacuum read. */
    String since(PostgresActivity start, long headers) {
        return String.format(
                Locale.ROOT,
                "%.0f WAL bytes and %.3f blocks written per header, %d checkpoint(s), autovacuum read %d blocks",
                (walBytes - start.walBytes) / (double) headers,
                (blocksWritten - start.blocksWritten) / (double) headers,
                checkpoints - start.checkpoints,
                vacuumBlocks - start.vacuumBlocks);
    }
}
