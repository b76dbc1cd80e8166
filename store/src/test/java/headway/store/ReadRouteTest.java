package headway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** What {@link ReadRoute} reads of a log position, and which failures it blames on the replica. */
class ReadRouteTest {

    @Test
    void logPositionsCompareAsTheServerOrdersThem() {
        assertThat(ReadRoute.lsn(null)).isZero();
        assertThat(ReadRoute.lsn("0/0")).isZero();
        assertThat(ReadRoute.lsn("16/B374D848")).isEqualTo(0x16B374D848L);
        assertThat(ReadRoute.lsn("1/0")).isGreaterThan(ReadRoute.lsn("0/FFFFFFFF"));
        SplittableRandom random = new SplittableRandom(43);
        for (int i = 0; i < 10_000; i++) {
            long a = random.nextLong(Long.MAX_VALUE);
            long b = random.nextLong(Long.MAX_VALUE);
            assertThat(Long.compare(ReadRoute.lsn(text(a)), ReadRoute.lsn(text(b))))
                    .isEqualTo(Long.compare(a, b));
        }
        assertThatThrownBy(() -> ReadRoute.lsn("16B374D848")).isInstanceOf(IllegalArgumentException.class);
    }

    private static String text(long lsn) {
        return Long.toHexString(lsn >>> 32).toUpperCase(java.util.Locale.ROOT) + "/"
                + Long.toHexString(lsn & 0xFFFFFFFFL).toUpperCase(java.util.Locale.ROOT);
    }

    @Test
    void theReplicasFaultsAreItsConnectionShutdownReplayAndTimeoutNothingElse() {
        for (String state : new String[] {"08006", "08001", "57P01", "57P03", "40001", "57014"}) {
            assertThat(ReadRoute.replicaFault(new StoreException("reading", new SQLException("x", state))))
                    .as(state)
                    .isTrue();
        }
        assertThat(ReadRoute.replicaFault(
                        new StoreException("reading", new SQLTransientConnectionException("pool timed out"))))
                .isTrue();
        for (String state : new String[] {"42P01", "22021", "23505", "XX000", "42501"}) {
            assertThat(ReadRoute.replicaFault(new StoreException("reading", new SQLException("x", state))))
                    .as(state)
                    .isFalse();
        }
        assertThat(ReadRoute.replicaFault(new StoreException("reading", new SQLException("no state"))))
                .isFalse();
        assertThat(ReadRoute.replicaFault(new IllegalStateException("the caller's", new SQLException("x", "08006"))))
                .as("a failure that is not the store's (a search's own timeout) is the caller's")
                .isFalse();
    }
}
