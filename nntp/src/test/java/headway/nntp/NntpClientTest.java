package headway.nntp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import headway.overview.OverviewLine;
import headway.overview.OverviewParser;
import headway.simulator.ArticleKind;
import headway.simulator.NewsSimulator;
import headway.simulator.NewsSimulator.GroupSpec;
import headway.simulator.Truth;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NntpClientTest {
    static final String GROUP = "alt.binaries.sim";
    static final Duration T = Duration.ofSeconds(10);

    private NewsSimulator sim;

    @BeforeEach
    void start() throws Exception {
        sim = NewsSimulator.start(
                NewsSimulator.Options.defaults(),
                List.of(
                        new GroupSpec(GROUP, 7, 20_000, 5, 40, 12, 0.03, 0.02, 0.005),
                        GroupSpec.of("alt.binaries.empty", 1, 0)));
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    @Test
    void groupReportsTheSimulatorsWaterMarks() throws Exception {
        try (NntpClient c = NntpClient.connect(Simulators.server(sim), T, T)) {
            GroupInfo g = c.group(GROUP);
            assertThat(g).isEqualTo(new GroupInfo(20_000, 1, 20_000, GROUP));
            assertThat(c.group("alt.binaries.empty").high()).isZero();
        }
    }

    @Test
    void overOfTheWholeGroupEqualsTheTruth() throws Exception {
        try (NntpClient c = NntpClient.connect(Simulators.server(sim), T, T)) {
            c.group(GROUP);
            Recorder r = new Recorder();
            long headers = c.over(1, 20_000, r);
            Truth truth = sim.truth(GROUP, 1, 20_000);

            assertThat(headers).isEqualTo(truth.valid()).isEqualTo(r.headers.size());
            assertThat(r.checksum).isEqualTo(truth.checksum());
            assertThat(r.malformed).hasSize((int) truth.malformed());
            assertThat(r.missingCount()).isEqualTo(truth.gaps());
            assertThat(truth.gaps()).isPositive();
            assertThat(truth.malformed()).isPositive();
            for (long a : r.malformed) {
                assertThat(sim.kind(GROUP, a)).isEqualTo(ArticleKind.MALFORMED);
            }
            for (long[] run : r.missing) {
                for (long a = run[0]; a <= run[1]; a++) {
                    assertThat(sim.kind(GROUP, a)).isEqualTo(ArticleKind.GAP);
                }
            }
            assertThat(r.events).isSorted();
            Set<String> ids = new HashSet<>();
            for (OverviewLine l : r.headers) {
                assertThat(ids.add(l.messageId())).isTrue();
                assertThat(l.subject()).contains("yEnc (");
                assertThat(l.bytes()).isBetween(400_000L, 800_000L);
                assertThat(l.lines()).isPositive();
                assertThat(l.xref()).isEqualTo("sim.test " + GROUP + ":" + l.article());
                assertThat(l.from()).matches("poster\\d+ <poster\\d+@sim\\.test>");
                assertThat(l.date()).matches("\\w{3}, \\d{2} \\w{3} \\d{4} \\d{2}:\\d{2}:\\d{2} \\+0000");
            }
        }
    }

    @Test
    void gapsBeyondTheHighWaterMarkAndEmptyRangesAreMissing() throws Exception {
        try (NntpClient c = NntpClient.connect(Simulators.server(sim), T, T)) {
            c.group(GROUP);
            Recorder r = new Recorder();
            c.over(19_990, 20_010, r);
            Truth truth = sim.truth(GROUP, 19_990, 20_010);
            assertThat(r.headers).hasSize((int) truth.valid());
            assertThat(r.missingCount()).isEqualTo(truth.gaps() + 10);
            assertThat(r.missing.get(r.missing.size() - 1)[1]).isEqualTo(20_010);

            Recorder empty = new Recorder();
            assertThat(c.over(30_000, 30_100, empty)).isZero();
            assertThat(empty.missing).containsExactly(new long[] {30_000, 30_100});
        }
    }

    @Test
    void subjectsHaveRealWorldShapesAndEightBitChars() throws Exception {
        try (NntpClient c = NntpClient.connect(Simulators.server(sim), T, T)) {
            c.group(GROUP);
            Recorder r = new Recorder();
            c.over(1, 20_000, r);
            List<String> subjects =
                    r.headers.stream().map(OverviewLine::subject).toList();
            assertThat(subjects)
                    .anyMatch(s -> s.matches("\\[\\d+/\\d+] - \".+\\.part\\d+\\.rar\" yEnc \\(\\d+/\\d+\\)"));
            assertThat(subjects)
                    .anyMatch(s -> s.matches(".+\\.S\\d\\dE\\d\\d\\..+ - \\[\\d+/\\d+] - \".+\" yEnc \\(\\d+/\\d+\\)"));
            assertThat(subjects).anyMatch(s -> s.matches("\\(.+\\) \\[\\d+/\\d+] - \".+\\.nfo\" yEnc \\(1/\\d+\\)"));
            assertThat(subjects).anyMatch(s -> s.chars().anyMatch(ch -> ch > 127 && ch < 256));
        }
    }

    @Test
    void newArticlesAppearAfterGroupIsSentAgain() throws Exception {
        try (NntpClient c = NntpClient.connect(Simulators.server(sim), T, T)) {
            long old = c.group(GROUP).high();
            long high = sim.post(GROUP, 500);
            assertThat(c.group(GROUP).high()).isEqualTo(high).isEqualTo(old + 500);
            Recorder r = new Recorder();
            c.over(old + 1, high, r);
            Truth truth = sim.truth(GROUP, old + 1, high);
            assertThat(r.checksum).isEqualTo(truth.checksum());
            assertThat(r.headers).hasSize((int) truth.valid());
        }
    }

    @Test
    void growingAGroupKeepsOldArticlesUnchanged() throws Exception {
        long before = sim.truth(GROUP, 1, 20_000).checksum();
        sim.post(GROUP, 3);
        sim.post(GROUP, 7_000);
        assertThat(sim.truth(GROUP, 1, 20_000).checksum()).isEqualTo(before);
    }

    @Test
    void unknownGroupNamesTheGroup() throws Exception {
        try (NntpClient c = NntpClient.connect(Simulators.server(sim), T, T)) {
            assertThatThrownBy(() -> c.group("alt.does.not.exist"))
                    .isInstanceOf(UnknownGroupException.class)
                    .hasMessageContaining("alt.does.not.exist");
            assertThat(c.isBroken()).isFalse();
            assertThat(c.group(GROUP).high()).isEqualTo(20_000);
        }
    }

    @Test
    void simulatorCompressDeflateGivesTheSameHeaders() throws Exception {
        try (NewsSimulator deflating = NewsSimulator.start(
                        NewsSimulator.Options.defaults().withCompression(), List.of(GroupSpec.of(GROUP, 11, 20_000)));
                NewsSimulator plain = NewsSimulator.start(
                        NewsSimulator.Options.defaults(), List.of(GroupSpec.of(GROUP, 11, 20_000)));
                NntpClient z = NntpClient.connect(Simulators.server(deflating), T, T);
                NntpClient p = NntpClient.connect(Simulators.server(plain), T, T)) {
            assertThat(z.isCompressed()).isTrue();
            assertThat(p.isCompressed()).isFalse();
            assertThat(z.group(GROUP).high()).isEqualTo(20_000);
            p.group(GROUP);
            Recorder compressed = new Recorder();
            Recorder uncompressed = new Recorder();
            // in two replies, so that the second starts on a stream already flushed once
            long headers = z.over(1, 7_000, compressed) + z.over(7_001, 20_000, compressed);
            p.over(1, 20_000, uncompressed);
            assertThat(headers).isEqualTo(uncompressed.headers.size()).isEqualTo(compressed.headers.size());
            assertThat(compressed.headers).isEqualTo(uncompressed.headers);
            assertThat(compressed.checksum)
                    .isEqualTo(deflating.truth(GROUP, 1, 20_000).checksum())
                    .isEqualTo(uncompressed.checksum);
            assertThat(compressed.malformed).isEqualTo(uncompressed.malformed);
            assertThat(z.isBroken()).isFalse();
        }
    }

    @Test
    void xfeatureCompressGzipGivesTheSameHeaders() throws Exception {
        try (NewsSimulator gzipping = NewsSimulator.start(
                        NewsSimulator.Options.defaults().withGzipOverview(), List.of(GroupSpec.of(GROUP, 11, 20_000)));
                NewsSimulator plain = NewsSimulator.start(
                        NewsSimulator.Options.defaults(), List.of(GroupSpec.of(GROUP, 11, 20_000)));
                NntpClient z = NntpClient.connect(Simulators.server(gzipping), T, T);
                NntpClient p = NntpClient.connect(Simulators.server(plain), T, T)) {
            assertThat(z.isOverviewCompressed()).isTrue();
            assertThat(z.isCompressed()).isFalse();
            assertThat(p.isOverviewCompressed()).isFalse();
            z.group(GROUP);
            p.group(GROUP);
            Recorder compressed = new Recorder();
            Recorder uncompressed = new Recorder();
            // several replies, and a group command between them, on one connection
            long headers = z.over(1, 7_000, compressed) + z.over(7_001, 19_000, compressed);
            assertThat(z.group(GROUP).high()).isEqualTo(20_000);
            headers += z.over(19_001, 20_000, compressed);
            p.over(1, 20_000, uncompressed);
            assertThat(headers).isEqualTo(uncompressed.headers.size()).isEqualTo(compressed.headers.size());
            assertThat(compressed.headers).isEqualTo(uncompressed.headers);
            assertThat(compressed.checksum)
                    .isEqualTo(gzipping.truth(GROUP, 1, 20_000).checksum());
            assertThat(compressed.malformed).isEqualTo(uncompressed.malformed);
            assertThat(z.isBroken()).isFalse();
        }
    }

    @Test
    void rfc8054IsPreferredToXfeatureWhenBothAreOffered() throws Exception {
        try (NewsSimulator both = NewsSimulator.start(
                        NewsSimulator.Options.defaults().withCompression().withGzipOverview(),
                        List.of(GroupSpec.of(GROUP, 11, 100)));
                NntpClient c = NntpClient.connect(Simulators.server(both), T, T)) {
            assertThat(c.isCompressed()).isTrue();
            assertThat(c.isOverviewCompressed()).isFalse();
            c.group(GROUP);
            assertThat(c.over(1, 100, new Recorder())).isPositive();
        }
    }

    @Test
    void fallsBackToXoverWhenOverIsUnknown() throws Exception {
        try (NewsSimulator old = NewsSimulator.start(
                        new NewsSimulator.Options(null, false),
                        List.of(new GroupSpec(GROUP, 7, 20_000, 5, 40, 12, 0.03, 0.02, 0.005)));
                NntpClient c = NntpClient.connect(Simulators.server(old), T, T)) {
            c.group(GROUP);
            Recorder r = new Recorder();
            c.over(1, 5_000, r);
            Recorder r2 = new Recorder();
            c.over(5_001, 20_000, r2);
            assertThat(r.checksum + r2.checksum)
                    .isEqualTo(sim.truth(GROUP, 1, 20_000).checksum());
        }
    }

    @Test
    void sinkFailureDrainsTheReplyAndKeepsTheConnection() throws Exception {
        try (NntpClient c = NntpClient.connect(Simulators.server(sim), T, T)) {
            c.group(GROUP);
            Recorder failing = new Recorder() {
                @Override
                public void header(OverviewLine line) {
                    super.header(line);
                    if (headers.size() == 10) {
                        throw new IllegalStateException("sink full");
                    }
                }
            };
            assertThatThrownBy(() -> c.over(1, 20_000, failing)).hasMessage("sink full");
            assertThat(failing.headers).hasSize(10);
            assertThat(c.isBroken()).isFalse();
            assertThat(c.group(GROUP).high()).isEqualTo(20_000);
            Recorder r = new Recorder();
            c.over(100, 200, r);
            assertThat(r.checksum).isEqualTo(sim.truth(GROUP, 100, 200).checksum());
        }
    }

    @Test
    void authenticatesWithConfiguredCredentials() throws Exception {
        NewsSimulator.Credentials creds = new NewsSimulator.Credentials("reader", "s3cret-pass");
        try (NewsSimulator secured =
                NewsSimulator.start(new NewsSimulator.Options(creds, true), List.of(GroupSpec.of(GROUP, 3, 1000)))) {
            try (NntpClient c = NntpClient.connect(Simulators.server(secured), T, T)) {
                assertThat(c.group(GROUP).high()).isEqualTo(1000);
                assertThat(c.toString()).doesNotContain("s3cret-pass").doesNotContain("reader");
            }
            NntpServer wrong =
                    Simulators.server(secured).withCredentials(new NntpServer.Credentials("reader", "wrong-pass"));
            assertThatThrownBy(() -> NntpClient.connect(wrong, T, T))
                    .isInstanceOf(NntpAuthException.class)
                    .hasMessageContaining("credentials")
                    .satisfies(e -> assertThat(e.getMessage())
                            .doesNotContain("wrong-pass")
                            .doesNotContain("reader"));
            try (NntpClient anonymous =
                    NntpClient.connect(Simulators.server(secured).withCredentials(null), T, T)) {
                assertThatThrownBy(() -> anonymous.group(GROUP))
                        .isInstanceOfSatisfying(
                                NntpAuthException.class,
                                e -> assertThat(e.code()).isEqualTo(480))
                        .hasMessageContaining("configure credentials");
            }
            assertThat(wrong.toString()).doesNotContain("wrong-pass");
            assertThat(wrong.credentials().toString())
                    .doesNotContain("wrong-pass")
                    .doesNotContain("reader");
        }
    }

    @Test
    void overWithoutGroupNamesTheFix() throws Exception {
        try (NntpClient c = NntpClient.connect(Simulators.server(sim), T, T)) {
            assertThatThrownBy(() -> c.over(1, 10, new Recorder())).hasMessageContaining("call group(name)");
            assertThat(c.isBroken()).isFalse();
        }
    }

    @Test
    void connectionDroppedMidReplyMarksTheClientBroken() throws Exception {
        try (NntpClient c = NntpClient.connect(Simulators.server(sim), T, T)) {
            c.group(GROUP);
            Recorder dropper = new Recorder() {
                @Override
                public void header(OverviewLine line) {
                    super.header(line);
                    if (headers.size() == 1) {
                        sim.dropConnections();
                    }
                }
            };
            assertThatThrownBy(() -> c.over(1, 20_000, dropper)).isInstanceOf(java.io.IOException.class);
            assertThat(c.isBroken()).isTrue();
        }
    }

    @Test
    void largeOverStreamsLinesBeforeTheReplyEnds() throws Exception {
        sim.post(GROUP, 180_000);
        long high = sim.high(GROUP);
        try (NntpClient c = NntpClient.connect(Simulators.server(sim), T, T)) {
            c.group(GROUP);
            long[] seen = new long[3];
            long t0 = System.nanoTime();
            long headers = c.over(1, high, new OverviewSink() {
                @Override
                public void header(OverviewLine line) {
                    seen[0]++;
                    seen[2] += Truth.headerHash(line.messageId(), line.subject(), line.bytes());
                }

                @Override
                public void malformed(long article, String reason) {
                    seen[1]++;
                }

                @Override
                public void missing(long fromInclusive, long toInclusive) {}
            });
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf(
                    "client parsed %,d overview lines in %.3f s (%,.0f lines/s)%n",
                    headers + seen[1], s, (headers + seen[1]) / s);
            Truth truth = sim.truth(GROUP, 1, high);
            assertThat(high).isEqualTo(200_000);
            assertThat(headers).isEqualTo(truth.valid());
            assertThat(seen[2]).isEqualTo(truth.checksum());
        }
    }

    @Test
    void sinkSeesTheFirstLineBeforeTheServerSendsTheRest() throws Exception {
        CountDownLatch firstSeen = new CountDownLatch(1);
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread server = new Thread(() -> {
                try (Socket s = ss.accept()) {
                    BufferedReader in =
                            new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
                    OutputStream out = s.getOutputStream();
                    send(out, "200 fake\r\n");
                    String line;
                    while ((line = in.readLine()) != null) {
                        if (line.startsWith("OVER")) {
                            send(out, "224 follows\r\n1\ts\tf\td\t<m1>\t\t10\t1\r\n");
                            if (!firstSeen.await(10, TimeUnit.SECONDS)) {
                                return;
                            }
                            send(out, "3\ts\tf\td\t<m3>\t\t10\t1\r\n.\r\n");
                        } else if (line.startsWith("GROUP")) {
                            send(out, "211 3 1 3 g\r\n");
                        } else if (line.startsWith("QUIT")) {
                            send(out, "205 bye\r\n");
                            return;
                        } else {
                            send(out, "500 what?\r\n");
                        }
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            server.setDaemon(true);
            server.start();
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                try (NntpClient c = NntpClient.connect(NntpServer.plain("127.0.0.1", ss.getLocalPort()), T, T)) {
                    c.group("g");
                    assertThat(c.overviewFormat()).isEqualTo(OverviewParser.DEFAULT_FORMAT);
                    Recorder r = new Recorder() {
                        @Override
                        public void header(OverviewLine line) {
                            super.header(line);
                            firstSeen.countDown();
                        }
                    };
                    assertThat(c.over(1, 3, r)).isEqualTo(2);
                    assertThat(r.missing).containsExactly(new long[] {2, 2});
                }
            });
        }
    }

    private static void send(OutputStream out, String s) throws java.io.IOException {
        out.write(s.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Records everything, with the article number of each event in arrival order. */
    static class Recorder implements OverviewSink {
        final List<OverviewLine> headers = new ArrayList<>();
        final List<Long> malformed = new ArrayList<>();
        final List<long[]> missing = new ArrayList<>();
        final List<Long> events = new ArrayList<>();
        long checksum;

        @Override
        public void header(OverviewLine line) {
            headers.add(line);
            events.add(line.article());
            checksum += Truth.headerHash(line.messageId(), line.subject(), line.bytes());
        }

        @Override
        public void malformed(long article, String reason) {
            malformed.add(article);
            events.add(article);
        }

        @Override
        public void missing(long fromInclusive, long toInclusive) {
            assertThat(fromInclusive).isLessThanOrEqualTo(toInclusive);
            missing.add(new long[] {fromInclusive, toInclusive});
            events.add(fromInclusive);
            events.add(toInclusive);
        }

        long missingCount() {
            return missing.stream().mapToLong(m -> m[1] - m[0] + 1).sum();
        }
    }
}
