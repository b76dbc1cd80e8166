package headway.catalog;

import headway.index.RuleSet;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Versioned rule sets in {@code rule_sets}. Invariant: every stored body compiles, because
 * {@link #importRuleSet} parses and compiles it before the insert; versions only grow, and
 * importing a body equal to the newest one returns that version instead of adding another. The
 * cost is a table lock per import, which serializes concurrent imports.
 */
public final class RuleSetStore {

    private static final String LOCK = """
            lock table rule_sets in share row exclusive mode
            """;

    private static final String SELECT_LATEST_RAW = """
            select version, name, body::text
            from rule_sets
            order by version desc
            limit 1
            """;

    private static final String INSERT_NEXT = """
            insert into rule_sets (version, name, body)
            select coalesce(max(version), 0) + 1, ?, ?::jsonb
            from rule_sets
            returning version
            """;

    private static final String SAME_AS_LATEST = """
            select ?::jsonb = ?::jsonb
            """;

    private static final String SELECT_BY_VERSION = """
            select version, name, body::text
            from rule_sets
            where version = ?
            """;

    private static final String SELECT_ALL = """
            select version, name, created_at
            from rule_sets
            order by version
            """;

    private final DataSource ds;

    public RuleSetStore(DataSource ds) {
        this.ds = ds;
    }

    /** Validates every regex of {@code json} and stores it as the next version; a bad rule throws {@link headway.index.RuleSetException} naming it. */
    public int importRuleSet(String name, String json) throws SQLException {
        RuleSet.parse(0, json);
        try (Connection c = ds.getConnection()) {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                try (Statement st = c.createStatement()) {
                    st.execute(LOCK);
                }
                Integer same = sameAsLatest(c, name, json);
                int version;
                if (same != null) {
                    version = same;
                } else {
                    try (PreparedStatement ps = c.prepareStatement(INSERT_NEXT)) {
                        ps.setString(1, name);
                        ps.setString(2, json);
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            version = rs.getInt(1);
                        }
                    }
                }
                c.commit();
                return version;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(auto);
            }
        }
    }

    /** The newest rule set, or empty when none was imported. */
    public Optional<RuleSet> latest() throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(SELECT_LATEST_RAW);
                ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.of(RuleSet.parse(rs.getInt(1), rs.getString(3))) : Optional.empty();
        }
    }

    public Optional<RuleSet> byVersion(int version) throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(SELECT_BY_VERSION)) {
            ps.setInt(1, version);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(RuleSet.parse(rs.getInt(1), rs.getString(3))) : Optional.empty();
            }
        }
    }

    public List<RuleSetInfo> list() throws SQLException {
        List<RuleSetInfo> out = new ArrayList<>();
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(SELECT_ALL);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(new RuleSetInfo(
                        rs.getInt(1), rs.getString(2), rs.getTimestamp(3).toInstant()));
            }
        }
        return out;
    }

    private static Integer sameAsLatest(Connection c, String name, String json) throws SQLException {
        int version;
        String latestName;
        String latestBody;
        try (PreparedStatement ps = c.prepareStatement(SELECT_LATEST_RAW);
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            version = rs.getInt(1);
            latestName = rs.getString(2);
            latestBody = rs.getString(3);
        }
        if (!latestName.equals(name)) {
            return null;
        }
        try (PreparedStatement ps = c.prepareStatement(SAME_AS_LATEST)) {
            ps.setString(1, latestBody);
            ps.setString(2, json);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1) ? version : null;
            }
        }
    }
}
