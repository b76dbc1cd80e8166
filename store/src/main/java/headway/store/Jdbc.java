package headway.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The JDBC the stores share: one transaction per call (commit on return, rollback on any
 * exception, a {@link StoreException} that says what the store was doing), and one statement with
 * positional parameters read through a row mapper. It adds nothing per row beyond the mapper, so
 * the hot paths may use it; the catalog's array binds and the snapshot's streamed chunks use JDBC
 * directly because they need driver features a generic helper would hide.
 */
public final class Jdbc {

    /** Work on a connection inside a transaction. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /** Reads one row of a result set positioned on it. */
    @FunctionalInterface
    public interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private Jdbc() {}

    /** Runs {@code work} in one transaction on a connection of {@code dataSource}. */
    public static <T> T inTransaction(DataSource dataSource, String doing, Work<T> work) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException | Error e) {
                rollbackQuietly(c, e);
                throw e;
            }
        } catch (SQLException e) {
            throw new StoreException(doing, e);
        }
    }

    /** Runs an insert, update or delete; returns the rows it changed. */
    public static int update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, params);
            return s.executeUpdate();
        }
    }

    /** Every row of a query. */
    public static <T> List<T> list(Connection c, String sql, Row<T> row, Object... params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, params);
            try (ResultSet rs = s.executeQuery()) {
                List<T> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(row.read(rs));
                }
                return rows;
            }
        }
    }

    /** The first row of a query, if any. */
    public static <T> Optional<T> first(Connection c, String sql, Row<T> row, Object... params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, params);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.ofNullable(row.read(rs)) : Optional.empty();
            }
        }
    }

    /** The one row of a query that always returns a row (an aggregate, a {@code returning} of a known row). */
    public static <T> T one(Connection c, String sql, Row<T> row, Object... params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, params);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("expected one row, got none from: " + sql.strip());
                }
                return row.read(rs);
            }
        }
    }

    /** Binds {@code params} in order; null binds SQL null of the parameter's inferred type. */
    public static void bind(PreparedStatement s, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            s.setObject(i + 1, params[i]);
        }
    }

    /** A bigint column that may be null. */
    public static Long nullableLong(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    /** An integer column that may be null. */
    public static Integer nullableInt(ResultSet rs, int column) throws SQLException {
        int v = rs.getInt(column);
        return rs.wasNull() ? null : v;
    }

    /** A timestamptz column as an instant, null when null. */
    public static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    private static void rollbackQuietly(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
