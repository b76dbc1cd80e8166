package headway.lab;

import headway.nntp.NntpClient;
import headway.nntp.NntpServer;
import headway.nntp.OverviewLine;
import headway.nntp.OverviewSink;
import headway.simulator.NewsSimulator;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Headers per second of reading one large group's overview behind a slow link ({@link SlowLink}:
 * a round-trip time and a bandwidth cap per connection), at several connection counts, with and
 * without RFC 8054 COMPRESS DEFLATE, beside the bound the link allows: connections x bandwidth /
 * wire bytes per header, the wire bytes counted at the proxy in the same case. This is the raw
 * {@link NntpClient} OVER path, each connection reading its own slice of the range in batches, one
 * command at a time, so it shows what the link allows a reader that waits one round trip per
 * batch; the indexer's own use of several connections per group is not measured here.
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

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

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
        String group = "alt.binaries.bench.provider";
        long articles = 20_000_000;
        try (NewsSimulator sim = NewsSimulator.start(
                NewsSimulator.Options.defaults().withCompression(),
                List.of(NewsSimulator.GroupSpec.of(group, 19, articles)))) {
            return run(new Target(sim.host(), sim.port(), group, 1, articles, "news simulator"));
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
     * Reads articles {@code lo..hi} over {@code n} connections through the link, each its own
     * contiguous slice in batches; connecting and GROUP are not timed.
     */
    private Case measure(SlowLink link, Target target, int n, boolean compress, long lo, long hi, double bitsPerSecond)
            throws Exception {
        NntpServer server = NntpServer.plain("127.0.0.1", link.port())
                .withSecurity(new NntpServer.Security(NntpServer.StartTls.OFF, null, false, compress));
        ExecutorService pool = Executors.newFixedThreadPool(n);
        List<NntpClient> clients = new ArrayList<>();
        try {
            List<Future<NntpClient>> connecting = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                connecting.add(pool.submit(() -> {
                    NntpClient c = NntpClient.connect(server, Duration.ofSeconds(10), TIMEOUT);
                    c.group(target.group());
                    return c;
                }));
            }
            for (Future<NntpClient> f : connecting) {
                clients.add(f.get());
            }
            for (NntpClient c : clients) {
                if (c.isCompressed() != compress) {
                    throw new IllegalStateException(target.name() + " did not "
                            + (compress ? "turn on COMPRESS DEFLATE" : "stay uncompressed") + " on " + c);
                }
            }
            CyclicBarrier start = new CyclicBarrier(n + 1);
            long span = hi - lo + 1;
            List<Future<Long>> reading = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                NntpClient c = clients.get(i);
                long from = lo + span * i / n;
                long to = lo + span * (i + 1) / n - 1;
                reading.add(pool.submit(() -> {
                    start.await();
                    long headers = 0;
                    for (long b = from; b <= to; b += batch) {
                        headers += c.over(b, Math.min(to, b + batch - 1), new Discard());
                    }
                    return headers;
                }));
            }
            long bytesBefore = link.bytesFromTarget();
            start.await();
            long t0 = System.nanoTime();
            long headers = 0;
            for (Future<Long> f : reading) {
                headers += f.get(10, TimeUnit.MINUTES);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            long wire = link.bytesFromTarget() - bytesBefore;
            double bound = headers == 0 ? 0 : n * (bitsPerSecond / 8) / ((double) wire / headers);
            return new Case(n, compress, headers, seconds, wire, bound);
        } finally {
            clients.forEach(NntpClient::close);
            pool.shutdownNow();
        }
    }

    static String mbit(double m) {
        return m == Math.rint(m) ? Long.toString((long) m) : Double.toString(m);
    }

    /** Counts nothing itself; the client returns the number of good headers. */
    private static final class Discard implements OverviewSink {
        @Override
        public void header(OverviewLine line) {}

        @Override
        public void malformed(long article, String reason) {}

        @Override
        public void missing(long fromInclusive, long toInclusive) {}
    }
}
