package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.coordination.GroupStore;
import headway.coordination.LeaseStore;
import headway.coordination.RangeRow;
import headway.coordination.RangeStore;
import headway.store.Holder;
import headway.store.TestDatabase;
import headway.watchman.Watchman;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class WatchmanActivitiesImplTest {

    private static final Duration RANGE_BOUND = Duration.ofMinutes(5);
    private static final Watchman.Bounds BOUNDS =
            new Watchman.Bounds(RANGE_BOUND, Duration.ofMinutes(30), Duration.ofSeconds(15));

    private static HikariDataSource ds;

    @BeforeAll
    static void database() {
        ds = TestDatabase.migrated("watchman_activity");
    }

    @AfterAll
    static void close() {
        ds.close();
    }

    @Test
    void theSummaryNamesGroupsNewlyStuckAndUnstuck() {
        GroupStore groups = new GroupStore(ds);
        LeaseStore leases = new LeaseStore(ds, 0);
        RangeStore ranges = new RangeStore(ds, 0);
        groups.add("alt.binaries.x", 0);
        groups.plan("alt.binaries.x", 1, 100, 100, 1);
        Holder h = leases.lease("alt.binaries.x", "n1", Duration.ofSeconds(30)).holder();
        RangeRow r = ranges.nextRange(h, null).orElseThrow();
        WatchmanActivities activities = new WatchmanActivitiesImpl(new Watchman(ds), BOUNDS);
        assertThat(activities.scan().livePulses()).isEqualTo(2);

        TestDatabase.setClockSkew(ds, RANGE_BOUND.plusSeconds(1));
        WatchmanSummary stuck = activities.scan();
        assertThat(stuck.newlyStuckGroups()).containsExactly("alt.binaries.x");
        assertThat(stuck.stuckGroups()).containsExactly("alt.binaries.x");
        assertThat(stuck.opened()).isEqualTo(1);

        ranges.heartbeat(h, r.id(), 50);
        WatchmanSummary moved = activities.scan();
        assertThat(moved.unstuckGroups()).containsExactly("alt.binaries.x");
        assertThat(moved.stuckGroups()).isEmpty();
        assertThat(moved.closed()).isEqualTo(1);
    }

    /** Overlapping scans: one opens a record that another closes before the first reads the open ones back. */
    @Test
    void aGroupWhoseNewRecordIsClosedBeforeTheScanEndsIsNotNewlyStuck() {
        Instant t = Instant.parse("2026-01-02T03:04:05Z");
        Watchman.StuckMove opened =
                new Watchman.StuckMove(1, "range", "7", "alt.binaries.x", "cursor", t, t, null, null, "leased");
        Watchman.StuckMove other =
                new Watchman.StuckMove(2, "range", "8", "alt.binaries.y", "cursor", t, t, null, null, "leased");

        WatchmanSummary summary = WatchmanActivitiesImpl.summarize(new Watchman.ScanResult(
                t.plusSeconds(1), List.of(opened, other), List.of(), List.of(other), List.of(), List.of(), 0, 3));

        assertThat(summary.newlyStuckGroups()).containsExactly("alt.binaries.y");
        assertThat(summary.stuckGroups()).containsExactly("alt.binaries.y");
        assertThat(summary.unstuckGroups()).isEmpty();
        assertThat(summary.at()).isEqualTo(t.plusSeconds(1));
        assertThat(summary.conflicts()).isEqualTo(3);
    }
}
