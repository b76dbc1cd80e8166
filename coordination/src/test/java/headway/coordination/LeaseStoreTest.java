package headway.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.catalog.CatalogStore;
import headway.catalog.CatalogStoreTest;
import headway.store.Holder;
import headway.store.LeaseLostException;
import headway.store.TestDatabase;
import headway.store.UnknownGroupException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeaseStoreTest extends WithCoordinationDatabase {

    private static final Duration TTL = Duration.ofSeconds(30);

    @Test
    void aHoldersLeasesEndWithItsRegistryRowNotAfterTheLeaseTtl() {
        groups.add("alt.binaries.orphaned", 0);
        groups.plan("alt.binaries.orphaned", 1, 100, 100, 1);
        groups.add("alt.binaries.rowless", 0);
        groups.plan("alt.binaries.rowless", 1, 100, 100, 1);
        Duration nodeTtl = Duration.ofSeconds(15);
        NodeRegistry dead = new NodeRegistry(ds, "dead", "10.0.0.9:9000", nodeTtl, java.time.Clock.systemUTC());
        dead.heartbeat();
        assertThat(leases.lease("alt.binaries.orphaned", "dead", TTL).granted()).isTrue();
        assertThat(leases.lease("alt.binaries.rowless", "never-registered", TTL).granted())
                .isTrue();

        TestDatabase.setClockSkew(ds, Duration.ofSeconds(10));
        LeaseOutcome early = leases.lease("alt.binaries.orphaned", "heir", TTL);
        assertThat(early.granted()).as("its row is still live").isFalse();
        assertThat(early.freeIn())
                .as("free when its row expires, in about 5 s, not when its lease does, in about 20 s")
                .isBetween(Duration.ofSeconds(4), Duration.ofSeconds(5));

        TestDatabase.setClockSkew(ds, nodeTtl.plusSeconds(1)); // past the node TTL, well within the lease TTL
        assertThat(leases.leasingOrder(TTL, 10))
                .contains("alt.binaries.orphaned")
                .doesNotContain("alt.binaries.rowless");
        LeaseOutcome taken = leases.lease("alt.binaries.orphaned", "heir", TTL);
        assertThat(taken.granted()).isTrue();
        assertThat(taken.takeover()).as("fenced as any takeover").isTrue();
        assertThat(taken.previousHolder()).isEqualTo("dead");
        assertThat(leases.lease("alt.binaries.rowless", "heir", TTL).granted())
                .as("a holder with no row frees nothing early")
                .isFalse();
        TestDatabase.setClockSkew(ds, Duration.ZERO);
    }

    @Test
    void aHistoryWorkersTurnIsNotHeldBackByATailGroupWaitingForATailWorker() {
        groups.add("g.tail", 0);
        groups.plan("g.tail", 1, 100, 100, -1);
        groups.add("g.history", 0);
        groups.plan("g.history", 1, 100, 100, 1);
        leases.want("g.tail");
        assertThat(leases.leaseInTurn("g.history", "any", TTL, Band.ALL).granted())
                .as("an all worker serves the tail group first")
                .isFalse();
        LeaseOutcome history = leases.leaseInTurn("g.history", "backfiller", TTL, Band.HISTORY);
        assertThat(history.granted())
                .as("a history worker cannot serve the tail group, so it does not wait for it")
                .isTrue();
        assertThat(leases.leaseInTurn("g.tail", "follower", TTL, Band.TAIL).granted())
                .isTrue();
    }

    @Test
    void aSnapshotCoversItsOwnBandATakeInTheOtherBandRebuildsInsteadAndRedoesNothingOfTheFirst() {
        String g = "alt.binaries.bands";
        groups.add(g, 0);
        groups.plan(g, 1, 200, 100, 1); // history 1-100, 101-200
        groups.plan(g, 201, 300, 100, -1); // tail 201-300
        RangeStore ranges = new RangeStore(ds, 0);

        Holder tail = leases.leaseInTurn(g, "t1", TTL, Band.TAIL).holder();
        RangeRow t = ranges.nextRange(tail, null, Band.TAIL).orElseThrow();
        ranges.rangeDone(tail, t.id(), 100);
        recordSnapshot(tail, 301);
        leases.release(tail);

        LeaseOutcome history = leases.leaseInTurn(g, "h1", TTL, Band.HISTORY);
        assertThat(history.snapshotNext())
                .as("the tail's snapshot is not the history's window: the history holder rebuilds its own")
                .isNull();
        assertThat(TestDatabase.queryLong(
                        ds, "select count(*) from ranges where group_name = '" + g + "' and status = 'done'"))
                .as("the tail range done stays done")
                .isEqualTo(1);
        RangeRow h = ranges.nextRange(history.holder(), null, Band.HISTORY).orElseThrow();
        assertThat(h.start()).isEqualTo(1);
        ranges.rangeDone(history.holder(), h.id(), 100);
        recordSnapshot(history.holder(), 101);
        leases.release(history.holder());
        groups.plan(g, 301, 400, 100, -1); // the planner's next tail

        assertThat(leases.outlook(g).plannedRanges())
                .as("the tail range done past the history snapshot (at 101) is not work to redo:"
                        + " tail 301-400 and history 101-200 are")
                .isEqualTo(2);
        assertThat(leases.indexedTo(g, Band.TAIL)).isEqualTo(301);
        assertThat(leases.indexedTo(g, Band.HISTORY)).isEqualTo(101);
        assertThat(leases.indexedTo(g)).isEqualTo(301);

        LeaseOutcome again = leases.leaseInTurn(g, "t1", TTL, Band.TAIL);
        assertThat(again.granted()).isTrue();
        assertThat(again.snapshotNext())
                .as("the history's snapshot is not the tail's window")
                .isNull();
        assertThat(leases.replanToRebuildWindow(again.holder(), 250, Band.TAIL))
                .as("the tail rebuilds its window from its own ranges alone")
                .isEqualTo(1);
        assertThat(TestDatabase.queryLong(
                        ds,
                        "select count(*) from ranges where group_name = '" + g
                                + "' and status = 'done' and priority > 0"))
                .as("the history range done is left alone")
                .isEqualTo(1);
        recordSnapshot(again.holder(), 301);
        leases.release(again.holder());
        LeaseOutcome same = leases.leaseInTurn(g, "t2", TTL, Band.TAIL);
        assertThat(same.snapshotNext())
                .as("a take in the snapshot's band uses it")
                .isEqualTo(301);
        assertThat(TestDatabase.queryLong(
                        ds,
                        "select count(*) from ranges where group_name = '" + g
                                + "' and status = 'done' and priority > 0"))
                .as("and re-plans only its band past it")
                .isEqualTo(1);
    }

    @Test
    void catalogedToIsTheLastArticleOfAnyBinaryOfTheGroup() throws Exception {
        groups.add("alt.binaries.spanned", 0);
        groups.add("alt.binaries.bare", 0);
        try (var c = ds.getConnection()) {
            c.setAutoCommit(false);
            new CatalogStore()
                    .writeBinaries(
                            c,
                            List.of(
                                    CatalogStoreTest.binary("alt.binaries.spanned", "R", "r.rar", 9, 1, 1, 7),
                                    CatalogStoreTest.binary("alt.binaries.spanned", "R", "s.rar", 9, 2, 3)));
            c.commit();
        }
        assertThat(leases.catalogedTo("alt.binaries.spanned"))
                .isEqualTo(2007); // binary(): last article 2000 + last part
        assertThat(leases.catalogedTo("alt.binaries.bare")).isZero();
    }

    @Test
    void leasingOrderPutsTheMostUrgentRangeFirst() {
        groups.add("a.history", 0);
        groups.plan("a.history", 1, 100, 100, 10);
        groups.add("b.tail", 5);
        groups.plan("b.tail", 1000, 1099, 100, -1);
        groups.add("c.history.newer", 0);
        groups.plan("c.history.newer", 1, 100, 100, 3);

        assertThat(leases.leasingOrder(TTL, 10)).containsExactly("b.tail", "c.history.newer", "a.history");
        assertThat(leases.leaseNext("n1", TTL))
                .get()
                .extracting(o -> o.holder().group())
                .isEqualTo("b.tail");
    }

    @Test
    void neverHeldGroupsComeBeforeLongestUnheldThenGroupPriority() {
        for (String g : List.of("g.one", "g.two", "g.three")) {
            groups.add(g, 0);
            groups.plan(g, 1, 200, 100, 1);
        }
        groups.add("g.urgent", -5);
        groups.plan("g.urgent", 1, 200, 100, 1);
        Holder one = leases.lease("g.one", "n1", TTL).holder();
        leases.release(one);
        TestDatabase.setClockSkew(ds, Duration.ofSeconds(5));
        Holder two = leases.lease("g.two", "n1", TTL).holder();
        leases.release(two);

        assertThat(leases.leasingOrder(TTL, 10)).containsExactly("g.urgent", "g.three", "g.one", "g.two");
    }

    @Test
    void takeoverOnlyAfterTheHolderIsQuietForTheTtl() {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 300, 100, 1);
        LeaseOutcome first = leases.lease("alt.binaries.x", "n1", TTL);
        assertThat(first.granted()).isTrue();
        assertThat(first.holder().epoch()).isEqualTo(1);

        TestDatabase.setClockSkew(ds, TTL.minusSeconds(1));
        LeaseOutcome early = leases.lease("alt.binaries.x", "n2", TTL);
        assertThat(early.granted()).isFalse();
        assertThat(early.heldBy()).isEqualTo("n1");
        assertThat(early.freeIn())
                .as("the holder's lease expires in about a second")
                .isBetween(Duration.ofMillis(500), Duration.ofSeconds(1));
        assertThat(leases.leasingOrder(TTL, 10)).isEmpty();

        TestDatabase.setClockSkew(ds, TTL.plusSeconds(1));
        assertThat(leases.leasingOrder(TTL, 10)).containsExactly("alt.binaries.x");
        LeaseOutcome late = leases.lease("alt.binaries.x", "n2", TTL);
        assertThat(late.granted()).isTrue();
        assertThat(late.takeover()).isTrue();
        assertThat(late.previousHolder()).isEqualTo("n1");
        assertThat(late.holder().epoch()).isEqualTo(2);
        assertThat(
                        TestDatabase.queryLong(
                                ds,
                                "select count(*) from lease_events where kind = 'takeover' and node_id = 'n2' and other_node = 'n1'"))
                .isEqualTo(1);
    }

    @Test
    void aHeartbeatKeepsTheLeaseAlive() {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 300, 100, 1);
        Holder h = leases.lease("alt.binaries.x", "n1", TTL).holder();
        RangeRow r = ranges.nextRange(h, null).orElseThrow();
        TestDatabase.setClockSkew(ds, TTL.minusSeconds(2));
        ranges.heartbeat(h, r.id(), 50);
        TestDatabase.setClockSkew(ds, TTL.plusSeconds(2));
        assertThat(leases.lease("alt.binaries.x", "n2", TTL).granted()).isFalse();
    }

    @Test
    void takeReplansFromTheSnapshotCursor() {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 400, 100, 1);
        Holder h = leases.lease("alt.binaries.x", "n1", TTL).holder();
        RangeRow r1 = ranges.nextRange(h, null).orElseThrow();
        ranges.rangeDone(h, r1.id(), 100);
        RangeRow r2 = ranges.nextRange(h, null).orElseThrow();
        ranges.heartbeat(h, r2.id(), 150);
        recordSnapshot(h, 150);
        ranges.heartbeat(h, r2.id(), 180);
        ranges.rangeDone(h, r2.id(), 100);
        RangeRow r3 = ranges.nextRange(h, null).orElseThrow();
        ranges.heartbeat(h, r3.id(), 230);

        TestDatabase.setClockSkew(ds, TTL.plusSeconds(1));
        LeaseOutcome taken = leases.lease("alt.binaries.x", "n2", TTL);

        assertThat(taken.snapshotNext()).isEqualTo(150);
        assertThat(taken.replannedRanges()).isEqualTo(2);
        assertThat(groups.ranges("alt.binaries.x"))
                .extracting(RangeRow::start, RangeRow::next, RangeRow::status)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1L, 101L, "done"),
                        org.assertj.core.groups.Tuple.tuple(101L, 150L, "planned"),
                        org.assertj.core.groups.Tuple.tuple(201L, 201L, "planned"),
                        org.assertj.core.groups.Tuple.tuple(301L, 301L, "planned"));
    }

    @Test
    void takeWithoutSnapshotReplansLeasedRangesAtTheirCursor() {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 300, 100, 1);
        Holder h = leases.lease("alt.binaries.x", "n1", TTL).holder();
        RangeRow r1 = ranges.nextRange(h, null).orElseThrow();
        ranges.rangeDone(h, r1.id(), 100);
        RangeRow r2 = ranges.nextRange(h, null).orElseThrow();
        ranges.heartbeat(h, r2.id(), 170);

        TestDatabase.setClockSkew(ds, TTL.plusSeconds(1));
        LeaseOutcome taken = leases.lease("alt.binaries.x", "n2", TTL);

        assertThat(taken.snapshotNext()).isNull();
        assertThat(taken.replannedRanges()).isEqualTo(1);
        assertThat(groups.ranges("alt.binaries.x"))
                .extracting(RangeRow::next, RangeRow::status, RangeRow::node)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(101L, "done", "n1"),
                        org.assertj.core.groups.Tuple.tuple(170L, "planned", null),
                        org.assertj.core.groups.Tuple.tuple(201L, "planned", null));
        RangeRow resumed = ranges.nextRange(taken.holder(), null).orElseThrow();
        assertThat(resumed.next()).isEqualTo(170);
        assertThat(resumed.attempts()).isEqualTo(2);
    }

    @Test
    void sameNodeTakingAgainFencesItsEarlierAttempt() {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 100, 100, 1);
        Holder earlier = leases.lease("alt.binaries.x", "n1", TTL).holder();
        Holder later = leases.lease("alt.binaries.x", "n1", TTL).holder();
        assertThat(later.epoch()).isEqualTo(earlier.epoch() + 1);
        assertThatThrownBy(() -> ranges.nextRange(earlier, null)).isInstanceOf(LeaseLostException.class);
        assertThat(ranges.nextRange(later, null)).isPresent();
    }

    @Test
    void releasePutsLeasedRangesBackAtTheirCursorOnce() {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 200, 100, 1);
        Holder h = leases.lease("alt.binaries.x", "n1", TTL).holder();
        RangeRow r = ranges.nextRange(h, null).orElseThrow();
        ranges.heartbeat(h, r.id(), 42);
        leases.release(h);
        leases.release(h);
        assertThat(groups.ranges("alt.binaries.x").get(0))
                .extracting(RangeRow::next, RangeRow::status, RangeRow::node)
                .containsExactly(42L, "planned", null);
        assertThat(leases.lease("alt.binaries.x", "n2", TTL).granted())
                .as("a released group is free at once")
                .isTrue();
    }

    @Test
    void aFullCatalogLeasesTailRangesOnly() {
        TestDatabase.execute(ds, "create table if not exists binaries (id bigserial primary key)");
        LeaseStore capped = new LeaseStore(ds, 1);
        RangeStore cappedRanges = new RangeStore(ds, 1);
        groups.add("g.history", 0);
        groups.plan("g.history", 1, 100, 100, 2);
        groups.add("g.mixed", 0);
        groups.plan("g.mixed", 1, 100, 100, 2);
        groups.plan("g.mixed", 501, 600, 100, -1);

        assertThat(capped.catalogFull()).isTrue();
        assertThat(capped.leasingOrder(TTL, 10)).containsExactly("g.mixed");
        assertThat(capped.outlook("g.history").plannedRanges()).isZero();
        Holder h = capped.lease("g.mixed", "n1", TTL).holder();
        assertThat(cappedRanges.nextRange(h, null))
                .get()
                .extracting(RangeRow::start)
                .isEqualTo(501L);
        RangeRow tail = cappedRanges.nextRange(h, null).orElseThrow();
        cappedRanges.rangeDone(h, tail.id(), 100);
        assertThat(cappedRanges.nextRange(h, null)).isEmpty();
        assertThat(ranges.nextRange(h, null))
                .as("without the cap, history is leased")
                .isPresent();
    }

    @Test
    void unknownGroupIsAClearError() {
        assertThatThrownBy(() -> leases.lease("no.such.group", "n1", TTL))
                .isInstanceOf(UnknownGroupException.class)
                .hasMessageContaining("headway groups add no.such.group");
        assertThatThrownBy(() -> groups.plan("no.such.group", 1, 2, 1, 0)).isInstanceOf(UnknownGroupException.class);
        assertThatThrownBy(() -> groups.add("bad name!", 0)).hasMessageContaining("bad group name");
        // the message quotes the first 40 characters: never half of the emoji that straddles them
        assertThatThrownBy(() -> groups.add("a".repeat(39) + "\uD83D\uDE00".repeat(200), 0))
                .hasMessageContaining("'" + "a".repeat(39) + "...'");
    }

    @Test
    void aRangeLeftLeasedByADeadHolderIsWorkTheGroupMustLeaseFor() {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 100, 100, 1);
        Holder dead = leases.lease("alt.binaries.x", "n1", TTL).holder();
        assertThat(ranges.nextRange(dead, null))
                .as("the dead holder leased a range")
                .isPresent();

        assertThat(leases.outlook("alt.binaries.x").plannedRanges())
                .as("the leased range is work")
                .isEqualTo(1);
        assertThat(leases.leasingOrder(TTL, 10)).as("the holder is live").isEmpty();
        TestDatabase.setClockSkew(ds, TTL.plusSeconds(1));
        assertThat(leases.leasingOrder(TTL, 10)).containsExactly("alt.binaries.x");
        Holder next = leases.lease("alt.binaries.x", "n2", TTL).holder();
        assertThat(ranges.nextRange(next, null))
                .get()
                .extracting(RangeRow::start)
                .isEqualTo(1L);
    }

    @Test
    void rangesDonePastTheLastSnapshotAreWorkUntilASnapshotCoversThem() {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 300, 100, -1);
        Holder dead = leases.lease("alt.binaries.x", "n1", TTL).holder();
        finishNextRange(dead);
        recordSnapshot(dead, 101);
        finishNextRange(dead);
        finishNextRange(dead);
        // the holder died here: ranges 101..300 are done, but the binaries they left open lived
        // only in its window, and its snapshot is at 101

        Outlook o = leases.outlook("alt.binaries.x");
        assertThat(o.plannedRanges()).as("the two ranges past the snapshot").isEqualTo(2);
        assertThat(o.urgency()).isEqualTo(-1);
        assertThat(o.lag()).isZero();
        TestDatabase.setClockSkew(ds, TTL.plusSeconds(1));
        LeaseOutcome taken = leases.lease("alt.binaries.x", "n2", TTL);
        assertThat(taken.replannedRanges()).isEqualTo(2);
        Holder next = taken.holder();
        assertThat(ranges.nextRange(next, null))
                .get()
                .extracting(RangeRow::start)
                .isEqualTo(101L);
        finishNextRange(next);
        finishNextRange(next);
        recordSnapshot(next, 301);
        assertThat(leases.outlook("alt.binaries.x").plannedRanges())
                .as("the snapshot covers every done range")
                .isZero();
    }

    @Test
    void groupsEqualInTheOrderShareItsFirstPlaceWhateverTheirNames() {
        for (String g : List.of("alt.binaries.tie.a", "alt.binaries.tie.b", "alt.binaries.tie.c")) {
            groups.add(g, 0);
            groups.plan(g, 1, 100, 100, -1);
            leases.want(g);
        }
        groups.add("alt.binaries.tie.later", 9);
        groups.plan("alt.binaries.tie.later", 1, 100, 100, -1);
        leases.want("alt.binaries.tie.later");

        assertThat(leases.leaseInTurn("alt.binaries.tie.c", "n1", TTL).granted())
                .as("last by name, but equal in urgency, time unheld and priority to the first")
                .isTrue();
        LeaseOutcome later = leases.leaseInTurn("alt.binaries.tie.later", "n1", TTL);
        assertThat(later.granted())
                .as("a worse group priority waits behind the tie")
                .isFalse();
        assertThat(later.heldBy()).isEqualTo("lease order: place 3, first alt.binaries.tie.a");
        assertThat(leases.asking(TTL, 10).order())
                .as("status shows a tie by name")
                .containsExactly("alt.binaries.tie.a", "alt.binaries.tie.b", "alt.binaries.tie.later");
    }

    @Test
    void aGroupWhoseOnlyWorkIsRedoWaitsItsTurnLikeAnyOther() {
        groups.add("alt.binaries.redo", 0);
        groups.plan("alt.binaries.redo", 1, 200, 100, 5);
        Holder dead = leases.lease("alt.binaries.redo", "n1", TTL).holder();
        finishNextRange(dead);
        finishNextRange(dead); // both done past its snapshot (none): its only work is redo
        groups.add("alt.binaries.urgent", 0);
        groups.plan("alt.binaries.urgent", 1, 100, 100, -1);
        leases.want("alt.binaries.urgent");
        TestDatabase.setClockSkew(ds, TTL.plusSeconds(1));

        LeaseOutcome redo = leases.leaseInTurn("alt.binaries.redo", "n2", TTL);
        assertThat(redo.granted()).as("the tail group asked and is more urgent").isFalse();
        assertThat(leases.asking(TTL, 10).order()).containsExactly("alt.binaries.urgent", "alt.binaries.redo");
        assertThat(leases.leaseInTurn("alt.binaries.urgent", "n2", TTL).granted())
                .isTrue();
        TestDatabase.setClockSkew(ds, Duration.ZERO);
    }

    @Test
    void rangesDoneWithoutAnySnapshotAreWork() {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 100, 100, -1);
        finishNextRange(leases.lease("alt.binaries.x", "n1", TTL).holder());
        assertThat(leases.outlook("alt.binaries.x").plannedRanges()).isEqualTo(1);
    }

    private void finishNextRange(Holder h) {
        RangeRow r = ranges.nextRange(h, null).orElseThrow();
        assertThat(ranges.rangeDone(h, r.id(), 0)).isTrue();
    }

    @Test
    void outlookCountsPlannedWorkAndLag() {
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 250, 100, 3);
        groups.plan("alt.binaries.x", 1001, 1100, 100, -1);
        Outlook o = leases.outlook("alt.binaries.x");
        assertThat(o.plannedRanges()).isEqualTo(4);
        assertThat(o.lag()).isEqualTo(350);
        assertThat(o.urgency()).isEqualTo(-1);
        groups.setActive("alt.binaries.x", false);
        assertThat(leases.outlook("alt.binaries.x").active()).isFalse();
        assertThat(leases.leasingOrder(TTL, 10)).isEmpty();
    }

    private void recordSnapshot(Holder h, long next) {
        leases.fence().run(h, "test snapshot", c -> {
            leases.recordSnapshot(c, h, next);
            return null;
        });
    }
}
