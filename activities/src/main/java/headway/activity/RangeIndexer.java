package headway.activity;

import headway.catalog.CatalogStore;
import headway.catalog.MissStore;
import headway.coordination.Fence;
import headway.coordination.GroupStore;
import headway.coordination.RangeRow;
import headway.coordination.RangeStore;
import headway.index.CompletedBinary;
import headway.index.Misses;
import headway.index.RejectedArticle;
import headway.nntp.MisbehavingServerException;
import headway.nntp.OverviewSink;
import headway.overview.OverviewLine;
import headway.store.LeaseLostException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * Indexes a range in batches: fetch a batch of overview headers into the group's window, then in
 * one fenced transaction write the binaries that left the window, record the articles missing on
 * the server, and move the range's cursor past the batch. A failed fetch moves nothing, so no
 * article is skipped. A failure after the window has given up binaries but before they committed
 * loses the window (those binaries exist nowhere else), so it is reported as {@link WindowLostException}
 * and the group is taken again from its snapshot; a stale epoch stays {@link LeaseLostException},
 * because the window then belongs to no one and the workflow must hear who holds the group now.
 * A batch is fetched in pieces of at most {@link #MAX_PIECE} articles, one overview command each,
 * ahead of the window ({@link ReadAhead}); a batch's pieces reach the window in order only when all
 * of them have arrived: a fetch that fails (the server dropped the connection or broke a reply
 * bound) feeds the window nothing of its batch and commits nothing, so the cursor stays at the
 * batch's start.
 * A header the catalog cannot take (see {@link headway.index.Poison}), one the window failed to
 * read, a malformed overview line, and each article of a binary the catalog refused go into the
 * {@code rejected_articles} ledger in the same transaction that moves the cursor over them, so a
 * poison article is recorded once and never stops the group. The headers nothing
 * cataloged are counted with the batch's commit ({@link MissStore}).
 * A lease renewal refused while a batch is fetched ({@link LeaseKeeper}) stops the batch at its
 * next header with that LeaseLost: nothing of the batch is written.
 * A progress report that fails (the activity's heartbeat timed out, it was cancelled, or the
 * worker is shutting down) stops the range at the next batch boundary, after the commit in flight,
 * because throwing at once would lose the binaries the window has just given up for the next
 * commit; the window is then whole at the cursor, so a snapshot of it loses nothing.
 */
public final class RangeIndexer {

    /** Called after each committed batch with the new cursor and running totals. */
    @FunctionalInterface
    public interface Progress {
        void committed(long cursor, long headers, long missing, long malformed);
    }

    /** What indexing the range did. */
    public record Outcome(long cursor, long headers, long missing, long malformed, boolean finished) {}

    /**
     * The most articles one overview command asks for. A batch commits in one transaction, and the
     * fewer the transactions the less each header costs PostgreSQL (the cursor, the missing runs,
     * the misses and the releases are written once a batch), but it is fetched in pieces, so that
     * what the read-ahead holds and what a distant provider's link waits for per command stay as
     * they were measured with batches of this size ({@code bench provider}).
     */
    public static final int MAX_PIECE = 5_000;

    private final HeaderSource source;
    private final Fence fence;
    private final RangeStore ranges;
    private final CatalogStore catalog;
    private final int batchArticles;
    private final int pieceArticles;
    private final int readAhead;
    private final IndexMetrics metrics;
    private final Executor writer = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "catalog-writer");
        t.setDaemon(true);
        return t;
    });
    private final Executor fetchers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "overview-fetch");
        t.setDaemon(true);
        return t;
    });

    /** An indexer that fetches over one connection at a time ahead of the window. */
    public RangeIndexer(
            HeaderSource source,
            Fence fence,
            RangeStore ranges,
            CatalogStore catalog,
            int batchArticles,
            IndexMetrics metrics) {
        this(source, fence, ranges, catalog, batchArticles, 1, metrics);
    }

    /**
     * An indexer that fetches a range's batches ahead of the window over up to {@code readAhead}
     * connections from the source's pool at once (HEADWAY_NNTP_GROUP_CONNECTIONS), each keeping
     * its next batch asked for while it reads one where the source pipelines (see {@link ReadAhead}).
     */
    public RangeIndexer(
            HeaderSource source,
            Fence fence,
            RangeStore ranges,
            CatalogStore catalog,
            int batchArticles,
            int readAhead,
            IndexMetrics metrics) {
        this(source, fence, ranges, catalog, batchArticles, readAhead, MAX_PIECE, metrics);
    }

    /** As above, with pieces of at most {@code maxPiece} articles (tests use small ones). */
    RangeIndexer(
            HeaderSource source,
            Fence fence,
            RangeStore ranges,
            CatalogStore catalog,
            int batchArticles,
            int readAhead,
            int maxPiece,
            IndexMetrics metrics) {
        if (readAhead < 1) {
            throw new IllegalArgumentException("read-ahead must be >= 1 batch, was " + readAhead);
        }
        this.readAhead = readAhead;
        this.source = Objects.requireNonNull(source, "source");
        this.fence = Objects.requireNonNull(fence, "fence");
        this.ranges = Objects.requireNonNull(ranges, "ranges");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        if (batchArticles < 1) {
            throw new IllegalArgumentException("batch must be >= 1 article, was " + batchArticles);
        }
        this.batchArticles = batchArticles;
        this.pieceArticles = pieceArticles(batchArticles, maxPiece);
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /**
     * Indexes {@code range} from {@code from} to its end, then marks it done. The next batches are
     * fetched ahead ({@link ReadAhead}) while the window takes batch k+1 and batch k commits on the
     * writer thread, because fetching, assembling and writing then keep the news server, the CPU
     * and the database busy at once; at most one commit is in flight, and the cursor, counters
     * and progress move only when a commit has succeeded.
     */
    public Outcome index(
            Holdings.Held held,
            RangeRow range,
            long from,
            long headersBefore,
            long missingBefore,
            long malformedBefore,
            Progress listener)
            throws IOException {
        if (range.end() > GroupStore.MAX_ARTICLE) {
            throw new IllegalArgumentException("range [" + range.start() + ".." + range.end() + "] of " + range.group()
                    + " ends past article " + GroupStore.MAX_ARTICLE
                    + ", which no server reaches: remove the group's ranges and plan it again");
        }
        Totals totals =
                new Totals(Math.max(1, Math.max(from, range.next())), headersBefore, missingBefore, malformedBefore);
        long cursor = totals.cursor;
        Reports progress = new Reports(listener);
        try (ReadAhead ahead = new ReadAhead(
                source, fetchers, readAhead, pieceArticles, range.group(), cursor, range.end(), held::checkLease)) {
            return index(held, range, totals, cursor, progress, ahead);
        }
    }

    private Outcome index(
            Holdings.Held held, RangeRow range, Totals totals, long cursor, Reports progress, ReadAhead ahead)
            throws IOException {
        Commit inFlight = null;
        while (cursor <= range.end()) {
            if (progress.failure != null) {
                finish(inFlight, List.of(), held, range, totals, progress);
                throw progress.failure;
            }
            if (Thread.currentThread().isInterrupted()) {
                finish(inFlight, List.of(), held, range, totals, progress);
                throw new InterruptedIOException("worker stopping: " + range.group() + " stopped at article "
                        + totals.cursor + ", the batches before it committed");
            }
            held.checkLease();
            long reach = Math.min(range.end(), cursor + batchArticles - 1);
            List<ReadAhead.Fetched> pieces = new ArrayList<>();
            try {
                while (pieces.isEmpty() || pieces.get(pieces.size() - 1).to() < reach) {
                    pieces.add(ahead.next());
                }
            } catch (IOException e) {
                metrics.nntpErrors.increment();
                if (e instanceof MisbehavingServerException) {
                    metrics.nntpMisbehaved.increment();
                }
                finish(inFlight, List.of(), held, range, totals, progress);
                throw e;
            }
            Batch batch = new Batch(held, cursor);
            for (ReadAhead.Fetched piece : pieces) {
                piece.replay(batch);
                held.window().ageTo(piece.to());
            }
            long batchEnd = pieces.get(pieces.size() - 1).to();
            List<CompletedBinary> done = held.window().drain();
            batch.rejected.addAll(held.window().drainRejected());
            Map<String, String> longNames = held.window().drainLongNames();
            batch.misses = held.window().drainMisses();
            finish(inFlight, done, held, range, totals, progress);
            inFlight = new Commit(
                    batch,
                    done,
                    batchEnd + 1,
                    CompletableFuture.supplyAsync(
                            () -> commit(held, range, batch, done, longNames, batchEnd + 1), writer));
            cursor = batchEnd + 1;
        }
        finish(inFlight, List.of(), held, range, totals, progress);
        if (progress.failure != null) {
            throw progress.failure;
        }
        boolean finished = ranges.rangeDone(held.holder(), range.id(), totals.headers);
        if (finished) {
            metrics.rangesIndexed.increment();
        }
        return new Outcome(totals.cursor, totals.headers, totals.missing, totals.malformed, finished);
    }

    /**
     * One batch's write: binaries that left the window, missing runs and the cursor, in one fenced
     * transaction; returns how many articles of binaries the catalog refused went to the ledger.
     */
    private int commit(
            Holdings.Held held,
            RangeRow range,
            Batch batch,
            List<CompletedBinary> done,
            Map<String, String> longNames,
            long next) {
        return fence.run(held.holder(), "committing articles up to " + (next - 1) + " of " + range.group(), c -> {
            catalog.recordLongNames(c, longNames);
            int refused = catalog.writeBinaries(c, done, held.rules.categories(), held.rules.version())
                    .size();
            catalog.recordMissing(c, range.group(), batch.from, next - 1, batch.missing);
            catalog.recordRejected(c, batch.rejected);
            MissStore.record(c, range.group(), range.id(), next - 1, batch.misses);
            ranges.advance(c, held.holder(), range.id(), next);
            return refused;
        });
    }

    /**
     * Waits for the commit in flight and accounts for it. When it failed, binaries that left the
     * window since (in that batch or in {@code drainedSince}) exist nowhere else, so the window is
     * lost; a stale epoch stays LeaseLost.
     */
    private void finish(
            Commit commit,
            List<CompletedBinary> drainedSince,
            Holdings.Held held,
            RangeRow range,
            Totals totals,
            Progress progress) {
        if (commit == null) {
            return;
        }
        int refused;
        try {
            refused = commit.future.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof LeaseLostException lost) {
                throw lost;
            }
            RuntimeException failure = cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
            int lostBinaries = commit.done.size() + drainedSince.size();
            if (lostBinaries == 0) {
                throw failure;
            }
            throw new WindowLostException(range.group(), held.holder().epoch(), lostBinaries, failure);
        }
        held.cursor = commit.next;
        held.touch();
        totals.cursor = commit.next;
        totals.headers += commit.batch.headers;
        totals.missing += commit.batch.missingArticles;
        totals.malformed += commit.batch.malformed;
        metrics.headers.increment((double) commit.batch.headers);
        metrics.missing.increment((double) commit.batch.missingArticles);
        metrics.malformed.increment((double) commit.batch.malformed);
        metrics.rejected.increment(commit.batch.rejected.size() + refused);
        metrics.binariesWritten.increment(commit.done.size());
        metrics.missed(range.group(), commit.batch.misses);
        progress.committed(totals.cursor, totals.headers, totals.missing, totals.malformed);
    }

    /** Passes progress on, keeping the first report that failed instead of throwing it between a drain and its commit. */
    private static final class Reports implements Progress {
        private final Progress progress;
        RuntimeException failure;

        Reports(Progress progress) {
            this.progress = progress;
        }

        @Override
        public void committed(long cursor, long headers, long missing, long malformed) {
            if (failure != null) {
                return;
            }
            try {
                progress.committed(cursor, headers, missing, malformed);
            } catch (RuntimeException e) {
                failure = e;
            }
        }
    }

    /** A batch being committed on the writer thread. */
    private record Commit(Batch batch, List<CompletedBinary> done, long next, CompletableFuture<Integer> future) {}

    /**
     * The articles per overview command for batches of {@code batchArticles}: the batch in equal
     * pieces of at most {@link #MAX_PIECE} (a batch of 20,000 in 4 of 5,000). When the pieces cannot
     * be equal, the last piece of a batch ends past it, and the batch with it (9,999 in 2 of 5,000).
     */
    public static int pieceArticles(int batchArticles) {
        return pieceArticles(batchArticles, MAX_PIECE);
    }

    static int pieceArticles(int batchArticles, int maxPiece) {
        if (batchArticles < 1 || maxPiece < 1) {
            throw new IllegalArgumentException(
                    "batches and pieces must be >= 1 article, were " + batchArticles + " and " + maxPiece);
        }
        int pieces = (batchArticles + maxPiece - 1) / maxPiece;
        return (batchArticles + pieces - 1) / pieces;
    }

    /** The range's committed cursor and running counts. */
    private static final class Totals {
        long cursor;
        long headers;
        long missing;
        long malformed;

        Totals(long cursor, long headers, long missing, long malformed) {
            this.cursor = cursor;
            this.headers = headers;
            this.missing = missing;
            this.malformed = malformed;
        }
    }

    /** Feeds a batch's headers into the window and collects what the cursor moves over without a header. */
    private static final class Batch implements OverviewSink {
        private final Holdings.Held held;
        /** The batch's first article. */
        final long from;

        final List<long[]> missing = new ArrayList<>();
        final List<RejectedArticle> rejected = new ArrayList<>();
        Misses misses = new Misses();
        long headers;
        long missingArticles;
        long malformed;

        Batch(Holdings.Held held, long from) {
            this.held = held;
            this.from = from;
        }

        @Override
        public void header(OverviewLine line) {
            held.checkLease();
            held.window().accept(line, held.rules);
            headers++;
        }

        @Override
        public void malformed(long article, String reason) {
            malformed++;
            if (article >= 0) {
                addMissing(article, article);
                rejected.add(new RejectedArticle(
                        held.window().group(), article, null, "malformed overview line: " + reason, ""));
            }
        }

        @Override
        public void missing(long fromInclusive, long toInclusive) {
            missingArticles += toInclusive - fromInclusive + 1;
            addMissing(fromInclusive, toInclusive);
        }

        private void addMissing(long from, long to) {
            if (!missing.isEmpty() && missing.get(missing.size() - 1)[1] + 1 == from) {
                missing.get(missing.size() - 1)[1] = to;
            } else {
                missing.add(new long[] {from, to});
            }
        }
    }
}
