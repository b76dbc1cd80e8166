package headway.lab;

import headway.catalog.ReleaseSearch;
import headway.coordination.GroupStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * {@code headway bench search}: milliseconds per {@link ReleaseSearch} call on a catalog of
 * {@link SyntheticReleases}, bulk-loaded with COPY into a freshly migrated embedded PostgreSQL (its
 * indexes in place, as a catalog grows), vacuumed and analyzed, with PostgreSQL given
 * {@code --shared-buffers} (default 2 GB: the catalog of 2,000,000 releases with its indexes is
 * about 1 GB, and a server that answers searches is sized to hold it; the embedded default is
 * 128 MB) and the
 * table and its search indexes prewarmed into them. The queries are what the newznab API and
 * the search page send: single words (common ones like {@code 1080p} and title words), phrases
 * (a show and its episode, a film and its year, an artist and {@code flac}), words that never meet
 * ({@code 1080p flac}), absent words, categories alone, the newest releases, and TV searches with
 * season and episode; some with a category filter, some paging (offset 100 to 1,000). Each call is
 * timed from the caller's side (JDBC and the total included) after untimed warm-up calls.
 */
final class SearchBench {

    /** What the benchmark measured. */
    record Result(int releases, double p50Ms, double p95Ms, int queries, double loadSeconds) {}

    /** A search of the mix and its kind (term, tv, tvsearch, movie, ...). */
    record Timed(String kind, ReleaseSearch.Query query) {}

    private static final String[] COMMON = {
        "1080p", "720p", "2160p", "x264", "x265", "web", "dl", "hevc", "bluray", "flac", "epub", "mp3"
    };
    private static final int[][] CATEGORIES = {
        {5000}, {5040}, {5030, 5040, 5045}, {2000}, {2040, 2045}, {3000}, {3040}, {7020}, {7030}, {8020}, {5070}, {4000}
    };
    private static final int[] OFFSETS = {100, 200, 500, 1000};
    private static final int WARM_UP = 50;

    /** The seed of the catalog: a rerun on a kept data directory draws the same vocabulary again. */
    private static final long SEED = 16;

    private final int releases;
    private final int queries;
    private final String sharedBuffers;
    private final PrintWriter out;
    private final Path dataDir;

    /**
     * {@code dataDir} null: a temporary PostgreSQL, deleted after the run. Else PostgreSQL's data
     * directory, kept: a run that finds there the catalog of {@code releases} releases a previous
     * run loaded measures it again without loading it (20,000,000 releases take half an hour).
     */
    SearchBench(int releases, int queries, String sharedBuffers, PrintWriter out, Path dataDir) {
        this.releases = releases;
        this.queries = queries;
        this.sharedBuffers = sharedBuffers;
        this.out = out;
        this.dataDir = dataDir;
    }

    Result run() throws SQLException, IOException {
        Path dir = dataDir != null ? dataDir : Files.createTempDirectory("headway-search-bench");
        try (Rig rig = Rig.builder()
                .database("search")
                .postgresDir(dir)
                .temporalLater()
                .start()) {
            Loaded loaded = dataDir != null && loadedBefore(rig.dataSource(), releases, dataDir)
                    ? reuse(rig, releases, sharedBuffers, "search", out)
                    : load(rig, releases, sharedBuffers, "search", out);
            double[] ms = measure(rig.dataSource(), loaded.catalog(), queries, out);
            return new Result(releases, percentile(ms, 50), percentile(ms, 95), queries, loaded.copySeconds());
        } finally {
            if (dataDir == null) {
                deleteTree(dir);
            }
        }
    }

    /**
     * Whether the catalog holds exactly the {@code releases} a previous run loaded (its load ends
     * with an analyze); false when it is empty; refused when it holds anything else.
     */
    private static boolean loadedBefore(DataSource ds, int releases, Path dir) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("""
                        select (select count(*) from releases),
                               (select last_analyze is not null from pg_stat_user_tables where relname = 'releases')""")) {
            rs.next();
            long found = rs.getLong(1);
            if (found == releases && rs.getBoolean(2)) {
                return true;
            }
            if (found == 0) {
                return false;
            }
            throw new IllegalArgumentException(String.format(
                    Locale.ROOT,
                    "--data-dir %s holds %,d releases, not a finished load of %,d: give --releases %d, or an empty"
                            + " or new directory",
                    dir,
                    found,
                    releases,
                    found));
        }
    }

    /**
     * The catalog a previous run loaded: its vocabulary drawn again from the same seed, the buffers
     * set and the table prewarmed as {@link #load} does.
     */
    static Loaded reuse(Rig rig, int releases, String sharedBuffers, String label, PrintWriter out)
            throws SQLException {
        setSharedBuffers(rig, sharedBuffers);
        out.printf(Locale.ROOT, "%s: reusing the %,d releases loaded before; %s%n", label, releases, prewarm(rig));
        return new Loaded(new SyntheticReleases(SEED, releases, Instant.now()), 0);
    }

    private static void setSharedBuffers(Rig rig, String sharedBuffers) throws SQLException {
        try (Connection c = rig.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("alter system set shared_buffers = '" + sharedBuffers.replace("'", "") + "'");
        }
        rig.restartPostgres();
        rig.dataSource().getHikariPoolMXBean().softEvictConnections();
    }

    private static String prewarm(Rig rig) throws SQLException {
        try (Connection c = rig.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("create extension if not exists pg_prewarm");
            try (ResultSet rs = s.executeQuery("""
                        select current_setting('shared_buffers'),
                               pg_size_pretty(pg_total_relation_size('releases')),
                               pg_prewarm('releases') + pg_prewarm('releases_search_terms') + pg_prewarm('releases_posted')""")) {
                rs.next();
                return "shared_buffers " + rs.getString(1) + ", releases with indexes " + rs.getString(2) + ", "
                        + rs.getLong(3) + " blocks prewarmed";
            }
        }
    }

    /** A loaded catalog and how long its COPY took. */
    record Loaded(SyntheticReleases catalog, double copySeconds) {}

    /**
     * Gives the rig's PostgreSQL {@code sharedBuffers}, COPY-loads {@code releases} synthetic
     * releases with the search indexes in place, vacuums, analyzes and prewarms them, printing what
     * it did under {@code label}; the other benchmarks that need a large catalog load it this way.
     */
    static Loaded load(Rig rig, int releases, String sharedBuffers, String label, PrintWriter out) throws SQLException {
        setSharedBuffers(rig, sharedBuffers);
        DataSource ds = rig.dataSource();
        GroupStore groups = new GroupStore(ds);
        for (String g : SyntheticReleases.GROUPS) {
            groups.add(g, 0);
        }
        Instant now = Instant.now();
        SyntheticReleases catalog = new SyntheticReleases(SEED, releases, now);
        out.printf("%s: loading %,d synthetic releases with COPY (indexes in place)%n", label, releases);
        out.flush();
        double copySeconds = catalog.copyInto(ds, releases);
        long t0 = System.nanoTime();
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            s.execute("vacuum analyze releases");
        }
        double analyzeSeconds = (System.nanoTime() - t0) / 1e9;
        String prewarmed = prewarm(rig);
        out.printf(
                Locale.ROOT,
                "%s: loaded in %.1f s (%.0f releases/s), vacuum analyze %.1f s; %s%n",
                label,
                copySeconds,
                releases / copySeconds,
                analyzeSeconds,
                prewarmed);
        return new Loaded(catalog, copySeconds);
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Times {@code queries} searches after {@value #WARM_UP} untimed ones; prints the figures by kind and the slowest searches. */
    static double[] measure(DataSource ds, SyntheticReleases catalog, int queries, PrintWriter out) {
        ReleaseSearch search = new ReleaseSearch(ds, Clock.systemUTC());
        List<Timed> mix = mix(catalog, new Random(61), WARM_UP + queries);
        for (Timed t : mix.subList(0, WARM_UP)) {
            search.search(t.query());
        }
        Map<String, List<Double>> byKind = new LinkedHashMap<>();
        double[] all = new double[queries];
        List<Timed> timed = mix.subList(WARM_UP, mix.size());
        for (int i = 0; i < queries; i++) {
            Timed t = timed.get(i);
            long start = System.nanoTime();
            search.search(t.query());
            all[i] = (System.nanoTime() - start) / 1e6;
            byKind.computeIfAbsent(t.kind(), k -> new ArrayList<>()).add(all[i]);
        }
        for (Map.Entry<String, List<Double>> e : byKind.entrySet()) {
            double[] ms = e.getValue().stream().mapToDouble(Double::doubleValue).toArray();
            out.printf(
                    Locale.ROOT,
                    "search: %-9s n=%3d p50_ms=%.1f p95_ms=%.1f max_ms=%.1f%n",
                    e.getKey(),
                    ms.length,
                    percentile(ms, 50),
                    percentile(ms, 95),
                    percentile(ms, 100));
        }
        Integer[] order = new Integer[queries];
        for (int i = 0; i < queries; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(all[b], all[a]));
        for (int k = 0; k < Math.min(5, queries); k++) {
            ReleaseSearch.Query q = timed.get(order[k]).query();
            out.printf(
                    Locale.ROOT,
                    "search: slowest %.1f ms: %s \"%s\" cat=%s season=%s ep=%s limit=%d offset=%d%n",
                    all[order[k]],
                    timed.get(order[k]).kind(),
                    q.text(),
                    q.categories(),
                    q.season(),
                    q.episode(),
                    q.limit(),
                    q.offset());
        }
        return all;
    }

    /** The {@code p}th percentile (nearest rank) of {@code values}. */
    static double percentile(double[] values, double p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** {@code count} searches of the benchmark's mix (see the class comment), drawn with {@code r}. */
    static List<Timed> mix(SyntheticReleases catalog, Random r, int count) {
        List<Timed> out = new ArrayList<>(count);
        List<String> shows = catalog.shows();
        List<String> films = catalog.films();
        List<String> artists = catalog.artists();
        for (int n = 0; n < count; n++) {
            int kind = r.nextInt(100);
            int limit = r.nextInt(4) == 0 ? 50 : 100;
            int offset = r.nextInt(4) == 0 ? OFFSETS[r.nextInt(OFFSETS.length)] : 0;
            List<Integer> cats = List.of();
            String text;
            String label;
            Integer season = null;
            String episode = null;
            if (kind < 25) {
                label = "term";
                text = r.nextBoolean() ? COMMON[r.nextInt(COMMON.length)] : catalog.titleWord(r);
                if (r.nextInt(3) == 0) {
                    cats = categories(r);
                }
            } else if (kind < 40) {
                label = "tv";
                text = shows.get(r.nextInt(shows.size()))
                        + String.format(Locale.ROOT, " S%02dE%02d", 1 + r.nextInt(3), 1 + r.nextInt(24));
                cats = r.nextBoolean() ? List.of(5000) : List.of();
            } else if (kind < 50) {
                label = "tvsearch";
                text = shows.get(r.nextInt(shows.size()));
                cats = List.of(5030, 5040, 5045);
                season = 1 + r.nextInt(3);
                episode = Integer.toString(1 + r.nextInt(24));
            } else if (kind < 60) {
                label = "movie";
                int film = r.nextInt(films.size());
                text = films.get(film) + " " + catalog.filmYear(film);
                cats = r.nextBoolean() ? List.of(2000) : List.of();
            } else if (kind < 65) {
                label = "music";
                text = artists.get(r.nextInt(artists.size())) + (r.nextBoolean() ? " flac" : "");
            } else if (kind < 70) {
                label = "disjoint";
                String a = COMMON[r.nextInt(COMMON.length)];
                String b = COMMON[r.nextInt(COMMON.length)];
                text = a + " " + b + (r.nextBoolean() ? " " + SyntheticReleases.WORDS.get(r.nextInt(50)) : "");
            } else if (kind < 73) {
                label = "absent";
                text = "zq" + Integer.toString(r.nextInt(1_000_000), 36);
            } else if (kind < 88) {
                label = "category";
                text = "";
                cats = categories(r);
            } else {
                label = "newest";
                text = "";
            }
            out.add(new Timed(label, new ReleaseSearch.Query(text, cats, season, episode, null, null, limit, offset)));
        }
        return out;
    }

    private static List<Integer> categories(Random r) {
        return Arrays.stream(CATEGORIES[r.nextInt(CATEGORIES.length)]).boxed().toList();
    }
}
