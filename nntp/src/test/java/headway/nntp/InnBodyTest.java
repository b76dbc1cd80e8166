package headway.nntp;

import static org.assertj.core.api.Assertions.assertThat;

import headway.guard.InnLock;
import headway.poster.NntpFeeder;
import headway.simulator.Article;
import headway.simulator.YencWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Against a real INN 2.7 started by {@code nntp-peer.sh} (run under {@code flock
 * /tmp/headway-inn.lock}): a file posted as yEnc parts with rigs' {@link NntpFeeder} comes back by
 * message-id through the pool and the fetcher, decoded byte for byte, and an article INN does not
 * have is a status that keeps the connection. Fails, never skips, when INN cannot be started.
 */
@ExtendWith(InnLock.class)
class InnBodyTest {
    static final String GROUP = "alt.binaries.headway.bodies";
    static final Duration T = Duration.ofSeconds(20);

    @BeforeAll
    static void startInn() throws Exception {
        InnPeer.run("start", GROUP);
        InnPeer.run("groups", GROUP);
    }

    @Test
    void aPostedFileComesBackByteIdenticalThroughTheFetcher() throws Exception {
        String nonce = Long.toHexString(System.nanoTime());
        byte[] file = ArticleFetcherTest.file(new Random(nonce.hashCode()), 450_000);
        int parts = 3;
        int partBytes = file.length / parts;
        List<Article> articles = new ArrayList<>();
        for (int p = 1; p <= parts; p++) {
            byte[] body = YencWriter.part(file, nonce + ".bin", p, parts, (p - 1) * partBytes, p * partBytes);
            String id = "<" + nonce + ".part" + p + "@bodies.test>";
            articles.add(Article.of(
                    id,
                    "poster <poster@bodies.test>",
                    GROUP,
                    nonce + " - \"" + nonce + ".bin\" yEnc (" + p + "/" + parts + ")",
                    "Mon, 07 Dec 2026 12:00:00 +0000",
                    body));
        }
        NntpFeeder.post("127.0.0.1", InnPeer.READER_PORT, articles);

        try (NntpPool pool = new NntpPool(new NntpPool.Config(
                NntpServer.plain("127.0.0.1", InnPeer.READER_PORT),
                2,
                T,
                T,
                T,
                Duration.ofMillis(100),
                Duration.ofSeconds(1)))) {
            ArticleFetcher fetcher = new ArticleFetcher(pool, 1, parts, BodyLimits.DEFAULT);
            ArticleFetcher.Budget budget = fetcher.budget();
            byte[] whole = new byte[file.length];
            for (Article a : articles) {
                FetchedPart f = fetcher.fetch(a.messageId(), a.bytes(), ArticleFetcher.MAX_KEEP, budget);
                assertThat(f.ok()).as("%s: %s", a.messageId(), f.reason()).isTrue();
                assertThat(f.part().name()).isEqualTo(nonce + ".bin");
                assertThat(f.bodyBytes()).isGreaterThanOrEqualTo(a.body().length);
                System.arraycopy(
                        f.part().data(),
                        0,
                        whole,
                        (int) f.part().begin() - 1,
                        f.part().data().length);
            }
            assertThat(whole).isEqualTo(file);
            assertThat(budget.left()).isZero();

            NntpClient before = pool.borrow();
            pool.release(before);
            FetchedPart missing = fetcher.fetch("<" + nonce + ".never@bodies.test>", 0, 100, fetcher.budget());
            assertThat(missing.status()).isEqualTo(FetchedPart.Status.NO_SUCH_ARTICLE);
            NntpClient after = pool.borrow();
            pool.release(after);
            assertThat(after).isSameAs(before);
            assertThat(after.isBroken()).isFalse();
        }
    }
}
