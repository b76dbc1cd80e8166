package headway.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
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
        Jdbc.inTransaction(dataSource, "adding group " + name, c -> Jdbc.update(c, ADD, name, priority));
    }

    /** Removes the group with its ranges, lease and snapshot; false when there was none. */
    public boolean remove(String name) {
        return Jdbc.inTransaction(dataSource, "removing group " + name, c -> Jdbc.update(c, REMOVE, name) == 1);
    }

    /** Makes the group active or inactive; an inactive group is never leased. */
    public void setActive(String name, boolean active) {
        int changed =
                Jdbc.inTransaction(dataSource, "changing group " + name, c -> Jdbc.update(c, SET_ACTIVE, active, name));
        if (changed == 0) {
            throw new UnknownGroupException(name);
        }
    }

    public List<Group> list() {
        return Jdbc.inTransaction(
                dataSource,
                "listing groups",
                c -> Jdbc.list(c, LIST, rs -> new Group(rs.getString(1), rs.getInt(2), rs.getBoolean(3))));
    }

    public boolean exists(String name) {
        return Jdbc.inTransaction(dataSource, "reading group " + name, c -> exists(c, name));
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
        return Jdbc.inTransaction(dataSource, "planning ranges of " + group, c -> {
            if (!exists(c, group)) {
                throw new UnknownGroupException(group);
            }
            int planned = 0;
            try (PreparedStatement s = c.prepareStatement(PLAN)) {
                for (long from = start; from <= end; from += size) {
                    long to = Math.min(end, from + size - 1);
                    Jdbc.bind(s, group, from, to, from, priority);
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
        return Jdbc.inTransaction(
                dataSource, "listing ranges of " + group, c -> Jdbc.list(c, RANGES, RangeRow::read, group));
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
        Long edge = Jdbc.inTransaction(
                dataSource,
                "reading planned edge of " + group,
                c -> Jdbc.one(c, sql, rs -> Jdbc.nullableLong(rs, 1), group));
        return edge == null ? none : edge;
    }

    private static boolean exists(Connection c, String group) throws SQLException {
        return Jdbc.first(c, EXISTS, rs -> true, group).isPresent();
    }

    static void requireValidName(String name) {
        if (name == null || !GROUP_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("bad group name '" + name
                    + "': use dot-separated letters, digits, '+', '_' or '-', e.g. alt.binaries.example");
        }
    }
}
