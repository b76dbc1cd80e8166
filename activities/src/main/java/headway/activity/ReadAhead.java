package headway.activity;

import headway.nntp.OverviewLine;
import headway.nntp.OverviewSink;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;

/**
 * A range's overview, fetched in batches ahead of the reader over up to {@code depth} connections
 * at once (HEADWAY_NNTP_GROUP_CONNECTIONS) and handed over in article order, so one group can use
 * more of a slow provider's connections than one. Each batch is kept whole in memory (at most
 * {@code depth} batches of overview lines) and is handed over only when its fetch succeeded, so a
 * cursor that follows the batches handed over never passes a failed fetch, and a failed batch
 * gives the reader nothing; the batches fetched after it are dropped. {@code perHeader} runs for
 * every header as it arrives (the indexer's lease check, so a refused renewal stops a fetch at
 * its next header). Closing lets fetches in flight finish on their own (an NNTP reply cannot be
 * cut short without losing its connection) and drops what they bring. The connections come from
 * the source's pool, whose size bounds all groups' fetches together.
 */
public final class ReadAhead implements AutoCloseable {

    private final HeaderSource source;
    private final Executor fetchers;
    private final int depth;
    private final int batchArticles;
    private final String group;
    private final long end;
    private final Runnable perHeader;
    private final ArrayDeque<CompletableFuture<Fetched>> pending = new ArrayDeque<>();
    private long nextFrom;

    /** Starts fetching articles {@code from..end} of {@code group} in batches of {@code batchArticles}, {@code depth} at once. */
    public ReadAhead(
            HeaderSource source,
            Executor fetchers,
            int depth,
            int batchArticles,
            String group,
            long from,
            long end,
            Runnable perHeader) {
        if (depth < 1 || batchArticles < 1) {
            throw new IllegalArgumentException(
                    "read-ahead needs depth >= 1 and batches >= 1 article, were " + depth + ", " + batchArticles);
        }
        this.source = Objects.requireNonNull(source, "source");
        this.fetchers = Objects.requireNonNull(fetchers, "fetchers");
        this.depth = depth;
        this.batchArticles = batchArticles;
        this.group = Objects.requireNonNull(group, "group");
        this.end = end;
        this.perHeader = Objects.requireNonNull(perHeader, "perHeader");
        this.nextFrom = from;
        fill();
    }

    /** Whether a batch is left to hand over. */
    public boolean hasNext() {
        return !pending.isEmpty();
    }

    /** The next batch, once its fetch has succeeded (its failure otherwise); starts the fetch after the last. */
    public Fetched next() throws IOException {
        CompletableFuture<Fetched> first = pending.poll();
        if (first == null) {
            throw new IllegalStateException("read past the end of " + group + " at " + nextFrom);
        }
        try {
            Fetched fetched = first.get();
            fill();
            return fetched;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("stopped while " + group + " was fetched");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(cause);
        }
    }

    @Override
    public void close() {
        pending.clear();
    }

    private void fill() {
        while (pending.size() < depth && nextFrom <= end) {
            long from = nextFrom;
            long to = end - from < batchArticles ? end : from + batchArticles - 1;
            pending.add(CompletableFuture.supplyAsync(() -> fetch(from, to), fetchers));
            nextFrom = to + 1;
        }
    }

    private Fetched fetch(long from, long to) {
        Fetched fetched = new Fetched(to, perHeader);
        try {
            source.fetch(group, from, to, fetched);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return fetched;
    }

    /** One batch's overview as the server sent it (headers, malformed lines, missing runs, in order), to be replayed. */
    public static final class Fetched implements OverviewSink {
        private final long to;
        private final Runnable perHeader;
        private final List<Object> events = new ArrayList<>();
        private long headers;

        Fetched(long to, Runnable perHeader) {
            this.to = to;
            this.perHeader = perHeader;
        }

        /** The batch's last article. */
        public long to() {
            return to;
        }

        /** The well-formed headers in the batch. */
        public long headers() {
            return headers;
        }

        @Override
        public void header(OverviewLine line) {
            perHeader.run();
            events.add(line);
            headers++;
        }

        @Override
        public void malformed(long article, String reason) {
            events.add(new Malformed(article, reason));
        }

        @Override
        public void missing(long fromInclusive, long toInclusive) {
            events.add(new Missing(fromInclusive, toInclusive));
        }

        /** Gives {@code sink} the batch's overview in the order it arrived. */
        public void replay(OverviewSink sink) {
            for (Object e : events) {
                if (e instanceof OverviewLine line) {
                    sink.header(line);
                } else if (e instanceof Malformed m) {
                    sink.malformed(m.article, m.reason);
                } else if (e instanceof Missing m) {
                    sink.missing(m.from, m.to);
                }
            }
        }

        private record Malformed(long article, String reason) {}

        private record Missing(long from, long to) {}
    }
}
