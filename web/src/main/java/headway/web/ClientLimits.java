package headway.web;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.function.LongSupplier;

/**
 * What clients without a key may do, per client address, before any database work: a token bucket
 * for anonymous requests (the page, caps, requests without a key or with one that is not of a key's
 * form), a second one for wrong keys, and a bound on how many anonymous requests touch the database
 * at once, so that keyed requests and {@code /health} keep the rest of the connection pool and the
 * cores.
 *
 * <p>Buckets live in memory, per instance: a restart forgets them, and behind a load balancer each
 * instance allows the rate again. The map of addresses is bounded ({@value #MAX_ADDRESSES}); past
 * it the address seen least recently is forgotten, so a flood from very many addresses costs a
 * bounded amount of memory, at the price that such a flood can reset an address's bucket by
 * pushing it out (each of its own addresses then gets one burst). The concurrency bound holds the
 * database work of such a flood whatever its addresses. An IPv6 client is keyed by its /64, which
 * is what one subscriber gets; per address, one host could cycle through 2^64 buckets.
 *
 * <p>Written here rather than taken from a library: no rate-limit library resolves in this
 * build's registry list (bucket4j does not), and what matters here, the bounded map with eviction,
 * is a {@link LinkedHashMap} in access order; the bucket itself is a dozen lines.
 */
final class ClientLimits {

    /**
     * Addresses tracked at once: an entry is about 200 bytes (key, two buckets, map links), so the
     * map stays under about 4 MB, and 16,384 distinct clients within the time a bucket takes to
     * refill is far beyond what a self-hosted indexer sees from people.
     */
    static final int MAX_ADDRESSES = 16_384;

    /** How long the semaphore's refusal asks a client to wait: the work it waits for takes at most a statement timeout. */
    static final long BUSY_RETRY_SECONDS = 1;

    private final double perNano;
    private final int burst;
    private final Semaphore atOnce;
    private final LongSupplier clock;
    private final Map<String, Client> clients = new LinkedHashMap<>(1024, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Client> eldest) {
            return size() > MAX_ADDRESSES;
        }
    };

    /** A slot of the anonymous concurrency bound; closing it gives the slot back. */
    interface Permit extends AutoCloseable {
        @Override
        void close();
    }

    /** {@code perMinute} requests a minute per address after a burst of {@code burst}; {@code atOnce} anonymous requests at the database at once. */
    ClientLimits(int perMinute, int burst, int atOnce) {
        this(perMinute, burst, atOnce, System::nanoTime);
    }

    ClientLimits(int perMinute, int burst, int atOnce, LongSupplier clock) {
        if (perMinute < 1 || burst < 1 || atOnce < 1) {
            throw new IllegalArgumentException("rate, burst and concurrency must be at least 1");
        }
        this.perNano = perMinute / 60e9;
        this.burst = burst;
        this.atOnce = new Semaphore(atOnce);
        this.clock = clock;
    }

    /** Takes one anonymous request of {@code address}: 0 when allowed, else the seconds until it would be. */
    long anonymous(InetAddress address) {
        synchronized (clients) {
            return client(address).anonymous.take();
        }
    }

    /** 0 when {@code address} may present a key, else the seconds until it may: it sent too many wrong ones. Takes nothing. */
    long wrongKeysWait(InetAddress address) {
        synchronized (clients) {
            return client(address).wrongKeys.waitFor();
        }
    }

    /** Counts a wrong key from {@code address} against its wrong-key bucket. */
    void wrongKey(InetAddress address) {
        synchronized (clients) {
            client(address).wrongKeys.take();
        }
    }

    /** A slot for anonymous database work, or null when {@code atOnce} are taken: the caller refuses at once rather than queue. */
    Permit enter() {
        return atOnce.tryAcquire() ? atOnce::release : null;
    }

    /** Addresses tracked now (at most {@value #MAX_ADDRESSES}). */
    int tracked() {
        synchronized (clients) {
            return clients.size();
        }
    }

    private Client client(InetAddress address) {
        return clients.computeIfAbsent(key(address), k -> new Client(new Bucket(), new Bucket()));
    }

    /** The key of an address: IPv4 as it is, IPv6 by its /64. */
    static String key(InetAddress address) {
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            return address.getHostAddress();
        }
        return HexFormat.of().formatHex(b, 0, 8) + "::/64";
    }

    private record Client(Bucket anonymous, Bucket wrongKeys) {}

    /** A token bucket: {@code burst} tokens, refilled at the rate; guarded by the map's lock. */
    private final class Bucket {
        private double tokens = burst;
        private long last = clock.getAsLong();

        long take() {
            refill();
            if (tokens >= 1) {
                tokens -= 1;
                return 0;
            }
            return secondsToOne();
        }

        long waitFor() {
            refill();
            return tokens >= 1 ? 0 : secondsToOne();
        }

        private void refill() {
            long now = clock.getAsLong();
            tokens = Math.min(burst, tokens + (now - last) * perNano);
            last = now;
        }

        private long secondsToOne() {
            return Math.max(1, (long) Math.ceil((1 - tokens) / perNano / 1e9));
        }
    }
}
