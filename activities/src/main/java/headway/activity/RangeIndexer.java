package headway.activity;

import headway.index.CompletedBinary;
import headway.nntp.OverviewLine;
import headway.nntp.OverviewSink;
import headway.store.CatalogStore;
import headway.store.LeaseLostException;
import headway.store.LeaseStore;
import headway.store.RangeRow;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Indexes a range in batches: fetch a batch of overview headers into the group's window, then in
 * one fenced transaction write the binaries that left the window, record the articles missing on
 * the server, and move the range's cursor past the batch. A failed fetch moves nothing, so no
 * article is skipped. A failure after the window has given up binaries but before they committed
 * loses the window (those binaries exist nowhere else), so it is reported as {@link WindowLostException}
 * and the group is taken again from its snapshot; a stale epoch stays {@link LeaseLostException},
 * because the window then belongs to no one and the workflow must hear who holds the group now.
 */
public final class RangeIndexer {

    /** Called after each committed batch with the new cursor and running totals. */
    @FunctionalInterface
    public interface Progress {
        void committed(long cursor, long headers, long missing, long malformed);
    }

    /** What indexing the range did. */
    public record Outcome(long cursor, long headers, long missing, long malformed, boolean finished) {
    }

    private final HeaderSource source;
    private final LeaseStore leases;
    private final CatalogStore catalog;
    private final int batchArticles;
    private final IndexMetrics metrics;

    public RangeIndexer(HeaderSource source, LeaseStore leases, CatalogStore catalog, int batchArticles, IndexMetrics metrics) {
        this.source = Objects.requireNonNull(source, "source");
        this.leases = Objects.requireNonNull(leases, "leases");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        if (batchArticles < 1) {
            throw new IllegalArgumentException("batch must be >= 1 article, was " + batchArticles);
        }
        this.batchArticles = batchArticles;
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /** Indexes {@code range} from {@code from} to its end, then marks it done. */
    public Outcome index(Holdings.Held held, RangeRow range, long from, long headersBefore, long missingBefore,
                         long malformedBefore, Progress progress) throws IOException {
        long cursor = Math.max(from, range.next());
        long headers = headersBefore;
        long missing = missingBefore;
        long malformed = malformedBefore;
        while (cursor <= range.end()) {
            long batchEnd = Math.min(range.end(), cursor + batchArticles - 1);
            Batch batch = new Batch(held);
            try {
                source.fetch(range.group(), cursor, batchEnd, batch);
            } catch (IOException e) {
                metrics.nntpErrors.increment();
                throw e;
            }
            held.window().ageTo(batchEnd);
            List<CompletedBinary> done = held.window().drain();
            long next = batchEnd + 1;
            try {
                leases.fenced(held.holder(), "committing articles " + cursor + ".." + batchEnd + " of " + range.group(), c -> {
                    catalog.writeBinaries(c, done);
                    catalog.recordMissing(c, range.group(), batch.missing);
                    leases.advance(c, held.holder(), range.id(), next);
                    return null;
                });
            } catch (LeaseLostException e) {
                throw e;
            } catch (RuntimeException e) {
                if (done.isEmpty()) {
                    throw e;
                }
                throw new WindowLostException(range.group(), held.holder().epoch(), done.size(), e);
            }
            held.cursor = next;
            headers += batch.headers;
            missing += batch.missingArticles;
            malformed += batch.malformed;
            metrics.headers.increment(batch.headers);
            metrics.missing.increment(batch.missingArticles);
            metrics.malformed.increment(batch.malformed);
            metrics.binariesWritten.increment(done.size());
            cursor = next;
            progress.committed(cursor, headers, missing, malformed);
        }
        boolean finished = leases.rangeDone(held.holder(), range.id(), headers);
        if (finished) {
            metrics.rangesIndexed.increment();
        }
        return new Outcome(cursor, headers, missing, malformed, finished);
    }

    /** Feeds a batch's headers into the window and collects what the cursor moves over without a header. */
    private static final class Batch implements OverviewSink {
        private final Holdings.Held held;
        final List<long[]> missing = new ArrayList<>();
        long headers;
        long missingArticles;
        long malformed;

        Batch(Holdings.Held held) {
            this.held = held;
        }

        @Override
        public void header(OverviewLine line) {
            held.window().accept(line, held.rules);
            headers++;
        }

        @Override
        public void malformed(long article, String reason) {
            malformed++;
            if (article >= 0) {
                addMissing(article, article);
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
                missing.add(new long[]{from, to});
            }
        }
    }
}
