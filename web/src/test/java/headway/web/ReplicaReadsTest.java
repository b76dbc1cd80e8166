package headway.web;

import static org.assertj.core.api.Assertions.assertThat;

import headway.catalog.Stores;
import headway.rig.EmbeddedDatabase;
import headway.rig.StreamingReplica;
import headway.store.Database;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code serve} with HEADWAY_DB_READ_URL on a real streaming replica ({@link StreamingReplica}: a
 * hot standby of an embedded primary, fed by PostgreSQL's own WAL streaming): searches, details and
 * NZBs read the standby while keys, request and grab counts are written on the primary; a standby
 * whose replay is held back past HEADWAY_DB_READ_MAX_LAG, one stopped mid-run and one frozen
 * (SIGSTOP, as a network partition looks) are all answered from the primary within the read
 * timeout, never a hang. The primary and its standby are this class's own servers.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicaReadsTest {

    private static final Duration MAX_LAG = Duration.ofSeconds(1);
    private static final Duration READ_TIMEOUT = Duration.ofMillis(500);

    /** The longest any answer may take while the standby misbehaves: the socket timeout (2 s) and slack. */
    private static final Duration BOUND = Duration.ofSeconds(5);

    private static Path primaryDir;
    private static EmbeddedDatabase primary;
    private static StreamingReplica replica;
    private static Stores stores;
    private static FrontDoor door;
    private static String key;
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws Exception {
        primaryDir = Files.createTempDirectory("embedded-pg-primary-");
        primary = EmbeddedDatabase.start(primaryDir);
        String url = primary.createDatabase("replica_reads");
        replica = StreamingReplica.of(primary, primaryDir);
        Database.Settings primarySettings = new Database.Settings(url, "postgres", null, 8, Duration.ofSeconds(10));
        stores = Stores.open(
                primarySettings,
                new Stores.Replica(
                        new Database.Settings(replica.jdbcUrl("replica_reads"), "postgres", null, 8, READ_TIMEOUT),
                        MAX_LAG,
                        READ_TIMEOUT),
                "replica-test");
        headway.store.TestDatabase.execute(
                stores.dataSource(), "insert into groups (name) values ('" + ServedCatalog.G + "')");
        key = stores.apiKeys().add("replica", null, null);
        ServedCatalog.write(stores, List.of(ServedCatalog.single("Before.The.Standby.2026.720p-GRP", 1_000, posted())));
        door = FrontDoor.start(
                stores,
                new ServeConfig("127.0.0.1", 0, true, "headway"),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        replica.awaitCaughtUp(Duration.ofSeconds(20));
        await(() -> stores.reads().onReplica(), Duration.ofSeconds(10), "reads on the caught-up standby");
    }

    @AfterAll
    static void stop() {
        if (door != null) {
            door.close();
        }
        if (stores != null) {
            stores.close();
        }
        if (replica != null) {
            replica.close();
        }
        if (primary != null) {
            primary.close();
        }
        if (primaryDir != null) {
            try {
                new ProcessBuilder("rm", "-rf", "--", primaryDir.toString()).start();
            } catch (java.io.IOException e) {
                // left in the temporary directory
            }
        }
    }

    @Test
    @Order(1)
    void searchesReadTheStandbyAndFallBackToThePrimaryWhenItFallsBehind() throws Exception {
        assertThat(search("Before.The.Standby").body()).contains("Before.The.Standby.2026.720p-GRP");
        replica.execute("select pg_wal_replay_pause()");
        try {
            ServedCatalog.write(stores, List.of(ServedCatalog.single("Held.Back.2026.720p-GRP", 1_000, posted())));
            // within the lag allowed, the standby answers: the release is not on it yet; the request was
            // still counted (a write the read-only standby could not have taken)
            HttpResponse<String> early = search("Held.Back");
            assertThat(early.statusCode()).isEqualTo(200);
            assertThat(early.body()).doesNotContain("Held.Back.2026").contains("apicurrent=\"2\"");
            // past HEADWAY_DB_READ_MAX_LAG (1 s) the primary answers
            await(
                    () -> {
                        try {
                            return search("Held.Back").body().contains("Held.Back.2026.720p-GRP");
                        } catch (Exception e) {
                            return false;
                        }
                    },
                    Duration.ofSeconds(10),
                    "the held-back release found once the standby is too far behind");
            assertThat(stores.reads().onReplica()).isFalse();
            assertThat(stores.reads().where()).contains("ms behind the primary");
        } finally {
            replica.execute("select pg_wal_replay_resume()");
        }
        await(() -> stores.reads().onReplica(), Duration.ofSeconds(10), "back on the standby once it caught up");
        replica.execute("select pg_wal_replay_pause()");
        try {
            ServedCatalog.write(stores, List.of(ServedCatalog.single("Held.Again.2026.720p-GRP", 1_000, posted())));
            assertThat(search("Held.Again").body()).doesNotContain("Held.Again.2026");
        } finally {
            replica.execute("select pg_wal_replay_resume()");
        }
    }

    @Test
    @Order(2)
    void aGuidTheStandbyHasNotReplayedYetIsFoundOnThePrimary() throws Exception {
        replica.awaitCaughtUp(Duration.ofSeconds(20));
        await(() -> stores.reads().onReplica(), Duration.ofSeconds(10), "reads on the standby");
        replica.execute("select pg_wal_replay_pause()");
        try {
            ServedCatalog.write(stores, List.of(ServedCatalog.single("Just.Written.2026.720p-GRP", 1_000, posted())));
            String guid = guidOf("Just.Written.2026.720p-GRP");
            HttpResponse<String> details = api("t=details&id=" + guid);
            assertThat(details.statusCode()).isEqualTo(200);
            assertThat(details.body()).contains("Just.Written.2026.720p-GRP");
            HttpResponse<String> nzb = api("t=get&id=" + guid);
            assertThat(nzb.statusCode()).isEqualTo(200);
            assertThat(nzb.body()).contains("Just.Written.2026.720p-GRP@news.example");
        } finally {
            replica.execute("select pg_wal_replay_resume()");
        }
    }

    @Test
    @Order(3)
    void aStandbyStoppedMidRunIsAnsweredFromThePrimaryWithoutAHang() throws Exception {
        replica.awaitCaughtUp(Duration.ofSeconds(20));
        await(() -> stores.reads().onReplica(), Duration.ofSeconds(10), "reads on the standby");
        int port = replica.port();
        AtomicBoolean running = new AtomicBoolean(true);
        List<long[]> answers = java.util.Collections.synchronizedList(new ArrayList<>());
        Thread client = new Thread(() -> {
            while (running.get()) {
                long t0 = System.nanoTime();
                try {
                    int status = search("Before.The.Standby").statusCode();
                    answers.add(new long[] {status, (System.nanoTime() - t0) / 1_000_000});
                } catch (Exception e) {
                    answers.add(new long[] {-1, (System.nanoTime() - t0) / 1_000_000});
                }
            }
        });
        client.start();
        Thread.sleep(300);
        replica.stop();
        ServedCatalog.write(stores, List.of(ServedCatalog.single("While.It.Was.Away.2026-GRP", 1_000, posted())));
        Thread.sleep(1_500);
        running.set(false);
        client.join(BOUND.toMillis() * 2);
        System.out.println("standby stopped mid-run: " + answers.size() + " searches, slowest "
                + answers.stream().mapToLong(a -> a[1]).max().orElse(0) + " ms");
        assertThat(answers).isNotEmpty().allSatisfy(a -> {
            assertThat(a[0]).as("status").isEqualTo(200);
            assertThat(a[1]).as("ms").isLessThan(BOUND.toMillis());
        });
        assertThat(search("While.It.Was.Away").body()).contains("While.It.Was.Away.2026-GRP");
        assertThat(stores.reads().where()).contains("not used");
        HttpResponse<String> nzb = api("t=get&id=" + guidOf("While.It.Was.Away.2026-GRP"));
        assertThat(nzb.statusCode()).isEqualTo(200);
        assertThat(api("t=caps").statusCode()).isEqualTo(200);

        replica.start(port);
        await(() -> stores.reads().onReplica(), Duration.ofSeconds(20), "back on the standby once it is up");
        assertThat(search("While.It.Was.Away").body()).contains("While.It.Was.Away.2026-GRP");
    }

    @Test
    @Order(4)
    void aFrozenStandbyIsGivenUpWithinTheReadTimeout() throws Exception {
        await(() -> stores.reads().onReplica(), Duration.ofSeconds(20), "reads on the standby");
        replica.freeze(true);
        try {
            for (int i = 0; i < 5; i++) {
                long t0 = System.nanoTime();
                HttpResponse<String> r = search("Before.The.Standby");
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body()).contains("Before.The.Standby.2026.720p-GRP");
                assertThat(ms).as("request %d took %d ms", i, ms).isLessThan(BOUND.toMillis());
                System.out.println("standby frozen: search " + i + " took " + ms + " ms");
            }
            assertThat(stores.reads().onReplica()).isFalse();
        } finally {
            replica.freeze(false);
        }
        await(() -> stores.reads().onReplica(), Duration.ofSeconds(20), "back on the standby once it runs");
    }

    private static Instant posted() {
        return Instant.now().minusSeconds(3600);
    }

    /** The guid of the release named {@code name}, read on the primary. */
    private static String guidOf(String name) {
        return headway.catalog.ReleaseGuids.of(new headway.catalog.ReleaseQueries(stores.dataSource())
                .named(name)
                .get(0));
    }

    private static HttpResponse<String> search(String q) throws Exception {
        return api("t=search&q=" + q);
    }

    private static HttpResponse<String> api(String query) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + door.port() + "/api?" + query + "&apikey=" + key))
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void await(BooleanSupplier condition, Duration within, String what) throws InterruptedException {
        long until = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - until > 0) {
                throw new AssertionError("not within " + within + ": " + what + " ("
                        + stores.reads().where() + ")");
            }
            Thread.sleep(50);
        }
    }
}
