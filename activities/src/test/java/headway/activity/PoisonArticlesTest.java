package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.catalog.CatalogStore;
import headway.coordination.GroupStore;
import headway.coordination.LeaseStore;
import headway.coordination.RangeRow;
import headway.coordination.RangeStore;
import headway.coordination.StatusStore;
import headway.index.RuleSet;
import headway.index.Window;
import headway.nntp.NntpPool;
import headway.nntp.Simulators;
import headway.simulator.ArticleKind;
import headway.simulator.NewsSimulator;
import headway.simulator.PoisonKind;
import headway.store.Holder;
import headway.store.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Poison articles from the simulator's hostile mode, between good ones, through the real range
 * indexer and catalog on embedded PostgreSQL: every range finishes (the group never parks), every
 * good and every cleanable article is cataloged once, and every article without a clean form (and
 * every malformed line) is in the {@code rejected_articles} ledger with its reason.
 */
class PoisonArticlesTest {

    private static final String GROUP = "alt.binaries.headway.poison";
    private static final long ARTICLES = 3000;
    private static final Duration TTL = Duration.ofSeconds(20);

    private static NewsSimulator sim;
    private static NntpPool pool;
    private static HikariDataSource ds;

    @BeforeAll
    static void start() throws Exception {
        sim = NewsSimulator.start(
                NewsSimulator.Options.defaults(),
                List.of(new NewsSimulator.GroupSpec(GROUP, 11, ARTICLES, 3, 8, 3, 0.01, 0.0, 0.005).withPoison(0.05)));
        pool = new NntpPool(NntpPool.Config.defaults(Simulators.server(sim)).withMaxConnections(2));
        ds = TestDatabase.migrated("poison_articles");
    }

    @AfterAll
    static void stop() {
        ds.close();
        pool.close();
        sim.close();
    }

    @Test
    void poisonIsCleanedOrLedgeredAndTheGroupReachesTheEnd() throws Exception {
        Map<PoisonKind, Integer> kinds = new EnumMap<>(PoisonKind.class);
        Set<Long> ledgerExpected = new HashSet<>();
        for (long n = 1; n <= ARTICLES; n++) {
            PoisonKind p = sim.poison(GROUP, n);
            if (p != null) {
                kinds.merge(p, 1, Integer::sum);
                if (p.rejected()) {
                    ledgerExpected.add(n);
                }
            } else if (sim.kind(GROUP, n) == ArticleKind.MALFORMED) {
                ledgerExpected.add(n);
            }
        }
        assertThat(kinds).as("the simulator serves every poison kind").hasSize(PoisonKind.values().length);

        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        index(registry);

        Map<Long, String> ledger;
        try (Connection c = ds.getConnection()) {
            ledger = new CatalogStore().rejected(c, GROUP);
        }
        assertThat(ledger.keySet()).isEqualTo(ledgerExpected);
        for (Map.Entry<Long, String> e : ledger.entrySet()) {
            PoisonKind p = sim.poison(GROUP, e.getKey());
            String expected = p == null
                    ? "malformed overview line"
                    : switch (p) {
                        case BAD_DATE -> "date is not";
                        case NO_MESSAGE_ID -> "no message-id";
                        case LONG_MESSAGE_ID -> "message-id longer than 250";
                        case LONG_SUBJECT -> "subject longer than 1000";
                        default -> throw new AssertionError(p + " should have been cleaned");
                    };
            assertThat(e.getValue()).as("reason for article %d", e.getKey()).startsWith(expected);
        }
        assertThat(registry.counter("headway.articles.rejected").count()).isEqualTo(ledgerExpected.size());
        assertThat(new StatusStore(ds).rejectedPerGroup()).isEqualTo(Map.of(GROUP, (long) ledgerExpected.size()));

        Map<String, Long> catalogIds = new TreeMap<>();
        for (String id : strings(ds, "select unnest(message_id_array(message_ids)) from binaries")) {
            catalogIds.merge(id, 1L, Long::sum);
        }
        assertThat(catalogIds.values()).as("no segment twice").allMatch(n -> n == 1);
        long cataloged = 0;
        for (long n = 1; n <= ARTICLES; n++) {
            ArticleKind k = sim.kind(GROUP, n);
            PoisonKind p = sim.poison(GROUP, n);
            boolean expected = k == ArticleKind.VALID || (p != null && !p.rejected());
            if (expected) {
                cataloged++;
                assertThat(catalogIds)
                        .as("article %d (%s)", n, p == null ? k : p)
                        .containsKey(idOf(n));
            } else if (p != null) {
                assertThat(catalogIds).as("rejected article %d (%s)", n, p).doesNotContainKey(idOf(n));
            }
        }
        assertThat(catalogIds).hasSize((int) cataloged);
        assertThat(TestDatabase.queryLong(
                        ds, "select count(*) from binaries where poster like '%~%' and length(poster) < 1100"))
                .as("long posters keyed by a bounded form")
                .isPositive();
        assertThat(TestDatabase.queryLong(
                        ds,
                        "select count(*) from long_names l join binaries b on b.poster = l.bounded"
                                + " where length(l.full_text) > 3000"))
                .as("the whole poster kept beside its bounded key")
                .isPositive();
    }

    /** The simulator's message-id of article {@code n}, without angle brackets. */
    private static String idOf(long n) {
        return sim.messageId(GROUP, n);
    }

    private static List<String> strings(javax.sql.DataSource ds, String sql) throws Exception {
        List<String> out = new java.util.ArrayList<>();
        try (Connection c = ds.getConnection();
                java.sql.Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** Plans and indexes the whole group with one holder, as a worker would, and flushes the window. */
    private static void index(SimpleMeterRegistry registry) throws Exception {
        GroupStore groups = new GroupStore(ds);
        groups.add(GROUP, 0);
        LeaseStore leases = new LeaseStore(ds, 0);
        RangeStore ranges = new RangeStore(ds, 0);
        Holdings holdings = new Holdings(1);
        HeaderSource source = new NntpHeaderSource(pool);
        new Planner(groups, source, new Planner.Settings(500, 1_000_000, Long.MAX_VALUE)).plan(GROUP);
        Holder holder = leases.lease(GROUP, "node-poison", TTL).holder();
        holdings.put(holder, new Window(GROUP, 1000), RuleSet.defaults(0), -1);
        Holdings.Held held = holdings.get(GROUP, holder.epoch()).orElseThrow();
        RangeIndexer indexer = new RangeIndexer(
                source, leases.fence(), ranges, new CatalogStore(), 100, new IndexMetrics(registry, holdings));
        for (Optional<RangeRow> r = ranges.nextRange(holder, 0); r.isPresent(); r = ranges.nextRange(holder, 0)) {
            assertThat(indexer.index(held, r.get(), r.get().next(), 0, 0, 0, (c, h, m, x) -> {})
                            .finished())
                    .as("range %s finished", r.get())
                    .isTrue();
        }
        held.window().closeAll();
        leases.fence().run(holder, "flushing the window", c -> {
            new CatalogStore().writeBinaries(c, held.window().drain());
            return null;
        });
        assertThat(TestDatabase.queryLong(ds, "select count(*) from ranges where status <> 'done'"))
                .isZero();
    }
}
