package headway.nntp;

import headway.inspect.yenc.YencDecoder;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fetches article bodies by message-id for the deep index and decodes their yEnc part, on the
 * worker's {@link NntpPool} but within a limit of its own: at most {@code connections} bodies are
 * read at once, fewer than the pool holds, so header indexing always keeps a connection however
 * many releases wait for inspection (the settings catalogue checks HEADWAY_INSPECT_CONNECTIONS
 * against HEADWAY_NNTP_CONNECTIONS). Each release gets a {@link Budget} of articles; a fetch on a
 * spent budget asks the server nothing. Thread-safe.
 *
 * <p>A body is streamed through inspect's {@link YencDecoder}, keeping only the first {@code keep}
 * decoded bytes (the readers want the first 16 KiB of a file, a PAR2 index, an NFO) while the
 * CRC32 covers the whole part, so memory is {@code keep} plus a line per fetch whatever the server
 * sends. What a body turns out to be (damaged, not yEnc, missing, a server that broke a bound) is a
 * {@link FetchedPart.Status} with its reason, never an exception; a failed connection (refused,
 * closed mid-body) is an {@link IOException}, worth a retry.
 */
public final class ArticleFetcher {

    /** The most decoded bytes one fetch keeps: a part is never bigger (inspect's decoder refuses 64 MiB). */
    public static final int MAX_KEEP = 16 << 20;

    private final NntpPool pool;
    private final int connections;
    private final int articlesPerRelease;
    private final BodyLimits limits;
    private final Semaphore permits;

    /**
     * A fetcher over {@code pool} reading at most {@code connections} bodies at once (1 up to one
     * less than the pool's connections) and giving each release {@code articlesPerRelease} articles.
     */
    public ArticleFetcher(NntpPool pool, int connections, int articlesPerRelease, BodyLimits limits) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.limits = Objects.requireNonNull(limits, "limits");
        int max = pool.config().maxConnections();
        if (connections < 1 || connections >= max) {
            throw new IllegalArgumentException("connections for bodies must be between 1 and " + (max - 1)
                    + " (one less than the pool's " + max + ", so header indexing keeps one), was " + connections);
        }
        if (articlesPerRelease < 1 || articlesPerRelease > 1000) {
            throw new IllegalArgumentException(
                    "articlesPerRelease must be between 1 and 1000, was " + articlesPerRelease);
        }
        this.connections = connections;
        this.articlesPerRelease = articlesPerRelease;
        this.permits = new Semaphore(connections, true);
    }

    /** The most bodies read at once. */
    public int connections() {
        return connections;
    }

    /** The articles each release's budget holds. */
    public int articlesPerRelease() {
        return articlesPerRelease;
    }

    /** Bodies being read now. */
    public int inFlight() {
        return connections - permits.availablePermits();
    }

    /** A fresh budget of {@link #articlesPerRelease()} articles for one release. */
    public Budget budget() {
        return new Budget(articlesPerRelease);
    }

    /**
     * Fetches the body of {@code messageId} and decodes its yEnc part, keeping its first {@code keep}
     * decoded bytes; {@code postedBytes} is the article's size from its overview line (0 or less: not
     * known), which bounds the body. Charges {@code budget} one article first, and asks nothing when
     * it is spent. Waits for a body slot and a pooled connection at most the pool's borrow timeout.
     */
    public FetchedPart fetch(String messageId, long postedBytes, int keep, Budget budget) throws IOException {
        Replies.checkMessageId(messageId);
        if (keep < 0 || keep > MAX_KEEP) {
            throw new IllegalArgumentException("keep must be between 0 and " + MAX_KEEP + ", was " + keep);
        }
        if (!budget.take()) {
            return FetchedPart.failed(
                    messageId,
                    FetchedPart.Status.OVER_BUDGET,
                    "the release's budget of " + budget.size() + " articles is spent (HEADWAY_INSPECT_ARTICLES)");
        }
        long maxBytes = limits.bytesFor(postedBytes);
        acquire();
        try {
            return pool.withConnection(c -> {
                YencDecoder decoder = new YencDecoder(keep);
                long bytes = c.body(messageId, maxBytes, limits, decoder::line);
                return bytes < 0
                        ? FetchedPart.failed(
                                messageId,
                                FetchedPart.Status.NO_SUCH_ARTICLE,
                                c.server() + " has no article " + messageId)
                        : FetchedPart.of(messageId, decoder.result(), bytes);
            });
        } catch (MisbehavingServerException e) {
            return FetchedPart.failed(messageId, FetchedPart.Status.REFUSED, e.getMessage());
        } finally {
            permits.release();
        }
    }

    private void acquire() throws IOException {
        try {
            if (!permits.tryAcquire(pool.config().borrowTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
                throw new NntpException(
                        -1,
                        "no body slot free within " + pool.config().borrowTimeout() + " (" + connections
                                + " at once): raise HEADWAY_INSPECT_CONNECTIONS or fetch fewer bodies at once");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a body slot on "
                    + pool.config().server());
        }
    }

    /**
     * The articles one release may still have fetched (HEADWAY_INSPECT_ARTICLES), so a release
     * whose first articles say nothing cannot make the deep index read it whole. Thread-safe.
     */
    public static final class Budget {
        private final int size;
        private final AtomicInteger left;

        Budget(int size) {
            this.size = size;
            this.left = new AtomicInteger(size);
        }

        /** Takes one article; false when none is left. */
        public boolean take() {
            return left.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
        }

        /** Articles left. */
        public int left() {
            return left.get();
        }

        /** Articles taken so far. */
        public int spent() {
            return size - left.get();
        }

        /** The budget's size. */
        public int size() {
            return size;
        }
    }
}
