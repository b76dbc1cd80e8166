package headway.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Groups and their planned ranges. Planning is idempotent on (group, start article), so the
 * planner may plan the same window twice after a retry without creating a second range.
 */
public final class GroupStore {

    /** A newsgroup name as RFC 3977 allows it in practice: dot-separated components. */
    public static final Pattern GROUP_NAME = Pattern.compile("^[A-Za-z0-9+_-]+(\\.[A-Za-z0-9+_-]+)*$");

    private static final String ADD = """
            insert into groups (name, priority, active) values (?, ?, true)
            on conflict (name) do update set priority = excluded.priority, active = true
            """;

    private static final String REMOVE = "delete from groups where name = ?";

    private static final String SET_ACTIVE = "update groups set active = ? where name = ?";

    private static final String LIST = "select name, priority, active from groups order by priority, name";

    private static final String EXISTS = "select 1 from groups where name = ?";

    private static final String PLAN = """
            insert into ranges (group_name, start_article, end_article, next_article, priority)
            values (?, ?, ?, ?, ?)
            on conflict (group_name, start_article) do nothing
            """;

    private static final String RANGES = """
            select id, group_name, start_article, end_article, next_article, status, priority, node_id, attempts, rule_version
            from ranges where group_name = ? order by start_article
            """;

    private static final String HIGHEST_PLANNED = "select max(end_article) from ranges where group_name = ?";

    private static final String LOWEST_PLANNED = "select min(start_article) from ranges where group_name = ?";

    private final DataSource dataSource;

    public GroupStore(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** A group as configured. */
    public record Group(String name, int priority, boolean active) {}

    /** Adds the group, or updates its priority and makes it active again. */
    public void add(String name, int priority) {
        requireValidName(name);
        Transactions.inTransaction(dataSource, "adding group " + name, c -> LeaseStore.update(c, ADD, name, priority));
    }

    /** Removes the group with its ranges, lease and snapshot; false when there was none. */
    public boolean remove(String name) {
        return Transactions.inTransaction(
                dataSource, "removing group " + name, c -> LeaseStore.update(c, REMOVE, name) == 1);
    }

    /** Makes the group active or inactive; an inactive group is never leased. */
    public void setActive(String name, boolean active) {
        int changed = Transactions.inTransaction(
                dataSource, "changing group " + name, c -> LeaseStore.update(c, SET_ACTIVE, active, name));
        if (changed == 0) {
            throw new UnknownGroupException(name);
        }
    }

    public List<Group> list() {
        return Transactions.inTransaction(dataSource, "listing groups", c -> {
            List<Group> groups = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement(LIST);
                    ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    groups.add(new Group(rs.getString(1), rs.getInt(2), rs.getBoolean(3)));
                }
            }
            return groups;
        });
    }

    public boolean exists(String name) {
        return Transactions.inTransaction(dataSource, "reading group " + name, c -> {
            try (PreparedStatement s = c.prepareStatement(EXISTS)) {
                s.setString(1, name);
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    /**
     * Plans {@code [start, end]} cut into ranges of at most {@code size} articles, with the given
     * priority (negative: tail). Returns the number of ranges newly planned.
     */
    public int plan(String group, long start, long end, long size, int priority) {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("bad range [" + start + ", " + end + "]: need 0 <= start <= end");
        }
        if (size < 1) {
            throw new IllegalArgumentException("range size must be >= 1, was " + size);
        }
        return Transactions.inTransaction(dataSource, "planning ranges of " + group, c -> {
            try (PreparedStatement check = c.prepareStatement(EXISTS)) {
                check.setString(1, group);
                try (ResultSet rs = check.executeQuery()) {
                    if (!rs.next()) {
                        throw new UnknownGroupException(group);
                    }
                }
            }
            int planned = 0;
            try (PreparedStatement s = c.prepareStatement(PLAN)) {
                for (long from = start; from <= end; from += size) {
                    long to = Math.min(end, from + size - 1);
                    LeaseStore.bind(s, group, from, to, from, priority);
                    s.addBatch();
                }
                for (int n : s.executeBatch()) {
                    planned += Math.max(0, n);
                }
            }
            return planned;
        });
    }

    public List<RangeRow> ranges(String group) {
        return Transactions.inTransaction(dataSource, "listing ranges of " + group, c -> {
            List<RangeRow> rows = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement(RANGES)) {
                s.setString(1, group);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        rows.add(LeaseStore.rangeRow(rs));
                    }
                }
            }
            return rows;
        });
    }

    /** The highest article of any range of the group, or -1 when none is planned. */
    public long highestPlanned(String group) {
        return edge(HIGHEST_PLANNED, group, -1);
    }

    /** The lowest article of any range of the group, or -1 when none is planned. */
    public long lowestPlanned(String group) {
        return edge(LOWEST_PLANNED, group, -1);
    }

    private long edge(String sql, String group, long none) {
        return Transactions.inTransaction(dataSource, "reading planned edge of " + group, c -> {
            try (PreparedStatement s = c.prepareStatement(sql)) {
                s.setString(1, group);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    long v = rs.getLong(1);
                    return rs.wasNull() ? none : v;
                }
            }
        });
    }

    static void requireValidName(String name) {
        if (name == null || !GROUP_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("bad group name '" + name
                    + "': use dot-separated letters, digits, '+', '_' or '-', e.g. alt.binaries.example");
        }
    }
}
