package headway.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import headway.store.Holder;
import headway.store.Jdbc;
import headway.store.LeaseLostException;
import headway.store.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class StatusStoreTest extends WithCoordinationDatabase {

    private static final Duration TTL = Duration.ofSeconds(30);

    private StatusStore status;

    @BeforeAll
    void stores() {
        status = new StatusStore(ds);
    }

    @Test
    void conflictsListTakeoversAndRefusedWritesSinceATime() {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 300, 100, 1);
        Instant before = databaseTime();
        Holder zombie = leases.lease("alt.binaries.x", "n1", TTL).holder();
        TestDatabase.setClockSkew(ds, TTL.plusSeconds(1));
        leases.lease("alt.binaries.x", "n2", TTL);
        assertThatThrownBy(() -> ranges.nextRange(zombie, null)).isInstanceOf(LeaseLostException.class);

        assertThat(status.conflictsSince(before))
                .extracting(StatusStore.Conflict::kind, StatusStore.Conflict::node, StatusStore.Conflict::otherNode)
                .containsExactly(tuple("takeover", "n2", "n1"), tuple("lease_lost", "n1", "n2"));
        assertThat(status.conflicts(10))
                .as("newest first")
                .extracting(StatusStore.Conflict::kind)
                .containsExactly("lease_lost", "takeover");
        TestDatabase.setClockSkew(ds, TTL.plusSeconds(2));
        assertThat(status.conflictsSince(databaseTime())).isEmpty();
    }

    private Instant databaseTime() {
        return Jdbc.inTransaction(
                ds, "reading the database clock", c -> Jdbc.one(c, "select hw_now()", rs -> Jdbc.instant(rs, 1)));
    }
}
