package headway.lab;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * What a PostgreSQL server (17 or later) wrote, cumulatively: WAL bytes, blocks written to its
 * files by any process, and checkpoints, so that a benchmark can say how much of its database
 * CPU went to writing and whether a checkpoint fell into a timed phase (the cluster-wide
 * statistics views; reading them costs a query).
 */
record PostgresActivity(long walBytes, long blocksWritten, long checkpoints) {

    static PostgresActivity of(DataSource server) {
        try (Connection c = server.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("""
                        select (select wal_bytes from pg_stat_wal)::bigint,
                               (select coalesce(sum(writes), 0) from pg_stat_io)::bigint,
                               (select num_timed + num_requested from pg_stat_checkpointer)::bigint
                        """)) {
            rs.next();
            return new PostgresActivity(rs.getLong(1), rs.getLong(2), rs.getLong(3));
        } catch (SQLException e) {
            throw new IllegalStateException("reading PostgreSQL's write statistics: " + e.getMessage(), e);
        }
    }

    /** WAL bytes and blocks written per header since {@code start}, and the checkpoints begun. */
    String since(PostgresActivity start, long headers) {
        return String.format(
                Locale.ROOT,
                "%.0f WAL bytes and %.2f blocks written per header, %d checkpoint(s)",
                (walBytes - start.walBytes) / (double) headers,
                (blocksWritten - start.blocksWritten) / (double) headers,
                checkpoints - start.checkpoints);
    }
}
