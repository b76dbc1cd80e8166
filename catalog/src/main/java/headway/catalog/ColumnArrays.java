package headway.catalog;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.postgresql.PGConnection;

/**
 * Rows of one kind bound as one array per column, the parameters of a statement that reads them
 * with {@code unnest(?::text[], ?::int[], ...)}: a batch of rows in one round trip, which is how
 * the catalog writes. Each column names its PostgreSQL element type and how to read it from a row;
 * the columns bind in the order they were added, as consecutive parameters. Immutable.
 */
final class ColumnArrays<T> {

    /** A column: its element type and its values for a list of rows, as a Java array. */
    private record Column<T>(String type, Function<List<? extends T>, Object> values) {}

    private final List<Column<T>> columns;

    private ColumnArrays(List<Column<T>> columns) {
        this.columns = columns;
    }

    static <T> ColumnArrays<T> of() {
        return new ColumnArrays<>(List.of());
    }

    /** A {@code text[]} column. */
    ColumnArrays<T> text(Function<? super T, String> value) {
        return with("text", String[]::new, value);
    }

    /** An {@code int4[]} column (a null value is SQL null). */
    ColumnArrays<T> int4(Function<? super T, Integer> value) {
        return with("int4", Integer[]::new, value);
    }

    /** A {@code bytea[]} column. */
    ColumnArrays<T> bytea(Function<? super T, byte[]> value) {
        return with("bytea", byte[][]::new, value);
    }

    /** An {@code int8[]} column. */
    ColumnArrays<T> int8(Function<? super T, Long> value) {
        return with("int8", Long[]::new, value);
    }

    private <V> ColumnArrays<T> with(String type, IntFunction<V[]> array, Function<? super T, V> value) {
        List<Column<T>> more = new ArrayList<>(columns);
        more.add(new Column<>(type, rows -> {
            V[] out = array.apply(rows.size());
            for (int i = 0; i < out.length; i++) {
                out[i] = value.apply(rows.get(i));
            }
            return out;
        }));
        return new ColumnArrays<>(List.copyOf(more));
    }

    /** Binds the columns of {@code rows} as parameters {@code first}, {@code first + 1}, ...; returns the index after the last. */
    int bind(PreparedStatement ps, int first, List<? extends T> rows) throws SQLException {
        PGConnection pg = ps.getConnection().unwrap(PGConnection.class);
        int next = first;
        for (Column<T> c : columns) {
            ps.setArray(next++, pg.createArrayOf(c.type(), c.values().apply(rows)));
        }
        return next;
    }
}
