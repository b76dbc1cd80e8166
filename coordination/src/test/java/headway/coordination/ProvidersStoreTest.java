package headway.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.coordination.ProviderSwitches.Switch;
import headway.store.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The tables of several providers (V28): each node's connections per provider, and each group's provider switches. */
class ProvidersStoreTest {
    private static final Duration TTL = Duration.ofSeconds(10);

    private static HikariDataSource ds;

    @BeforeAll
    static void database() {
        ds = TestDatabase.migrated("providers");
    }

    @AfterAll
    static void close() {
        ds.close();
    }

    @Test
    void statusSumsEachProvidersConnectionsOverTheLiveNodes() {
        for (String node : List.of("node-a", "node-b")) {
            new NodeRegistry(ds, node, node + ":9464", TTL, Clock.systemUTC())
                    .reportingProviders(() -> List.of(
                            new NodeRegistry.ProviderReport(0, "0 primary nntp://news:119", 3, 4, null),
                            new NodeRegistry.ProviderReport(1, "1 backup nntps://block:563", 1, 2, 3)))
                    .heartbeat();
        }
        NodeRegistry gone = new NodeRegistry(ds, "node-c", "c:1", TTL, Clock.systemUTC())
                .reportingProviders(() -> List.of(new NodeRegistry.ProviderReport(1, "1 backup", 2, 2, 3)));
        gone.heartbeat();
        gone.deregister();

        List<FleetQueries.ProviderConnections> p = new FleetQueries(ds).providers(TTL);
        assertThat(p).hasSize(2);
        assertThat(p.get(0))
                .isEqualTo(new FleetQueries.ProviderConnections(0, "0 primary nntp://news:119", 1, 6, 8, null, 2));
        assertThat(p.get(1).inUse()).isEqualTo(2);
        assertThat(p.get(1).mayOpen()).isEqualTo(4);
        assertThat(p.get(1).overLimit()).as("4 may open, the account allows 3").isTrue();
        assertThat(TestDatabase.queryLong(ds, "select count(*) from node_providers where node_id = 'node-c'"))
                .as("a node's provider rows leave with it")
                .isZero();
    }

    @Test
    void aGroupStartsOnProviderZeroAndASwitchAtTheSameArticleReplacesTheOne() {
        TestDatabase.execute(ds, "insert into groups (name) values ('alt.binaries.switching') on conflict do nothing");
        ProviderSwitches store = new ProviderSwitches(ds);
        String g = "alt.binaries.switching";
        assertThat(store.of(g)).containsExactly(Switch.START);
        store.record(g, new Switch(1_000, 1, 137, "message-id", "<a@b>"));
        List<Switch> stored = store.record(g, new Switch(1_000, 2, -5, "date", "Mon, 7 Dec 2026 12:00:00 +0000"));
        assertThat(stored).hasSize(2);
        assertThat(ProviderSwitches.covering(stored, 999)).isEqualTo(Switch.START);
        assertThat(ProviderSwitches.covering(stored, 1_000).provider()).isEqualTo(2);
        assertThat(ProviderSwitches.covering(stored, 1_000).onProvider(1_000)).isEqualTo(995);
        assertThat(ProviderSwitches.nextStart(stored, 5)).isEqualTo(1_000);
        assertThat(store.of(g)).isEqualTo(stored);
    }
}
