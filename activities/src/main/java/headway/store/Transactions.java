package headway.store;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Runs work in one transaction: commit on return, rollback on any exception. */
final class Transactions {

    /** Work on a connection inside a transaction. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private Transactions() {}

    static <T> T inTransaction(DataSource dataSource, String doing, Work<T> work) {
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

    private static void rollbackQuietly(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
