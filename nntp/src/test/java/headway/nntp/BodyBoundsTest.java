package headway.nntp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import headway.simulator.YencWriter;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * BODY against a server whose replies a test writes byte for byte: each body bound (line length,
 * bytes from the posted size, the deadline) ends the read with a named status and a dropped
 * connection; a connection closed mid-body is an IOException to retry; bodies wait for their own
 * slots while header work gets the rest of the pool; and random or truncated bodies over the whole
 * byte range give a status or a named NNTP failure, never anything else.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BodyBoundsTest {
    static final String ID = "<bound@fetch.test>";

    BodyServer server;
    NntpPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aLineLongerThanTheBoundIsRefusedAndTheConnectionDropped() throws Exception {
        byte[] line = new byte[BodyLimits.DEFAULT.lineBytes() + 10];
        Arrays.fill(line, (byte) 'a');
        ArticleFetcher f = fetcher(id -> BodyServer.Reply.body(id, lines(line)), Duration.ofSeconds(5), 3);
        FetchedPart p = f.fetch(ID, 0, 100, f.budget());
        assertThat(p.status()).isEqualTo(FetchedPart.Status.REFUSED);
        assertThat(p.reason()).contains("broke the line length bound on BODY " + ID);
        assertThat(f.fetch(ID, 0, 100, f.budget()).status()).isEqualTo(FetchedPart.Status.REFUSED);
        assertThat(server.connections.get())
                .as("a new connection after each breach")
                .isEqualTo(2);
    }

    @Test
    void thePostedSizeBoundsTheBody() throws Exception {
        byte[] body = YencWriter.single(ArticleFetcherTest.file(new Random(5), 200_000), "big.bin");
        ArticleFetcher f = fetcher(id -> BodyServer.Reply.body(id, stuffed(body)), Duration.ofSeconds(5), 3);
        FetchedPart small = f.fetch(ID, 10_000, 100, f.budget());
        assertThat(small.status()).isEqualTo(FetchedPart.Status.REFUSED);
        assertThat(small.reason()).contains("broke the reply size bound").contains("more than 76786 bytes");
        FetchedPart unknown = f.fetch(ID, 0, 100, f.budget());
        assertThat(unknown.status()).isEqualTo(FetchedPart.Status.DECODED);
        FetchedPart told = f.fetch(ID, 210_000, 100, f.budget());
        assertThat(told.status()).isEqualTo(FetchedPart.Status.DECODED);
        assertThat(told.bodyBytes()).isEqualTo(body.length + (long) countLeadingDots(body));
    }

    @Test
    void aTrickleIsCutAtTheDeadlineThoughNoReadTimesOut() throws Exception {
        byte[] body = YencWriter.single(ArticleFetcherTest.file(new Random(6), 4000), "slow.bin");
        BodyServer.Reply trickle =
                new BodyServer.Reply(BodyServer.Reply.body(ID, stuffed(body)).bytes(), false, 20, 100);
        server = BodyServer.start(id -> trickle);
        pool = new NntpPool(new NntpPool.Config(
                server.server(),
                2,
                Duration.ofSeconds(2),
                Duration.ofSeconds(1),
                Duration.ofSeconds(5),
                Duration.ofMillis(50),
                Duration.ofMillis(200)));
        ArticleFetcher f = new ArticleFetcher(pool, 1, 3, new BodyLimits(1 << 20, 16 * 1024, Duration.ZERO));
        long start = System.nanoTime();
        FetchedPart p = f.fetch(ID, 0, 100, f.budget());
        assertThat(p.status()).isEqualTo(FetchedPart.Status.REFUSED);
        assertThat(p.reason()).contains("broke the deadline bound on BODY " + ID);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
    }

    @Test
    void aConnectionClosedMidBodyIsAFailureToRetryNotAStatus() throws Exception {
        byte[] body = YencWriter.single(ArticleFetcherTest.file(new Random(7), 50_000), "cut.bin");
        byte[] reply = BodyServer.Reply.body(ID, stuffed(body)).bytes();
        ArticleFetcher f = fetcher(
                id -> new BodyServer.Reply(Arrays.copyOf(reply, reply.length / 2), true, Integer.MAX_VALUE, 0),
                Duration.ofSeconds(5),
                3);
        Throwable t = catchThrowable(() -> f.fetch(ID, 0, 100, f.budget()));
        assertThat(t)
                .isInstanceOf(IOException.class)
                .hasMessageContaining(server.server().toString());
        assertThat(pool.idleCount()).isZero();
    }

    @Test
    void bodiesWaitForTheirSlotWhileHeaderWorkGetsTheRestOfThePool() throws Exception {
        byte[] body = YencWriter.single(ArticleFetcherTest.file(new Random(8), 3000), "held.bin");
        BodyServer.Reply slow =
                new BodyServer.Reply(BodyServer.Reply.body(ID, stuffed(body)).bytes(), false, 400, 150);
        server = BodyServer.start(id -> slow);
        pool = new NntpPool(new NntpPool.Config(
                server.server(),
                2,
                Duration.ofSeconds(2),
                Duration.ofSeconds(5),
                Duration.ofMillis(300),
                Duration.ofMillis(50),
                Duration.ofMillis(200)));
        ArticleFetcher f = new ArticleFetcher(pool, 1, 3, BodyLimits.DEFAULT);
        CompletableFuture<FetchedPart> first = CompletableFuture.supplyAsync(() -> {
            try {
                return f.fetch(ID, 0, 100, f.budget());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (f.inFlight() == 0 && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        assertThat(f.inFlight()).isEqualTo(1);
        assertThatThrownBy(() -> f.fetch(ID, 0, 100, f.budget()))
                .isInstanceOf(NntpException.class)
                .hasMessageContaining("no body slot free")
                .hasMessageContaining("HEADWAY_INSPECT_CONNECTIONS");
        GroupInfo g = pool.withConnection(c -> c.group("alt.binaries.headers"));
        assertThat(g.name()).isEqualTo("alt.binaries.headers");
        assertThat(first.get(20, TimeUnit.SECONDS).status()).isEqualTo(FetchedPart.Status.DECODED);
        assertThat(f.inFlight()).isZero();
    }

    @Test
    void randomAndTruncatedBodiesGiveAStatusOrANamedFailure() throws Exception {
        Long replay = Long.getLong("headway.seed");
        long seed = replay != null ? replay : new SecureRandom().nextLong();
        String shown = "seed " + seed + " (replay with -Dheadway.seed=" + seed + ")";
        Random r = new Random(seed);
        byte[] good = YencWriter.part(ArticleFetcherTest.file(new Random(seed), 30_000), "fuzz.bin", 1, 2, 0, 20_000);
        byte[][] next = new byte[1][];
        boolean[] hangUp = new boolean[1];
        ArticleFetcher f = fetcher(
                id -> new BodyServer.Reply(next[0], hangUp[0], Integer.MAX_VALUE, 0), Duration.ofSeconds(2), 1000);
        int statuses = 0;
        int failures = 0;
        for (int i = 0; i < 300; i++) {
            byte[] data = switch (r.nextInt(4)) {
                case 0 -> random(r, r.nextInt(8192));
                case 1 -> Arrays.copyOf(good, r.nextInt(good.length + 1));
                case 2 -> mutate(r, good);
                default -> {
                    byte[] junk = random(r, r.nextInt(64));
                    byte[] b = Arrays.copyOf(good, good.length + junk.length);
                    System.arraycopy(junk, 0, b, r.nextInt(good.length), junk.length);
                    yield b;
                }
            };
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            reply.writeBytes(
                    (r.nextInt(20) == 0 ? random(r, 8) : "222 0 <x@y>\r\n".getBytes(StandardCharsets.US_ASCII)));
            reply.writeBytes(r.nextBoolean() ? stuffed(data) : data);
            hangUp[0] = r.nextInt(4) == 0;
            if (!hangUp[0]) {
                reply.writeBytes("\r\n.\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            next[0] = reply.toByteArray();
            int keep = r.nextInt(40_000);
            try {
                FetchedPart p = f.fetch(ID, r.nextBoolean() ? 0 : r.nextInt(100_000), keep, f.budget());
                assertThat(p.status()).as(shown).isNotEqualTo(FetchedPart.Status.OVER_BUDGET);
                assertThat(p.ok() || p.reason() != null).as(shown).isTrue();
                if (p.part() != null) {
                    assertThat(p.part().data().length).as(shown).isLessThanOrEqualTo(keep);
                }
                statuses++;
            } catch (NntpException | EOFException e) {
                assertThat(e.getMessage()).as(shown).contains(server.server().toString());
                failures++;
            }
        }
        assertThat(statuses).as(shown).isGreaterThan(100);
        assertThat(failures).as(shown).isPositive();
    }

    private ArticleFetcher fetcher(Function<String, BodyServer.Reply> script, Duration read, int articles)
            throws IOException {
        server = BodyServer.start(script);
        pool = new NntpPool(new NntpPool.Config(
                server.server(),
                2,
                Duration.ofSeconds(2),
                read,
                Duration.ofSeconds(5),
                Duration.ofMillis(20),
                Duration.ofMillis(100)));
        return new ArticleFetcher(pool, 1, articles, BodyLimits.DEFAULT);
    }

    private static byte[] lines(byte[] line) {
        byte[] b = Arrays.copyOf(line, line.length + 2);
        b[line.length] = '\r';
        b[line.length + 1] = '\n';
        return b;
    }

    /** {@code body} with NNTP's doubled leading dots, as a server sends it. */
    private static byte[] stuffed(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 64);
        boolean start = true;
        for (byte b : body) {
            if (start && b == '.') {
                out.write('.');
            }
            out.write(b);
            start = b == '\n';
        }
        return out.toByteArray();
    }

    private static int countLeadingDots(byte[] body) {
        int n = 0;
        boolean start = true;
        for (byte b : body) {
            if (start && b == '.') {
                n++;
            }
            start = b == '\n';
        }
        return n;
    }

    private static byte[] random(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    private static byte[] mutate(Random r, byte[] good) {
        byte[] b = good.clone();
        for (int k = r.nextInt(20); k >= 0; k--) {
            b[r.nextInt(b.length)] = (byte) r.nextInt(256);
        }
        return b;
    }
}
