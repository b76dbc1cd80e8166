package headway.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A loopback TCP proxy that makes a slow link of a fast one, for the provider benchmark (netem is
 * not available on these machines). Every accepted connection opens its own connection to the
 * target; each direction of each connection delays every chunk by half the round-trip time and
 * then lets it through a token bucket of the configured bandwidth, so the caps are per connection
 * as a provider's are. What is in flight in one direction is bounded (twice the bandwidth-delay
 * product plus a little), as a TCP window would bound it. The bytes passed in each direction, over
 * all connections, are counted, which gives the wire bytes per header.
 */
public final class SlowLink implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SlowLink.class);
    /** Largest chunk one read hands on; small enough that the bucket releases it smoothly. */
    static final int CHUNK = 16 * 1024;

    private final InetSocketAddress target;
    private final long oneWayNanos;
    private final double bytesPerSecond;
    private final int queueChunks;
    private final ServerSocket serverSocket;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicLong toTarget = new AtomicLong();
    private final AtomicLong fromTarget = new AtomicLong();
    private final Thread acceptor;
    private volatile boolean closed;

    private SlowLink(InetSocketAddress target, Duration rtt, double bitsPerSecond) throws IOException {
        if (rtt.isNegative()) {
            throw new IllegalArgumentException("rtt must be zero or positive, was " + rtt);
        }
        if (!(bitsPerSecond > 0)) {
            throw new IllegalArgumentException("bandwidth must be positive, was " + bitsPerSecond + " bit/s");
        }
        this.target = target;
        this.oneWayNanos = rtt.toNanos() / 2;
        this.bytesPerSecond = bitsPerSecond / 8;
        double bdp = bytesPerSecond * rtt.toNanos() / 1e9;
        this.queueChunks = (int) Math.min(4096, 16 + Math.ceil(2 * bdp / CHUNK));
        this.serverSocket = new ServerSocket();
        serverSocket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        this.acceptor = new Thread(this::acceptLoop, "slow-link-accept-" + serverSocket.getLocalPort());
        acceptor.setDaemon(true);
    }

    /**
     * Starts a proxy on an ephemeral loopback port in front of {@code host:port}.
     *
     * @param rtt           round-trip time added (half in each direction)
     * @param bitsPerSecond bandwidth of each direction of each connection
     */
    public static SlowLink start(String host, int port, Duration rtt, double bitsPerSecond) throws IOException {
        SlowLink link = new SlowLink(new InetSocketAddress(host, port), rtt, bitsPerSecond);
        link.acceptor.start();
        return link;
    }

    public int port() {
        return serverSocket.getLocalPort();
    }

    /** Bytes passed from the clients to the target so far, over all connections. */
    public long bytesToTarget() {
        return toTarget.get();
    }

    /** Bytes passed from the target to the clients so far, over all connections. */
    public long bytesFromTarget() {
        return fromTarget.get();
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(serverSocket);
        sockets.forEach(SlowLink::closeQuietly);
        sockets.clear();
        try {
            acceptor.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = serverSocket.accept();
            } catch (IOException e) {
                if (!closed) {
                    log.warn("slow link on port {}: accept failed, continuing: {}", port(), e.toString());
                }
                continue;
            }
            sockets.add(client);
            Socket upstream = new Socket();
            try {
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                upstream.connect(target, 5000);
            } catch (IOException e) {
                log.warn("slow link on port {}: cannot reach {}: {}", port(), target, e.toString());
                closeQuietly(client);
                closeQuietly(upstream);
                sockets.remove(client);
                continue;
            }
            sockets.add(upstream);
            AtomicInteger open = new AtomicInteger(2);
            new Direction(client, upstream, toTarget, "up", open).start();
            new Direction(upstream, client, fromTarget, "down", open).start();
        }
    }

    /** One direction of one connection: a reader that stamps chunks, a writer that delays and paces them. */
    private final class Direction {
        private final Socket from;
        private final Socket to;
        private final AtomicLong counter;
        private final String name;
        /** Directions of this connection still open; the last one to end closes both sockets. */
        private final AtomicInteger open;

        private final BlockingQueue<Chunk> queue = new ArrayBlockingQueue<>(queueChunks);

        Direction(Socket from, Socket to, AtomicLong counter, String name, AtomicInteger open) {
            this.from = from;
            this.to = to;
            this.counter = counter;
            this.name = name;
            this.open = open;
        }

        void start() {
            String id = "slow-link-" + name + "-" + from.getPort();
            Thread reader = new Thread(this::read, id + "-read");
            Thread writer = new Thread(this::write, id + "-write");
            reader.setDaemon(true);
            writer.setDaemon(true);
            reader.start();
            writer.start();
        }

        private void read() {
            byte[] buf = new byte[CHUNK];
            try {
                InputStream in = from.getInputStream();
                for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                    if (n > 0) {
                        queue.put(new Chunk(Arrays.copyOf(buf, n), System.nanoTime() + oneWayNanos, false));
                    }
                }
            } catch (IOException e) {
                log.debug("slow link {} read ended: {}", name, e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                queue.put(new Chunk(new byte[0], System.nanoTime() + oneWayNanos, true));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void write() {
            // Token bucket: credit in bytes, refilled at bytesPerSecond, at most one chunk's worth.
            double credit = CHUNK;
            long refilled = System.nanoTime();
            try {
                OutputStream out = to.getOutputStream();
                while (true) {
                    Chunk c = queue.take();
                    if (c.eof) {
                        sleepUntil(c.due);
                        to.shutdownOutput();
                        end();
                        return;
                    }
                    sleepUntil(c.due);
                    long now = System.nanoTime();
                    credit = Math.min(CHUNK, credit + (now - refilled) / 1e9 * bytesPerSecond);
                    refilled = now;
                    if (credit < c.bytes.length) {
                        long wait = (long) ((c.bytes.length - credit) / bytesPerSecond * 1e9);
                        sleepUntil(now + wait);
                        now = System.nanoTime();
                        credit += (now - refilled) / 1e9 * bytesPerSecond;
                        refilled = now;
                    }
                    credit -= c.bytes.length;
                    out.write(c.bytes);
                    out.flush();
                    counter.addAndGet(c.bytes.length);
                }
            } catch (IOException e) {
                log.debug("slow link {} write ended: {}", name, e.toString());
                open.set(1);
                end();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** This direction is done; when the other is too (or failed), closes the connection. */
        private void end() {
            if (open.decrementAndGet() <= 0) {
                closeQuietly(from);
                closeQuietly(to);
                sockets.remove(from);
                sockets.remove(to);
            }
        }
    }

    private record Chunk(byte[] bytes, long due, boolean eof) {}

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        for (long left = nanoTime - System.nanoTime(); left > 0; left = nanoTime - System.nanoTime()) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            log.debug("closing failed: {}", e.toString());
        }
    }
}
