package headway.nntp;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bounded pool of connections to one server, shared by all callers. Thread-safe.
 *
 * <p>Invariant: at most {@code maxConnections} connections are open or being opened at any time,
 * because a permit is taken before a connection is borrowed or created and given back only when it
 * is returned or discarded. A connection that failed is closed, never handed out again. Idle
 * connections are reused last-in first-out; a dead idle one is found on its first use, which costs
 * one failed command, so {@link #withConnection} retries once on a fresh connection, but only when
 * the connection broke before it read any reply: a reply that broke off midway may already have fed
 * its sink, and a server that broke a bound is not asked again at once.
 */
public final class NntpPool implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NntpPool.class);

    private final Config config;
    private final Semaphore permits;
    private final ConcurrentLinkedDeque<NntpClient> idle = new ConcurrentLinkedDeque<>();
    private volatile boolean closed;

    /**
     * Pool settings, validated on construction.
     *
     * @param maxConnections at most this many connections to the server at once (1..64)
     * @param connectTimeout TCP (and TLS) connect timeout
     * @param readTimeout    socket read timeout per reply line
     * @param borrowTimeout  how long {@link #borrow()} waits for a free slot and for connect retries
     * @param backoffInitial first pause after a failed connect, doubled per failure
     * @param backoffMax     the longest pause between connect attempts
     * @param limits         the bounds every reply must keep
     */
    public record Config(
            NntpServer server,
            int maxConnections,
            Duration connectTimeout,
            Duration readTimeout,
            Duration borrowTimeout,
            Duration backoffInitial,
            Duration backoffMax,
            NntpClient.Limits limits) {
        public Config {
            Objects.requireNonNull(server, "server must be set");
            if (maxConnections < 1 || maxConnections > 64) {
                throw new IllegalArgumentException("maxConnections must be between 1 and 64, was " + maxConnections);
            }
            check("connectTimeout", connectTimeout, Duration.ofMillis(1), Duration.ofMinutes(5));
            check("readTimeout", readTimeout, Duration.ofMillis(1), Duration.ofMinutes(30));
            check("borrowTimeout", borrowTimeout, Duration.ofMillis(1), Duration.ofHours(1));
            check("backoffInitial", backoffInitial, Duration.ofMillis(1), Duration.ofMinutes(1));
            check("backoffMax", backoffMax, backoffInitial, Duration.ofMinutes(10));
            Objects.requireNonNull(limits, "limits must be set");
        }

        /** Settings with the default reply bounds. */
        public Config(
                NntpServer server,
                int maxConnections,
                Duration connectTimeout,
                Duration readTimeout,
                Duration borrowTimeout,
                Duration backoffInitial,
                Duration backoffMax) {
            this(
                    server,
                    maxConnections,
                    connectTimeout,
                    readTimeout,
                    borrowTimeout,
                    backoffInitial,
                    backoffMax,
                    NntpClient.Limits.DEFAULT);
        }

        /** Defaults for a server: 8 connections, 10 s connect, 60 s read, 2 min borrow, backoff 200 ms to 30 s. */
        public static Config defaults(NntpServer server) {
            return new Config(
                    server,
                    8,
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(60),
                    Duration.ofMinutes(2),
                    Duration.ofMillis(200),
                    Duration.ofSeconds(30));
        }

        /** These settings with another maximum number of connections. */
        public Config withMaxConnections(int max) {
            return new Config(
                    server, max, connectTimeout, readTimeout, borrowTimeout, backoffInitial, backoffMax, limits);
        }

        /** These settings for another server. */
        public Config withServer(NntpServer s) {
            return new Config(
                    s, maxConnections, connectTimeout, readTimeout, borrowTimeout, backoffInitial, backoffMax, limits);
        }

        /** These settings with another borrow timeout (the wait for a slot and for connect retries). */
        public Config withBorrowTimeout(Duration d) {
            return new Config(
                    server, maxConnections, connectTimeout, readTimeout, d, backoffInitial, backoffMax, limits);
        }

        /** These settings with other reply bounds. */
        public Config withLimits(NntpClient.Limits l) {
            return new Config(
                    server, maxConnections, connectTimeout, readTimeout, borrowTimeout, backoffInitial, backoffMax, l);
        }

        private static void check(String name, Duration d, Duration min, Duration max) {
            if (d == null || d.compareTo(min) < 0 || d.compareTo(max) > 0) {
                throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", was " + d);
            }
        }
    }

    /** Work done on a borrowed connection. */
    @FunctionalInterface
    public interface NntpWork<T> {
        T apply(NntpClient client) throws IOException;
    }

    public NntpPool(Config config) {
        this.config = Objects.requireNonNull(config, "config must be set");
        this.permits = new Semaphore(config.maxConnections(), true);
    }

    public Config config() {
        return config;
    }

    /**
     * Takes a connection, opening one if none is idle, waiting at most {@code borrowTimeout} for a slot
     * and for connect retries; give it back with {@link #release} or {@link #invalidate}.
     */
    public NntpClient borrow() throws IOException {
        ensureOpen();
        long deadline = System.nanoTime() + config.borrowTimeout().toNanos();
        try {
            if (!permits.tryAcquire(config.borrowTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
                throw new NntpException(
                        -1,
                        "no connection to " + config.server() + " free within "
                                + config.borrowTimeout() + " (maxConnections=" + config.maxConnections()
                                + "): raise maxConnections or borrowTimeout, or return connections sooner");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a connection to " + config.server());
        }
        try {
            NntpClient c;
            while ((c = idle.pollFirst()) != null) {
                if (!c.isBroken()) {
                    return c;
                }
                c.close();
            }
            return connectWithBackoff(deadline);
        } catch (IOException | RuntimeException | Error e) {
            permits.release();
            throw e;
        }
    }

    /** Returns a healthy connection for reuse; a broken one, or any after close, is closed instead. */
    public void release(NntpClient client) {
        if (client == null) {
            return;
        }
        if (closed || client.isBroken()) {
            client.close();
        } else {
            idle.addFirst(client);
            if (closed && idle.remove(client)) {
                client.close();
            }
        }
        permits.release();
    }

    /** Closes a connection that must not be reused and frees its slot. */
    public void invalidate(NntpClient client) {
        if (client == null) {
            return;
        }
        client.close();
        permits.release();
    }

    /**
     * Runs work on a borrowed connection and returns it; if the connection broke before it read a
     * reply (the server dropped it while idle), retries once on a new one.
     */
    public <T> T withConnection(NntpWork<T> work) throws IOException {
        for (int attempt = 1; ; attempt++) {
            NntpClient c = borrow();
            int repliesBefore = c.repliesRead();
            try {
                T result = work.apply(c);
                release(c);
                return result;
            } catch (IOException e) {
                if (brokeBeforeAnyReply(c, repliesBefore, e) && attempt == 1) {
                    log.info(
                            "connection to {} broke ({}), retrying once on a new connection",
                            config.server(),
                            e.toString());
                    invalidate(c);
                    continue;
                }
                release(c);
                throw e;
            } catch (RuntimeException | Error e) {
                release(c);
                throw e;
            }
        }
    }

    /**
     * Whether {@code e} broke a connection before it read any reply since it had read {@code
     * repliesBefore}: the server dropped it while it sat idle in the pool, so the work may be sent
     * again on a new one. A server that broke a reply's bounds is not retried.
     */
    public static boolean brokeBeforeAnyReply(NntpClient c, int repliesBefore, IOException e) {
        return c.isBroken() && c.repliesRead() == repliesBefore && !(e instanceof MisbehavingServerException);
    }

    /** Connections open now: borrowed (or being opened) and idle; at most the configured maximum. */
    public int openConnections() {
        return Math.min(config.maxConnections(), config.maxConnections() - permits.availablePermits() + idle.size());
    }

    /** Whether some caller is waiting in {@link #borrow} for a connection to be given back. */
    public boolean hasWaiters() {
        return permits.hasQueuedThreads();
    }

    /** Number of connections idle in the pool. */
    public int idleCount() {
        return idle.size();
    }

    /** Closes idle connections now and borrowed ones when they come back. */
    @Override
    public void close() {
        closed = true;
        NntpClient c;
        while ((c = idle.pollFirst()) != null) {
            c.close();
        }
    }

    private NntpClient connectWithBackoff(long deadline) throws IOException {
        long pause = config.backoffInitial().toNanos();
        int attempts = 0;
        while (true) {
            ensureOpen();
            attempts++;
            try {
                return NntpClient.connect(
                        config.server(), config.connectTimeout(), config.readTimeout(), config.limits());
            } catch (NntpAuthException | MisbehavingServerException e) {
                throw e;
            } catch (IOException e) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new NntpException(
                            -1,
                            "could not connect to " + config.server() + " in " + attempts + " attempts within "
                                    + config.borrowTimeout() + "; last error: " + e.getMessage(),
                            e);
                }
                long sleep = Math.min(pause, left);
                log.warn(
                        "connect to {} failed (attempt {}), retrying in {} ms: {}",
                        config.server(),
                        attempts,
                        TimeUnit.NANOSECONDS.toMillis(sleep),
                        e.getMessage());
                try {
                    TimeUnit.NANOSECONDS.sleep(sleep);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while reconnecting to " + config.server());
                }
                pause = Math.min(pause * 2, config.backoffMax().toNanos());
            }
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("pool for " + config.server() + " is closed");
        }
    }
}
