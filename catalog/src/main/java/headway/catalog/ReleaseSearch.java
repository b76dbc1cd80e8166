package headway.catalog;

import headway.store.Jdbc;
import headway.store.StoreException;
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
import java.util.stream.Collectors;
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
 * no word at all ({@code %}, {@code !}) is left out: the index cannot find it, so as a filter it
 * made PostgreSQL read releases until it had a page of names holding it, every release when none
 * does (measured before: {@code q=!} read all 500,000 releases of a catalog, 4.6 s at p50 under
 * 20 such requests at once); a query of such terms alone is the newest releases. Words longer than
 * {@value #MAX_WORD} characters are cut to their first {@value #MAX_WORD}, as the index stores them. A category id that is a multiple of 1000 is a parent and
 * matches its whole range ({@code 5000} is every TV category 5000-5999), as newznab clients expect.
 *
 * <p>A release that inspection named (V22) is found by the words of its real name and by those
 * of the name its subjects gave (an obfuscated post's token): the index holds both. A search by
 * IMDb id finds the releases whose files gave the id and those with the title and year of one of
 * them (by TheTVDB or TVmaze id, V25, the same with the title alone): Radarr asks by id first and by title only when the id finds nothing, so an id search that
 * found only the few releases with an NFO would hide every other release of the film from it.
 *
 * <p>V25 adds filter words for what kind of episode a release holds: {@code #e<n>} for each
 * episode of a multi-episode release ({@code S02E06E07} answers {@code ep=6} and {@code ep=7}),
 * and an anime's absolute number as plain words in the widths clients write it ({@code 4},
 * {@code 04}, {@code 004}: Sonarr sends {@code q=Title+04}). A season alone matches packs and
 * every episode of the season, a daily show's year ({@code season=2026}) every dated episode of it.
 * V31: a pack of several seasons answers for each ({@code S01-S03}: {@code #s1} to {@code #s3}), a
 * pack of the whole series ({@code Complete Series}, {@code #sall}) for any season asked alone, and
 * a year with a month ({@code season=2026&ep=03}) every dated episode of that month.
 *
 * <p>The order is total: newest first ({@code posted}), then the release's key (name, group,
 * poster), so the same search gives the same pages every time. A search runs in one repeatable
 * read transaction and its page carries that transaction's snapshot, its <em>horizon</em>; a
 * search given a horizon (V31) answers only the releases whose adding transaction the horizon
 * saw. So the later pages of a client's walk, searched at its first page's horizon, hold the
 * releases in the places the first page put them: a release added during the walk moves nothing
 * and is on the next walk's first page. Releases written before V31 are in every horizon.
 *
 * <p>How it stays fast on millions of releases (V10): the words of every name are a generated
 * {@code tsvector} with a GIN index, beside words no name can hold for the category and its parent
 * ({@code #5040}, {@code #5000}), season and episode ({@code #s1}, {@code #e5}) and the IMDb id
 * ({@code #tt0058935}), so that words and
 * filters are one GIN scan whose bitmap holds only the final matches; releases are also indexed
 * newest first. A search first counts its matches among the newest {@value #SAMPLE} releases,
 * which costs the same whatever it asks for. That density predicts which of two plans is
 * cheaper: reading releases newest first until the page is full (about twice the releases the
 * density says it takes), or fetching every match through the index and sorting them, where each
 * match costs about {@value #FETCH_COST} releases read in order, because its row lies on a random
 * page. Common words and broad categories take the first, rare words and narrow filters the
 * second; when the first falls short (matches thinner further back) the second finishes the
 * search. PostgreSQL's planner is not left to choose alone because it estimates words as
 * independent: two common words that never meet ({@code 1080p flac}) look common together to it,
 * and its newest-first scan for them reads the whole catalog.
 *
 * <p>The total is exact when every match was fetched (and so for every catalog smaller than twice
 * the sample). When the page was found newest first it is an estimate: the density in the sample
 * times the catalog's size in PostgreSQL's statistics ({@code reltuples}, kept by autovacuum),
 * never less than the releases up to the end of the page. Newznab clients only page with it.
 *
 * <p>A caller that serves others ({@code serve}) gives each search a statement timeout: every
 * statement of the search runs in one transaction under {@code SET LOCAL statement_timeout}, and a
 * statement that takes longer is cancelled by PostgreSQL and thrown as {@link
 * SearchTimeoutException}, so no search holds a connection and a core for longer than that.
 */
public final class ReleaseSearch {

    /** Splits a query into terms, the way release names separate words. */
    public static final Pattern SEPARATORS = Pattern.compile("[\\s._\\-]+");

    /** The longest word the index keeps; longer words are cut to this many characters on both sides. */
    public static final int MAX_WORD = 64;

    /** The newest releases a search first counts its matches among. */
    static final int SAMPLE = 5_000;

    /** What a match fetched through the index costs against a release read newest first (measured, see docs/benchmarks.md). */
    static final int FETCH_COST = 8;

    /**
     * What to look for. {@code text} may be empty (newest releases); {@code categories} empty means
     * any; {@code season}, {@code episode}, {@code maxAge}, {@code group} and {@code imdb} are null
     * when not asked for; {@code imdb} is an id in {@link ImdbIds#FORM} (releases whose files gave
     * it), {@code tvdb} and {@code tvmaze} series ids from 1 (V25); {@code limit} is at least 1 and
     * {@code offset} at least 0.
     */
    public record Query(
            String text,
            List<Integer> categories,
            Integer season,
            String episode,
            Duration maxAge,
            String group,
            int limit,
            int offset,
            String imdb,
            Long tvdb,
            Long tvmaze) {
        public Query {
            text = text == null ? "" : text;
            categories = categories == null ? List.of() : List.copyOf(categories);
            if (imdb != null && !ImdbIds.FORM.matcher(imdb).matches()) {
                throw new IllegalArgumentException("imdb must be tt and 7 to 10 digits, was " + imdb);
            }
            if (limit < 1) {
                throw new IllegalArgumentException("limit must be at least 1, was " + limit);
            }
            if (offset < 0) {
                throw new IllegalArgumentException("offset must be at least 0, was " + offset);
            }
            if ((tvdb != null && tvdb < 1) || (tvmaze != null && tvmaze < 1)) {
                throw new IllegalArgumentException("series ids are from 1, were tvdb " + tvdb + ", tvmaze " + tvmaze);
            }
        }

        /** A query without series ids. */
        public Query(
                String text,
                List<Integer> categories,
                Integer season,
                String episode,
                Duration maxAge,
                String group,
                int limit,
                int offset,
                String imdb) {
            this(text, categories, season, episode, maxAge, group, limit, offset, imdb, null, null);
        }

        /** A query without an IMDb id. */
        public Query(
                String text,
                List<Integer> categories,
                Integer season,
                String episode,
                Duration maxAge,
                String group,
                int limit,
                int offset) {
            this(text, categories, season, episode, maxAge, group, limit, offset, null, null, null);
        }

        /** Releases whose name holds every term of {@code text}, newest first. */
        public static Query text(String text, int limit) {
            return new Query(text, List.of(), null, null, null, null, limit, 0);
        }

        /** The words of every term of {@code text}: what it is searched by (empty: the newest releases). */
        public List<String> words() {
            List<String> words = new ArrayList<>();
            for (String term : terms()) {
                words.addAll(ReleaseSearch.words(term));
            }
            return words;
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

    /**
     * One page of results, how many match in all, and the horizon it was read at: the snapshot
     * ({@code pg_snapshot} text) of the releases it saw, null when it was not read from the catalog.
     */
    public record Page(long total, List<Release> releases, String horizon) {
        public Page {
            releases = List.copyOf(releases);
        }

        /** A page without a horizon. */
        public Page(long total, List<Release> releases) {
            this(total, releases, null);
        }

        Page at(String horizon) {
            return new Page(total, releases, horizon);
        }
    }

    private static final String COLUMNS = """
            group_name, poster, name, files_expected, files_present, files_complete, bytes, posted,
            completion_percent, complete, rule_version, category, title, season, episode, year, resolution,
            real_name, named_by, password, imdb, episode_kind, last_episode, air_date, tvdb, tvmaze""";

    private static final String ORDER = "posted desc nulls last, name, group_name, poster";

    /** The titles and years of the releases that carry an IMDb id: at most a few, found by the id's word. */
    private static final String ID_TITLES = """
            select distinct title, year from releases
            where search_words @@ ?::tsquery and title is not null
            limit 5
            """;

    /** Every statement of a search sees one snapshot, so the horizon it reports is the one its page was read at. */
    private static final String REPEATABLE_READ = "set transaction isolation level repeatable read";

    /** The search's snapshot: its horizon. */
    private static final String HORIZON = "select pg_current_snapshot()::text";

    /** A release is within a horizon when the transaction that added it was visible to it (V31). */
    private static final String WITHIN_HORIZON =
            " and (added is null or pg_visible_in_snapshot(added, ?::pg_snapshot))";

    /** The statement timeout of the search's transaction; {@code set_config} takes it as a parameter, {@code SET} would not. */
    private static final String STATEMENT_TIMEOUT = "select set_config('statement_timeout', ?, true)";

    /** PostgreSQL's SQLSTATE for a statement it cancelled ({@code query_canceled}), here by the statement timeout. */
    private static final String QUERY_CANCELED = "57014";

    /** How many of the newest {@code ?} releases match, how many there were, and the catalog's size in the statistics (-1: never analyzed). */
    private static final String SAMPLED = """
            select count(*) filter (where %s) as matched, count(*) as scanned,
                   (select reltuples::bigint from pg_class where oid = 'releases'::regclass) as estimate
            from (select name, search_words, posted, group_name, added
                  from releases order by posted desc nulls last limit ?) n
            """;

    /** A page among the newest {@code ?} releases, read newest first until it is full. */
    private static final String NEWEST = """
            select %1$s
            from (select %1$s, search_words, added from releases order by %2$s limit ?) n
            where %3$s
            order by %2$s
            limit ? offset ?
            """;

    /** A page among every match, fetched through the index, with their exact count. */
    private static final String ALL = """
            with hits as materialized (select %1$s from releases where %3$s)
            select page.*, counted.matched
            from (select count(*) as matched from hits) counted
            left join lateral (select * from hits order by %2$s limit ? offset ?) page on true
            """;

    private final DataSource dataSource;
    private final Clock clock;
    private final int sample;

    public ReleaseSearch(DataSource dataSource, Clock clock) {
        this(dataSource, clock, SAMPLE);
    }

    /** With another sample size, so that tests reach every path on a small catalog. */
    ReleaseSearch(DataSource dataSource, Clock clock, int sample) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sample = sample;
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

    /** One page of the releases that match {@code query}, newest first, and their total; no time limit. */
    public Page search(Query query) {
        return search(query, null);
    }

    /**
     * As {@link #search(Query)}, each statement cancelled after {@code statementTimeout} (null or
     * zero: none), which is then a {@link SearchTimeoutException}.
     */
    public Page search(Query query, Duration statementTimeout) {
        return search(query, statementTimeout, null);
    }

    /**
     * As {@link #search(Query, Duration)}, among the releases within {@code horizon} (a page's
     * {@link Page#horizon()}; null: every release). The page carries the horizon it was read at:
     * {@code horizon} when one was given, else its own snapshot.
     */
    public Page search(Query query, Duration statementTimeout, String horizon) {
        boolean limited = statementTimeout != null && !statementTimeout.isZero();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                Jdbc.update(c, REPEATABLE_READ);
                if (limited) {
                    Jdbc.one(
                            c,
                            STATEMENT_TIMEOUT,
                            rs -> rs.getString(1),
                            Math.max(1, statementTimeout.toMillis()) + "ms");
                }
                String seen = horizon != null ? horizon : Jdbc.one(c, HORIZON, rs -> rs.getString(1));
                Page page = run(c, query, horizon).at(seen);
                c.commit();
                return page;
            } catch (SQLException | RuntimeException e) {
                try {
                    c.rollback();
                } catch (SQLException rollback) {
                    e.addSuppressed(rollback);
                }
                throw e;
            }
        } catch (SQLException e) {
            if (limited && QUERY_CANCELED.equals(e.getSQLState())) {
                throw new SearchTimeoutException(statementTimeout, e);
            }
            throw new StoreException("searching the catalog", e);
        }
    }

    /** The filter, with the titles each external id stands for read first, and the page it gives. */
    private Page run(Connection c, Query query, String horizon) throws SQLException {
        List<String> ids = new ArrayList<>();
        if (query.imdb() != null) {
            ids.add(either(c, "#" + query.imdb(), true));
        }
        if (query.tvdb() != null) {
            ids.add(either(c, "#tvdb" + query.tvdb(), false));
        }
        if (query.tvmaze() != null) {
            ids.add(either(c, "#tvmaze" + query.tvmaze(), false));
        }
        List<Object> params = new ArrayList<>();
        String where = where(query, params, ids);
        if (horizon != null) {
            where += WITHIN_HORIZON;
            params.add(horizon);
        }
        return plan(c, where, params, query);
    }

    /**
     * An external id as a tsquery: its word, or the words of the title (and, for a film, the year)
     * of any release whose files gave it. So a search by id also finds the releases of that title
     * that carry no id, because Sonarr and Radarr ask by id first and by title only when the id
     * finds nothing at all.
     */
    private static String either(Connection c, String idWord, boolean withYear) throws SQLException {
        List<String> either = new ArrayList<>();
        either.add("'" + idWord + "'");
        List<List<String>> titles = Jdbc.list(
                c,
                ID_TITLES,
                rs -> {
                    List<String> words =
                            new ArrayList<>(words(rs.getString("title").toLowerCase(Locale.ROOT)));
                    int year = rs.getInt("year");
                    if (withYear && !rs.wasNull() && !words.isEmpty()) {
                        words.add(Integer.toString(year));
                    }
                    return words;
                },
                "'" + idWord + "'");
        for (List<String> title : titles) {
            if (!title.isEmpty()) {
                either.add(title.stream().map(w -> "'" + w + "'").collect(Collectors.joining(" & ", "(", ")")));
            }
        }
        return either.stream().distinct().collect(Collectors.joining(" | ", "(", ")"));
    }

    /** The page by the cheaper of the two plans, as the class comment says. */
    private Page plan(Connection c, String where, List<Object> params, Query query) throws SQLException {
        long wanted = (long) query.offset() + query.limit();
        Sampled s = sampled(c, where, params);
        if (s.scanned() == sample && s.estimate() >= 2L * sample && s.matched() > 0) {
            double density = (double) s.matched() / sample;
            double window = 2 * wanted / density;
            double matches = density * s.estimate();
            if (window < s.estimate() && window < FETCH_COST * matches) {
                List<Release> page = newest(c, where, params, (long) Math.ceil(window), query);
                if (page.size() == query.limit()) {
                    return new Page(Math.max(wanted, Math.round(matches)), page);
                }
            }
        }
        return all(c, where, params, query);
    }

    private record Sampled(long matched, long scanned, long estimate) {}

    private Sampled sampled(Connection c, String where, List<Object> params) throws SQLException {
        List<Object> bound = new ArrayList<>(params);
        bound.add(sample);
        return Jdbc.one(
                c,
                SAMPLED.formatted(where),
                rs -> new Sampled(rs.getLong("matched"), rs.getLong("scanned"), rs.getLong("estimate")),
                bound.toArray());
    }

    private static List<Release> newest(Connection c, String where, List<Object> params, long window, Query query)
            throws SQLException {
        List<Object> bound = new ArrayList<>();
        bound.add(window);
        bound.addAll(params);
        bound.add(query.limit());
        bound.add(query.offset());
        return Jdbc.list(c, NEWEST.formatted(COLUMNS, ORDER, where), CatalogStore::release, bound.toArray());
    }

    private static Page all(Connection c, String where, List<Object> params, Query query) throws SQLException {
        List<Object> bound = new ArrayList<>(params);
        bound.add(query.limit());
        bound.add(query.offset());
        List<Release> page = new ArrayList<>();
        long matched = 0;
        try (PreparedStatement s = c.prepareStatement(ALL.formatted(COLUMNS, ORDER, where))) {
            Jdbc.bind(s, bound.toArray());
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

    /**
     * The month a daily show's search asks for, or null: a season that is a year and an episode of
     * one or two digits from 1 to 12 ({@code season=2026&ep=03}) is also every dated episode of that
     * month, found by the prefix of their episode word ({@code #e03-08}). Standard episodes are
     * stored without a leading zero ({@code #e3}), so the prefix reaches only dated ones; the
     * episode 3 of a show numbered by year still answers as well.
     */
    static Integer month(Query query) {
        if (query.season() == null
                || query.season() < 1000
                || query.episode() == null
                || !query.episode().matches("[0-9]{1,2}")) {
            return null;
        }
        int month = Integer.parseInt(query.episode());
        return month >= 1 && month <= 12 ? month : null;
    }

    /**
     * The filter as SQL with {@code ?} parameters, which it appends to {@code params}; never user
     * text in the SQL. Words, categories, season and episode become one tsquery on the index;
     * terms without a word add nothing (see the class comment). Each of {@code ids} is an
     * external id's tsquery (its word or the titles of the releases that carry it).
     */
    private String where(Query query, List<Object> params, List<String> ids) {
        StringBuilder where = new StringBuilder("true");
        List<String> lexemes = new ArrayList<>();
        // words hold no quote or backslash (those separate words), so quoting them is enough
        query.words().forEach(w -> lexemes.add("'" + w + "'"));
        if (!query.categories().isEmpty()) {
            lexemes.add(query.categories().stream()
                    .map(id -> "'#" + id + "'")
                    .distinct()
                    .collect(Collectors.joining(" | ", "(", ")")));
        }
        if (query.season() != null) {
            // a season alone also finds the packs of every season (V31: "Complete Series")
            lexemes.add(
                    query.episode() == null ? "('#s" + query.season() + "' | '#sall')" : "'#s" + query.season() + "'");
        }
        if (query.episode() != null) {
            String episode = "'#e" + query.episode().replace("\\", "\\\\").replace("'", "''") + "'";
            Integer month = month(query);
            lexemes.add(
                    month == null
                            ? episode
                            : "(" + episode + " | '#e" + String.format(Locale.ROOT, "%02d", month) + "-':*)");
        }
        lexemes.addAll(ids);
        if (!lexemes.isEmpty()) {
            where.append(" and search_words @@ lower(?)::tsquery");
            params.add(String.join(" & ", lexemes));
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
