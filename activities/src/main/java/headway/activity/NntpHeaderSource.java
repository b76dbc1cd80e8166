package headway.activity;

import headway.nntp.GroupInfo;
import headway.nntp.NntpClient;
import headway.nntp.NntpPool;
import headway.nntp.OverviewSink;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Headers from an NNTP server, over the worker's pool shared by all the groups it holds. */
public final class NntpHeaderSource implements HeaderSource {
    private static final Logger log = LoggerFactory.getLogger(NntpHeaderSource.class);

    /** OVER commands a pipeline keeps on the wire: the one being read and one behind it. */
    static final int PIPELINE_DEPTH = 2;

    private final NntpPool pool;
    /**
     * Commands a pipeline keeps on the wire; drops to 1 for good once a connection fails while it
     * had a command sent ahead, so that a server that cannot take pipelined commands (whatever RFC
     * 3977 says) fails one fetch, which is retried, rather than every fetch.
     */
    private volatile int ahead;

    /** Pipelining OVER (HEADWAY_NNTP_PIPELINE's default). */
    public NntpHeaderSource(NntpPool pool) {
        this(pool, true);
    }

    /** With {@code pipeline} false, each OVER waits for the reply before it (HEADWAY_NNTP_PIPELINE=false). */
    public NntpHeaderSource(NntpPool pool, boolean pipeline) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.ahead = pipeline ? PIPELINE_DEPTH : 1;
    }

    /** One range over a pipeline of one command: the same group selection and stale-connection retry. */
    @Override
    public void fetch(String group, long from, long to, OverviewSink sink) throws IOException {
        try (Pipeline pipe = pipeline(group)) {
            pipe.send(from, to);
            pipe.receive(from, to, sink);
        }
    }

    @Override
    public GroupInfo group(String group) throws IOException {
        return pool.withConnection(client -> client.group(group));
    }

    /** Whether pipelines send a command ahead of the reply before it (until a server failed one). */
    public boolean pipelines() {
        return ahead > 1;
    }

    /**
     * OVER commands pipelined on one pooled connection ({@link NntpClient#sendOver}): up to two on
     * the wire, the second sent once the connection has answered one (until then OVER may turn out
     * to need XOVER, so it waits). A connection that broke before its first reply (the server
     * dropped it while it was idle in the pool) is replaced once and the ranges sent again, as
     * {@link NntpPool#withConnection} does for a single fetch.
     */
    @Override
    public Pipeline pipeline(String group) throws IOException {
        return new NntpPipeline(group);
    }

    private final class NntpPipeline implements Pipeline {
        private final String group;
        /** Ranges sent and not yet received, oldest first; the first {@code client.unreadReplies()} of them are on its wire. */
        private final ArrayDeque<long[]> owed = new ArrayDeque<>();

        private NntpClient client;
        private int repliesAtOpen;
        private boolean replaced;

        NntpPipeline(String group) throws IOException {
            this.group = group;
            open();
        }

        @Override
        public int ahead() {
            return ahead;
        }

        @Override
        public void send(long from, long to) throws IOException {
            owed.add(new long[] {from, to});
            try {
                topUp();
            } catch (IOException e) {
                replaceIfStale(e);
                topUp();
            }
        }

        @Override
        public void receive(long from, long to, OverviewSink sink) throws IOException {
            long[] head = owed.peek();
            if (head == null || head[0] != from || head[1] != to) {
                throw new IllegalStateException("received " + from + "-" + to + " out of the order sent");
            }
            while (true) {
                topUp();
                boolean sentAhead = client.unreadReplies() > 1;
                try {
                    client.receiveOver(from, to, sink);
                    break;
                } catch (IOException e) {
                    if (sentAhead && client.repliesRead() > repliesAtOpen) {
                        stopPipelining(e);
                    }
                    replaceIfStale(e);
                }
            }
            owed.poll();
            topUp();
        }

        @Override
        public boolean othersWaiting() {
            return pool.hasWaiters();
        }

        @Override
        public void close() {
            if (client == null) {
                return;
            }
            if (client.unreadReplies() > 0) {
                pool.invalidate(client);
            } else {
                pool.release(client);
            }
            client = null;
        }

        /** Sends one command at a time from now on, on every connection of this source. */
        private void stopPipelining(IOException e) {
            if (ahead > 1) {
                ahead = 1;
                log.warn(
                        "{} failed a reply while another command was sent ahead ({}); sending one command at a time"
                                + " from now on (set HEADWAY_NNTP_PIPELINE=false to start that way)",
                        pool.config().server(),
                        e.toString());
            }
        }

        /** Rethrows {@code e} unless the connection broke before any reply, the first time: then opens a new one. */
        private void replaceIfStale(IOException e) throws IOException {
            if (!NntpPool.brokeBeforeAnyReply(client, repliesAtOpen, e) || replaced) {
                throw e;
            }
            log.info(
                    "connection to {} broke ({}), sending {} again on a new connection",
                    pool.config().server(),
                    e,
                    group);
            replaced = true;
            pool.invalidate(client);
            client = null;
            open();
        }

        /** Sends the owed ranges not on the wire yet, as far as the connection allows. */
        private void topUp() throws IOException {
            Iterator<long[]> next = owed.iterator();
            for (int i = 0; i < client.unreadReplies(); i++) {
                next.next();
            }
            while (next.hasNext() && (client.unreadReplies() == 0 || client.pipelinesOver())) {
                long[] r = next.next();
                client.sendOver(r[0], r[1]);
            }
        }

        private void open() throws IOException {
            for (int attempt = 1; ; attempt++) {
                NntpClient c = pool.borrow();
                int before = c.repliesRead();
                try {
                    // a pooled connection that has this group selected already saves a round trip
                    if (!group.equals(c.selectedGroup())) {
                        c.group(group);
                    }
                    client = c;
                    repliesAtOpen = c.repliesRead();
                    return;
                } catch (IOException e) {
                    if (NntpPool.brokeBeforeAnyReply(c, before, e) && attempt == 1) {
                        pool.invalidate(c);
                        continue;
                    }
                    pool.release(c);
                    throw e;
                } catch (RuntimeException | Error e) {
                    pool.release(c);
                    throw e;
                }
            }
        }
    }
}
