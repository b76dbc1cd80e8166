package headway.starter;

import com.zaxxer.hikari.HikariDataSource;
import headway.index.CompletedBinary;
import headway.index.RuleSet;
import headway.index.Window;
import headway.nntp.NewsSimulator;
import headway.nntp.NntpClient;
import headway.nntp.OverviewLine;
import headway.nntp.OverviewSink;
import headway.store.CatalogStore;
import headway.store.Database;
import headway.store.EmbeddedDatabase;
import headway.store.GroupStore;

import java.io.PrintWriter;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Headers per second end to end (news simulator -> worker -> catalog) beside the two raw limits
 * measured in the same run on the same data: the simulator's OVER stream read and parsed with no
 * Temporal and no database, and the catalog write rate alone. All three use the same number of
 * groups in parallel, so the ratio compares like with like.
 */
public final class ThroughputBench {

    /** What the benchmark measured. */
    public record Result(long headers, double endToEnd, double rawFetch, double rawWrite, double seconds) {
        public double ratio() {
            return endToEnd / Math.min(rawFetch, rawWrite);
        }
    }

    private final int groups;
    private final long articles;
    private final int batch;
    private final boolean inProcessTemporal;
    private final PrintWriter out;

    public ThroughputBench(int groups, long articles, int batch, boolean inProcessTemporal, PrintWriter out) {
        this.groups = groups;
        this.articles = articles;
        this.batch = batch;
        this.inProcessTemporal = inProcessTemporal;
        this.out = out;
    }

    public Result run() throws Exception {
        List<NewsSimulator.GroupSpec> specs = new ArrayList<>();
        for (int i = 0; i < groups; i++) {
            specs.add(NewsSimulator.GroupSpec.of("alt.binaries.bench.t" + i, 77 + i, articles));
        }
        try (EmbeddedDatabase postgres = EmbeddedDatabase.start(null);
             NewsSimulator simulator = NewsSimulator.start(NewsSimulator.Options.defaults(), specs)) {
            double fetch = rawFetch(simulator, specs);
            out.printf("throughput: raw fetch %.0f headers/s (%d groups x %d articles, parsed, no Temporal, no database)%n",
                    fetch, groups, articles);
            double write = rawWrite(postgres, simulator, specs);
            out.printf("throughput: raw catalog write %.0f headers/s%n", write);
            BenchRig.Run e2e;
            try (BenchRig rig = BenchRig.start(postgres, "e2e", simulator, inProcessTemporal, out,
                    java.util.Map.of("HEADWAY_BATCH", Integer.toString(batch)))) {
                e2e = rig.indexAll(specs, 100_000, Duration.ofMinutes(20));
            }
            double endToEnd = e2e.headers() / e2e.seconds();
            out.printf("throughput: end to end %.0f headers/s (%d headers in %.1f s)%n", endToEnd, e2e.headers(), e2e.seconds());
            return new Result(e2e.headers(), endToEnd, fetch, write, e2e.seconds());
        }
    }

    /** The OVER streams of every group, read and parsed in parallel, one connection per group. */
    private double rawFetch(NewsSimulator simulator, List<NewsSimulator.GroupSpec> specs) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(specs.size());
        try {
            for (int round = 0; round < 2; round++) {
                AtomicLong lines = new AtomicLong();
                long t0 = System.nanoTime();
                List<Future<?>> done = new ArrayList<>();
                for (NewsSimulator.GroupSpec g : specs) {
                    done.add(pool.submit(() -> {
                        try (NntpClient client = NntpClient.connect(simulator.server(), Duration.ofSeconds(5), Duration.ofSeconds(60))) {
                            client.group(g.name());
                            for (long lo = 1; lo <= g.initialArticles(); lo += batch) {
                                lines.addAndGet(client.over(lo, Math.min(g.initialArticles(), lo + batch - 1), new CountingSink()));
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
                double rate = lines.get() / ((System.nanoTime() - t0) / 1e9);
                if (round == 1) {
                    return rate;
                }
            }
            throw new IllegalStateException("unreachable");
        } finally {
            pool.shutdown();
        }
    }

    /**
     * The catalog write rate alone: the binaries the groups' windows produce (computed first,
     * untimed) written with the same batching as the indexer, one transaction per batch, groups
     * in parallel.
     */
    private double rawWrite(EmbeddedDatabase postgres, NewsSimulator simulator, List<NewsSimulator.GroupSpec> specs)
            throws Exception {
        List<List<List<CompletedBinary>>> batchesPerGroup = new ArrayList<>();
        long segments = 0;
        for (NewsSimulator.GroupSpec g : specs) {
            List<List<CompletedBinary>> batches = new ArrayList<>();
            Window window = new Window(g.name(), 50_000);
            RuleSet rules = RuleSet.defaults(0);
            try (NntpClient client = NntpClient.connect(simulator.server(), Duration.ofSeconds(5), Duration.ofSeconds(60))) {
                client.group(g.name());
                for (long lo = 1; lo <= g.initialArticles(); lo += batch) {
                    long hi = Math.min(g.initialArticles(), lo + batch - 1);
                    client.over(lo, hi, new CountingSink() {
                        @Override
                        public void header(OverviewLine line) {
                            window.accept(line, rules);
                        }
                    });
                    window.ageTo(hi);
                    List<CompletedBinary> batch = window.drain();
                    batches.add(batch);
                    segments += batch.stream().mapToLong(CompletedBinary::partsPresent).sum();
                }
            }
            batchesPerGroup.add(batches);
        }
        String url = postgres.createDatabase("rawwrite");
        try (HikariDataSource ds = Database.pool(new Database.Settings(url, "postgres", null, specs.size() + 2,
                Duration.ofSeconds(10)), "bench-write")) {
            Database.migrate(ds);
            GroupStore groupStore = new GroupStore(ds);
            specs.forEach(g -> groupStore.add(g.name(), 0));
            CatalogStore catalog = new CatalogStore();
            ExecutorService pool = Executors.newFixedThreadPool(specs.size());
            try {
                long t0 = System.nanoTime();
                List<Future<?>> done = new ArrayList<>();
                for (List<List<CompletedBinary>> batches : batchesPerGroup) {
                    done.add(pool.submit(() -> {
                        for (List<CompletedBinary> batch : batches) {
                            try (Connection c = ds.getConnection()) {
                                c.setAutoCommit(false);
                                catalog.writeBinaries(c, batch);
                                c.commit();
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
                return segments / ((System.nanoTime() - t0) / 1e9);
            } finally {
                pool.shutdown();
            }
        }
    }

    /** Counts nothing itself; the client returns the number of good headers. */
    private static class CountingSink implements OverviewSink {
        @Override
        public void header(OverviewLine line) {
        }

        @Override
        public void malformed(long article, String reason) {
        }

        @Override
        public void missing(long fromInclusive, long toInclusive) {
        }
    }
}
