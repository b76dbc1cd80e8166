package headway.lab;

import headway.catalog.CatalogMonths;
import headway.catalog.CatalogRetention;
import headway.catalog.CatalogStore;
import headway.catalog.Release;
import headway.coordination.GroupStore;
import headway.index.CompletedBinary;
import headway.index.NzbWriter;
import headway.settings.Setting;
import headway.store.CatalogCap;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.GZIPOutputStream;
import javax.sql.DataSource;

/**
 * {@code headway bench catalog}: what the catalog costs on disk per header against the floor, the
 * gzip-compressed NZBs of the same releases. {@link SyntheticReleases} names the releases (groups,
 * posters, three years of posting times), {@link SyntheticPosts} makes their articles (the
 * message-ids and article sizes of real posting tools), and the catalog gets them through the
 * worker's write path: {@link CatalogStore#writeBinaries} in one transaction per batch of the
 * indexer's size, every binary fresh as the window hands it over (so by binary COPY, its release by
 * the sums of new binaries). Then, after VACUUM ANALYZE: {@code catalog_bytes()} (tables, indexes,
 * TOAST), the NZBs of a sample of releases read back from the catalog compared byte for byte with
 * those of the generated articles (every release when there are at most {@value #CHECKED}), the
 * search benchmark's mix over these releases, and the time the retention purge takes to remove
 * the oldest month. The articles are generated on a thread of their own (with the gzip of their
 * NZBs) while the main thread writes.
 */
final class CatalogBench {

    /** What the run is asked to do. */
    record Options(long headers, int releases, int batch, int queries, String sharedBuffers, long seed) {

        Options {
            if (headers < 1_000 || releases < 10 || releases > headers / 2 || batch < 100 || queries < 10) {
                throw new IllegalArgumentException("headers >= 1000, 10 <= releases <= headers / 2, batch >= 100,"
                        + " queries >= 10; were " + headers + ", " + releases + ", " + batch + ", " + queries);
            }
        }
    }

    /** What the run measured. */
    record Result(
            long headers,
            int releases,
            long catalogBytes,
            long nzbGzBytes,
            double searchP50Ms,
            double searchP95Ms,
            double purgeMonthSeconds,
            long purgedReleases,
            int checked,
            double writeSeconds) {

        double bytesPerHeader() {
            return (double) catalogBytes / headers;
        }

        double nzbGzBytesPerHeader() {
            return (double) nzbGzBytes / headers;
        }

        double ratio() {
            return (double) catalogBytes / nzbGzBytes;
        }

        String line() {
            return String.format(
                    Locale.ROOT,
                    "catalog: headers=%d releases=%d bytes_per_header=%.1f nzb_gz_bytes_per_header=%.1f ratio=%.2f"
                            + " search_p50_ms=%.1f search_p95_ms=%.1f purge_month_s=%.2f",
                    headers,
                    releases,
                    bytesPerHeader(),
                    nzbGzBytesPerHeader(),
                    ratio(),
                    searchP50Ms,
                    searchP95Ms,
                    purgeMonthSeconds);
        }
    }

    /** At most this many releases' NZBs are read back and compared. */
    static final int CHECKED = 1_000;

    /** The span of posting times {@link SyntheticReleases} spreads releases over. */
    private static final int SPAN_DAYS = 3 * 365;

    private static final int MONTH_DAYS = 30;

    /** The retention activity's batch (RetentionActivitiesImpl). */
    private static final int PURGE_BATCH = 500;

    /**
     * The relations of the catalog with their heap and TOAST bytes: the month partitions of
     * {@code binaries} (V33) summed as {@code binaries}, their indexes as {@code binaries_indexes},
     * then {@code releases} and each of its indexes.
     */
    private static final String RELATION_SIZES = """
            select 'binaries', sum(pg_relation_size(c.oid))::bigint,
                   sum(coalesce(pg_total_relation_size(c.reltoastrelid), 0))::bigint
            from pg_inherits i join pg_class c on c.oid = i.inhrelid
            where i.inhparent = 'binaries'::regclass
            union all
            select 'binaries_indexes', sum(pg_indexes_size(i.inhrelid))::bigint, 0
            from pg_inherits i
            where i.inhparent = 'binaries'::regclass
            union all
            (select c.relname::text, pg_relation_size(c.oid), coalesce(pg_total_relation_size(c.reltoastrelid), 0)
             from pg_class c
             where c.relkind in ('r', 'i') and c.relnamespace = 'public'::regnamespace
               and (c.relname = 'releases'
                    or c.oid in (select indexrelid from pg_index where indrelid = 'releases'::regclass))
             order by 2 desc)
            """;

    private final Options options;
    private final PrintWriter out;

    CatalogBench(Options options, PrintWriter out) {
        this.options = options;
        this.out = out;
    }

    /** One generated release: its key, its generated NZB's digest (when sampled) and gzip size. */
    private record Made(String group, String poster, String name, byte[] digest) {}

    /** What the generator made in all. */
    private record Generated(long headers, long nzbGzBytes, List<Made> sampled) {}

    Result run() throws Exception {
        Path dir = Files.createTempDirectory("headway-catalog-bench");
        try (Rig rig = Rig.builder()
                .database("catalog")
                .postgresDir(dir)
                .temporalLater()
                .start()) {
            DataSource ds = rig.dataSource();
            try (Connection c = ds.getConnection();
                    Statement s = c.createStatement()) {
                s.execute("alter system set shared_buffers = '"
                        + options.sharedBuffers().replace("'", "") + "'");
            }
            rig.restartPostgres();
            rig.dataSource().getHikariPoolMXBean().softEvictConnections();
            GroupStore groups = new GroupStore(ds);
            for (String g : SyntheticReleases.GROUPS) {
                groups.add(g, 0);
            }
            SyntheticReleases names = new SyntheticReleases(options.seed(), options.releases(), Instant.now());
            out.printf(
                    Locale.ROOT,
                    "catalog: writing %,d headers in %,d releases through the catalog's write path, batches of %,d%n",
                    options.headers(),
                    options.releases(),
                    options.batch());
            out.flush();
            // the months as retention's schedule keeps them, so each lands in its own partition, not the default
            int months = new CatalogMonths(ds).prepare(Instant.now().minus(Duration.ofDays(SPAN_DAYS + MONTH_DAYS)));
            out.printf(Locale.ROOT, "catalog: %d monthly partitions of binaries made before the write%n", months);
            CpuMeter.Sample before = CpuMeter.sample(rig.postgres().port());
            Generated generated = write(ds, names);
            CpuMeter.Sample after = CpuMeter.sample(rig.postgres().port());
            double writeSeconds = (after.wallNanos() - before.wallNanos()) / 1e9;
            long t1 = System.nanoTime();
            try (Connection c = ds.getConnection();
                    Statement s = c.createStatement()) {
                s.execute("vacuum analyze binaries");
                s.execute("vacuum analyze releases");
            }
            out.printf(
                    Locale.ROOT,
                    "catalog: written in %.1f s (%.0f headers/s), CPU us per header: postgres %.2f, this JVM %.2f"
                            + " (the generator and its NZBs' gzip included); vacuum analyze %.1f s%n",
                    writeSeconds,
                    generated.headers() / writeSeconds,
                    after.postgresSince(before) * 1e6 / generated.headers(),
                    (after.jvm() - before.jvm() - after.jitSince(before)) * 1e6 / generated.headers(),
                    (System.nanoTime() - t1) / 1e9);
            long bytes;
            try (Connection c = ds.getConnection()) {
                bytes = CatalogCap.catalogBytes(c);
                printSizes(c, generated.headers());
                CatalogBreakdown.print(c, generated.headers(), out);
            }
            int checked = check(ds, generated.sampled());
            out.printf("catalog: %d releases' NZBs read back from the catalog equal the generated ones%n", checked);
            double[] ms = SearchBench.measure(ds, names, options.queries(), out);
            long t2 = System.nanoTime();
            CatalogRetention.Purged purged = new CatalogRetention(ds)
                    .purge(SPAN_DAYS - MONTH_DAYS, Setting.WINDOW_MAX_AGE.longDefault(), PURGE_BATCH);
            double purgeSeconds = (System.nanoTime() - t2) / 1e9;
            out.printf(
                    Locale.ROOT,
                    "catalog: the oldest month purged in %.2f s: %,d releases, %,d binaries, %d month partitions"
                            + " dropped (horizon %s)%n",
                    purgeSeconds,
                    purged.releases(),
                    purged.binaries(),
                    purged.monthsDropped(),
                    purged.horizon());
            return new Result(
                    generated.headers(),
                    options.releases(),
                    bytes,
                    generated.nzbGzBytes(),
                    SearchBench.percentile(ms, 50),
                    SearchBench.percentile(ms, 95),
                    purgeSeconds,
                    purged.releases(),
                    checked,
                    writeSeconds);
        } finally {
            SearchBench.deleteTree(dir);
        }
    }

    /**
     * Generates the releases on a thread of their own and writes their binaries here, one
     * transaction per batch of at least {@code batch} headers, cut between binaries.
     */
    private Generated write(DataSource ds, SyntheticReleases names) throws Exception {
        BlockingQueue<List<CompletedBinary>> batches = new ArrayBlockingQueue<>(4);
        ExecutorService generator = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "catalog-bench-generator");
            t.setDaemon(true);
            return t;
        });
        try {
            Future<Generated> made = generator.submit(() -> generate(names, batches));
            CatalogStore catalog = new CatalogStore();
            long written = 0;
            long nextReport = options.headers() / 10;
            while (true) {
                List<CompletedBinary> batch = batches.take();
                if (batch.isEmpty()) {
                    break;
                }
                try (Connection c = ds.getConnection()) {
                    c.setAutoCommit(false);
                    catalog.writeBinaries(c, batch);
                    c.commit();
                }
                written +=
                        batch.stream().mapToLong(CompletedBinary::partsPresent).sum();
                if (written >= nextReport) {
                    out.printf(Locale.ROOT, "catalog: %,d headers written%n", written);
                    out.flush();
                    nextReport += options.headers() / 10;
                }
            }
            return made.get();
        } finally {
            generator.shutdownNow();
        }
    }

    /** Makes every release, hands its binaries to {@code batches} and ends them with an empty list. */
    private Generated generate(SyntheticReleases names, BlockingQueue<List<CompletedBinary>> batches)
            throws InterruptedException, IOException {
        SyntheticPosts posts = new SyntheticPosts(options.seed() * 31 + 7);
        Random sizes = new Random(options.seed() * 17 + 3);
        Map<String, Long> nextArticle = new HashMap<>();
        int every = Math.max(1, (options.releases() + CHECKED - 1) / CHECKED);
        List<Made> sampled = new ArrayList<>();
        long remaining = options.headers();
        long gz = 0;
        List<CompletedBinary> batch = new ArrayList<>();
        long inBatch = 0;
        for (int i = 0; i < options.releases(); i++) {
            SyntheticReleases.Row row = names.next(i, options.releases());
            int headers = headers(row, remaining, options.releases() - i, sizes);
            remaining -= headers;
            long first = nextArticle.getOrDefault(row.group(), 1L);
            List<CompletedBinary> binaries = posts.release(row, headers, first);
            nextArticle.put(row.group(), first + headers);
            byte[] nzb = nzb(row.name(), binaries);
            gz += gzipped(nzb);
            if (i % every == 0) {
                sampled.add(new Made(row.group(), row.poster(), row.name(), digest(nzb)));
            }
            for (CompletedBinary b : binaries) {
                batch.add(b);
                inBatch += b.partsPresent();
                if (inBatch >= options.batch()) {
                    batches.put(batch);
                    batch = new ArrayList<>();
                    inBatch = 0;
                }
            }
        }
        if (!batch.isEmpty()) {
            batches.put(batch);
        }
        batches.put(List.of());
        return new Generated(options.headers() - remaining, gz, sampled);
    }

    /**
     * The articles of the next release: the mean of what is left, times a log-normal factor (sigma
     * 1) and the kind's weight (books a twentieth, music a third, films twice), at least one, and
     * the last release takes what is left.
     */
    static int headers(SyntheticReleases.Row row, long remaining, int releasesLeft, Random r) {
        if (releasesLeft == 1) {
            return (int) Math.min(Integer.MAX_VALUE, remaining);
        }
        double weight = switch (row.classification().category().id() / 1000) {
            case 7 -> 0.05;
            case 3 -> 0.3;
            case 2 -> 2.0;
            default -> 1.0;
        };
        double mean = (double) remaining / releasesLeft;
        double factor = Math.exp(r.nextGaussian() - 0.5) * weight;
        long most = remaining - (releasesLeft - 1);
        return (int) Math.max(1, Math.min(Math.min(most, 2_000_000), Math.round(mean * factor)));
    }

    /** The NZB of a release as the catalog serves it: files in the catalog's order (file name, total parts). */
    static byte[] nzb(String name, List<CompletedBinary> binaries) throws IOException {
        List<CompletedBinary> ordered = binaries.stream()
                .sorted(Comparator.comparing(CompletedBinary::fileName).thenComparingInt(CompletedBinary::totalParts))
                .toList();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        NzbWriter.write(bytes, name, ordered);
        return bytes.toByteArray();
    }

    /** The gzip size of {@code nzb} at gzip's default level. */
    static long gzipped(byte[] nzb) throws IOException {
        Counting counted = new Counting();
        try (GZIPOutputStream gz = new GZIPOutputStream(counted, 1 << 16)) {
            gz.write(nzb);
        }
        return counted.count;
    }

    /** Reads the sampled releases' NZBs back from the catalog; fails on the first that differs. */
    private static int check(DataSource ds, List<Made> sampled) throws SQLException, IOException {
        CatalogStore catalog = new CatalogStore();
        Set<String> seen = new HashSet<>();
        for (Made m : sampled) {
            Optional<Release> release = catalog.release(ds, m.group(), m.poster(), m.name());
            if (release.isEmpty()) {
                throw new IllegalStateException(
                        "release '" + m.name() + "' of " + m.group() + " is not in the catalog");
            }
            byte[] back = nzb(release.get().displayName(), catalog.binaries(ds, release.get()));
            if (!MessageDigest.isEqual(digest(back), m.digest())) {
                throw new IllegalStateException("the catalog's NZB of '" + m.name() + "' of " + m.group()
                        + " differs from the articles written");
            }
            seen.add(m.group() + '\n' + m.poster() + '\n' + m.name());
        }
        return seen.size();
    }

    /** Prints the two large tables' heaps, TOAST and indexes, bytes per header each. */
    private void printSizes(Connection c, long headers) throws SQLException {
        Map<String, long[]> sizes = new LinkedHashMap<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(RELATION_SIZES)) {
            while (rs.next()) {
                sizes.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3)});
            }
        }
        StringBuilder sb = new StringBuilder("catalog: bytes per header by relation:");
        for (Map.Entry<String, long[]> e : sizes.entrySet()) {
            sb.append(String.format(Locale.ROOT, " %s=%.1f", e.getKey(), (double) e.getValue()[0] / headers));
            if (e.getValue()[1] > 0) {
                sb.append(String.format(Locale.ROOT, " %s_toast=%.1f", e.getKey(), (double) e.getValue()[1] / headers));
            }
        }
        out.println(sb);
    }

    private static byte[] digest(byte[] nzb) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(nzb);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    /** Counts what is written to it and keeps nothing. */
    private static final class Counting extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }
}
