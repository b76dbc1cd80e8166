package headway.lab;

import headway.activity.NntpHeaderSource;
import headway.activity.ReadAhead;
import headway.nntp.NntpClient;
import headway.nntp.NntpPool;
import headway.nntp.NntpServer;
import headway.simulator.NewsSimulator;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Headers per second of reading one large group's overview behind a slow link ({@link SlowLink}:
 * a round-trip time and a bandwidth cap per connection), at several connection counts, with and
 * without RFC 8054 COMPRESS DEFLATE, beside the bound the link allows: connections x bandwidth /
 * wire bytes per header, the wire bytes counted at the proxy in the same case. The reads are the
 * indexer's own: {@link ReadAhead} over the worker's pool and header source, the range in article
 * order, n batches fetched at once over n connections (HEADWAY_NNTP_GROUP_CONNECTIONS = n); the
 * window and the database are left out, so this shows what the link lets one group read.
 */
public final class ProviderBench {

    /** A news server to read from: its address, the group and its article numbers. */
    public record Target(String host, int port, String group, long low, long high, String name) {
        long articles() {
            return high - low + 1;
        }
    }

    /** One case's figures. */
    public record Case(int conns, boolean compress, long headers, double seconds, long wireBytes, double bound) {
        public double headersPerSecond() {
            return headers / seconds;
        }

        public double ratio() {
            return headersPerSecond() / bound;
        }

        public double wireBytesPerHeader() {
            return (double) wireBytes / headers;
        }
    }

    private final Duration rtt;
    private final double mbitPerConn;
    private final List<Integer> conns;
    private final int batch;
    private final double secondsPerCase;
    private final PrintWriter out;

    public ProviderBench(
            Duration rtt, double mbitPerConn, List<Integer> conns, int batch, double secondsPerCase, PrintWriter out) {
        this.rtt = rtt;
        this.mbitPerConn = mbitPerConn;
        this.conns = List.copyOf(conns);
        this.batch = batch;
        this.secondsPerCase = secondsPerCase;
        this.out = out;
    }

    /** The news simulator, serving one group large enough for every case, with COMPRESS DEFLATE offered. */
    public List<Case> runOnSimulator() throws Exception {
        return runOnSimulator(false);
    }

    /**
     * The news simulator, its compressed cases over RFC 8054 COMPRESS DEFLATE or, with
     * {@code xfeature}, over XFEATURE COMPRESS GZIP (only the overview replies compressed).
     */
    public List<Case> runOnSimulator(boolean xfeature) throws Exception {
        String group = "alt.binaries.bench.provider";
        long articles = 20_000_000;
        NewsSimulator.Options options = xfeature
                ? NewsSimulator.Options.defaults().withGzipOverview()
                : NewsSimulator.Options.defaults().withCompression();
        try (NewsSimulator sim =
                NewsSimulator.start(options, List.of(NewsSimulator.GroupSpec.of(group, 19, articles)))) {
            return run(new Target(
                    sim.host(),
                    sim.port(),
                    group,
                    1,
                    articles,
                    xfeature ? "news simulator (XFEATURE COMPRESS GZIP)" : "news simulator"));
        }
    }

    /** Every case against {@code target}: first without compression, then with it. */
    public List<Case> run(Target target) throws Exception {
        double bitsPerSecond = mbitPerConn * 1e6;
        List<Case> cases = new ArrayList<>();
        try (SlowLink link = SlowLink.start(target.host(), target.port(), rtt, bitsPerSecond)) {
            out.printf(
                    "provider: %s %s:%d group %s (%d articles) behind a slow link on port %d: rtt %d ms, %.1f Mbit/s per connection and direction%n",
                    target.name(),
                    target.host(),
                    target.port(),
                    target.group(),
                    target.articles(),
                    link.port(),
                    rtt.toMillis(),
                    mbitPerConn);
            for (boolean compress : new boolean[] {false, true}) {
                // The wire bytes per header of this mode, from a short read, size the cases to secondsPerCase each.
                Case probe = measure(
                        link,
                        target,
                        1,
                        compress,
                        target.low(),
                        target.low() + Math.min(batch, target.articles()) - 1,
                        bitsPerSecond);
                if (probe.headers() == 0) {
                    throw new IllegalStateException("the group " + target.group() + " served no headers");
                }
                double perConnRate = bitsPerSecond / 8 / probe.wireBytesPerHeader();
                long perConn = Math.max(batch, (long) (perConnRate * secondsPerCase));
                for (int n : conns) {
                    long total = Math.min(target.articles(), perConn * n);
                    Case c = measure(link, target, n, compress, target.low(), target.low() + total - 1, bitsPerSecond);
                    out.printf(
                            java.util.Locale.ROOT,
                            "provider: %d connections, compress %b: %d headers in %.1f s, %.0f wire bytes per header%n",
                            n,
                            compress,
                            c.headers(),
                            c.seconds(),
                            c.wireBytesPerHeader());
                    out.printf(
                            java.util.Locale.ROOT,
                            "provider: rtt_ms=%d mbit_per_conn=%s conns=%d compress=%b headers_per_s=%.0f bound=%.0f ratio=%.2f%n",
                            rtt.toMillis(),
                            mbit(mbitPerConn),
                            n,
                            compress,
                            c.headersPerSecond(),
                            c.bound(),
                            c.ratio());
                    out.flush();
                    cases.add(c);
                }
            }
        }
        return cases;
    }

    /**
     * Reads articles {@code lo..hi} in order as the indexer does: {@link ReadAhead} over a pool of
     * {@code n} connections through the link, {@code n} batches fetched at once
     * (HEADWAY_NNTP_GROUP_CONNECTIONS = n); opening the connections and GROUP are not timed.
     */
    private Case measure(SlowLink link, Target target, int n, boolean compress, long lo, long hi, double bitsPerSecond)
            throws Exception {
        NntpServer server = NntpServer.plain("127.0.0.1", link.port())
                .withSecurity(new NntpServer.Security(NntpServer.StartTls.OFF, null, false, compress));
        ExecutorService fetchers = Executors.newCachedThreadPool();
        try (NntpPool pool = new NntpPool(NntpPool.Config.defaults(server).withMaxConnections(n))) {
            List<NntpClient> opened = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                NntpClient c = pool.borrow();
                c.group(target.group());
                if ((c.isCompressed() || c.isOverviewCompressed()) != compress) {
                    throw new IllegalStateException(target.name() + " did not "
                            + (compress ? "turn on COMPRESS DEFLATE" : "stay uncompressed") + " on " + c);
                }
                opened.add(c);
            }
            opened.forEach(pool::release);
            long bytesBefore = link.bytesFromTarget();
            long t0 = System.nanoTime();
            long headers = 0;
            try (ReadAhead ahead =
                    new ReadAhead(new NntpHeaderSource(pool), fetchers, n, batch, target.group(), lo, hi, () -> {})) {
                while (ahead.hasNext()) {
                    headers += ahead.next().headers();
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            long wire = link.bytesFromTarget() - bytesBefore;
            double bound = headers == 0 ? 0 : n * (bitsPerSecond / 8) / ((double) wire / headers);
            return new Case(n, compress, headers, seconds, wire, bound);
        } finally {
            fetchers.shutdownNow();
        }
    }

    static String mbit(double m) {
        return m == Math.rint(m) ? Long.toString((long) m) : Double.toString(m);
    }
}
