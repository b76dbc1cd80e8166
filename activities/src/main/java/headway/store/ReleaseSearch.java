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
 * names are), and each term into words: runs of ASCII letters and digits and of any non-ASCII
 * characters, so other punctuation ({@code ( ) [ ] , ' % &}) separates words too. A release
 * matches when every word of the query is a whole word of its name, case-insensitively
 * ({@code show} matches {@code Some.Show.S01E02}, {@code sho} and {@code s01} do not). A term with
 * no word at all ({@code %}) must appear in the name as it is, case-insensitively, and is not
 * indexed. Words longer than {@value #MAX_WORD} characters are cut to their first {@value
 * #MAX_WORD}, as the index stores them. A category id that is a multiple of 1000 is a parent and
 * matches its whole range ({@code 5000} is every TV category 5000-5999), as newznab clients expect.
 *
 * <p>How it stays fast on millions of releases (V10): the words of every name are a generated
 * {@code tsvector} with a GIN index, and releases are indexed newest first. A page is first looked
 * for among the newest releases ({@value #MIN_WINDOW}, or {@value #WINDOW_PER_RELEASE} per release asked for and skipped if more),
 * which costs the same whatever the words are; common words and broad categories are found there.
 * When too few match, the density seen there predicts which is cheaper: scanning further back
 * (each release read in order costs about a twentieth of one fetched through the index, whose rows
 * lie on random pages) or fetching every match through the indexes and sorting them, which rare
 * words and narrow filters choose. PostgreSQL's planner is not left to choose alone because it
 * estimates words as independent: two common words that never meet ({@code 1080p flac}) look
 * common together, and a scan newest first for them reads the whole catalog.
 *
 * <p>The total is exact when the page is the last one or when every match was fetched. When the
 * page was found among the newest releases it is an estimate: the share of matches among those
 * releases times the catalog's size in PostgreSQL's statistics ({@code reltuples}), never less
 * than the matches seen. Newznab clients only page with it, and the next page makes it exact once
 * they reach the end.
 */
public final class ReleaseSearch {

    /** Splits a query into terms, the way release names separate words. */
    public static final Pattern SEPARATORS = Pattern.compile("[\\s._\\-]+");

    /** The longest word the index keeps; longer words are cut to this many characters on both sides. */
    public static final int MAX_WORD = 64;

    /** The fewest newest releases a page is first looked for among. */
    static final int MIN_WINDOW = 10_000;

    /** Newest releases a page is first looked for among, per release of the page and the ones it skips. */
    static final int WINDOW_PER_RELEASE = 20;

    /** What a match fetched through an index costs against a release scanned newest first (measured, see docs/benchmarks.md). */
    private static final int FETCH_COST = 20;

    /** Rounds of scanning further back before every match is fetched through the indexes instead. */
    private static final int MAX_ROUNDS = 3;

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

    private static final String ORDER = "posted desc nulls last, name, group_name, poster";

    /**
     * A page among the newest {@code ?} releases, with how many of them match ({@code matched}) and
     * the catalog's size from the statistics ({@code estimate}, -1 before the first analyze). The
     * first match always comes back too, so that the counts do even when the page is past the end.
     */
    private static final String RECENT = """
            select %1$s, matched, rn, (select reltuples::bigint from pg_class where oid = 'releases'::regclass) as estimate
            from (select n.*, count(*) over () as matched, row_number() over (order by %2$s) as rn
                  from (select %1$s, name_words from releases order by %2$s limit ?) n
                  where %3$s) hits
            where rn = 1 or rn > ?
            order by rn
            limit ?
            """;

    /** A page among every match, fetched through whatever index the filter can use, with their exact count. */
    private static final String ALL = """
            with hits as materialized (select %1$s from releases where %3$s)
            select page.*, counted.matched
            from (select count(*) as matched from hits) counted
            left join lateral (select * from hits order by %2$s limit ? offset ?) page on true
            """;

    private final DataSource dataSource;
    private final Clock clock;
    private final int minWindow;
    private final int windowPerRelease;

    public ReleaseSearch(DataSource dataSource, Clock clock) {
        this(dataSource, clock, MIN_WINDOW, WINDOW_PER_RELEASE);
    }

    /** With other windows, so that tests reach every path on a small catalog. */
    ReleaseSearch(DataSource dataSource, Clock clock, int minWindow, int windowPerRelease) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.minWindow = minWindow;
        this.windowPerRelease = windowPerRelease;
    }

    /** The words of a query term: what the index holds of a name, cut to {@value #MAX_WORD} characters. */
    public static List<String> words(String term) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        int length = 0;
        for (int i = 0; i < term.length(); ) {
            int cp = term.codePointAt(i);
            i += Character.charCount(cp);
            if (cp >= 0x80 || (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z')) {
                if (length < MAX_WORD) {
                    word.appendCodePoint(cp);
                    length++;
                }
            } else if (length > 0) {
                words.add(word.toString());
                word.setLength(0);
                length = 0;
            }
        }
        if (length > 0) {
            words.add(word.toString());
        }
        return words;
    }

    /** One page of the releases that match {@code query}, newest first, and their total. */
    public Page search(Query query) {
        List<Object> params = new ArrayList<>();
        String where = where(query, params);
        long wanted = (long) query.offset() + query.limit();
        long window = Math.max(minWindow, windowPerRelease * wanted);
        try (Connection c = dataSource.getConnection()) {
            for (int round = 0; round < MAX_ROUNDS; round++) {
                Recent recent = recent(c, where, params, window, query);
                if (recent.page().size() == query.limit()) {
                    long scaled = recent.estimate() > window ? recent.matched() * recent.estimate() / window : 0;
                    return new Page(Math.max(recent.matched(), scaled), recent.page());
                }
                if (recent.estimate() < 2 * window || recent.matched() == 0) {
                    break;
                }
                long predictedMatches = recent.matched() * recent.estimate() / window;
                long neededWindow = (long) Math.ceil(1.25 * wanted * window / recent.matched());
                if (neededWindow >= recent.estimate() || FETCH_COST * predictedMatches <= neededWindow) {
                    break;
                }
                window = neededWindow;
            }
            return all(c, where, params, query);
        } catch (SQLException e) {
            throw new StoreException("searching the catalog", e);
        }
    }

    /** Matches among the newest {@code window} releases: the page, how many match there, and the catalog's estimated size. */
    private record Recent(List<Release> page, long matched, long estimate) {}

    private static Recent recent(Connection c, String where, List<Object> params, long window, Query query)
            throws SQLException {
        List<Object> all = new ArrayList<>();
        all.add(window);
        all.addAll(params);
        all.add(query.offset());
        all.add(query.limit() + 1);
        List<Release> page = new ArrayList<>();
        long matched = 0;
        long estimate = -1;
        try (PreparedStatement s = c.prepareStatement(RECENT.formatted(COLUMNS, ORDER, where))) {
            Jdbc.bind(s, all.toArray());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    matched = rs.getLong("matched");
                    estimate = rs.getLong("estimate");
                    if (rs.getLong("rn") > query.offset() && page.size() < query.limit()) {
                        page.add(CatalogStore.release(rs));
                    }
                }
            }
        }
        return new Recent(page, matched, estimate);
    }

    private static Page all(Connection c, String where, List<Object> params, Query query) throws SQLException {
        List<Object> all = new ArrayList<>(params);
        all.add(query.limit());
        all.add(query.offset());
        List<Release> page = new ArrayList<>();
        long matched = 0;
        try (PreparedStatement s = c.prepareStatement(ALL.formatted(COLUMNS, ORDER, where))) {
            Jdbc.bind(s, all.toArray());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    matched = rs.getLong("matched");
                    if (rs.getString("name") != null) {
                        page.add(CatalogStore.release(rs));
                    }
                }
            }
        }
        return new Page(matched, page);
    }

    /** The filter as SQL with {@code ?} parameters, which it appends to {@code params}; never user text in the SQL. */
    private String where(Query query, List<Object> params) {
        StringBuilder where = new StringBuilder("true");
        List<String> words = new ArrayList<>();
        for (String term : query.terms()) {
            List<String> termWords = words(term);
            if (termWords.isEmpty()) {
                where.append(" and name ilike ? escape '\\'");
                params.add("%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
            }
            words.addAll(termWords);
        }
        if (!words.isEmpty()) {
            // the words hold no quote or backslash (those separate words), so quoting each is enough
            where.append(" and name_words @@ lower(?)::tsquery");
            params.add(String.join(" & ", words.stream().map(w -> "'" + w + "'").toList()));
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
        return where.toString();
    }
}
