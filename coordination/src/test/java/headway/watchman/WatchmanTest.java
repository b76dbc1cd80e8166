package headway.watchman;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.coordination.NodeRegistry;
import headway.coordination.RangeRow;
import headway.coordination.WithCoordinationDatabase;
import headway.store.Holder;
import headway.store.StoreException;
import headway.store.TestDatabase;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WatchmanTest extends WithCoordinationDatabase {

    private static final Duration LEASE_TTL = Duration.ofSeconds(30);
    private static final Duration RANGE_BOUND = Duration.ofMinutes(5);
    private static final Duration GROUP_BOUND = Duration.ofMinutes(30);
    private static final Duration NODE_TTL = Duration.ofSeconds(15);
    private static final Watchman.Bounds BOUNDS = new Watchman.Bounds(RANGE_BOUND, GROUP_BOUND, NODE_TTL);

    @BeforeEach
    void empty() {
        TestDatabase.execute(ds, "drop trigger if exists fail_one on stuck_moves");
    }

    @Test
    void everyConflictIsCountedByExactlyOneScan() {
        Watchman watchman = new Watchman(ds);
        watchman.scan(BOUNDS);
        groups.add("alt.binaries.claimed", 0);
        Holder stale = leases.lease("alt.binaries.claimed", "n1", LEASE_TTL).holder();
        TestDatabase.setClockSkew(ds, LEASE_TTL.plusSeconds(1));
        leases.lease("alt.binaries.claimed", "n2", LEASE_TTL);
        TestDatabase.setClockSkew(ds, Duration.ZERO);
        assertThatThrownBy(() -> leases.renew(stale)).isInstanceOf(headway.store.LeaseLostException.class);

        assertThat(watchman.scan(BOUNDS).conflicts())
                .as("the takeover and the refused renewal")
                .isEqualTo(2);
        assertThat(watchman.scan(BOUNDS).conflicts()).as("counted once").isZero();
        assertThatThrownBy(() -> leases.renew(stale)).isInstanceOf(headway.store.LeaseLostException.class);
        assertThat(watchman.scan(BOUNDS).conflicts()).isEqualTo(1);
    }

    @Test
    void anEventCommittedAfterAScanThatCameAfterItsIdIsStillCountedOnce() throws SQLException {
        Watchman watchman = new Watchman(ds);
        groups.add("alt.binaries.slow", 0);
        String insert =
                "insert into lease_events (group_name, kind, node_id, epoch) values ('alt.binaries.slow', 'takeover', ?, 2)";
        try (java.sql.Connection slow = ds.getConnection()) {
            slow.setAutoCommit(false);
            try (var st = slow.prepareStatement(insert)) {
                st.setString(1, "n-slow");
                st.executeUpdate(); // draws the lower id, commits last
            }
            TestDatabase.execute(
                    ds,
                    "insert into lease_events (group_name, kind, node_id, epoch) values ('alt.binaries.slow', 'lease_lost', 'n-fast', 3)");
            assertThat(watchman.scan(BOUNDS).conflicts())
                    .as("the committed one")
                    .isEqualTo(1);
            slow.commit();
        }
        assertThat(watchman.scan(BOUNDS).conflicts())
                .as("the one whose id is below the last counted, committed after that scan")
                .isEqualTo(1);
        assertThat(watchman.scan(BOUNDS).conflicts()).isZero();
    }

    @Test
    void overlappingScansCountEachConflictOnce() throws Exception {
        groups.add("alt.binaries.busy", 0);
        for (int i = 0; i < 200; i++) {
            TestDatabase.execute(
                    ds,
                    "insert into lease_events (group_name, kind, node_id, epoch) values ('alt.binaries.busy', 'takeover', 'n', "
                            + i + ")");
        }
        var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            java.util.List<java.util.concurrent.Future<Integer>> counts = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                counts.add(pool.submit(() -> new Watchman(ds).scan(BOUNDS).conflicts()));
            }
            int total = 0;
            for (var f : counts) {
                total += f.get();
            }
            assertThat(total).isEqualTo(200);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aLeasedRangeIsStuckOnceItsPulseRunsOut() {
        Leased r = leasedRange("alt.binaries.x");
        Watchman watchman = new Watchman(ds);

        Watchman.ScanResult first = watchman.scan(BOUNDS);
        assertThat(first.opened()).isEmpty();
        Watchman.Pulse pulse = rangePulse(first, r.range().id());
        assertThat(pulse.ttl()).isLessThanOrEqualTo(RANGE_BOUND).isGreaterThan(RANGE_BOUND.minusSeconds(10));

        TestDatabase.setClockSkew(ds, RANGE_BOUND.plusSeconds(1));
        Watchman.ScanResult late = watchman.scan(BOUNDS);

        assertThat(late.opened()).singleElement().satisfies(s -> {
            assertThat(s.kind()).isEqualTo("range");
            assertThat(s.subject()).isEqualTo(Long.toString(r.range().id()));
            assertThat(s.group()).isEqualTo("alt.binaries.x");
            assertThat(s.waitedFor()).contains("range " + r.range().id()).contains("article 1");
            assertThat(s.since()).isEqualTo(pulse.since());
            assertThat(s.movedAt()).isNull();
        });
        assertThat(late.pulses()).noneMatch(p -> p.kind().equals("range"));
        assertThat(late.open()).hasSize(1);
        assertThat(late.at())
                .as("the scan's time is that of its open records, read after its writes")
                .isAfterOrEqualTo(late.opened().get(0).detectedAt())
                .isAfter(first.at());
        assertThat(watchman.scan(BOUNDS).opened())
                .as("one open record per move")
                .isEmpty();
        assertThat(watchman.open()).hasSize(1);
    }

    @Test
    void aRangeInsideItsBoundIsNotStuck() {
        Leased r = leasedRange("alt.binaries.x");
        TestDatabase.setClockSkew(ds, RANGE_BOUND.minusSeconds(2));

        Watchman.ScanResult result = new Watchman(ds).scan(BOUNDS);

        assertThat(result.opened()).isEmpty();
        assertThat(result.open()).isEmpty();
        assertThat(rangePulse(result, r.range().id()).ttl()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aMoveOlderThanItsBoundWhenFirstSeenIsStuckAtOnce() {
        Leased r = leasedRange("alt.binaries.x");
        TestDatabase.setClockSkew(ds, GROUP_BOUND.plusMinutes(1));

        Watchman.ScanResult first = new Watchman(ds).scan(BOUNDS);

        assertThat(first.opened())
                .extracting(Watchman.StuckMove::kind, Watchman.StuckMove::subject)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(
                                "range", Long.toString(r.range().id())),
                        org.assertj.core.groups.Tuple.tuple("group", "alt.binaries.x"));
        assertThat(first.pulses()).isEmpty();
    }

    @Test
    void aHeartbeatThatDoesNotMoveTheCursorIsNoProgress() {
        Leased r = leasedRange("alt.binaries.x");
        Watchman watchman = new Watchman(ds);
        Instant since = rangePulse(watchman.scan(BOUNDS), r.range().id()).since();

        TestDatabase.setClockSkew(ds, RANGE_BOUND.minusMinutes(1));
        ranges.heartbeat(r.holder(), r.range().id(), r.range().next());
        assertThat(rangePulse(watchman.scan(BOUNDS), r.range().id()).since()).isEqualTo(since);

        TestDatabase.setClockSkew(ds, RANGE_BOUND.plusSeconds(1));
        ranges.heartbeat(r.holder(), r.range().id(), r.range().next());
        assertThat(watchman.scan(BOUNDS).opened())
                .singleElement()
                .satisfies(s -> assertThat(s.since()).isEqualTo(since));
    }

    @Test
    void aGroupWhoseLagDoesNotShrinkIsStuckAfterTheBound() {
        groups.add("alt.binaries.idle", 0);
        groups.plan("alt.binaries.idle", 1, 300, 100, 1);
        Watchman watchman = new Watchman(ds);

        Watchman.ScanResult first = watchman.scan(BOUNDS);
        Watchman.Pulse pulse = first.pulses().stream()
                .filter(p -> p.kind().equals("group"))
                .findFirst()
                .orElseThrow();
        assertThat(pulse.subject()).isEqualTo("alt.binaries.idle");
        assertThat(pulse.ttl()).isLessThanOrEqualTo(GROUP_BOUND).isGreaterThan(GROUP_BOUND.minusSeconds(10));

        TestDatabase.setClockSkew(ds, GROUP_BOUND.minusSeconds(5));
        assertThat(watchman.scan(BOUNDS).opened()).isEmpty();

        TestDatabase.setClockSkew(ds, GROUP_BOUND.plusSeconds(1));
        Watchman.ScanResult late = watchman.scan(BOUNDS);
        assertThat(late.opened()).singleElement().satisfies(s -> {
            assertThat(s.kind()).isEqualTo("group");
            assertThat(s.subject()).isEqualTo("alt.binaries.idle");
            assertThat(s.waitedFor()).contains("300 articles");
            assertThat(s.since()).isEqualTo(pulse.since());
            assertThat(s.detail()).isEqualTo("not held");
        });
    }

    @Test
    void aShrinkingLagRestartsTheGroupPulseButPlanningMoreDoesNot() {
        Leased r = leasedRange("alt.binaries.x");
        Watchman watchman = new Watchman(ds);
        watchman.scan(BOUNDS);

        TestDatabase.setClockSkew(ds, Duration.ofMinutes(20));
        ranges.heartbeat(r.holder(), r.range().id(), 50);
        Watchman.ScanResult progressed = watchman.scan(BOUNDS);
        assertThat(groupPulse(progressed, "alt.binaries.x").ttl()).isGreaterThan(GROUP_BOUND.minusSeconds(10));

        TestDatabase.setClockSkew(ds, Duration.ofMinutes(40));
        groups.plan("alt.binaries.x", 101, 400, 100, -1);
        Watchman.ScanResult planned = watchman.scan(BOUNDS);
        assertThat(planned.opened()).noneMatch(s -> s.kind().equals("group"));
        assertThat(groupPulse(planned, "alt.binaries.x").ttl())
                .as("planning more ranges is no progress")
                .isLessThanOrEqualTo(Duration.ofMinutes(10));

        TestDatabase.setClockSkew(ds, Duration.ofMinutes(51));
        assertThat(watchman.scan(BOUNDS).opened()).anyMatch(s -> s.kind().equals("group"));
    }

    @Test
    void aStuckRangeThatMovesIsMarkedMovedAndKeptInTheHistory() {
        Leased r = leasedRange("alt.binaries.x");
        Watchman watchman = new Watchman(ds);
        TestDatabase.setClockSkew(ds, RANGE_BOUND.plusSeconds(1));
        Watchman.StuckMove stuck = watchman.scan(BOUNDS).opened().get(0);

        TestDatabase.setClockSkew(ds, RANGE_BOUND.plusSeconds(30));
        ranges.heartbeat(r.holder(), r.range().id(), 40);
        Watchman.ScanResult moved = watchman.scan(BOUNDS);

        assertThat(moved.closed()).singleElement().satisfies(s -> {
            assertThat(s.id()).isEqualTo(stuck.id());
            assertThat(s.movedAt()).isNotNull().isAfter(stuck.detectedAt());
            assertThat(s.movedHow()).isEqualTo("cursor moved");
        });
        assertThat(moved.open()).isEmpty();
        assertThat(moved.opened()).isEmpty();
        assertThat(watchman.history(10)).singleElement().satisfies(s -> {
            assertThat(s.id()).isEqualTo(stuck.id());
            assertThat(s.open()).isFalse();
        });

        TestDatabase.setClockSkew(ds, RANGE_BOUND.multipliedBy(2).plusSeconds(31));
        Watchman.ScanResult again = watchman.scan(BOUNDS);
        assertThat(again.opened())
                .singleElement()
                .satisfies(s -> assertThat(s.id()).isNotEqualTo(stuck.id()));
        assertThat(watchman.history(10)).hasSize(2);

        ranges.rangeDone(r.holder(), r.range().id(), 100);
        assertThat(watchman.scan(BOUNDS).closed())
                .extracting(Watchman.StuckMove::movedHow)
                .containsExactly("range done");
        assertThat(watchman.history(10)).allMatch(s -> !s.open());
    }

    @Test
    void aStuckGroupIsMarkedMovedWhenItsLagShrinks() {
        Leased r = leasedRange("alt.binaries.x");
        Watchman watchman = new Watchman(ds);
        watchman.scan(BOUNDS);
        TestDatabase.setClockSkew(ds, GROUP_BOUND.plusMinutes(1));
        assertThat(watchman.scan(BOUNDS).open()).anyMatch(s -> s.kind().equals("group"));

        ranges.heartbeat(r.holder(), r.range().id(), 30);
        Watchman.ScanResult moved = watchman.scan(BOUNDS);

        assertThat(moved.closed())
                .extracting(Watchman.StuckMove::kind, Watchman.StuckMove::movedHow)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("range", "cursor moved"),
                        org.assertj.core.groups.Tuple.tuple("group", "lag shrank"));
        assertThat(moved.open()).isEmpty();
    }

    @Test
    void aMoveThatHappenedWhileTheWatchmanWasAwayWritesNoStuckRecord() {
        Leased r = leasedRange("alt.binaries.x");
        assertThat(new Watchman(ds).scan(BOUNDS).pulses())
                .anyMatch(p -> p.kind().equals("range"));

        TestDatabase.setClockSkew(ds, RANGE_BOUND.plusMinutes(1));
        ranges.heartbeat(r.holder(), r.range().id(), 20);
        Watchman.ScanResult afterRestart = new Watchman(ds).scan(BOUNDS);

        assertThat(afterRestart.opened()).isEmpty();
        assertThat(afterRestart.open()).isEmpty();
        assertThat(rangePulse(afterRestart, r.range().id()).ttl()).isGreaterThan(RANGE_BOUND.minusSeconds(10));
        assertThat(TestDatabase.queryLong(ds, "select count(*) from stuck_moves"))
                .isZero();
    }

    @Test
    void anOpenRecordWhoseMoveHappenedWhileTheWatchmanWasAwayIsClosedNotRepeated() {
        Leased r = leasedRange("alt.binaries.x");
        TestDatabase.setClockSkew(ds, RANGE_BOUND.plusSeconds(1));
        assertThat(new Watchman(ds).scan(BOUNDS).opened()).hasSize(1);

        TestDatabase.setClockSkew(ds, RANGE_BOUND.multipliedBy(2));
        ranges.heartbeat(r.holder(), r.range().id(), 20);
        Watchman.ScanResult afterRestart = new Watchman(ds).scan(BOUNDS);

        assertThat(afterRestart.closed()).hasSize(1);
        assertThat(afterRestart.opened()).isEmpty();
        assertThat(TestDatabase.queryLong(ds, "select count(*) from stuck_moves"))
                .isEqualTo(1);
    }

    @Test
    void nodePresenceFlipsWithTheHeartbeatAndDatesEachChange() {
        NodeRegistry registry = new NodeRegistry(ds, "n1", "10.0.0.1:7000", NODE_TTL, Clock.systemUTC());
        registry.register();
        Watchman watchman = new Watchman(ds);

        Watchman.Presence seen = watchman.scan(BOUNDS).presenceChanges().get(0);
        assertThat(seen.firstSeen()).isTrue();
        assertThat(seen.online()).isTrue();
        assertThat(watchman.scan(BOUNDS).presenceChanges())
                .as("no change, no flip")
                .isEmpty();

        TestDatabase.setClockSkew(ds, NODE_TTL.plusSeconds(1));
        Watchman.Presence offline = watchman.scan(BOUNDS).presenceChanges().get(0);
        assertThat(offline.online()).isFalse();
        assertThat(offline.firstSeen()).isFalse();
        assertThat(offline.since()).isAfter(seen.since().plus(NODE_TTL));
        assertThat(offline.lastSeen()).isEqualTo(seen.lastSeen());
        assertThat(watchman.scan(BOUNDS).presenceChanges()).isEmpty();

        TestDatabase.setClockSkew(ds, NODE_TTL.plusSeconds(5));
        registry.heartbeat();
        Watchman.Presence back = watchman.scan(BOUNDS).presenceChanges().get(0);
        assertThat(back.online()).isTrue();
        assertThat(back.since()).isAfter(offline.since());
        assertThat(back.lastSeen()).isAfter(offline.lastSeen());
    }

    @Test
    void aDeregisteredNodeGoesOffline() {
        NodeRegistry registry = new NodeRegistry(ds, "n1", "10.0.0.1:7000", NODE_TTL, Clock.systemUTC());
        registry.register();
        Watchman watchman = new Watchman(ds);
        watchman.scan(BOUNDS);

        registry.deregister();

        assertThat(watchman.scan(BOUNDS).presenceChanges())
                .singleElement()
                .satisfies(p -> assertThat(p.online()).isFalse());
        assertThat(watchman.scan(BOUNDS).presenceChanges()).isEmpty();
    }

    @Test
    void aFailedWriteIsCountedAndTheScanCarriesOn() {
        Leased failing = leasedRange("alt.binaries.a");
        Leased fine = leasedRange("alt.binaries.b");
        TestDatabase.execute(ds, """
                create or replace function fail_one() returns trigger language plpgsql as $$
                begin
                    if new.subject = '%d' then
                        raise exception 'injected failure for range %%', new.subject;
                    end if;
                    return new;
                end $$
                """.formatted(failing.range().id()));
        TestDatabase.execute(
                ds, "create trigger fail_one before insert on stuck_moves for each row execute function fail_one()");
        TestDatabase.setClockSkew(ds, RANGE_BOUND.plusSeconds(1));
        Watchman watchman = new Watchman(ds);

        Watchman.ScanResult result = watchman.scan(BOUNDS);

        assertThat(result.writeFailures()).isEqualTo(1);
        assertThat(result.opened())
                .extracting(Watchman.StuckMove::subject)
                .containsExactly(Long.toString(fine.range().id()));

        TestDatabase.execute(ds, "drop trigger fail_one on stuck_moves");
        Watchman.ScanResult retried = watchman.scan(BOUNDS);
        assertThat(retried.writeFailures()).isZero();
        assertThat(retried.opened())
                .extracting(Watchman.StuckMove::subject)
                .containsExactly(Long.toString(failing.range().id()));
    }

    @Test
    void onlyOneOpenRecordPerMove() {
        String insert = "insert into stuck_moves (kind, subject, group_name, waited_for, since) "
                + "values ('range', '17', 'g', 'cursor', hw_now())";
        TestDatabase.execute(ds, insert);

        assertThatThrownBy(() -> TestDatabase.execute(ds, insert))
                .isInstanceOf(StoreException.class)
                .hasCauseInstanceOf(SQLException.class)
                .hasMessageContaining("stuck_moves_open");

        TestDatabase.execute(ds, "update stuck_moves set moved_at = hw_now(), moved_how = 'cursor moved'");
        TestDatabase.execute(ds, insert);
        assertThat(TestDatabase.queryLong(ds, "select count(*) from stuck_moves"))
                .isEqualTo(2);
    }

    @Test
    void boundsNameTheSettingAndAnExample() {
        assertThatThrownBy(() -> new Watchman.Bounds(Duration.ZERO, GROUP_BOUND, NODE_TTL))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("range bound")
                .hasMessageContaining("e.g. 5m");
    }

    private record Leased(Holder holder, RangeRow range) {}

    private Leased leasedRange(String group) {
        groups.add(group, 0);
        groups.plan(group, 1, 100, 100, 1);
        Holder h = leases.lease(group, "n1", LEASE_TTL).holder();
        return new Leased(h, ranges.nextRange(h, null).orElseThrow());
    }

    private static Watchman.Pulse rangePulse(Watchman.ScanResult result, long rangeId) {
        return result.pulses().stream()
                .filter(p -> p.kind().equals("range") && p.subject().equals(Long.toString(rangeId)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no live pulse for range " + rangeId + " in " + result.pulses()));
    }

    private static Watchman.Pulse groupPulse(Watchman.ScanResult result, String group) {
        return result.pulses().stream()
                .filter(p -> p.kind().equals("group") && p.subject().equals(group))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no live pulse for group " + group + " in " + result.pulses()));
    }
}
