package headway.catalog;

import headway.catalog.TimeBuckets.Granularity;
import headway.store.Jdbc;
import headway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
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
 * <p>How it stays fast on millions of releases (V10, V38): the words of every name are a generated
 * {@code tsvector}, beside words no name can hold for the category and its parent ({@code #5040},
 * {@code #5000}), season and episode ({@code #s1}, {@code #e5}) and the IMDb id ({@code
 * #tt0058935}); a GIN index holds them with the day and the month each release was posted ({@code
 * #d20261207}, {@code #m202612}, {@link TimeBuckets}), so that words, filters and a stretch of
 * time are one GIN scan whose bitmap holds only the final matches; releases are also indexed
 * newest first. A search first counts, among the newest {@value #SAMPLE} releases, its matches and
 * those of each of its lexeme groups alone, which costs the same whatever it asks for. The
 * densities predict which of four plans is cheapest, in the unit of one candidate the GIN index
 * tests (the rarest group's matches are the candidates it walks; a row read newest first costs
 * {@value #SCAN_COST}, a match read from its random heap page {@value #FETCH_COST}):
 * <ul>
 *   <li>newest first: reading releases newest first until the page is full (about twice the
 *       releases the density says it takes): common words and broad categories;
 *   <li>every match: fetching every match through the index and sorting them: rare words, narrow
 *       filters, and words common alone that never meet ({@code 1080p flac});
 *   <li>by days or by months: asking the index for the matches of one day (or month) at a time,
 *       newest first, a few buckets a statement, until the page is full: words of middling
 *       frequency, whose newest page lies in the last days but whose every match is hundreds of
 *       thousands of rows. A walk of days goes on by months when that becomes cheaper.
 * </ul>
 * When newest first falls short (matches thinner further back) the cheaper of the others finishes
 * the search. PostgreSQL's planner is not left to choose alone because it estimates words as
 * independent: two common words that never meet look common together to it, and its newest-first
 * scan for them reads the whole catalog.
 *
 * <p>The total is exact when every match was fetched or every bucket asked (and so for every
 * catalog smaller than twice the sample). Else it is an estimate: newest first, the density in the
 * sample times the catalog's size in PostgreSQL's statistics ({@code reltuples}, kept by
 * autovacuum); by buckets, the matches found per second of posting time walked, over the time not
 * walked; never less than the releases up to the end of the page. Newznab clients only page with
 * it.
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

    /**
     * What a release read newest first costs, in the unit of the plans' estimates: one candidate the
     * GIN index tests (measured, see docs/benchmarks.md).
     */
    static final double SCAN_COST = 6;

    /** What a match read from its heap page costs, in the same unit. */
    static final double FETCH_COST = 16;

    /** What one bucket's part of a statement costs, in the same unit. */
    static final double BUCKET_COST = 200;

    /** At most this many buckets in one statement. */
    static final int BATCH = 31;

    /** How a page is found: the cheapest way, or (for tests, which check they agree) one of them. */
    enum Plan {
        CHEAPEST,
        NEWEST,
        ALL,
        DAYS,
        MONTHS
    }

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
            where release_search_terms(search_words, posted) @@ ?::tsquery and title is not null
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

    /**
     * How many of the newest {@code ?} releases match, how many there were, the newest posting
     * time, how many match each lexeme group alone (formatted in, each with its parameter), the
     * catalog's size in the statistics (-1: never analyzed) and its oldest posting time.
     */
    private static final String SAMPLED = """
            select count(*) filter (where %s) as matched, count(*) as scanned, max(posted) as newest,
                   %s
                   (select reltuples::bigint from pg_class where oid = 'releases'::regclass) as estimate,
                   (select min(posted) from releases) as oldest
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

    /** The newest posting time before {@code ?}, read from the newest-first index. */
    private static final String NEXT_POSTED = "select max(posted) from releases where posted < ?";

    /** The matches of a few buckets (their statements joined by union all), at most {@code ?}, in order, with their count. */
    private static final String BUCKETS = """
            select *, count(*) over () as batch_matched from (%s) u order by %s limit ?
            """;

    private final DataSource dataSource;
    private final Clock clock;
    private final int sample;
    private final Plan forced;

    public ReleaseSearch(DataSource dataSource, Clock clock) {
        this(dataSource, clock, SAMPLE);
    }

    /** With another sample size, so that tests reach every path on a small catalog. */
    ReleaseSearch(DataSource dataSource, Clock clock, int sample) {
        this(dataSource, clock, sample, Plan.CHEAPEST);
    }

    /** With another sample size and one plan for every page, so that tests check the plans agree. */
    ReleaseSearch(DataSource dataSource, Clock clock, int sample, Plan forced) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sample = sample;
        this.forced = Objects.requireNonNull(forced, "forced");
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
        Instant cutoff = query.maxAge() == null ? null : clock.instant().minus(query.maxAge());
        return plan(c, where(query, ids, cutoff, horizon), query, cutoff);
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

    /** The page by the cheapest plan (or the one this search was made to use), as the class comment says. */
    private Page plan(Connection c, SearchFilter f, Query query, Instant cutoff) throws SQLException {
        long wanted = (long) query.offset() + query.limit();
        Sampled s = sampled(c, f);
        double n = Math.max(s.estimate(), s.scanned());
        double d = s.density();
        double window = d > 0 ? Math.ceil(2 * wanted / d) : Double.POSITIVE_INFINITY;
        Plan p = forced;
        if (p == Plan.CHEAPEST) {
            if (s.scanned() < sample || s.estimate() < 2L * sample) {
                return all(c, f, query);
            }
            double dMin = s.rarestDensity();
            double span = s.spanSeconds();
            double newest = window < n ? window * SCAN_COST : Double.POSITIVE_INFINITY;
            double all = n * dMin + n * d * (1 + FETCH_COST);
            double days = walkCost(Granularity.DAY, n, d, dMin, wanted, span);
            double months = walkCost(Granularity.MONTH, n, d, dMin, wanted, span);
            if (newest <= Math.min(all, Math.min(days, months))) {
                List<Release> page = newest(c, f, (long) window, query);
                if (page.size() == query.limit()) {
                    return new Page(Math.max(wanted, Math.round(d * n)), page);
                }
            }
            p = all <= Math.min(days, months) ? Plan.ALL : days < months ? Plan.DAYS : Plan.MONTHS;
        } else if (p == Plan.NEWEST) {
            List<Release> page = newest(c, f, (long) Math.min(window, n), query);
            if (page.size() == query.limit()) {
                return new Page(Math.max(wanted, Math.round(d * n)), page);
            }
            p = Plan.ALL;
        }
        return switch (p) {
            case DAYS -> walk(c, f, query, s, cutoff, Granularity.DAY, n);
            case MONTHS -> walk(c, f, query, s, cutoff, Granularity.MONTH, n);
            default -> all(c, f, query);
        };
    }

    /**
     * What walking the buckets of {@code granularity} costs, in the unit of the index's candidates:
     * the buckets the page needs at density {@code d} (all of them when the sample held no match),
     * each {@link #bucketCost}, and the matches the page needs read.
     */
    static double walkCost(Granularity granularity, double n, double d, double dMin, long wanted, double span) {
        double perBucket = Math.max(1, n * granularity.seconds / span);
        double buckets = Math.ceil(span / granularity.seconds) + 1;
        double needed = d > 0 ? Math.min(buckets, Math.ceil(1.5 * wanted / (d * perBucket))) : buckets;
        return needed * bucketCost(granularity, n, dMin, span) + Math.min(1.5 * wanted, n * d) * FETCH_COST;
    }

    /**
     * What asking the index for one bucket costs: the fewer of its releases and the rarest group's
     * matches in the whole catalog (the index walks its rarest entry, the bucket's time word or the
     * group, from end to end: measured, a word of 60,000 matches and'ed with a year costs nearly
     * what the word alone does), and its part of a statement.
     */
    static double bucketCost(Granularity granularity, double n, double dMin, double span) {
        return Math.min(Math.max(1, n * granularity.seconds / span), n * dMin) + BUCKET_COST;
    }

    /**
     * The sample: how many of the newest {@code sample} releases match, how many there were, how
     * many match the rarest group of words alone (the one the index drives by; {@code scanned}
     * when there is none), the catalog's size in the statistics (-1: never analyzed) and its
     * newest and oldest posting times.
     */
    private record Sampled(long matched, long scanned, long rarest, long estimate, Instant newest, Instant oldest) {
        /** The share of the sample that matches (0 for an empty sample). */
        double density() {
            return scanned == 0 ? 0 : (double) matched / scanned;
        }

        /** The share of the sample that the rarest lexeme group matches alone (1 for an empty sample). */
        double rarestDensity() {
            return scanned == 0 ? 1 : (double) rarest / scanned;
        }

        /** The posting times' span in seconds, at least a day. */
        double spanSeconds() {
            if (newest == null || oldest == null) {
                return Granularity.DAY.seconds;
            }
            return Math.max(Granularity.DAY.seconds, newest.getEpochSecond() - oldest.getEpochSecond());
        }
    }

    private Sampled sampled(Connection c, SearchFilter f) throws SQLException {
        List<Object> bound = new ArrayList<>();
        String matched = f.onRows(bound);
        StringBuilder groups = new StringBuilder();
        for (String group : f.conjuncts()) {
            groups.append("count(*) filter (where search_words @@ lower(?)::tsquery), ");
            bound.add(group);
        }
        bound.add(sample);
        int conjuncts = f.conjuncts().size();
        return Jdbc.one(
                c,
                SAMPLED.formatted(matched, groups),
                rs -> {
                    long scanned = rs.getLong("scanned");
                    long rarest = scanned;
                    for (int i = 0; i < conjuncts; i++) {
                        rarest = Math.min(rarest, rs.getLong(4 + i));
                    }
                    return new Sampled(
                            rs.getLong("matched"),
                            scanned,
                            rarest,
                            rs.getLong("estimate"),
                            instant(rs, rs.findColumn("newest")),
                            instant(rs, rs.findColumn("oldest")));
                },
                bound.toArray());
    }

    private static List<Release> newest(Connection c, SearchFilter f, long window, Query query) throws SQLException {
        List<Object> bound = new ArrayList<>();
        bound.add(window);
        String where = f.onRows(bound);
        bound.add(query.limit());
        bound.add(query.offset());
        return Jdbc.list(c, NEWEST.formatted(COLUMNS, ORDER, where), CatalogStore::release, bound.toArray());
    }

    private static Page all(Connection c, SearchFilter f, Query query) throws SQLException {
        List<Object> bound = new ArrayList<>();
        String where = f.onIndex(bound, null);
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
     * The page by the time buckets (V38), newest first: each statement asks the index for the
     * matches of a few buckets (as many as the density so far says the page still needs), until the
     * page is full or every bucket was asked. A walk of days goes on by months from a month's start
     * when that is cheaper at the density it found. The total is exact when every bucket was asked,
     * else the matches found per second of posting time times the time not walked, added.
     */
    private static Page walk(
            Connection c, SearchFilter f, Query query, Sampled s, Instant cutoff, Granularity first, double n)
            throws SQLException {
        long wanted = (long) query.offset() + query.limit();
        TimeBuckets.Walk walk = new TimeBuckets.Walk(s.newest(), s.oldest(), cutoff, first);
        double sampled = s.density() * n / s.spanSeconds();
        double dMin = s.rarestDensity();
        Granularity granularity = first;
        List<Release> rows = new ArrayList<>();
        long found = 0;
        double walked = 0;
        while (rows.size() < wanted && !walk.done()) {
            double perSecond = found > 0 ? found / Math.max(1, walked) : sampled;
            long missing = wanted - rows.size();
            if (granularity == Granularity.DAY && walk.atMonthStart()) {
                double left =
                        perSecond > 0 ? Math.min(walk.secondsLeft(), 1.5 * missing / perSecond) : walk.secondsLeft();
                if (Math.ceil(left / Granularity.MONTH.seconds)
                                * bucketCost(Granularity.MONTH, n, dMin, s.spanSeconds())
                        < Math.ceil(left / Granularity.DAY.seconds)
                                * bucketCost(Granularity.DAY, n, dMin, s.spanSeconds())) {
                    granularity = Granularity.MONTH;
                }
            }
            int batch = perSecond > 0
                    ? (int) Math.max(1, Math.min(BATCH, Math.ceil(1.2 * missing / (perSecond * granularity.seconds))))
                    : BATCH;
            if (walk.before() != null) {
                walk.skipTo(
                        Jdbc.one(
                                c,
                                NEXT_POSTED,
                                rs -> instant(rs, 1),
                                walk.before().atOffset(ZoneOffset.UTC)),
                        granularity);
            }
            List<TimeBuckets.Bucket> buckets = new ArrayList<>();
            while (buckets.size() < batch && !walk.done()) {
                TimeBuckets.Bucket b = walk.next(granularity);
                buckets.add(b);
                if (b.start() != null) {
                    walked += b.end().getEpochSecond() - b.start().getEpochSecond();
                }
                if (granularity == Granularity.DAY && walk.atMonthStart()) {
                    break; // a month's start: the next statement may go on by months
                }
            }
            found += buckets(c, f, buckets, missing, rows);
        }
        if (walk.done()) {
            return new Page(found, page(rows, query));
        }
        double perSecond = found / Math.max(1, walked);
        return new Page(Math.max(wanted, Math.round(found + perSecond * walk.secondsLeft())), page(rows, query));
    }

    /** The matches of {@code buckets}, at most {@code limit} of them added to {@code rows} in order; returns how many match in all. */
    private static long buckets(
            Connection c, SearchFilter f, List<TimeBuckets.Bucket> buckets, long limit, List<Release> rows)
            throws SQLException {
        List<Object> bound = new ArrayList<>();
        StringBuilder union = new StringBuilder();
        for (TimeBuckets.Bucket b : buckets) {
            union.append(union.isEmpty() ? "" : " union all ")
                    .append("select ")
                    .append(COLUMNS)
                    .append(" from releases where ")
                    .append(f.onIndex(bound, b.word()));
        }
        bound.add(limit);
        long matched = 0;
        try (PreparedStatement s = c.prepareStatement(BUCKETS.formatted(union, ORDER))) {
            Jdbc.bind(s, bound.toArray());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    matched = rs.getLong("batch_matched");
                    rows.add(CatalogStore.release(rs));
                }
            }
        }
        return matched;
    }

    /** A posting time as the proleptic calendar PostgreSQL keeps (a {@code Timestamp} would read old ones as Julian), or null. */
    private static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    private static List<Release> page(List<Release> rows, Query query) {
        int from = (int) Math.min(rows.size(), query.offset());
        int to = (int) Math.min(rows.size(), (long) query.offset() + query.limit());
        return rows.subList(from, to);
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
     * The filter: the groups of lexemes the index must all match (never user text in the SQL) and
     * the other conditions with {@code ?} parameters. Words, categories, season and episode are
     * lexeme groups; terms without a word add nothing (see the class comment). Each of {@code ids}
     * is an external id's group (its word or the titles of the releases that carry it).
     */
    private static SearchFilter where(Query query, List<String> ids, Instant cutoff, String horizon) {
        StringBuilder where = new StringBuilder("true");
        List<Object> params = new ArrayList<>();
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
        if (cutoff != null) {
            where.append(" and posted >= ?");
            params.add(Timestamp.from(cutoff));
        }
        if (query.group() != null) {
            where.append(" and group_name = ?");
            params.add(query.group());
        }
        if (horizon != null) {
            where.append(WITHIN_HORIZON);
            params.add(horizon);
        }
        return new SearchFilter(lexemes, where.toString(), params);
    }
}
