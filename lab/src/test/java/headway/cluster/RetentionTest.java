package headway.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import headway.simulator.NewsSimulator;
import headway.worker.Schedules;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code headway-retention} schedule runs every second on the real server while a worker indexes a
 * group whose articles were all posted months ago (the simulator dates them from 2026-06-01): the
 * purges meet the holder's writes, and afterwards every release left is whole (its sums are those of
 * its binaries, no binary without its release), nothing outside the holder's reach is left, and what
 * is within it stays.
 */
class RetentionTest {

    private static final String GROUP = "alt.binaries.retention";
    private static final long ARTICLES = 60_000;
    private static final long MAX_AGE = 3_000;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void purgesMeetingAHoldersWritesLeaveOnlyWholeReleasesWithinItsReach() {
        try (Cluster cluster = Cluster.start("retention", List.of(NewsSimulator.GroupSpec.of(GROUP, 11, ARTICLES)))) {
            cluster.workerEnv("HEADWAY_RETENTION_DAYS", "30");
            cluster.workerEnv("HEADWAY_WINDOW_MAX_AGE", Long.toString(MAX_AGE));
            cluster.workerEnv("HEADWAY_BATCH", "1000");
            cluster.startWorker("w1");
            cluster.addAndPlan(GROUP, 5_000);
            cluster.rig()
                    .installSchedules(new Schedules.Intervals(
                            Duration.ofHours(1), Duration.ofHours(1), Duration.ofHours(1), Duration.ofSeconds(1)));
            cluster.startGroup(GROUP, 1, Duration.ofMinutes(10));
            Cluster.await(
                    Duration.ofSeconds(90),
                    Duration.ofMillis(250),
                    "the group caught up",
                    () -> cluster.queryLong(
                                    "select count(*) from ranges where group_name = ? and status <> 'done'", GROUP)
                            == 0);
            assertThat(completedPurges(cluster))
                    .as("purges ran while the holder wrote (one at install, then every second)")
                    .isGreaterThanOrEqualTo(2);
            // the reach of the holder: MAX_AGE articles behind the cursor (no range is left undone)
            long heldFrom = ARTICLES - MAX_AGE;
            Cluster.await(
                    Duration.ofSeconds(30),
                    Duration.ofMillis(250),
                    "a purge after the catch-up left only releases within the holder's reach or undated",
                    () -> cluster.queryLong("""
                                    select count(*) from releases r
                                    where r.group_name = ? and not exists (
                                        select 1 from binaries b where b.group_name = r.group_name
                                        and b.poster = r.poster and b.release_name = r.name
                                        and (b.posted is null or b.last_article >= ?))
                                    """, GROUP, heldFrom) == 0);
            assertThat(cluster.queryLong(
                            "select count(*) from binaries where group_name = ? and last_article >= ?",
                            GROUP,
                            heldFrom))
                    .as("the binaries within the holder's reach stay")
                    .isPositive();
            assertThat(cluster.queryLong("""
                            select count(*) from binaries b
                            where not exists (select 1 from releases r where r.group_name = b.group_name
                                              and r.poster = b.poster and r.name = b.release_name)
                            """))
                    .as("no binary without its release")
                    .isZero();
            assertThat(cluster.queryLong("""
                            select count(*) from releases r
                            left join lateral (select count(*) as files, coalesce(sum(b.parts_present), 0) as parts,
                                                      coalesce(sum(b.bytes), 0) as bytes
                                               from binaries b where b.group_name = r.group_name
                                               and b.poster = r.poster and b.release_name = r.name) a on true
                            where r.files_present <> a.files or r.parts_present <> a.parts or r.bytes <> a.bytes
                            """))
                    .as("every release left is whole: its sums are its binaries'")
                    .isZero();
            long lowestKept = cluster.queryLong("select min(first_article) from binaries where group_name = ?", GROUP);
            assertThat(lowestKept).as("something was removed").isGreaterThan(ARTICLES / 2);
            assertThat(cluster.queryLong(
                            "select count(*) from missing_runs where group_name = ? and to_article < ?",
                            GROUP,
                            lowestKept - 5_000))
                    .as("the missing runs well below what is kept went with what was removed")
                    .isZero();
        }
    }

    /** Completed runs of the retention workflow, from the server's visibility store. */
    private static int completedPurges(Cluster cluster) {
        return cluster.temporal()
                .serviceStubs()
                .blockingStub()
                .listWorkflowExecutions(ListWorkflowExecutionsRequest.newBuilder()
                        .setNamespace("default")
                        .setQuery("WorkflowType = 'RetentionWorkflow' AND ExecutionStatus = 'Completed'")
                        .build())
                .getExecutionsCount();
    }
}
