package headway.activity;

import headway.nntp.OverviewSink;
import headway.overview.OverviewLine;
import java.io.IOException;
import java.io.InterruptedIOException;
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
 * more of a slow provider's connections than one. Each connection is a {@link HeaderSource.Pipeline}
 * that takes the next batch not yet taken and may ask for it while the reply before it is still
 * arriving, so a distant server does not leave it idle a round trip between batches. At most
 * {@code depth} x {@link #PER_CONNECTION} batches are asked for and not handed over (each kept whole in
 * memory), and a batch is handed over only when its fetch succeeded, so a cursor that follows the
 * batches handed over never passes a failed fetch, and a failed batch gives the reader nothing; it
 * ends the read-ahead, and the batches after it are dropped. {@code perHeader} runs for every header
 * as it arrives (the indexer's lease check, so a refused renewal stops a fetch at its next header).
 * Closing lets fetches in flight finish on their own (an NNTP reply cannot be cut short without
 * losing its connection) and drops what they bring. The connections come from the source's pool,
 * whose size bounds all groups' fetches together; a connection is held while it has batches to
 * fetch and given back when none is left to take.
 */
public final class ReadAhead implements AutoCloseable {

    /**
     * Batches asked for and not handed over, per connection: the one the reader is about to take,
     * the one arriving, and the one asked for behind it. With two, a connection that finishes a
     * batch would find the next one's place taken by the batch the reader has not taken yet, and
     * would read its next reply with nothing asked for behind it.
     */
    static final int PER_CONNECTION = 3;

    private final HeaderSource source;
    private final Executor fetchers;
    private final int depth;
    private final int batchArticles;
    private final String group;
    private final long end;
    private final Runnable perHeader;
    /** The batches asked for or to be, in article order; only the reader's thread touches it. */
    private final ArrayDeque<Batch> pending = new ArrayDeque<>();
    /** Batches no connection has taken yet, in article order. */
    private final ArrayDeque<Batch> untaken = new ArrayDeque<>(); // guarded by this

    private int connections; // guarded by this
    private boolean closed; // guarded by this
    private long nextFrom;

    /** Starts fetching articles {@code from..end} of {@code group} in batches of {@code batchArticles}, over up to {@code depth} connections. */
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

    /** The next batch, once its fetch has succeeded (its failure otherwise, which ends the read-ahead); asks for the batch after the last. */
    public Fetched next() throws IOException {
        Batch first = pending.poll();
        if (first == null) {
            throw new IllegalStateException("read past the end of " + group + " at " + nextFrom);
        }
        Fetched fetched;
        try {
            fetched = first.result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new InterruptedIOException("stopped while " + group + " was fetched");
        } catch (ExecutionException e) {
            close();
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
        fill();
        return fetched;
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            untaken.clear();
        }
        pending.clear();
    }

    /** Adds batches up to the bound, and starts a connection for each one left untaken while fewer than {@code depth} run. */
    private void fill() {
        List<Batch> starts = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                return;
            }
            while (pending.size() < depth * PER_CONNECTION && nextFrom <= end) {
                long from = nextFrom;
                long to = end - from < batchArticles ? end : from + batchArticles - 1;
                Batch b = new Batch(from, to);
                pending.add(b);
                untaken.add(b);
                nextFrom = to + 1;
            }
            while (connections < depth && !untaken.isEmpty()) {
                connections++;
                starts.add(untaken.poll());
            }
        }
        for (Batch first : starts) {
            fetchers.execute(() -> connection(first));
        }
    }

    /**
     * One connection's work: fetches {@code first}, then takes the next untaken batches as long as
     * there are any, keeping up to the pipeline's {@code ahead()} asked for at once; leaves when it
     * has none in flight and none is left to take, or on the first failure, which every batch it
     * had asked for gets. When others wait for a connection of the shared pool, it asks for nothing
     * more, gives its connection back once its replies are in, and queues for one again (the pool
     * is fair), so groups take turns batch by batch as they did when every batch borrowed anew.
     */
    private void connection(Batch first) {
        ArrayDeque<Batch> inFlight = new ArrayDeque<>();
        inFlight.add(first);
        HeaderSource.Pipeline pipe = null;
        try {
            pipe = source.pipeline(group);
            pipe.send(first.from, first.to);
            while (true) {
                // another group waits for a connection: finish what was asked for, then queue again
                boolean yielding = pipe.othersWaiting();
                while (!yielding && inFlight.size() < pipe.ahead()) {
                    Batch b = take(false);
                    if (b == null) {
                        break;
                    }
                    inFlight.add(b);
                    pipe.send(b.from, b.to);
                }
                Batch b = inFlight.peek();
                if (b == null) {
                    b = take(true);
                    if (b == null) {
                        return; // left: take(true) gave up this connection's place
                    }
                    inFlight.add(b);
                    if (yielding) {
                        HeaderSource.Pipeline given = pipe;
                        pipe = null;
                        given.close();
                        pipe = source.pipeline(group);
                    }
                    pipe.send(b.from, b.to);
                    continue;
                }
                Fetched fetched = new Fetched(b.to, perHeader);
                pipe.receive(b.from, b.to, fetched);
                inFlight.poll();
                b.result.complete(fetched);
            }
        } catch (Throwable e) {
            synchronized (this) {
                connections--;
            }
            for (Batch b : inFlight) {
                b.result.completeExceptionally(e);
            }
        } finally {
            if (pipe != null) {
                pipe.close();
            }
        }
    }

    /**
     * The next untaken batch, or null; with {@code orLeave}, a null also gives up the caller's place
     * among the connections, under the same lock as {@link #fill} adds batches, so no batch is
     * added after a connection found none and before it left.
     */
    private synchronized Batch take(boolean orLeave) {
        Batch b = closed ? null : untaken.poll();
        if (b == null && orLeave) {
            connections--;
        }
        return b;
    }

    /** A batch's articles and, once fetched, its overview or the failure that stopped it. */
    private static final class Batch {
        final long from;
        final long to;
        final CompletableFuture<Fetched> result = new CompletableFuture<>();

        Batch(long from, long to) {
            this.from = from;
            this.to = to;
        }
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
