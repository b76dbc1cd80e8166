package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.nntp.GroupInfo;
import headway.nntp.HoldingServer;
import headway.nntp.NntpPool;
import headway.nntp.NntpServer;
import headway.nntp.OverviewSink;
import headway.overview.OverviewLine;
import headway.simulator.NewsSimulator;
import headway.simulator.NewsSimulator.GroupSpec;
import headway.simulator.Truth;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The read-ahead's order, bounds and failures, over the simulator through the worker's pool and over a source that fails. */
class ReadAheadTest {
    static final String GROUP = "alt.binaries.ahead";

    private final ExecutorService fetchers = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        fetchers.shutdownNow();
    }

    @Test
    void handsTheOverviewOverInArticleOrderAtEveryDepthAndFraming() throws Exception {
        for (NewsSimulator.Options options : List.of(
                NewsSimulator.Options.defaults(),
                NewsSimulator.Options.defaults().withCompression())) {
            try (NewsSimulator sim = NewsSimulator.start(
                    options, List.of(new GroupSpec(GROUP, 5, 30_000, 5, 40, 12, 0.03, 0.02, 0.005)))) {
                for (int depth : new int[] {1, 3}) {
                    try (NntpPool pool = pool(sim, depth)) {
                        Collected c = readAll(new NntpHeaderSource(pool), depth, 1_000, 1, 30_000);
                        assertThat(c.ends).as("batch ends").isEqualTo(ends(1_000, 30_000));
                        assertThat(c.checksum)
                                .isEqualTo(sim.truth(GROUP, 1, 30_000).checksum());
                        assertThat(c.lastArticle).isEqualTo(30_000);
                        assertThat(pool.openConnections()).isLessThanOrEqualTo(depth);
                    }
                }
            }
        }
    }

    @Test
    void oneConnectionAsksForTheNextBatchBeforeTheReplyBeforeItEnds() throws Exception {
        // the server ends each reply once the next command has arrived, or after 2 s without it
        try (HoldingServer server = new HoldingServer(1_000, 2_000);
                NntpPool pool =
                        new NntpPool(NntpPool.Config.defaults(server.server()).withMaxConnections(1))) {
            Collected c = readAll(new NntpHeaderSource(pool), 1, 100, 1, 1_000);
            assertThat(c.ends).isEqualTo(ends(100, 1_000));
            assertThat(c.headers).isEqualTo(1_000);
            assertThat(server.overs).hasSize(10).startsWith("1-100", "101-200").endsWith("901-1000");
            // the first and the last reply end at once; of the 8 held, a client waiting for each reply gets none by
            // a command. The first held one (101-200) always ends by one: 201-300 is asked for from the start.
            // Later ones do when the reader took the batch before (it makes room for the next) while the
            // connection read this one, which on a busy machine it may not have.
            assertThat(server.endedByNextCommand.get() + server.endedByHold.get())
                    .isEqualTo(8);
            assertThat(server.endedByNextCommand.get()).isGreaterThanOrEqualTo(1);
        }
    }

    @Test
    void withPipeliningOffEachCommandWaitsForTheReplyBeforeIt() throws Exception {
        try (HoldingServer server = new HoldingServer(500, 200);
                NntpPool pool =
                        new NntpPool(NntpPool.Config.defaults(server.server()).withMaxConnections(1))) {
            Collected c = readAll(new NntpHeaderSource(pool, false), 1, 100, 1, 500);
            assertThat(c.headers).isEqualTo(500);
            assertThat(server.endedByHold.get()).isEqualTo(3);
            assertThat(server.endedByNextCommand.get()).isZero();
        }
    }

    @Test
    void aServerThatBreaksOnPipelinedCommandsFailsOneReadAndIsThenReadOneCommandAtATime() throws Exception {
        try (HoldingServer server = new HoldingServer(1_000, 200).refusePipelining();
                NntpPool pool =
                        new NntpPool(NntpPool.Config.defaults(server.server()).withMaxConnections(1))) {
            NntpHeaderSource source = new NntpHeaderSource(pool);
            assertThat(source.pipelines()).isTrue();
            assertThatThrownBy(() -> readAll(source, 1, 100, 1, 1_000)).isInstanceOf(IOException.class);
            assertThat(source.pipelines()).isFalse();
            // the retry, as the activity's, reads the whole range on a new connection, every held reply
            // ended by the hold. The failed read's connection may still end a held reply after the throw
            // (its hold runs out late on a busy machine), so only the connections opened since count.
            int retryFrom = server.connections();
            Collected c = readAll(source, 1, 100, 1, 1_000);
            assertThat(c.headers).isEqualTo(1_000);
            assertThat(c.ends).isEqualTo(ends(100, 1_000));
            assertThat(server.connections()).isEqualTo(retryFrom + 1);
            assertThat(server.heldOnConnectionsFrom(retryFrom)).isEqualTo(8);
        }
    }

    @Test
    void aConnectionTheServerDroppedWhileIdleIsReplacedAndItsBatchesAskedForAgain() throws Exception {
        try (NewsSimulator sim =
                        NewsSimulator.start(NewsSimulator.Options.defaults(), List.of(GroupSpec.of(GROUP, 9, 8_000)));
                NntpPool pool = pool(sim, 1)) {
            NntpHeaderSource source = new NntpHeaderSource(pool);
            readAll(source, 1, 1_000, 1, 2_000); // leaves an idle connection that has answered OVER
            assertThat(sim.dropConnections()).isEqualTo(1);
            Collected c = readAll(source, 1, 1_000, 2_001, 8_000);
            assertThat(c.ends).isEqualTo(ends(1_000, 8_000).subList(2, 8));
            assertThat(c.checksum).isEqualTo(sim.truth(GROUP, 2_001, 8_000).checksum());
        }
    }

    @Test
    void groupsSharingOneConnectionTakeTurnsInsteadOfWaitingForAWholeRange() throws Exception {
        String other = "alt.binaries.ahead.other";
        try (NewsSimulator sim = NewsSimulator.start(
                        NewsSimulator.Options.defaults(),
                        List.of(GroupSpec.of(GROUP, 3, 30_000), GroupSpec.of(other, 4, 30_000)));
                NntpPool pool = new NntpPool(new NntpPool.Config(
                        NntpServer.plain(sim.host(), sim.port()),
                        1,
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(1),
                        Duration.ofMillis(20),
                        Duration.ofMillis(200)))) {
            NntpHeaderSource source = new NntpHeaderSource(pool);
            List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
            // each group takes about 1.5 s on the one connection, longer than another may wait to borrow it
            java.util.function.Function<String, java.util.concurrent.Callable<Long>> reader = g -> () -> {
                long[] n = new long[1];
                Runnable slow = () -> {
                    if (++n[0] % 20 == 0) {
                        try {
                            Thread.sleep(1);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                };
                long headers = 0;
                try (ReadAhead ahead = new ReadAhead(source, fetchers, 1, 1_000, g, 1, 30_000, slow)) {
                    while (ahead.hasNext()) {
                        headers += ahead.next().headers();
                        order.add(g);
                    }
                }
                return headers;
            };
            ExecutorService readers = Executors.newFixedThreadPool(2);
            try {
                var a = readers.submit(reader.apply(GROUP));
                var b = readers.submit(reader.apply(other));
                assertThat(a.get()).isEqualTo(sim.truth(GROUP, 1, 30_000).valid());
                assertThat(b.get()).isEqualTo(sim.truth(other, 1, 30_000).valid());
            } finally {
                readers.shutdownNow();
            }
            assertThat(order).hasSize(60);
            // turns: neither group has all its batches in before the other's first
            assertThat(order.subList(0, 30)).contains(GROUP, other);
        }
    }

    @Test
    void aFailedBatchEndsTheReadAheadWithNothingAfterItHandedOver() throws Exception {
        IOException refused = new IOException("connection reset while fetching 201-300");
        HeaderSource failingAtThird = new HeaderSource() {
            @Override
            public void fetch(String group, long from, long to, OverviewSink sink) throws IOException {
                if (from == 201) {
                    throw refused;
                }
                for (long a = from; a <= to; a++) {
                    sink.header(line(a));
                }
            }

            @Override
            public GroupInfo group(String group) {
                return new GroupInfo(1_000, 1, 1_000, group);
            }
        };
        for (int depth : new int[] {1, 2, 4}) {
            try (ReadAhead ahead = new ReadAhead(failingAtThird, fetchers, depth, 100, GROUP, 1, 1_000, () -> {})) {
                assertThat(ahead.next().to()).isEqualTo(100);
                assertThat(ahead.next().to()).isEqualTo(200);
                assertThatThrownBy(ahead::next).isSameAs(refused);
                assertThat(ahead.hasNext()).as("depth " + depth).isFalse();
            }
        }
    }

    @Test
    void noMoreThanThreeBatchesPerConnectionAreAskedForAheadOfTheReader() throws Exception {
        List<Long> asked = java.util.Collections.synchronizedList(new ArrayList<>());
        HeaderSource counting = new HeaderSource() {
            @Override
            public void fetch(String group, long from, long to, OverviewSink sink) {
                asked.add(from);
                sink.header(line(from));
            }

            @Override
            public GroupInfo group(String group) {
                return new GroupInfo(1_000, 1, 1_000, group);
            }
        };
        int bound = 3 * ReadAhead.PER_CONNECTION;
        try (ReadAhead ahead = new ReadAhead(counting, fetchers, 3, 10, GROUP, 1, 1_000, () -> {})) {
            awaitSize(asked, bound);
            ahead.next();
            awaitSize(asked, bound + 1);
            ahead.next();
            ahead.next();
            awaitSize(asked, bound + 3);
        }
    }

    /** Waits until {@code list} holds {@code n} items, then a little longer, and checks that it holds no more. */
    private static void awaitSize(List<?> list, int n) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (list.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Thread.sleep(100);
        assertThat(list).hasSize(n);
    }

    private record Collected(List<Long> ends, long checksum, long headers, long lastArticle) {}

    private Collected readAll(HeaderSource source, int depth, int batch, long from, long to) throws IOException {
        List<Long> ends = new ArrayList<>();
        long[] sums = new long[3];
        OverviewSink sink = new OverviewSink() {
            @Override
            public void header(OverviewLine line) {
                sums[0] += Truth.headerHash(line.messageId(), line.subject(), line.bytes());
                sums[1]++;
                sums[2] = Math.max(sums[2], line.article());
            }

            @Override
            public void malformed(long article, String reason) {
                sums[2] = Math.max(sums[2], article);
            }

            @Override
            public void missing(long fromInclusive, long toInclusive) {
                sums[2] = Math.max(sums[2], toInclusive);
            }
        };
        try (ReadAhead ahead = new ReadAhead(source, fetchers, depth, batch, GROUP, from, to, () -> {})) {
            while (ahead.hasNext()) {
                ReadAhead.Fetched f = ahead.next();
                ends.add(f.to());
                f.replay(sink);
            }
        }
        return new Collected(ends, sums[0], sums[1], sums[2]);
    }

    private static List<Long> ends(int batch, long to) {
        List<Long> ends = new ArrayList<>();
        for (long e = batch; e <= to; e += batch) {
            ends.add(e);
        }
        return ends;
    }

    private static NntpPool pool(NewsSimulator sim, int max) {
        NntpServer server = NntpServer.plain(sim.host(), sim.port())
                .withSecurity(new NntpServer.Security(NntpServer.StartTls.AUTO, null, true, true));
        return new NntpPool(NntpPool.Config.defaults(server).withMaxConnections(max));
    }

    private static OverviewLine line(long a) {
        return new OverviewLine(a, "file (1/1)", "poster", "", "<" + a + "@ahead>", "", 100, 1, "");
    }
}
