package headway.coordination;

import headway.store.Jdbc;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * How far indexing has got, as the demo, the benchmarks and chaos runs wait for it and sum it up:
 * unfinished ranges, headers indexed (the leases' counters, which count each header once per
 * holder that indexed it), and the catalog's totals.
 */
public final class ProgressQueries {

    private static final String OPEN_RANGES = """
            select count(*) from ranges where status <> 'done'
            """;

    private static final String HEADERS_OF = """
            select coalesce(sum(headers), 0) from group_leases where group_name = any(?)
            """;

    private static final String TOTALS = """
            select (select coalesce(sum(headers), 0) from group_leases),
                   (select count(*) from binaries),
                   (select count(*) from releases)
            """;

    /** Headers indexed by every group, and the binaries and releases in the catalog. */
    public record Totals(long headers, long binaries, long releases) {}

    private final DataSource dataSource;

    public ProgressQueries(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** Ranges of any group not done yet (planned or leased). */
    public long openRanges() {
        return Jdbc.inTransaction(
                dataSource, "counting open ranges", c -> Jdbc.one(c, OPEN_RANGES, rs -> rs.getLong(1)));
    }

    /** Headers indexed in {@code groups}, as their leases counted them. */
    public long headersIndexed(List<String> groups) {
        return Jdbc.inTransaction(
                dataSource,
                "counting indexed headers",
                c -> Jdbc.one(
                        c, HEADERS_OF, rs -> rs.getLong(1), c.createArrayOf("text", groups.toArray(String[]::new))));
    }

    public Totals totals() {
        return Jdbc.inTransaction(
                dataSource,
                "reading the catalog's totals",
                c -> Jdbc.one(c, TOTALS, rs -> new Totals(rs.getLong(1), rs.getLong(2), rs.getLong(3))));
    }
}
