package headway.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import headway.store.StoreException;
import headway.store.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NodeRegistryTest {

    private static final Duration TTL = Duration.ofSeconds(10);

    private static HikariDataSource ds;

    @BeforeAll
    static void database() {
        ds = TestDatabase.migrated("registry");
    }

    @AfterAll
    static void close() {
        ds.close();
    }

    @BeforeEach
    void empty() {
        TestDatabase.execute(ds, "truncate nodes, clock_skew cascade");
    }

    /** A clock the test moves by hand. */
    static final class ManualClock extends Clock {
        Instant now = Instant.parse("2026-12-02T12:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void peersAreTheOtherNodesFresherThanTheTtl() {
        ManualClock clock = new ManualClock();
        NodeRegistry a = new NodeRegistry(ds, "a", "10.0.0.1:9000", TTL, clock);
        NodeRegistry b = new NodeRegistry(ds, "b", "10.0.0.2:9000", TTL, clock);
        a.register();
        b.register();
        TestDatabase.execute(
                ds,
                "insert into nodes (id, address, heartbeat_at) values ('old', 'x', hw_now() - interval '11 seconds')");

        assertThat(a.peers()).extracting(NodeRegistry.Node::id).containsExactly("b");
        assertThat(a.all())
                .extracting(NodeRegistry.Node::id, NodeRegistry.Node::live)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("a", true),
                        org.assertj.core.groups.Tuple.tuple("b", true),
                        org.assertj.core.groups.Tuple.tuple("old", false));
    }

    @Test
    void peersAreCachedForTheTtlSoANewNodeMayTakeATtlToBeSeen() {
        ManualClock clock = new ManualClock();
        NodeRegistry a = new NodeRegistry(ds, "a", "x", TTL, clock);
        a.register();
        assertThat(a.peers()).isEmpty();
        new NodeRegistry(ds, "c", "y", TTL, clock).register();
        clock.now = clock.now.plus(TTL.minusSeconds(1));
        assertThat(a.peers()).as("still the cached list").isEmpty();
        clock.now = clock.now.plusSeconds(2);
        assertThat(a.peers()).extracting(NodeRegistry.Node::id).containsExactly("c");
    }

    @Test
    void aDatabaseErrorServesTheLastKnownPeers() {
        ManualClock clock = new ManualClock();
        HikariDataSource own = TestDatabase.pool(ds.getJdbcUrl(), 2);
        NodeRegistry a = new NodeRegistry(own, "a", "x", TTL, clock);
        a.register();
        new NodeRegistry(ds, "b", "y", TTL, clock).register();
        assertThat(a.peers()).extracting(NodeRegistry.Node::id).containsExactly("b");

        own.close();
        clock.now = clock.now.plus(TTL.multipliedBy(2));
        assertThat(a.peers()).extracting(NodeRegistry.Node::id).containsExactly("b");
    }

    @Test
    void aDatabaseErrorBeforeTheFirstReadIsAnError() {
        HikariDataSource own = TestDatabase.pool(ds.getJdbcUrl(), 2);
        NodeRegistry a = new NodeRegistry(own, "a", "x", TTL, new ManualClock());
        own.close();
        assertThatThrownBy(a::peers)
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("no list read yet to fall back on");
    }

    @Test
    void pruneDeletesOnlyRowsOlderThanThreeTtls() {
        TestDatabase.execute(ds, """
                insert into nodes (id, address, heartbeat_at) values
                  ('fresh', 'x', hw_now()),
                  ('quiet', 'x', hw_now() - interval '29 seconds'),
                  ('dead', 'x', hw_now() - interval '31 seconds')
                """);
        assertThat(NodeRegistry.prune(ds, TTL)).isEqualTo(1);
        assertThat(TestDatabase.queryLong(ds, "select count(*) from nodes where id in ('fresh', 'quiet')"))
                .isEqualTo(2);

        TestDatabase.setClockSkew(ds, Duration.ofSeconds(2));
        assertThat(NodeRegistry.prune(ds, TTL))
                .as("the database's clock decides")
                .isEqualTo(1);
        assertThat(TestDatabase.queryLong(ds, "select count(*) from nodes")).isEqualTo(1);
    }

    @Test
    void deregisterRemovesTheRowAndHeartbeatRenewsIt() {
        ManualClock clock = new ManualClock();
        NodeRegistry a = new NodeRegistry(ds, "a", "x", TTL, clock);
        a.register();
        TestDatabase.execute(ds, "update nodes set heartbeat_at = hw_now() - interval '1 hour'");
        a.heartbeat();
        assertThat(TestDatabase.queryLong(
                        ds, "select count(*) from nodes where heartbeat_at > hw_now() - interval '5 seconds'"))
                .isEqualTo(1);
        a.deregister();
        assertThat(TestDatabase.queryLong(ds, "select count(*) from nodes")).isZero();
    }
}
