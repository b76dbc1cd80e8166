package headway.coordination;

import headway.overview.HeaderText;
import headway.store.Jdbc;
import headway.store.UnknownGroupException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Groups and their planned ranges. Planning is idempotent on (group, start article), so the
 * planner may plan the same window twice after a retry without creating a second range. A plan is
 * one set-based insert over {@code generate_series}, so no range list is built in memory, and its
 * article numbers are checked (1 <= start <= end <= {@link #MAX_ARTICLE}) and cut without any sum
 * that could overflow; at most {@link #MAX_RANGES_PER_PLAN} ranges go in one call.
 */
public final class GroupStore {

    /**
     * The highest article number a range may reach: 10^15. Servers number a group's articles from 1,
     * one per article; the largest groups are in the tens of billions, so this leaves ten-thousand-fold
     * headroom, while an article number plus any range or batch size stays far from overflowing a long.
     */
    public static final long MAX_ARTICLE = 1_000_000_000_000_000L;

    /** The most ranges one plan call writes, so a tiny range size cannot make a plan run for hours in one transaction. */
    public static final long MAX_RANGES_PER_PLAN = 1_000_000;

    /** The longest group name: what a file name may be, and more than RFC 3977's 497-octet line leaves a GROUP command in practice. */
    public static final int MAX_GROUP_NAME = 255;

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

    /** Ranges cut upward from lo: [s, s + min(size - 1, hi - s)], all with one priority. */
    private static final String PLAN = """
            with p (grp, lo, hi, size, priority) as (select ?::text, ?::bigint, ?::bigint, ?::bigint, ?::integer)
            insert into ranges (group_name, start_article, end_article, next_article, priority)
            select p.grp, s, s + least(p.size - 1, p.hi - s), s, p.priority
            from p, generate_series(p.lo, p.hi, p.size) as s
            on conflict (group_name, start_article) do nothing
            """;

    /** Ranges cut downward from hi: [e - min(size - 1, e - lo), e], the newest first with the lowest priority number. */
    private static final String PLAN_DOWNWARD = """
            with p (grp, lo, hi, size, first_priority) as (select ?::text, ?::bigint, ?::bigint, ?::bigint, ?::bigint)
            insert into ranges (group_name, start_article, end_article, next_article, priority)
            select p.grp, e - least(p.size - 1, e - p.lo), e, e - least(p.size - 1, e - p.lo),
                   least(p.first_priority + (p.hi - e) / p.size, 2147483647)::integer
            from p, generate_series(p.hi, p.lo, -p.size) as e
            on conflict (group_name, start_article) do nothing
            """;

    private static final String RANGES = """
            select id, group_name, start_article, end_article, next_article, status, priority, node_id, attempts, rule_version
            from ranges where group_name = ? order by start_article
            """;

    /**
     * Plans again, from their start, the group's ranges that overlap [from, to] and are not leased
     * now; returns the first and last article of each, because a re-index works on whole ranges.
     */
    private static final String REPLAN_FOR_REINDEX = """
            update ranges
            set status = 'planned', next_article = start_article, node_id = null, done_at = null
            where group_name = ? and end_article >= ? and start_article <= ? and status <> 'leased'
            returning start_article, end_article
            """;

    private static final String LEASED_IN_SPAN = """
            select count(*) from ranges
            where group_name = ? and end_article >= ? and start_article <= ? and status = 'leased'
            """;

    private static final String CURRENT_RULE_VERSION = "select coalesce(max(version), 0) from rule_sets";

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
     * Plans {@code [start, end]} cut into ranges of at most {@code size} articles from {@code start}
     * upward, with the given priority (negative: tail). Returns the number of ranges newly planned.
     */
    public int plan(String group, long start, long end, long size, int priority) {
        checkPlan(start, end, size);
        return insertRanges(group, PLAN, start, end, size, priority);
    }

    /**
     * Plans {@code [start, end]} cut into ranges of at most {@code size} articles from {@code end}
     * downward (history: the newest window first), with priorities {@code firstPriority},
     * {@code firstPriority + 1}, ... Returns the number of ranges newly planned.
     */
    public int planDownward(String group, long start, long end, long size, int firstPriority) {
        checkPlan(start, end, size);
        return insertRanges(group, PLAN_DOWNWARD, start, end, size, firstPriority);
    }

    /** How many ranges of {@code size} articles cut {@code [start, end]}; the caller has checked the bounds. */
    public static long rangeCount(long start, long end, long size) {
        return (end - start) / size + 1;
    }

    private static void checkPlan(long start, long end, long size) {
        if (start < 1 || end < start || end > MAX_ARTICLE) {
            throw new IllegalArgumentException("bad range [" + start + ", " + end + "]: need 1 <= start <= end <= "
                    + MAX_ARTICLE + " (article numbers start at 1)");
        }
        if (size < 1) {
            throw new IllegalArgumentException("range size must be >= 1, was " + size);
        }
        long count = rangeCount(start, end, size);
        if (count > MAX_RANGES_PER_PLAN) {
            throw new IllegalArgumentException("[" + start + ", " + end + "] in ranges of " + size + " articles is "
                    + count + " ranges, more than " + MAX_RANGES_PER_PLAN
                    + " at once: use a larger range size (--size or HEADWAY_RANGE_SIZE) or plan a smaller span");
        }
    }

    private int insertRanges(String group, String sql, long start, long end, long size, int priority) {
        return Jdbc.inTransaction(dataSource, "planning ranges of " + group, c -> {
            if (!exists(c, group)) {
                throw new UnknownGroupException(group);
            }
            return Jdbc.update(c, sql, group, start, end, size, priority);
        });
    }

    /**
     * What {@link #reindex} did: the ranges planned again and the articles they span (first and
     * last -1 when none), the ranges skipped because a holder leases them now, and the rule-set
     * version the group's holder will index them with (0: the shipped defaults).
     */
    public record Reindex(String group, int ranges, long first, long last, long leasedSkipped, int ruleVersion) {}

    /**
     * Plans the group's ranges that overlap [from, to] again from their start, so the group's holder
     * indexes them once more, fenced like any range, with the rule set it loaded when it took the
     * group (the newest then; a holder that has held the group since before an import keeps the
     * older set until it releases the group, e.g. once caught up). Idempotent: the same call again finds the same ranges planned from their start. A range a
     * holder leases now is left to it and counted, because moving its cursor under it would race its
     * commits; run the re-index again once it is done.
     */
    public Reindex reindex(String group, long from, long to) {
        if (from < 1 || to < from || to > MAX_ARTICLE) {
            throw new IllegalArgumentException("bad span --from " + from + " --to " + to + ": need 1 <= from <= to <= "
                    + MAX_ARTICLE + " (article numbers start at 1)");
        }
        return Jdbc.inTransaction(dataSource, "re-planning ranges of " + group, c -> {
            if (!exists(c, group)) {
                throw new UnknownGroupException(group);
            }
            List<long[]> spans =
                    Jdbc.list(c, REPLAN_FOR_REINDEX, rs -> new long[] {rs.getLong(1), rs.getLong(2)}, group, from, to);
            long leased = Jdbc.one(c, LEASED_IN_SPAN, rs -> rs.getLong(1), group, from, to);
            int version = Jdbc.one(c, CURRENT_RULE_VERSION, rs -> rs.getInt(1));
            long first = spans.stream().mapToLong(r -> r[0]).min().orElse(-1);
            long last = spans.stream().mapToLong(r -> r[1]).max().orElse(-1);
            return new Reindex(group, spans.size(), first, last, leased, version);
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
        if (name != null && name.length() > MAX_GROUP_NAME) {
            throw new IllegalArgumentException("group name of " + name.length() + " characters ('"
                    + HeaderText.cut(name, 40).replaceAll("\\p{Cntrl}", "?")
                    + "...') is too long: a newsgroup name has at most "
                    + MAX_GROUP_NAME + " (a file name's limit, and more than any news server carries)");
        }
        if (name == null || !GROUP_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "bad group name '" + (name == null ? null : name.replaceAll("\\p{Cntrl}", "?"))
                            + "': use dot-separated letters, digits, '+', '_' or '-', e.g. alt.binaries.example");
        }
    }
}
