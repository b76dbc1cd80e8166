package headway.nntp;

import headway.overview.OverviewLine;
import headway.simulator.NewsSimulator;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Measures the simulator's OVER serving rate (raw socket, lines counted, no parsing) and the client's
 * end-to-end parse rate on loopback. Not a unit test, because timings on a shared 2-core machine vary.
 * Usage: NntpBench [articles] [rounds].
 */
public final class NntpBench {
    private NntpBench() {}

    public static void main(String[] args) throws Exception {
        long articles = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        String group = "alt.binaries.bench";
        try (NewsSimulator sim = NewsSimulator.start(
                NewsSimulator.Options.defaults(), List.of(NewsSimulator.GroupSpec.of(group, 42, articles)))) {
            for (int r = 1; r <= rounds; r++) {
                long t0 = System.nanoTime();
                long lines = rawOver(sim.port(), group, articles);
                double s = (System.nanoTime() - t0) / 1e9;
                System.out.printf("simulator raw OVER: %,d lines in %.3f s = %,.0f lines/s%n", lines, s, lines / s);
            }
            for (int r = 1; r <= rounds; r++) {
                try (NntpClient c =
                        NntpClient.connect(Simulators.server(sim), Duration.ofSeconds(5), Duration.ofSeconds(60))) {
                    c.group(group);
                    long[] counts = new long[3];
                    long t0 = System.nanoTime();
                    long headers = c.over(1, articles, new OverviewSink() {
                        @Override
                        public void header(OverviewLine line) {
                            counts[0] += line.bytes();
                        }

                        @Override
                        public void malformed(long article, String reason) {
                            counts[1]++;
                        }

                        @Override
                        public void missing(long fromInclusive, long toInclusive) {
                            counts[2] += toInclusive - fromInclusive + 1;
                        }
                    });
                    double s = (System.nanoTime() - t0) / 1e9;
                    System.out.printf(
                            "client OVER+parse: %,d headers (%,d malformed, %,d missing) in %.3f s = %,.0f lines/s%n",
                            headers, counts[1], counts[2], s, (headers + counts[1]) / s);
                }
            }
        }
    }

    private static long rawOver(int port, String group, long hi) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setReceiveBufferSize(512 * 1024);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(("GROUP " + group + "\r\nOVER 1-" + hi + "\r\nQUIT\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            byte[] buf = new byte[256 * 1024];
            long newlines = 0;
            int n;
            while ((n = in.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        newlines++;
                    }
                }
            }
            return newlines - 5;
        }
    }
}
