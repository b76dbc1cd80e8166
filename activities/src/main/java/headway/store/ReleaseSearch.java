package headway.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The catalog's one search, shared by {@code headway search}, the newznab API and the search page:
 * terms, categories, season/episode, age and paging, newest first, with the total for paging.
 * Unchecked: a database error is a {@link StoreException}.
 *
 * <p>Text semantics: the query is split into terms on {@code . _ -} and white space (as release
 * names are); a release matches when its name contains every term, case-insensitively. A category
 * id that is a multiple of 1000 is a parent and matches its whole range ({@code 5000} is every TV
 * category 5000-5999), as newznab clients expect.
 */
public final class ReleaseSearch {

    /** Splits a query or a release name into terms, the way release names separate words. */
    public static final Pattern SEPARATORS = Pattern.compile("[\\s._\\-]+");

    /**
     * What to look for. {@code text} may be empty (newest releases); {@code categories} empty means
     * any; {@code season}, {@code episode}, {@code maxAge} and {@code group} are null when not
     * asked for; {@code limit} is at least 1 and {@code offset} at least 0.
     */
    public record Query(
            String text,
            List<Integer> categories,
            Integer season,
            String episode,
            Duration maxAge,
            String group,
            int limit,
            int offset) {
        public Query {
            text = text == null ? "" : text;
            categories = categories == null ? List.of() : List.copyOf(categories);
            if (limit < 1) {
                throw new IllegalArgumentException("limit must be at least 1, was " + limit);
            }
            if (offset < 0) {
                throw new IllegalArgumentException("offset must be at least 0, was " + offset);
            }
        }

        /** Releases whose name holds every term of {@code text}, newest first. */
        public static Query text(String text, int limit) {
            return new Query(text, List.of(), null, null, null, null, limit, 0);
        }

        /** The terms of {@code text}, lower-cased, empty ones dropped. */
        public List<String> terms() {
            List<String> terms = new ArrayList<>();
            for (String t : SEPARATORS.split(text.strip())) {
                if (!t.isEmpty()) {
                    terms.add(t.toLowerCase(Locale.ROOT));
                }
            }
            return terms;
        }
    }

    /** One page of results and how many match in all. */
    public record Page(long total, List<Release> releases) {
        public Page {
            releases = List.copyOf(releases);
        }
    }

    private static final String COLUMNS = """
            group_name, poster, name, files_expected, files_present, files_complete, bytes, posted,
            completion_percent, complete, rule_version, category, title, season, episode, year, resolution""";

    private final DataSource dataSource;
    private final Clock clock;

    public ReleaseSearch(DataSource dataSource, Clock clock) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** One page of the releases that match {@code query}, newest first, and their total. */
    public Page search(Query query) {
        StringBuilder where = new StringBuilder(" where true");
        List<Object> params = new ArrayList<>();
        for (String term : query.terms()) {
            where.append(" and name ilike ? escape '\\'");
            params.add("%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
        }
        if (!query.categories().isEmpty()) {
            where.append(" and (false");
            for (int id : query.categories()) {
                if (id % 1000 == 0) {
                    where.append(" or category between ? and ?");
                    params.add(id);
                    params.add(id + 999);
                } else {
                    where.append(" or category = ?");
                    params.add(id);
                }
            }
            where.append(')');
        }
        if (query.season() != null) {
            where.append(" and season = ?");
            params.add(query.season());
        }
        if (query.episode() != null) {
            where.append(" and episode = ?");
            params.add(query.episode());
        }
        if (query.maxAge() != null) {
            where.append(" and posted >= ?");
            params.add(Timestamp.from(clock.instant().minus(query.maxAge())));
        }
        if (query.group() != null) {
            where.append(" and group_name = ?");
            params.add(query.group());
        }
        String select = "select " + COLUMNS + " from releases" + where
                + " order by posted desc nulls last, name, group_name, poster limit ? offset ?";
        String count = "select count(*) from releases" + where;
        try (Connection c = dataSource.getConnection()) {
            List<Object> paged = new ArrayList<>(params);
            paged.add(query.limit());
            paged.add(query.offset());
            List<Release> releases = Jdbc.list(c, select, CatalogStore::release, paged.toArray());
            long total = releases.size() < query.limit() && (query.offset() == 0 || !releases.isEmpty())
                    ? query.offset() + releases.size()
                    : count(c, count, params.toArray());
            return new Page(total, releases);
        } catch (SQLException e) {
            throw new StoreException("searching the catalog", e);
        }
    }

    private static long count(Connection c, String sql, Object[] params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            Jdbc.bind(s, params);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
