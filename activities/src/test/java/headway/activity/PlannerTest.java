package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.zaxxer.hikari.HikariDataSource;
import headway.coordination.GroupStore;
import headway.coordination.RangeRow;
import headway.nntp.HostileNntpServer;
import headway.nntp.NntpPool;
import headway.store.TestDatabase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The planner against a news server that reports any high-water mark it likes, on embedded
 * PostgreSQL: unbelievable marks are refused at once and plan nothing, believable ones are cut into
 * ranges without overflow right up to the largest article number.
 */
class PlannerTest {
    private static final String G = HostileNntpServer.GROUP;
    private static final long MAX = GroupStore.MAX_ARTICLE;

    private static HostileNntpServer server;
    private static NntpPool pool;
    private HikariDataSource ds;
    private GroupStore groups;

    @BeforeAll
    static void startServer() throws Exception {
        server = HostileNntpServer.start(100);
        pool = new NntpPool(NntpPool.Config.defaults(server.server()).withMaxConnections(1));
    }

    @AfterAll
    static void stopServer() {
        pool.close();
        server.close();
    }

    @BeforeEach
    void database() {
        ds = TestDatabase.migrated("planner");
        groups = new GroupStore(ds);
        groups.add(G, 0);
        server.reportHigh(100);
    }

    @AfterEach
    void closeDatabase() {
        ds.close();
    }

    private Planner planner(long size, long backfill, long maxJump) {
        return new Planner(groups, new NntpHeaderSource(pool), new Planner.Settings(size, backfill, maxJump));
    }

    @Test
    void aHighWaterMarkOfLongMaxIsRefusedAtOnceAndPlansNothing() {
        server.reportHigh(Long.MAX_VALUE);
        long t0 = System.nanoTime();
        Throwable refused =
                catchThrowable(() -> planner(200_000, 1_000_000, 100_000_000).plan(G));

        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        assertThat(refused)
                .isInstanceOf(PlanRefusedException.class)
                .hasMessage(
                        "the news server reports high-water mark 9223372036854775807 for " + G
                                + ", past article 1000000000000000, which no server reaches: it misreports its marks, so"
                                + " nothing was planned; check the server (HEADWAY_NNTP_HOST) or plan by hand with --from/--to");
        assertThat(groups.ranges(G)).isEmpty();
    }

    @Test
    void aJumpPastTheBoundIsRefusedNamingTheSettingAndAJumpWithinItIsPlanned() throws Exception {
        Planner planner = planner(100, 1000, 1000);
        assertThat(planner.plan(G).total()).isEqualTo(1);

        server.reportHigh(100 + 1001);
        assertThatThrownBy(() -> planner.plan(G))
                .isInstanceOf(PlanRefusedException.class)
                .hasMessage("the news server reports high-water mark 1101 for " + G
                        + ", 1001 articles past the highest planned article 100, more than HEADWAY_PLAN_MAX_JUMP=1000;"
                        + " nothing was planned: if the server is right, raise HEADWAY_PLAN_MAX_JUMP or plan the"
                        + " span by hand with --from 101 --to 1101");
        assertThat(groups.ranges(G)).hasSize(1);

        server.reportHigh(100 + 1000);
        Planner.Planned p = planner.plan(G);
        assertThat(p.tailRanges()).isEqualTo(10);
        assertThat(groups.ranges(G))
                .extracting(RangeRow::start, RangeRow::end)
                .last()
                .isEqualTo(org.assertj.core.groups.Tuple.tuple(1001L, 1100L));
    }

    @Test
    void aJumpTooFarIsRefusedEvenWhenTheMarkItselfIsBelievable() {
        Planner planner = planner(100, 1000, 100_000_000);
        planner.plan(G, 1, 100);
        assertThatThrownBy(() -> planner.plan(G, 1, MAX))
                .isInstanceOf(PlanRefusedException.class)
                .hasMessageContaining("more than HEADWAY_PLAN_MAX_JUMP=100000000");
        assertThat(groups.ranges(G)).hasSize(1);
    }

    @Test
    void theLargestArticleNumberIsPlannedWithoutOverflow() {
        Planner.Planned p = planner(200_000, 1_000_000, 100_000_000).plan(G, 1, MAX);

        assertThat(p.tailRanges()).isEqualTo(1);
        assertThat(p.historyRanges()).isEqualTo(4);
        List<RangeRow> ranges = groups.ranges(G);
        assertThat(ranges)
                .extracting(RangeRow::end)
                .allSatisfy(e -> assertThat(e).isBetween(MAX - 1_000_000, MAX));
        assertThat(ranges.get(ranges.size() - 1).end()).isEqualTo(MAX);
        assertThat(ranges.get(0).start()).isEqualTo(MAX - 1_000_000 + 1);
        assertThat(ranges).extracting(RangeRow::priority).containsExactly(4, 3, 2, 1, -1);

        // a range size as large as a long: one range, no sum past Long.MAX_VALUE
        groups.add("alt.binaries.huge", 0);
        assertThat(groups.plan("alt.binaries.huge", 1, MAX, Long.MAX_VALUE, -1)).isEqualTo(1);
        assertThat(groups.planDownward("alt.binaries.huge", MAX - 10, MAX - 1, Long.MAX_VALUE, 1))
                .isEqualTo(1);
        assertThat(groups.ranges("alt.binaries.huge"))
                .extracting(RangeRow::start, RangeRow::end)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1L, MAX),
                        org.assertj.core.groups.Tuple.tuple(MAX - 10, MAX - 1));
    }

    @Test
    void historyIsCutDownwardFromTheNewestWindowAndTailUpward() {
        assertThat(groups.plan(G, 1, 25, 10, -1)).isEqualTo(3);
        assertThat(groups.planDownward(G, 26, 50, 10, 1)).isEqualTo(3);
        assertThat(groups.ranges(G))
                .extracting(RangeRow::start, RangeRow::end, RangeRow::priority)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1L, 10L, -1),
                        org.assertj.core.groups.Tuple.tuple(11L, 20L, -1),
                        org.assertj.core.groups.Tuple.tuple(21L, 25L, -1),
                        org.assertj.core.groups.Tuple.tuple(26L, 30L, 3),
                        org.assertj.core.groups.Tuple.tuple(31L, 40L, 2),
                        org.assertj.core.groups.Tuple.tuple(41L, 50L, 1));
        assertThat(groups.plan(G, 1, 25, 10, -1)).as("idempotent").isZero();
    }

    @Test
    void badRangesAreRefusedWithTheFix() {
        assertThatThrownBy(() -> groups.plan(G, 0, 10, 5, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "bad range [0, 10]: need 1 <= start <= end <= 1000000000000000 (article numbers start at 1)");
        assertThatThrownBy(() -> groups.plan(G, 5, MAX + 1, 5, 1))
                .hasMessageStartingWith("bad range [5, 1000000000000001]");
        assertThatThrownBy(() -> groups.plan(G, 10, 5, 5, 1)).hasMessageStartingWith("bad range [10, 5]");
        assertThatThrownBy(() -> groups.plan(G, 1, MAX, 1, 1))
                .hasMessage("[1, 1000000000000000] in ranges of 1 articles is 1000000000000000 ranges, more than"
                        + " 1000000 at once: use a larger range size (--size or HEADWAY_RANGE_SIZE) or plan a smaller"
                        + " span");
        assertThat(groups.ranges(G)).isEmpty();
    }
}
