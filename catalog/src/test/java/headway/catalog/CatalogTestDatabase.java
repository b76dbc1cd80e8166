package headway.catalog;

import com.zaxxer.hikari.HikariDataSource;
import headway.store.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/** A fresh migrated database on the shared embedded server, with some groups, for catalog tests; one per test class. */
final class CatalogTestDatabase implements AutoCloseable {

    private final HikariDataSource pool;
    final DataSource ds;

    private CatalogTestDatabase(HikariDataSource pool) {
        this.pool = pool;
        this.ds = pool;
    }

    static CatalogTestDatabase start(String... groups) throws SQLException {
        CatalogTestDatabase db = new CatalogTestDatabase(TestDatabase.migrated("catalog"));
        try (Connection c = db.ds.getConnection();
                var ps = c.prepareStatement("insert into groups (name) values (?)")) {
            for (String g : groups) {
                ps.setString(1, g);
                ps.executeUpdate();
            }
        }
        return db;
    }

    interface Work {
        void run(Connection c) throws SQLException;
    }

    /** Runs {@code work} in one transaction, as the range indexer's fenced transaction would. */
    void inTransaction(Work work) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            work.run(c);
            c.commit();
        }
    }

    /** Every row of every catalog table as text, in key order, to compare whole catalogs. */
    String dump() throws SQLException {
        StringBuilder sb = new StringBuilder();
        String[] queries = {
            "select * from binaries order by group_name, poster, file_name, total_parts, posted_month",
            "select * from releases order by group_name, poster, name",
            "select * from missing_article_runs order by group_name, first_article, last_article",
            "select version, name, body from rule_sets order by version"
        };
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            for (String q : queries) {
                sb.append(q).append('\n');
                try (ResultSet rs = st.executeQuery(q)) {
                    ResultSetMetaData md = rs.getMetaData();
                    while (rs.next()) {
                        for (int i = 1; i <= md.getColumnCount(); i++) {
                            if (md.getColumnName(i).equals("added")) {
                                continue; // the transaction that added a release (V31): when, not what
                            }
                            sb.append(md.getColumnName(i))
                                    .append('=')
                                    .append(rs.getString(i))
                                    .append(' ');
                        }
                        sb.append('\n');
                    }
                }
            }
        }
        return sb.toString();
    }

    /** The first column of every row {@code sql} returns, as text (join columns in the query to compare several). */
    List<String> rows(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    long count(String table) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select count(*) from " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}
