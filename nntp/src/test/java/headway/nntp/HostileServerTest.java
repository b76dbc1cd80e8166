package headway.nntp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import headway.nntp.HostileNntpServer.Misbehaviour;
import headway.nntp.MisbehavingServerException.Bound;
import headway.overview.OverviewLine;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The client against a server that breaks each bound a reply must keep: every breach ends within
 * its time bound, having read a bounded number of bytes, with a typed error that names the server,
 * the command and the bound; the connection is dropped (the next call opens a new one) and nothing
 * past the last good line reaches the sink, so no cursor could move past it.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostileServerTest {
    private static final String G = HostileNntpServer.GROUP;
    /** The read timeout; a trickle of one byte a second never trips it, only the deadline. */
    private static final Duration READ = Duration.ofSeconds(2);
    /** Each OVER below asks for 10 articles, so its deadline is READ + 10 x 10 ms. */
    private static final NntpClient.Limits LIMITS =
            new NntpClient.Limits(2048, 64 * 1024, 1000, 64 * 1024, 16 * 1024, Duration.ofMillis(10));
    /** What a client may have read before it stops: a few lines over the bound, plus socket buffers on both sides. */
    private static final long BYTES_BOUND = 16L << 20;

    private HostileNntpServer server;
    private NntpPool pool;

    @BeforeEach
    void start() throws IOException {
        server = HostileNntpServer.start(100);
        pool = new NntpPool(new NntpPool.Config(
                        server.server(),
                        2,
                        Duration.ofSeconds(2),
                        READ,
                        Duration.ofSeconds(5),
                        Duration.ofMillis(50),
                        Duration.ofMillis(200))
                .withLimits(LIMITS));
    }

    @AfterEach
    void stop() {
        pool.close();
        server.close();
    }

    private static final Map<Misbehaviour, Set<Bound>> OVER_BOUNDS = Map.of(
            Misbehaviour.ENDLESS_OVER, Set.of(Bound.REPLY_LINES),
            Misbehaviour.TRICKLE_OVER, Set.of(Bound.DEADLINE),
            Misbehaviour.OUT_OF_RANGE, Set.of(Bound.ARTICLE_RANGE),
            Misbehaviour.OUT_OF_ORDER, Set.of(Bound.ARTICLE_ORDER),
            Misbehaviour.DUPLICATE, Set.of(Bound.ARTICLE_ORDER),
            Misbehaviour.OVERSIZE_LINE, Set.of(Bound.LINE_BYTES),
            Misbehaviour.GARBAGE_STATUS, Set.of(Bound.STATUS_LINE),
            Misbehaviour.OVERSIZE_STATUS, Set.of(Bound.STATUS_LINE),
            Misbehaviour.UNASKED_GZIP, Set.of(Bound.STATUS_LINE),
            // silence after the last line: the read timeout (2 s) or, if sending took over 100 ms, the deadline
            Misbehaviour.UNTERMINATED, Set.of(Bound.READ_TIMEOUT, Bound.DEADLINE));

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = Misbehaviour.class,
            names = {
                "ENDLESS_OVER",
                "TRICKLE_OVER",
                "OUT_OF_RANGE",
                "OUT_OF_ORDER",
                "DUPLICATE",
                "OVERSIZE_LINE",
                "GARBAGE_STATUS",
                "OVERSIZE_STATUS",
                "UNASKED_GZIP",
                "UNTERMINATED"
            })
    void aBrokenOverBoundIsNamedAndTheConnectionDropped(Misbehaviour m) throws Exception {
        server.misbehave(m, 1);
        Recorder sink = new Recorder();
        long t0 = System.nanoTime();
        Throwable thrown = catchThrowable(() -> over(1, 10, sink));
        Duration took = Duration.ofNanos(System.nanoTime() - t0);

        assertThat(thrown).isInstanceOf(MisbehavingServerException.class);
        MisbehavingServerException e = (MisbehavingServerException) thrown;
        assertThat(OVER_BOUNDS.get(m)).as(e.getMessage()).contains(e.bound());
        assertThat(e.server()).isEqualTo(server.server().toString());
        assertThat(e.command()).isEqualTo("OVER 1-10");
        assertThat(e.getMessage())
                .startsWith("nntp://127.0.0.1:" + server.server().port() + " broke the " + e.bound()
                        + " bound on OVER 1-10: ")
                .endsWith("; the connection is dropped and the range retried later");
        assertThat(took)
                .as("within the deadline (read timeout + 10 x 10 ms) and a little")
                .isLessThan(Duration.ofSeconds(5));
        assertThat(server.bytesWritten()).as("bytes the server got out").isLessThan(BYTES_BOUND);
        sink.assertNothingPast(1, 10);
        sink.assertNoMissingPastTheLastDelivered();
        assertThat(server.overs()).as("not asked again at once").isEqualTo(1);
        assertDroppedAndRecovered();
    }

    @Test
    void aTrickleOfOneBytePerSecondFailsByTheDeadlineNotTheReadTimeout() throws Exception {
        server.misbehave(Misbehaviour.TRICKLE_OVER, 1).trickleMillis(1000);
        long t0 = System.nanoTime();
        Throwable thrown = catchThrowable(() -> over(1, 10, new Recorder()));
        Duration took = Duration.ofNanos(System.nanoTime() - t0);

        assertThat(thrown)
                .isInstanceOfSatisfying(
                        MisbehavingServerException.class,
                        e -> assertThat(e.bound()).isEqualTo(Bound.DEADLINE))
                .hasMessageContaining("the reply did not end within PT2.1S");
        assertThat(took).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(4));
        assertDroppedAndRecovered();
    }

    @Test
    void anArticleOutsideTheRangeReachesNoSinkAndRecordsNothingMissingPastTheLastGoodLine() throws Exception {
        server.misbehave(Misbehaviour.OUT_OF_RANGE, 1);
        Recorder sink = new Recorder();
        Throwable thrown = catchThrowable(() -> over(1, 10, sink));

        assertThat(thrown)
                .isInstanceOf(MisbehavingServerException.class)
                .hasMessageContaining("article 1000000000000000 outside 1-10 (line 6)");
        assertThat(sink.articles).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(sink.missing)
                .as("6..10 may arrive later: never recorded missing")
                .isEmpty();
    }

    @Test
    void anEndlessCapabilitiesReplyFailsTheConnectAfterItsLineBound() throws Exception {
        server.misbehave(Misbehaviour.ENDLESS_CAPABILITIES, 1);
        long t0 = System.nanoTime();
        Throwable thrown = catchThrowable(() -> pool.withConnection(c -> c.group(G)));

        assertThat(thrown)
                .isInstanceOfSatisfying(MisbehavingServerException.class, e -> {
                    assertThat(e.bound()).isEqualTo(Bound.REPLY_LINES);
                    assertThat(e.command()).isEqualTo("CAPABILITIES");
                })
                .hasMessageContaining("more than 1000 lines in a list reply");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        assertThat(server.bytesWritten()).isLessThan(BYTES_BOUND);
        assertThat(server.connections())
                .as("no reconnect loop on a misbehaving server")
                .isEqualTo(1);
        assertThat(pool.<Long>withConnection(c -> c.group(G).high())).isEqualTo(100);
    }

    @Test
    void anEndlessOverviewFormatFailsTheOverAfterItsLineBound() throws Exception {
        server.misbehave(Misbehaviour.ENDLESS_OVERVIEW_FMT, 1);
        Throwable thrown = catchThrowable(() -> over(1, 10, new Recorder()));

        assertThat(thrown).isInstanceOfSatisfying(MisbehavingServerException.class, e -> {
            assertThat(e.bound()).isEqualTo(Bound.REPLY_LINES);
            assertThat(e.command()).isEqualTo("LIST OVERVIEW.FMT");
        });
        assertThat(server.bytesWritten()).isLessThan(BYTES_BOUND);
        assertDroppedAndRecovered();
    }

    @Test
    void aConnectionClosedMidReplyIsNamedAndNotRetriedOnTheSameSink() throws Exception {
        server.misbehave(Misbehaviour.CLOSE_MID_REPLY, 1);
        Recorder sink = new Recorder();
        Throwable thrown = catchThrowable(() -> over(1, 10, sink));

        assertThat(thrown)
                .isInstanceOf(EOFException.class)
                .hasMessage(server.server() + " closed the connection while reading the reply to OVER 1-10");
        assertThat(sink.articles).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(sink.missing).isEmpty();
        assertThat(server.overs())
                .as("a reply that fed the sink is not replayed into it")
                .isEqualTo(1);
        assertDroppedAndRecovered();
    }

    /**
     * Random reply bodies for random ranges: lines up to 4 kB of random bytes, NUL included, half
     * of them with CR and LF inside (so they break anywhere), some behind article numbers in and
     * out of range. Each OVER either
     * returns with every delivered article inside its range and increasing, or fails with a typed
     * NntpException; nothing else escapes, and the pool always serves the next call.
     */
    @Test
    void randomReplyBodiesEndInResultsOrTypedErrorsOnly() throws Exception {
        long seed = 20261204L;
        Random random = new Random(seed);
        int failures = 0;
        for (int round = 0; round < 300; round++) {
            long lo = 1L + random.nextInt(90);
            long hi = lo + (long) random.nextInt(10);
            server.garbage((a, b) -> randomBody(random, a, b)).misbehave(Misbehaviour.GARBAGE_BODY, 1);
            Recorder sink = new Recorder();
            Throwable thrown = catchThrowable(() -> over(lo, hi, sink));
            String what = "seed " + seed + " round " + round + " OVER " + lo + "-" + hi;
            if (thrown != null) {
                failures++;
                assertThat(thrown).as(what).isInstanceOf(NntpException.class);
            }
            sink.assertNothingPast(lo, hi);
        }
        assertThat(failures).as("some random bodies break a bound").isPositive();
        assertThat(failures).as("some random bodies are read to their end").isLessThan(300);
        assertThat(pool.<Long>withConnection(c -> c.group(G).high())).isEqualTo(100);
    }

    private static byte[] randomBody(Random random, long lo, long hi) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int lines = random.nextInt(20);
        for (int i = 0; i < lines; i++) {
            switch (random.nextInt(4)) {
                case 0 ->
                    out.writeBytes(HostileNntpServer.line(lo + random.nextInt((int) (hi - lo + 3)))
                            .getBytes(StandardCharsets.ISO_8859_1));
                case 1 ->
                    out.writeBytes(
                            (lo + random.nextInt((int) (hi - lo + 1)) + "\t").getBytes(StandardCharsets.ISO_8859_1));
                default -> {}
            }
            byte[] junk = new byte[random.nextInt(4096)];
            random.nextBytes(junk);
            boolean oneLine = random.nextBoolean();
            for (int k = 0; k < junk.length; k++) {
                if (oneLine && (junk[k] == '\n' || junk[k] == '\r')) {
                    junk[k] = 0;
                }
                if (junk[k] == '.' && (k == 0 || junk[k - 1] == '\n')) {
                    junk[k] = ',';
                }
            }
            out.writeBytes(junk);
            out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        return out.toByteArray();
    }

    private long over(long lo, long hi, OverviewSink sink) throws IOException {
        return pool.withConnection(c -> {
            c.group(G);
            return c.over(lo, hi, sink);
        });
    }

    /** The failed connection is gone from the pool; the next call opens a new one and gets the honest reply. */
    private void assertDroppedAndRecovered() throws IOException {
        assertThat(pool.idleCount()).as("the broken connection is not kept").isZero();
        int before = server.connections();
        Recorder honest = new Recorder();
        assertThat(over(1, 10, honest)).isEqualTo(10);
        assertThat(honest.articles).hasSize(10);
        assertThat(server.connections()).as("a new connection").isEqualTo(before + 1);
    }

    /** Records what reached the sink. */
    static final class Recorder implements OverviewSink {
        final List<Long> articles = new ArrayList<>();
        final List<long[]> missing = new ArrayList<>();
        long highestDelivered = 0;

        @Override
        public void header(OverviewLine line) {
            articles.add(line.article());
            highestDelivered = Math.max(highestDelivered, line.article());
        }

        @Override
        public void malformed(long article, String reason) {
            if (article >= 0) {
                articles.add(article);
                highestDelivered = Math.max(highestDelivered, article);
            }
        }

        @Override
        public void missing(long fromInclusive, long toInclusive) {
            missing.add(new long[] {fromInclusive, toInclusive});
        }

        /** After a failed reply: every missing run lies below an article that was delivered after it. */
        void assertNoMissingPastTheLastDelivered() {
            for (long[] run : missing) {
                assertThat(run[1]).isLessThan(highestDelivered);
            }
        }

        /** Articles inside [lo, hi] and increasing; missing runs inside the range, and past the last delivered article only when the reply ended well. */
        void assertNothingPast(long lo, long hi) {
            assertThat(articles)
                    .isSorted()
                    .doesNotHaveDuplicates()
                    .allSatisfy(a -> assertThat(a).isBetween(lo, hi));
            for (long[] run : missing) {
                assertThat(run[0]).isBetween(lo, hi);
                assertThat(run[1]).isBetween(run[0], hi);
            }
        }
    }
}
