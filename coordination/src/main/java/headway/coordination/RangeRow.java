package headway.coordination;

import headway.store.Jdbc;
import java.sql.ResultSet;
import java.sql.SQLException;

/** A range as stored: {@code [start, end]} with cursor {@code next}; negative priority means tail. */
public record RangeRow(
        long id,
        String group,
        long start,
        long end,
        long next,
        String status,
        int priority,
        String node,
        int attempts,
        Integer ruleVersion) {

    public boolean tail() {
        return priority < 0;
    }

    public long remaining() {
        return Math.max(0, end - next + 1);
    }

    /**
     * A range from a row of {@code id, group_name, start_article, end_article, next_article,
     * status, priority, node_id, attempts, rule_version}, in that order.
     */
    static RangeRow read(ResultSet rs) throws SQLException {
        return new RangeRow(
                rs.getLong(1),
                rs.getString(2),
                rs.getLong(3),
                rs.getLong(4),
                rs.getLong(5),
                rs.getString(6),
                rs.getInt(7),
                rs.getString(8),
                rs.getInt(9),
                Jdbc.nullableInt(rs, 10));
    }
}
