package headway.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import headway.store.Holder;
import headway.store.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RangeStoreTest extends WithCoordinationDatabase {

    private static final Duration TTL = Duration.ofSeconds(30);

    @Test
    void nextRangeSkipsRangesLockedByAnotherTransaction() throws Exception {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 300, 100, 1);
        Holder h = leases.lease("alt.binaries.x", "n1", TTL).holder();
        try (Connection other = ds.getConnection()) {
            other.setAutoCommit(false);
            try (PreparedStatement s = other.prepareStatement(
                    "select id from ranges where group_name = 'alt.binaries.x' and start_article = 1 for update")) {
                s.executeQuery().close();
            }
            RangeRow r = CompletableFuture.supplyAsync(
                            () -> ranges.nextRange(h, null).orElseThrow())
                    .get(5, TimeUnit.SECONDS);
            assertThat(r.start()).isEqualTo(101);
            other.rollback();
        }
    }

    @Test
    void aTailHolderTakesOnlyTailRangesAndAHistoryHolderOnlyHistoryOnceNoTailIsPlanned() {
        groups.add("alt.binaries.banded", 0);
        groups.plan("alt.binaries.banded", 1, 200, 100, 1); // history, below
        groups.plan("alt.binaries.banded", 201, 400, 100, -1); // tail, above
        Holder history = leases.lease("alt.binaries.banded", "h1", TTL).holder();
        assertThat(ranges.nextRange(history, null, Band.HISTORY))
                .as("a history holder yields while tail ranges are planned")
                .isEmpty();
        leases.release(history);

        Holder tail = leases.lease("alt.binaries.banded", "t1", TTL).holder();
        for (long start : new long[] {201, 301}) {
            RangeRow r = ranges.nextRange(tail, null, Band.TAIL).orElseThrow();
            assertThat(r.start()).isEqualTo(start);
            assertThat(r.priority()).isNegative();
            ranges.rangeDone(tail, r.id(), 100);
        }
        assertThat(ranges.nextRange(tail, null, Band.TAIL))
                .as("the tail is caught up; the history below is not a tail holder's")
                .isEmpty();
        leases.release(tail);

        Holder backfill = leases.lease("alt.binaries.banded", "h1", TTL).holder();
        RangeRow first = ranges.nextRange(backfill, null, Band.HISTORY).orElseThrow();
        assertThat(first.start()).isEqualTo(1);
        assertThat(first.priority()).isPositive();
        leases.release(backfill);
        Holder any = leases.lease("alt.binaries.banded", "a1", TTL).holder();
        assertThat(ranges.nextRange(any, null, Band.ALL).orElseThrow().start())
                .as("an all holder takes the lowest planned range, as before roles")
                .isEqualTo(1);
    }

    @Test
    void bandsAreParsedFromTheSettingOrRefusedNamingIt() {
        assertThat(Band.parse("HEADWAY_WORKER_ROLE", " Tail ")).isEqualTo(Band.TAIL);
        assertThat(Band.parse("HEADWAY_WORKER_ROLE", "history")).isEqualTo(Band.HISTORY);
        assertThat(Band.parse("HEADWAY_WORKER_ROLE", "ALL")).isEqualTo(Band.ALL);
        for (String bad : new String[] {"", "tails", "t", "history\u0000", "all,tail", "\u0130"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Band.parse("HEADWAY_WORKER_ROLE", bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("HEADWAY_WORKER_ROLE=")
                    .hasMessageContaining("not one of tail, history, all");
        }
        java.util.Random random = new java.util.Random(Long.getLong("headway.seed", 45L));
        for (int i = 0; i < 2_000; i++) {
            StringBuilder any = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                any.appendCodePoint(random.nextInt(Character.MAX_CODE_POINT + 1));
            }
            String value = any.toString();
            try {
                assertThat(Band.parse("HEADWAY_WORKER_ROLE", value).key())
                        .isEqualTo(value.strip().toLowerCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException refused) {
                assertThat(refused.getMessage()).startsWith("HEADWAY_WORKER_ROLE=");
            }
        }
    }

    @Test
    void nextRangeReturnsTheHoldersOwnLeasedRangeFirst() {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 300, 100, 1);
        Holder h = leases.lease("alt.binaries.x", "n1", TTL).holder();
        RangeRow first = ranges.nextRange(h, 7).orElseThrow();
        RangeRow again = ranges.nextRange(h, 7).orElseThrow();
        assertThat(again.id()).isEqualTo(first.id());
        assertThat(again.start()).isEqualTo(1);
        assertThat(again.ruleVersion()).isEqualTo(7);
    }

    @Test
    void caughtUpReturnsNoRange() {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 100, 100, 1);
        Holder h = leases.lease("alt.binaries.x", "n1", TTL).holder();
        RangeRow r = ranges.nextRange(h, null).orElseThrow();
        assertThat(ranges.rangeDone(h, r.id(), 100)).isTrue();
        assertThat(ranges.rangeDone(h, r.id(), 100))
                .as("a repeated finish counts nothing")
                .isFalse();
        assertThat(ranges.nextRange(h, null)).isEmpty();
        assertThat(ranges.lag("alt.binaries.x")).isZero();
        assertThat(TestDatabase.queryLong(ds, "select headers from group_leases"))
                .isEqualTo(100);
    }

    @Test
    void cursorMovesOnlyForwardAndNeverPastTheEnd() {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 100, 100, 1);
        Holder h = leases.lease("alt.binaries.x", "n1", TTL).holder();
        RangeRow r = ranges.nextRange(h, null).orElseThrow();
        ranges.heartbeat(h, r.id(), 60);
        ranges.heartbeat(h, r.id(), 40);
        assertThat(groups.ranges("alt.binaries.x").get(0).next()).isEqualTo(60);
        ranges.heartbeat(h, r.id(), 5000);
        assertThat(groups.ranges("alt.binaries.x").get(0).next()).isEqualTo(101);
    }
}
