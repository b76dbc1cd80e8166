package headway.web;

import headway.catalog.ImdbIds;
import headway.catalog.ReleaseSearch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The newznab request parameters, read from what a client sent ({@link QueryString}, decoded
 * strictly): each is checked here and a bad one is a {@link NewznabException} (201) that names the
 * parameter and the fix.
 */
final class Params {

    /** The longest {@code q} served; longer is a 201, not a scan for dozens of terms. */
    static final int MAX_QUERY = 500;

    /**
     * How deep a search pages, offset plus limit: a page at offset n makes PostgreSQL read the n
     * newer matches too (newest first, or every match to sort them), so the rows one request reads
     * grow with its offset; 1,000 bounds that (it was 100,000, about 100,000 rows a request). A
     * page past it is empty without a search, and totals say at most this, so clients stop there:
     * Sonarr and Radarr page while a page is full, NZBHydra2 while the total says there is more.
     */
    static final int MAX_DEPTH = 1_000;

    private static final Pattern SEASON = Pattern.compile("(?i)s?(\\d{1,4})");
    private static final Pattern EPISODE = Pattern.compile("(?i)e?(\\d{1,4})");
    private static final Pattern DAY = Pattern.compile("(\\d{1,2})[/-](\\d{1,2})");
    private static final Pattern CATEGORY = Pattern.compile("\\d{1,6}");

    private final Function<String, String> source;

    Params(QueryString query) {
        this.source = query::get;
    }

    /** The parameter as sent, or null when absent. */
    String raw(String name) {
        return source.apply(name);
    }

    /** The parameter, stripped; null when absent or blank. */
    String text(String name) {
        String v = source.apply(name);
        return v == null || v.isBlank() ? null : v.strip();
    }

    String required(String name) {
        String v = text(name);
        if (v == null) {
            throw NewznabException.missing(name);
        }
        return v;
    }

    /**
     * {@code q}: at most {@link #MAX_QUERY} characters. A literal {@code %20} is a space: Prowlarr
     * writes a {@code +} of a search term as {@code %20} and then URL-encodes the value, so the
     * server receives the three characters.
     */
    String query() {
        return words("q");
    }

    /** A text parameter searched as words ({@code q}, {@code title}, {@code author}, ...); "" when absent. */
    private String words(String name) {
        String v = text(name);
        if (v != null && v.length() > MAX_QUERY) {
            throw NewznabException.bad(name, "at most " + MAX_QUERY + " characters");
        }
        return v == null ? "" : v.replace("%20", " ").strip();
    }

    /**
     * {@code limit}: 1 and up; more than {@code max} is served as {@code max}, as newznab servers
     * do (NZBHydra2 asks every indexer for 1000 and pages by the response's offset and total).
     */
    int limit(int fallback, int max) {
        String v = text("limit");
        if (v == null) {
            return fallback;
        }
        if (v.matches("\\d{1,18}")) {
            long n = Long.parseLong(v);
            if (n >= 1) {
                return (int) Math.min(n, max);
            }
        }
        throw NewznabException.bad("limit", "a whole number from 1 (more than " + max + " is served as " + max + ")");
    }

    int integer(String name, int fallback, int min, int max) {
        String v = text(name);
        if (v == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw NewznabException.bad(name, "a whole number from " + min + " to " + max);
    }

    /** {@code cat}: a comma list of category ids; empty entries are skipped. */
    List<Integer> categories() {
        String v = text("cat");
        List<Integer> ids = new ArrayList<>();
        if (v == null) {
            return ids;
        }
        for (String part : v.split(",", 200)) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            if (!CATEGORY.matcher(p).matches()) {
                throw NewznabException.bad("cat", "a comma list of category ids such as 5030,5040 (t=caps lists them)");
            }
            ids.add(Integer.parseInt(p));
        }
        return ids;
    }

    /** {@code maxage}: days, or null when absent (0 is also no limit, as clients send it). */
    Duration maxAge() {
        int days = integer("maxage", 0, 0, 100_000);
        return days == 0 ? null : Duration.ofDays(days);
    }

    /** {@code season}: {@code 13}, {@code S13} or a year for daily shows. */
    Integer season() {
        String v = text("season");
        if (v == null) {
            return null;
        }
        Matcher m = SEASON.matcher(v);
        if (!m.matches()) {
            throw NewznabException.bad("season", "a number such as 13, S13 or a year");
        }
        return Integer.parseInt(m.group(1));
    }

    /** {@code ep}: {@code 13} or {@code E13} as stored ({@code "13"}), or a daily show's {@code MM/DD} as {@code "MM-DD"}. */
    String episode() {
        String v = text("ep");
        if (v == null) {
            return null;
        }
        Matcher day = DAY.matcher(v);
        if (day.matches()) {
            int month = Integer.parseInt(day.group(1));
            int dom = Integer.parseInt(day.group(2));
            if (month < 1 || month > 12 || dom < 1 || dom > 31) {
                throw NewznabException.bad("ep", "a month/day such as 04/12");
            }
            return String.format(Locale.ROOT, "%02d-%02d", month, dom);
        }
        Matcher m = EPISODE.matcher(v);
        if (!m.matches()) {
            throw NewznabException.bad("ep", "a number such as 13, E13 or a month/day such as 04/12");
        }
        return Integer.toString(Integer.parseInt(m.group(1)));
    }

    /** {@code o}: xml (default) or json. */
    boolean json() {
        String v = text("o");
        if (v == null || v.equalsIgnoreCase("xml")) {
            return false;
        }
        if (v.equalsIgnoreCase("json")) {
            return true;
        }
        throw NewznabException.bad("o", "xml or json");
    }

    boolean extended() {
        String v = text("extended");
        return v != null && v.equals("1");
    }

    /**
     * The search these parameters ask for, with {@code defaultCategories} when {@code cat} is
     * absent; the words of each of {@code wordParameters} ({@code title} and {@code author} of a
     * book search, ...) must be in the name as those of {@code q} must; with {@code byImdb},
     * {@code imdbid} ({@link #imdb}) is a filter too, and with {@code tv} {@code season},
     * {@code ep}, {@code tvdbid} and {@code tvmazeid}. Its limit ends the page at
     * {@link #MAX_DEPTH}; an offset at or past it is the caller's to answer with an empty page.
     */
    ReleaseSearch.Query search(
            int defaultLimit,
            int maxLimit,
            List<Integer> defaultCategories,
            boolean tv,
            List<String> wordParameters,
            boolean byImdb) {
        StringBuilder text = new StringBuilder(query());
        for (String name : wordParameters) {
            text.append(' ').append(words(name));
        }
        String q = text.toString().strip();
        List<Integer> cats = categories();
        int limit = limit(defaultLimit, maxLimit);
        int offset = integer("offset", 0, 0, Integer.MAX_VALUE);
        if (offset < MAX_DEPTH) {
            limit = Math.min(limit, MAX_DEPTH - offset);
        }
        Duration maxAge = maxAge();
        Integer season = tv ? season() : null;
        String episode = tv ? episode() : null;
        String imdb = byImdb ? imdb() : null;
        Long tvdb = tv ? seriesId("tvdbid") : null;
        Long tvmaze = tv ? seriesId("tvmazeid") : null;
        return new ReleaseSearch.Query(
                q,
                cats.isEmpty() ? defaultCategories : cats,
                season,
                episode,
                maxAge,
                null,
                limit,
                offset,
                imdb,
                tvdb,
                tvmaze);
    }

    /**
     * A series id ({@code tvdbid}, {@code tvmazeid}): 1 to 10 ASCII digits, not 0; null when absent
     * or blank.
     */
    Long seriesId(String name) {
        String v = text(name);
        if (v == null) {
            return null;
        }
        if (v.matches("[0-9]{1,10}")) {
            long id = Long.parseLong(v);
            if (id > 0) {
                return id;
            }
        }
        throw NewznabException.bad(name, "a series id: 1 to 10 digits, not 0");
    }

    /**
     * {@code imdbid}: an IMDb id with or without {@code tt} and leading zeros, as Radarr
     * ({@code 0058935}) and others ({@code tt0058935}) send it; null when absent or blank.
     */
    String imdb() {
        String v = text("imdbid");
        if (v == null) {
            return null;
        }
        return ImdbIds.normalize(v)
                .orElseThrow(() -> NewznabException.bad("imdbid", "an IMDb id: tt and up to 10 digits, or the digits"));
    }
}
