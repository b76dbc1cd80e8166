package headway.catalog;

import headway.index.Misses;
import headway.store.Jdbc;
import headway.store.UnknownGroupException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;
import org.postgresql.PGConnection;

/**
 * What the index drops, per group: every header that nothing cataloged is counted, and the most
 * frequent subject shapes are kept, at most {@value #SHAPES_KEPT} per group. A batch's misses are
 * written with its commit, in the same transaction, and only those past the range's
 * {@code misses_counted_to} count, which then moves past them, so a retried batch, a redo after a
 * takeover or a re-index counts no article twice. Trade-off: a shape that comes once a batch may be
 * trimmed before it adds up, because the kept set is cut by count after every write; the totals are
 * exact.
 */
public final class MissStore {

    /** The shapes kept per group: several times what {@code rules misses} shows by default. */
    public static final int SHAPES_KEPT = 200;

    private static final String COUNT = """
            insert into group_misses (group_name, unmatched, rejected)
            select ?, count(*) filter (where not s.r), count(*) filter (where s.r)
            from unnest(?::bigint[], ?::boolean[]) as s(article, r), ranges g
            where g.id = ? and s.article > g.misses_counted_to
            on conflict (group_name) do update
                set unmatched = group_misses.unmatched + excluded.unmatched,
                    rejected = group_misses.rejected + excluded.rejected
            """;

    private static final String ADD_SHAPES = """
            insert into miss_shapes (group_name, shape, headers, example, reason, last_article)
            select ?, d.shape, m.c, d.example, d.reason, m.last
            from (select s.o, count(*) as c, max(s.article) as last
                  from unnest(?::bigint[], ?::int[]) as s(article, o), ranges g
                  where g.id = ? and s.article > g.misses_counted_to and s.o >= 0
                  group by s.o) m
            join unnest(?::text[], ?::text[], ?::text[]) with ordinality as d(shape, example, reason, o)
              on d.o = m.o + 1
            on conflict (group_name, shape) do update
                set headers = miss_shapes.headers + excluded.headers,
                    example = excluded.example,
                    reason = excluded.reason,
                    last_article = greatest(miss_shapes.last_article, excluded.last_article)
            """;

    private static final String MARK = """
            update ranges set misses_counted_to = greatest(misses_counted_to, ?) where id = ?
            """;

    private static final String TRIM = """
            delete from miss_shapes
            where group_name = ?
              and shape not in (select shape from miss_shapes where group_name = ?
                                order by headers desc, last_article desc limit ?)
            """;

    private static final String TOTALS = """
            select unmatched, rejected from group_misses where group_name = ?
            """;

    private static final String TOP = """
            select shape, headers, example, reason, last_article
            from miss_shapes where group_name = ?
            order by headers desc, last_article desc, shape
            limit ?
            """;

    private static final String GROUP_EXISTS = "select 1 from groups where name = ?";

    /** A group's miss counts and its most frequent shapes. */
    public record Report(String group, long unmatched, long rejected, List<ShapeCount> shapes) {}

    /** One kept shape: how many headers had it, an example, the list's verdict ("" when unmatched), the last article. */
    public record ShapeCount(String shape, long headers, String example, String reason, long lastArticle) {}

    private final DataSource dataSource;

    public MissStore(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * Counts a batch's misses in the caller's fenced transaction: those of articles past the
     * range's mark, which then moves to {@code lastArticle}. A batch without misses writes nothing.
     */
    public static void record(Connection c, String group, long rangeId, long lastArticle, Misses misses)
            throws SQLException {
        int n = misses.size();
        if (n == 0) {
            return;
        }
        Long[] articles = new Long[n];
        Boolean[] rejected = new Boolean[n];
        Integer[] ordinals = new Integer[n];
        for (int i = 0; i < n; i++) {
            articles[i] = misses.article(i);
            rejected[i] = misses.rejected(i);
            ordinals[i] = misses.shapeOf(i);
        }
        List<Misses.Shape> shapes = misses.shapes();
        String[] texts = shapes.stream().map(Misses.Shape::shape).toArray(String[]::new);
        String[] examples = shapes.stream().map(Misses.Shape::example).toArray(String[]::new);
        String[] reasons = shapes.stream().map(Misses.Shape::reason).toArray(String[]::new);
        PGConnection pg = c.unwrap(PGConnection.class);
        try (PreparedStatement ps = c.prepareStatement(COUNT)) {
            ps.setString(1, group);
            ps.setArray(2, pg.createArrayOf("int8", articles));
            ps.setArray(3, pg.createArrayOf("bool", rejected));
            ps.setLong(4, rangeId);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(ADD_SHAPES)) {
            ps.setString(1, group);
            ps.setArray(2, pg.createArrayOf("int8", articles));
            ps.setArray(3, pg.createArrayOf("int4", ordinals));
            ps.setLong(4, rangeId);
            ps.setArray(5, pg.createArrayOf("text", texts));
            ps.setArray(6, pg.createArrayOf("text", examples));
            ps.setArray(7, pg.createArrayOf("text", reasons));
            ps.executeUpdate();
        }
        Jdbc.update(c, MARK, lastArticle, rangeId);
        Jdbc.update(c, TRIM, group, group, SHAPES_KEPT);
    }

    /** The group's miss counts and its {@code limit} most frequent shapes; an unknown group throws {@link UnknownGroupException}. */
    public Report report(String group, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        }
        return Jdbc.inTransaction(dataSource, "reading the misses of " + group, c -> {
            if (Jdbc.first(c, GROUP_EXISTS, rs -> true, group).isEmpty()) {
                throw new UnknownGroupException(group);
            }
            long[] totals = Jdbc.first(c, TOTALS, rs -> new long[] {rs.getLong(1), rs.getLong(2)}, group)
                    .orElse(new long[2]);
            List<ShapeCount> top = Jdbc.list(
                    c,
                    TOP,
                    rs -> new ShapeCount(
                            rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getLong(5)),
                    group,
                    limit);
            return new Report(group, totals[0], totals[1], top);
        });
    }
}
