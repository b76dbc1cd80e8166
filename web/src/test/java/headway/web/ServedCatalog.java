package headway.web;

import headway.catalog.CatalogStore;
import headway.catalog.Stores;
import headway.index.CompletedBinary;
import headway.index.Segment;
import headway.rig.RawHttp;
import headway.store.Database;
import headway.store.TestDatabase;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A served catalog for the front door's tests: a fresh migrated database on the shared embedded
 * PostgreSQL with a few releases (TV, a movie, a daily show, a hostile name), and {@code serve} on
 * a free loopback port.
 */
final class ServedCatalog implements AutoCloseable {

    static final String G = "alt.binaries.test";
    static final String POSTER = "Joe <joe@example.com>";
    static final Instant POSTED = Instant.parse("2026-12-01T10:00:00Z");

    final Stores stores;
    final FrontDoor door;
    final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ServedCatalog(Stores stores, FrontDoor door) {
        this.stores = stores;
        this.door = door;
    }

    static ServedCatalog start() throws Exception {
        return start(new ServeConfig("127.0.0.1", 0, true, "headway"));
    }

    /** As {@link #start()}, served with {@code config} (its port is ignored: a free one). */
    static ServedCatalog start(ServeConfig config) throws Exception {
        String url = TestDatabase.emptyDatabase("web");
        Stores stores =
                Stores.open(new Database.Settings(url, "postgres", null, 8, Duration.ofSeconds(10)), "web-test");
        TestDatabase.execute(stores.dataSource(), "insert into groups (name) values ('" + G + "')");
        List<CompletedBinary> binaries = new ArrayList<>();
        String[] releases = {
            "Some.Show.S01E01.720p.WEB-GRP",
            "Some.Show.S01E02.720p.WEB-GRP",
            "Daily.Talk.2026.04.12.720p.HDTV-GRP",
            "A.Movie.2026.1080p.BluRay.x264-GRP",
            "Weird <&\"'> name\u0001 100%"
        };
        for (int i = 0; i < releases.length; i++) {
            for (int f = 1; f <= 2; f++) {
                List<Segment> segments = new ArrayList<>();
                for (int p = 1; p <= 3; p++) {
                    segments.add(new Segment(p, 500_000 + p, "r" + i + "f" + f + "p" + p + "@news.example"));
                }
                binaries.add(new CompletedBinary(
                        G,
                        POSTER,
                        "r" + i + "file" + f + ".rar",
                        3,
                        releases[i],
                        2,
                        releases[i] + " [" + f + "/2] \"file" + f + ".rar\" yEnc",
                        POSTED.plusSeconds(60L * i),
                        1000 + 10 * i,
                        1002 + 10 * i,
                        1,
                        segments));
            }
        }
        write(stores, binaries);
        FrontDoor door = FrontDoor.start(
                stores,
                new ServeConfig(
                        "127.0.0.1",
                        0,
                        config.page(),
                        config.title(),
                        config.publicUrl(),
                        config.limits(),
                        config.retentionDays()),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        return new ServedCatalog(stores, door);
    }

    /** Writes binaries (and so their releases) into the catalog, categorized by the default rules. */
    static void write(Stores stores, List<CompletedBinary> binaries) throws Exception {
        try (Connection c = stores.dataSource().getConnection()) {
            c.setAutoCommit(false);
            new CatalogStore().writeBinaries(c, binaries);
            c.commit();
        }
    }

    /** One binary of one part: a release of one file, posted {@code posted}. */
    static CompletedBinary single(String release, long bytes, Instant posted) {
        return new CompletedBinary(
                G,
                POSTER,
                release + ".mkv",
                1,
                release,
                1,
                release + " [1/1] \"" + release + ".mkv\" yEnc",
                posted,
                1,
                1,
                1,
                List.of(new Segment(1, (int) Math.min(bytes, Integer.MAX_VALUE), release + "@news.example")));
    }

    String base() {
        return "http://127.0.0.1:" + door.port();
    }

    HttpResponse<String> get(String pathAndQuery) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(base() + pathAndQuery))
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<byte[]> getBytes(String pathAndQuery) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(base() + pathAndQuery))
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Sends {@code request} as it is from {@code from} (a 127.0.0.x address; null: any) over a connection of its own. */
    RawHttp.Response raw(InetAddress from, byte[] request) throws Exception {
        return RawHttp.send(from, new InetSocketAddress("127.0.0.1", door.port()), request, Duration.ofSeconds(20));
    }

    /** {@code GET target} as it is from {@code from}, with the extra header lines given. */
    RawHttp.Response raw(InetAddress from, String target, String... headers) throws Exception {
        return raw(from, RawHttp.get(target, headers));
    }

    /** A loopback address of its own (127.0.0.n): a client the per-address limits count apart. */
    static InetAddress loopback(int n) {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) n});
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Override
    public void close() {
        door.close();
        stores.close();
    }
}
