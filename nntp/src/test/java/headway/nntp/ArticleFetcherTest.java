package headway.nntp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.inspect.yenc.YencPart;
import headway.simulator.Article;
import headway.simulator.ArticleKind;
import headway.simulator.HostileBody;
import headway.simulator.NewsSimulator;
import headway.simulator.YencWriter;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bodies fetched from the news simulator through the pool and decoded: posted files come back byte
 * for byte, each hostile kind of body is a named status, a missing article is a status that keeps
 * the connection, and the fetcher keeps within its slots and each release's budget.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ArticleFetcherTest {
    static final String POSTED = "alt.binaries.fetch.posted";
    static final String HOSTILE = "alt.binaries.fetch.hostile";
    static final Duration T = Duration.ofSeconds(10);
    static final int ALL = ArticleFetcher.MAX_KEEP;

    static NewsSimulator sim;

    NntpPool pool;
    ArticleFetcher fetcher;

    @BeforeAll
    static void startSimulator() throws IOException {
        sim = NewsSimulator.start(
                NewsSimulator.Options.defaults().withCompression(),
                List.of(
                        NewsSimulator.GroupSpec.posted(POSTED),
                        NewsSimulator.GroupSpec.of(HOSTILE, 7, 400).withHostileBodies(0.5)));
    }

    @AfterAll
    static void stopSimulator() {
        sim.close();
    }

    @BeforeEach
    void openPool() {
        pool = new NntpPool(
                new NntpPool.Config(Simulators.server(sim), 2, T, T, T, Duration.ofMillis(50), Duration.ofMillis(200)));
        fetcher = new ArticleFetcher(pool, 1, 1000, BodyLimits.DEFAULT);
    }

    @AfterEach
    void closePool() {
        pool.close();
    }

    @Test
    void aPostedMultipartFileComesBackByteIdentical() throws Exception {
        byte[] file = file(new Random(41), 300_000);
        List<String> ids = new ArrayList<>();
        int parts = 3;
        for (int p = 1; p <= parts; p++) {
            int from = (p - 1) * 100_000;
            ids.add(post(
                    "<part" + p + ".multi@fetch.test>",
                    YencWriter.part(file, "multi.bin", p, parts, from, from + 100_000)));
        }
        byte[] whole = new byte[file.length];
        ArticleFetcher.Budget budget = fetcher.budget();
        for (String id : ids) {
            FetchedPart f = fetcher.fetch(id, 0, ALL, budget);
            assertThat(f.ok()).as("%s: %s", id, f.reason()).isTrue();
            YencPart p = f.part();
            assertThat(p.name()).isEqualTo("multi.bin");
            assertThat(p.total()).isEqualTo(parts);
            assertThat(p.size()).isEqualTo(file.length);
            assertThat(p.crc()).isEqualTo(YencPart.Crc.MATCHED);
            assertThat(f.bodyBytes()).isGreaterThan(100_000);
            System.arraycopy(p.data(), 0, whole, (int) p.begin() - 1, p.data().length);
        }
        assertThat(whole).isEqualTo(file);
        assertThat(budget.spent()).isEqualTo(parts);
    }

    @Test
    void onlyTheFirstBytesAreKeptButTheCrcCoversTheWholePart() throws Exception {
        byte[] file = file(new Random(42), 200_000);
        String id = post("<single@fetch.test>", YencWriter.single(file, "single.par2"));
        FetchedPart f = fetcher.fetch(id, 0, 16 * 1024, fetcher.budget());
        assertThat(f.status()).isEqualTo(FetchedPart.Status.DECODED);
        assertThat(f.part().data()).isEqualTo(Arrays.copyOf(file, 16 * 1024));
        assertThat(f.part().decoded()).isEqualTo(file.length);
        assertThat(f.part().crc()).isEqualTo(YencPart.Crc.MATCHED);
        assertThat(f.part().part()).isZero();
    }

    @Test
    void eachHostileBodyIsANamedStatusAndNeverMore() throws Exception {
        Map<HostileBody, Integer> seen = new EnumMap<>(HostileBody.class);
        int clean = 0;
        for (long n = 1; n <= sim.high(HOSTILE) && (seen.size() < HostileBody.values().length || clean < 5); n++) {
            if (sim.kind(HOSTILE, n) != ArticleKind.VALID) {
                continue;
            }
            String id = "<" + sim.messageId(HOSTILE, n) + ">";
            HostileBody kind = sim.hostileBody(HOSTILE, n);
            FetchedPart f = fetcher.fetch(id, 0, 4096, fetcher.budget());
            if (kind == null) {
                assertThat(f.status()).as("article %d: %s", n, f.reason()).isEqualTo(FetchedPart.Status.DECODED);
                assertThat(f.part().data()).hasSize(4096);
                clean++;
                continue;
            }
            seen.merge(kind, 1, Integer::sum);
            switch (kind) {
                case TRUNCATED -> {
                    assertThat(f.status()).isEqualTo(FetchedPart.Status.DAMAGED);
                    assertThat(f.reason()).startsWith("truncated");
                }
                case WRONG_CRC -> {
                    assertThat(f.status()).isEqualTo(FetchedPart.Status.DAMAGED);
                    assertThat(f.reason()).isEqualTo("CRC32 mismatch");
                    assertThat(f.part().crc()).isEqualTo(YencPart.Crc.MISMATCHED);
                }
                case HUGE_SIZE -> {
                    assertThat(f.status()).isEqualTo(FetchedPart.Status.DAMAGED);
                    assertThat(f.reason()).startsWith("lying: size=1152921504606846976");
                }
                case ENDLESS -> {
                    assertThat(f.status()).isEqualTo(FetchedPart.Status.REFUSED);
                    assertThat(f.reason())
                            .startsWith(Simulators.server(sim) + " broke the reply size bound on BODY " + id)
                            .endsWith("the connection is dropped and the article left unread");
                }
            }
        }
        assertThat(seen.keySet()).containsExactlyInAnyOrder(HostileBody.values());
        assertThat(clean).isGreaterThanOrEqualTo(5);
    }

    @Test
    void theConnectionIsReusedAfterA430AndAfterABodyCutShortButNotAfterABreach() throws Exception {
        NntpClient first = pool.borrow();
        pool.release(first);
        FetchedPart missing = fetcher.fetch("<never.posted@fetch.test>", 0, ALL, fetcher.budget());
        assertThat(missing.status()).isEqualTo(FetchedPart.Status.NO_SUCH_ARTICLE);
        assertThat(missing.reason()).contains("<never.posted@fetch.test>");
        assertThat(sameConnection(first)).isTrue();

        long clean = article(null);
        FetchedPart cut = fetcher.fetch("<" + sim.messageId(HOSTILE, clean) + ">", 0, 100, fetcher.budget());
        assertThat(cut.status()).isEqualTo(FetchedPart.Status.DECODED);
        assertThat(cut.part().data()).hasSize(100);
        assertThat(sameConnection(first)).isTrue();

        long truncated = article(HostileBody.TRUNCATED);
        assertThat(fetcher.fetch("<" + sim.messageId(HOSTILE, truncated) + ">", 0, ALL, fetcher.budget())
                        .status())
                .isEqualTo(FetchedPart.Status.DAMAGED);
        assertThat(sameConnection(first)).isTrue();

        long endless = article(HostileBody.ENDLESS);
        assertThat(fetcher.fetch("<" + sim.messageId(HOSTILE, endless) + ">", 0, ALL, fetcher.budget())
                        .status())
                .isEqualTo(FetchedPart.Status.REFUSED);
        assertThat(first.isBroken()).isTrue();
        assertThat(sameConnection(first)).isFalse();
    }

    @Test
    void aSpentBudgetAsksNothing() throws Exception {
        ArticleFetcher small = new ArticleFetcher(pool, 1, 2, BodyLimits.DEFAULT);
        ArticleFetcher.Budget budget = small.budget();
        String id = "<" + sim.messageId(HOSTILE, article(null)) + ">";
        assertThat(small.fetch(id, 0, 10, budget).ok()).isTrue();
        assertThat(small.fetch("<gone@fetch.test>", 0, 10, budget).status())
                .isEqualTo(FetchedPart.Status.NO_SUCH_ARTICLE);
        NntpClient c = pool.borrow();
        int replies = c.repliesRead();
        pool.release(c);
        FetchedPart over = small.fetch(id, 0, 10, budget);
        assertThat(over.status()).isEqualTo(FetchedPart.Status.OVER_BUDGET);
        assertThat(over.reason()).contains("HEADWAY_INSPECT_ARTICLES");
        assertThat(budget.left()).isZero();
        assertThat(budget.spent()).isEqualTo(2);
        c = pool.borrow();
        assertThat(c.repliesRead()).as("no command was sent").isEqualTo(replies);
        pool.release(c);
        assertThat(small.budget().left()).as("each release has its own").isEqualTo(2);
    }

    @Test
    void bodiesTakeFewerConnectionsThanThePoolHolds() {
        assertThatThrownBy(() -> new ArticleFetcher(pool, 2, 3, BodyLimits.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("connections for bodies must be between 1 and 1 (one less than the pool's 2, so header"
                        + " indexing keeps one), was 2");
        assertThatThrownBy(() -> new ArticleFetcher(pool, 1, 0, BodyLimits.DEFAULT))
                .hasMessage("articlesPerRelease must be between 1 and 1000, was 0");
        assertThatThrownBy(() -> fetcher.fetch("no-brackets@fetch.test", 0, 10, fetcher.budget()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("message-id must be <...>");
        assertThatThrownBy(() -> fetcher.fetch("<a b@fetch.test>", 0, 10, fetcher.budget()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Whether the pool hands out {@code c} again, healthy: the connection was kept, not replaced. */
    private boolean sameConnection(NntpClient c) throws IOException {
        NntpClient next = pool.borrow();
        pool.release(next);
        return next == c && !next.isBroken();
    }

    /** The first valid article of the hostile group whose body is served as {@code kind} (null: whole). */
    private static long article(HostileBody kind) {
        for (long n = 1; n <= sim.high(HOSTILE); n++) {
            if (sim.kind(HOSTILE, n) == ArticleKind.VALID && sim.hostileBody(HOSTILE, n) == kind) {
                return n;
            }
        }
        throw new AssertionError("no article served as " + kind);
    }

    private static String post(String id, byte[] body) {
        sim.postArticle(
                POSTED,
                Article.of(id, "poster <p@fetch.test>", POSTED, "fetch test", "Mon, 07 Dec 2026 12:00:00 +0000", body));
        return id;
    }

    /** Random bytes with every byte value, and runs of dots, CRs, LFs and '=' that yEnc and NNTP stuffing must carry. */
    static byte[] file(Random r, int size) {
        byte[] b = new byte[size];
        r.nextBytes(b);
        for (int i = 0; i < 256; i++) {
            b[i] = (byte) i;
        }
        for (int i = 256; i + 8 < size; i += 997) {
            byte special = (byte) ".\r\n=\0\t ".charAt(r.nextInt(7));
            Arrays.fill(b, i, i + 8, (byte) (special - 42));
        }
        return b;
    }
}
