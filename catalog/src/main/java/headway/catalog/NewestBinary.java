package headway.catalog;

import headway.store.Jdbc;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The catalog's newest binary of a group before an article: where a worker that has read no header
 * of a group maps another provider's article numbers from when the group's provider fails (by the
 * binary's posting date, its earliest segment's).
 */
public final class NewestBinary {

    private static final String BEFORE = """
            select last_article, posted from binaries
            where group_name = ? and last_article < ? and posted is not null
            order by last_article desc
            limit 1
            """;

    /** A binary's last article (catalog-numbered) and when its first segment was posted. */
    public record Found(long lastArticle, Instant posted) {
        public Found {
            Objects.requireNonNull(posted, "posted");
        }
    }

    private final DataSource dataSource;

    public NewestBinary(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** The binary of {@code group} whose last article is the greatest below {@code article}, if any. */
    public Optional<Found> before(String group, long article) {
        return Jdbc.inTransaction(
                dataSource,
                "reading the newest binary of " + group + " before article " + article,
                c -> Jdbc.first(c, BEFORE, rs -> new Found(rs.getLong(1), Jdbc.instant(rs, 2)), group, article));
    }
}
