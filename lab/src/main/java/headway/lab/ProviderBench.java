package headway.lab;

import headway.activity.HeaderSource;
import headway.activity.NntpHeaderSource;
import headway.activity.ReadAhead;
import headway.nntp.GroupInfo;
import headway.nntp.NntpClient;
import headway.nntp.NntpPool;
import headway.nntp.NntpServer;
import headway.nntp.OverviewSink;
import headway.simulator.NewsSimulator;
import java.io.IOException;
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
 * order, over n connections at once (HEADWAY_NNTP_GROUP_CONNECTIONS = n), each with its next OVER
 * pipelined behind the reply it reads; the
 * window and the database are left out, so this shows what the link lets one group read. A case
 * that wants more headers than the group holds reads it in laps ({@link Laps}).
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
            if (batch > target.articles()) {
                throw new IllegalStateException("the group " + target.group() + " holds " + target.articles()
                        + " articles, fewer than one batch of " + batch + ": lower --batch or fill the group");
            }
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
                    long total = perConn * n;
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
     * {@code n} connections through the link, all of them reading at once
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
            HeaderSource source = new Laps(new NntpHeaderSource(pool), target.low(), target.articles());
            try (ReadAhead ahead = new ReadAhead(source, fetchers, n, batch, target.group(), lo, hi, () -> {})) {
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

    /**
     * A group read in laps: article {@code low + i} for any i >= 0 is article {@code low + i mod
     * articles} of the real group, so a case can read more headers than a small group holds (INN's
     * group is filled by the benchmark, and a few hundred thousand articles take minutes to feed).
     * A range that wraps is asked for as two, on the same connection, pipelined as the indexer's are.
     */
    static final class Laps implements HeaderSource {
        private final HeaderSource real;
        private final long low;
        private final long articles;

        Laps(HeaderSource real, long low, long articles) {
            this.real = real;
            this.low = low;
            this.articles = articles;
        }

        @Override
        public void fetch(String group, long from, long to, OverviewSink sink) throws IOException {
            for (long[] r : parts(from, to)) {
                real.fetch(group, r[0], r[1], sink);
            }
        }

        @Override
        public GroupInfo group(String group) throws IOException {
            return real.group(group);
        }

        @Override
        public Pipeline pipeline(String group) throws IOException {
            Pipeline pipe = real.pipeline(group);
            return new Pipeline() {
                @Override
                public int ahead() {
                    return pipe.ahead();
                }

                @Override
                public void send(long from, long to) throws IOException {
                    for (long[] r : parts(from, to)) {
                        pipe.send(r[0], r[1]);
                    }
                }

                @Override
                public void receive(long from, long to, OverviewSink sink) throws IOException {
                    for (long[] r : parts(from, to)) {
                        pipe.receive(r[0], r[1], sink);
                    }
                }

                @Override
                public void close() {
                    pipe.close();
                }
            };
        }

        /** The real ranges of {@code from..to}, split where the lap wraps; at most one lap long. */
        List<long[]> parts(long from, long to) {
            if (to - from + 1 > articles) {
                throw new IllegalArgumentException(
                        "a batch of " + (to - from + 1) + " articles is longer than the group's " + articles);
            }
            long a = low + Math.floorMod(from - low, articles);
            long b = a + (to - from);
            long last = low + articles - 1;
            return b <= last
                    ? List.of(new long[] {a, b})
                    : List.of(new long[] {a, last}, new long[] {low, b - articles});
        }
    }

    static String mbit(double m) {
        return m == Math.rint(m) ? Long.toString((long) m) : Double.toString(m);
    }
}
