package headway.web;

import static org.assertj.core.api.Assertions.assertThat;

import headway.rig.RawHttp;
import headway.store.TestDatabase;
import java.net.InetAddress;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The front door's limits over HTTP, each client a loopback address of its own: what no key
 * limits is rate-limited per address (429 with Retry-After), wrong keys have a bucket of their
 * own checked before the lookup, anonymous work at the catalog is bounded in concurrency (refused
 * at once past it), a search stops at the statement timeout with a newznab error or a page
 * message, and {@code /health} and keyed requests go on through all of it.
 */
class FrontDoorLimitsTest {

    private static final Duration TIMEOUT = Duration.ofMillis(1500);
    private static ServedCatalog served;
    private static String key;

    @BeforeAll
    static void serve() throws Exception {
        served = ServedCatalog.start(new ServeConfig("127.0.0.1", 0, true, "headway")
                .withLimits(
                        ServeConfig.Limits.defaults().withAnonymous(60, 3, 1).withSearchTimeout(TIMEOUT)));
        key = served.stores.apiKeys().add("limits", null, null);
    }

    @AfterAll
    static void stop() {
        served.close();
    }

    private static RawHttp.Response get(int client, String target) throws Exception {
        return served.raw(ServedCatalog.loopback(client), target);
    }

    @Test
    void requestsWithoutAKeyAreLimitedPerAddressButHealthAndKeysAreNot() throws Exception {
        int a = 20;
        for (int i = 0; i < 3; i++) {
            assertThat(get(a, "/?q=show").status())
                    .as("request %d of the burst", i)
                    .isEqualTo(200);
        }
        RawHttp.Response page = get(a, "/?q=show");
        assertThat(page.status()).isEqualTo(429);
        assertThat(Long.parseLong(page.header("Retry-After"))).isBetween(1L, 2L);
        RawHttp.Response caps = get(a, "/api?t=caps");
        assertThat(caps.status()).as("caps shares the address's bucket").isEqualTo(429);
        assertThat(caps.header("Content-Type")).contains("xml");
        assertThat(caps.text()).contains("code=\"500\"", "description=\"Request limit reached\"");
        assertThat(get(a, "/api?t=search").status()).as("no key: anonymous too").isEqualTo(429);
        assertThat(get(a, "/api?t=search&apikey=short").status())
                .as("not a key's form")
                .isEqualTo(429);

        assertThat(get(a, "/health").status()).as("health is never limited").isEqualTo(200);
        assertThat(get(a, "/api?t=search&q=show&apikey=" + key).status())
                .as("a key is limited by its own daily counts only")
                .isEqualTo(200);
        assertThat(get(a + 1, "/?q=show").status()).as("another address").isEqualTo(200);
    }

    @Test
    void wrongKeysAreCountedApartAndRefusedBeforeTheLookup() throws Exception {
        int a = 30;
        String wrong = "0123456789abcdef0123456789abcdef01234567";
        for (int i = 0; i < 3; i++) {
            RawHttp.Response r = get(a, "/api?t=search&apikey=" + wrong);
            assertThat(r.status()).as("wrong key %d", i).isEqualTo(401);
            assertThat(r.text()).contains("code=\"100\"");
        }
        RawHttp.Response blocked = get(a, "/api?t=search&apikey=" + wrong);
        assertThat(blocked.status()).isEqualTo(429);
        assertThat(blocked.header("Retry-After")).isNotNull();
        assertThat(get(a, "/api?t=search&apikey=" + key).status())
                .as("an address that guesses keys waits, whatever key it sends next")
                .isEqualTo(429);
        assertThat(get(a, "/?q=show").status())
                .as("its anonymous bucket is another one")
                .isEqualTo(200);
        assertThat(get(a + 1, "/api?t=search&apikey=" + key).status()).isEqualTo(200);
    }

    @Test
    void anonymousWorkIsBoundedInConcurrencyAndEverySearchStopsAtTheTimeout() throws Exception {
        try (Connection lock = served.stores.dataSource().getConnection();
                Statement s = lock.createStatement()) {
            lock.setAutoCommit(false);
            s.execute("lock table releases in access exclusive mode");

            CompletableFuture<RawHttp.Response> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return get(40, "/?q=show");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            awaitLockWaiters(1);

            long start = System.nanoTime();
            RawHttp.Response refused = get(41, "/?q=show");
            assertThat(refused.status())
                    .as("the one slot is taken: refused at once")
                    .isEqualTo(429);
            assertThat(refused.header("Retry-After")).isEqualTo("1");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT);
            assertThat(get(41, "/health").status()).isEqualTo(200);

            RawHttp.Response timedOut = waiting.get(30, TimeUnit.SECONDS);
            assertThat(timedOut.status()).isEqualTo(429);
            assertThat(timedOut.text()).contains("took longer than 1500 ms and was stopped");

            RawHttp.Response api = get(42, "/api?t=search&q=show&apikey=" + key);
            assertThat(api.status())
                    .as("a keyed search stops at the timeout too, not a 500")
                    .isEqualTo(429);
            assertThat(api.header("Content-Type")).contains("xml");
            assertThat(api.text()).contains("code=\"900\"", "took longer than 1500 ms");
            lock.rollback();
        }
        assertThat(get(43, "/?q=show").status()).isEqualTo(200);
        assertThat(get(43, "/api?t=search&q=show&apikey=" + key).status()).isEqualTo(200);
    }

    private static void awaitLockWaiters(int n) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            long waiting = TestDatabase.queryLong(
                    served.stores.dataSource(),
                    "select count(*) from pg_stat_activity where wait_event_type = 'Lock' and query like '%releases%'");
            if (waiting >= n) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no search waited for the lock on releases");
    }

    /** The clients the tests above play, as the server saw them: one address each. */
    @Test
    void loopbackAliasesAreDistinctClients() throws Exception {
        InetAddress a = ServedCatalog.loopback(50);
        assertThat(a.getHostAddress()).isEqualTo("127.0.0.50");
        for (int i = 0; i < 3; i++) {
            assertThat(served.raw(a, "/api?t=caps").status()).isEqualTo(200);
        }
        assertThat(served.raw(a, "/api?t=caps").status()).isEqualTo(429);
        assertThat(served.raw(ServedCatalog.loopback(51), "/api?t=caps").status())
                .isEqualTo(200);
    }
}
