package headway.nntp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.overview.OverviewLine;
import headway.simulator.NewsSimulator;
import headway.simulator.NewsSimulator.GroupSpec;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NntpPoolTest {
    static final String GROUP = "alt.binaries.pool";

    private NewsSimulator sim;

    @BeforeEach
    void start() throws Exception {
        sim = NewsSimulator.start(NewsSimulator.Options.defaults(), List.of(GroupSpec.of(GROUP, 11, 5_000)));
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    private NntpPool.Config config(NntpServer server, int max) {
        return new NntpPool.Config(
                server,
                max,
                Duration.ofSeconds(2),
                Duration.ofSeconds(10),
                Duration.ofSeconds(10),
                Duration.ofMillis(20),
                Duration.ofMillis(200));
    }

    @Test
    void configNamesTheSettingAndItsLimits() {
        NntpServer s = NntpServer.plain("127.0.0.1", 119);
        assertThatThrownBy(() -> config(s, 0)).hasMessage("maxConnections must be between 1 and 64, was 0");
        assertThatThrownBy(() -> config(s, 65)).hasMessageContaining("maxConnections must be between 1 and 64, was 65");
        assertThatThrownBy(() -> new NntpPool.Config(
                        s,
                        2,
                        Duration.ZERO,
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(1),
                        Duration.ofMillis(1),
                        Duration.ofMillis(2)))
                .hasMessageStartingWith("connectTimeout must be between");
        assertThatThrownBy(() -> new NntpPool.Config(
                        s,
                        2,
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(1)))
                .hasMessageStartingWith("backoffMax must be between PT2S");
        assertThatThrownBy(() -> NntpServer.plain("h", 0)).hasMessage("port must be between 1 and 65535, was 0");
        assertThat(NntpPool.Config.defaults(s).maxConnections()).isEqualTo(8);
    }

    @Test
    void neverOpensMoreThanMaxConnectionsUnderEightThreads() throws Exception {
        AtomicInteger inUse = new AtomicInteger();
        AtomicInteger maxInUse = new AtomicInteger();
        AtomicInteger maxOpen = new AtomicInteger();
        try (NntpPool pool = new NntpPool(config(Simulators.server(sim), 3))) {
            ExecutorService ex = Executors.newFixedThreadPool(8);
            List<Future<Long>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                results.add(ex.submit(() -> {
                    long sum = 0;
                    for (int i = 0; i < 25; i++) {
                        sum += pool.withConnection(c -> {
                            int now = inUse.incrementAndGet();
                            maxInUse.accumulateAndGet(now, Math::max);
                            maxOpen.accumulateAndGet(sim.openConnections(), Math::max);
                            try {
                                c.group(GROUP);
                                long[] n = new long[1];
                                c.over(1, 200, new NntpClientTest.Recorder() {
                                    @Override
                                    public void header(OverviewLine line) {
                                        n[0]++;
                                    }
                                });
                                return n[0];
                            } finally {
                                inUse.decrementAndGet();
                            }
                        });
                    }
                    return sum;
                }));
            }
            long expected = sim.truth(GROUP, 1, 200).valid() * 25;
            for (Future<Long> f : results) {
                assertThat(f.get()).isEqualTo(expected);
            }
            ex.shutdown();
            assertThat(maxInUse.get()).isBetween(2, 3);
            assertThat(maxOpen.get()).isLessThanOrEqualTo(3);
            assertThat(pool.idleCount()).isLessThanOrEqualTo(3);
        }
    }

    @Test
    void borrowTimesOutWithAFixWhenAllConnectionsAreTaken() throws Exception {
        NntpPool.Config c = new NntpPool.Config(
                Simulators.server(sim),
                1,
                Duration.ofSeconds(2),
                Duration.ofSeconds(10),
                Duration.ofMillis(200),
                Duration.ofMillis(20),
                Duration.ofMillis(200));
        try (NntpPool pool = new NntpPool(c)) {
            NntpClient held = pool.borrow();
            long t0 = System.nanoTime();
            assertThatThrownBy(pool::borrow)
                    .isInstanceOf(NntpException.class)
                    .hasMessageContaining("raise maxConnections or borrowTimeout");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(150));
            pool.release(held);
            NntpClient again = pool.borrow();
            assertThat(again).isSameAs(held);
            pool.invalidate(again);
            NntpClient fresh = pool.borrow();
            assertThat(fresh).isNotSameAs(held);
            pool.release(fresh);
        }
    }

    @Test
    void reconnectsAfterTheServerDropsAllConnections() throws Exception {
        try (NntpPool pool = new NntpPool(config(Simulators.server(sim), 4))) {
            assertThat(pool.<Long>withConnection(c -> c.group(GROUP).high())).isEqualTo(5_000);
            assertThat(pool.idleCount()).isEqualTo(1);
            assertThat(sim.dropConnections()).isEqualTo(1);
            assertThat(pool.<Long>withConnection(c -> c.group(GROUP).high())).isEqualTo(5_000);
            sim.post(GROUP, 10);
            sim.dropConnections();
            NntpClientTest.Recorder r = new NntpClientTest.Recorder();
            pool.withConnection(c -> {
                c.group(GROUP);
                return c.over(4_990, 5_010, r);
            });
            assertThat(r.checksum).isEqualTo(sim.truth(GROUP, 4_990, 5_010).checksum());
        }
    }

    @Test
    void nonConnectionErrorsAreNotRetried() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (NntpPool pool = new NntpPool(config(Simulators.server(sim), 2))) {
            assertThatThrownBy(() -> pool.withConnection(c -> {
                        calls.incrementAndGet();
                        return c.group("alt.nope");
                    }))
                    .isInstanceOf(UnknownGroupException.class);
            assertThat(calls.get()).isEqualTo(1);
            assertThat(pool.idleCount()).isEqualTo(1);
        }
    }

    @Test
    void connectFailuresBackOffUntilTheBorrowTimeout() throws Exception {
        int port;
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = ss.getLocalPort();
        }
        NntpPool.Config c = new NntpPool.Config(
                NntpServer.plain("127.0.0.1", port),
                2,
                Duration.ofMillis(500),
                Duration.ofSeconds(1),
                Duration.ofMillis(700),
                Duration.ofMillis(50),
                Duration.ofMillis(200));
        try (NntpPool pool = new NntpPool(c)) {
            long t0 = System.nanoTime();
            assertThatThrownBy(pool::borrow)
                    .isInstanceOf(NntpException.class)
                    .hasMessageContaining("could not connect to nntp://127.0.0.1:" + port)
                    .hasMessageMatching("(?s).* in [3-9] attempts .*");
            assertThat(Duration.ofNanos(System.nanoTime() - t0))
                    .isBetween(Duration.ofMillis(600), Duration.ofSeconds(3));
        }
    }

    @Test
    void reconnectsOnceTheServerComesBack() throws Exception {
        int port;
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = ss.getLocalPort();
        }
        NntpPool.Config c = new NntpPool.Config(
                NntpServer.plain("127.0.0.1", port),
                2,
                Duration.ofMillis(500),
                Duration.ofSeconds(5),
                Duration.ofSeconds(10),
                Duration.ofMillis(50),
                Duration.ofMillis(200));
        Thread late = new Thread(() -> {
            try {
                Thread.sleep(400);
                try (ServerSocket ss = new ServerSocket()) {
                    ss.setReuseAddress(true);
                    ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                    try (Socket s = ss.accept()) {
                        BufferedReader in = new BufferedReader(
                                new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
                        OutputStream out = s.getOutputStream();
                        out.write("200 back\r\n".getBytes(StandardCharsets.ISO_8859_1));
                        String line;
                        while ((line = in.readLine()) != null) {
                            String reply = line.startsWith("GROUP")
                                    ? "211 5 1 5 g"
                                    : line.startsWith("QUIT") ? "205 bye" : "500 ?";
                            out.write((reply + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                            out.flush();
                        }
                    }
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        late.setDaemon(true);
        late.start();
        try (NntpPool pool = new NntpPool(c)) {
            long t0 = System.nanoTime();
            assertThat(pool.<Long>withConnection(x -> x.group("g").high())).isEqualTo(5);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThan(Duration.ofMillis(300));
        }
        late.join(5000);
    }
}
