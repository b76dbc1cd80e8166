package headway.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.activity.AvailabilityChecker;
import headway.activity.RetentionActivitiesImpl;
import headway.catalog.AvailabilityStore;
import headway.catalog.CatalogRetention;
import headway.catalog.ReleaseQueries;
import headway.coordination.GroupStore;
import headway.nntp.NntpPool;
import headway.nntp.NntpServer;
import headway.simulator.Article;
import headway.simulator.NewsSimulator;
import headway.simulator.NewsSimulator.GroupSpec;
import headway.store.Jdbc;
import headway.store.TestDatabase;
import headway.workflow.RetentionWorkflow;
import headway.workflow.RetentionWorkflowImpl;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The retention schedule's run checks again, after its purge, the availability of the releases
 * nearing the horizon: on TestWorkflowEnvironment with the real activities over embedded PostgreSQL
 * and a news simulator as the check provider. Each release was last checked "broken"; a release
 * checked again is found complete on the simulator, one not due keeps its old row.
 */
class RetentionRecheckTest {
    private static final String GROUP = "alt.binaries.recheck";
    private static final String QUEUE = "headway-recheck";
    private static final int SEGMENTS = 30;

    private static HikariDataSource ds;
    private static NewsSimulator sim;
    private static NntpPool pool;

    @BeforeAll
    static void start() throws Exception {
        ds = TestDatabase.migrated("retention_recheck");
        sim = NewsSimulator.start(NewsSimulator.Options.defaults(), List.of(GroupSpec.posted(GROUP)));
        pool = new NntpPool(NntpPool.Config.defaults(NntpServer.plain(sim.host(), sim.port()))
                .withMaxConnections(2));
        new GroupStore(ds).add(GROUP, 0);
    }

    @AfterAll
    static void stop() {
        if (pool != null) {
            pool.close();
        }
        if (sim != null) {
            sim.close();
        }
        if (ds != null) {
            ds.close();
        }
    }

    @Test
    void withRetentionOnReleasesInTheLastQuarterOfTheirDaysAreCheckedAgain() throws Exception {
        // 100 days: due when posted more than 75 days ago and last checked more than 25 days ago
        seed("on.old.stale", 80, 30); // due
        seed("on.old.fresh", 80, 10); // checked lately
        seed("on.young.stale", 50, 40); // far from the horizon
        seed("on.purged", 120, 60); // past the horizon: the purge removes it first
        Map<String, String> after = run(100);
        assertThat(after)
                .containsEntry("on.old.stale", "complete recent")
                .containsEntry("on.old.fresh", "broken old")
                .containsEntry("on.young.stale", "broken old")
                .doesNotContainKey("on.purged");
    }

    @Test
    void withRetentionOffReleasesOlderThan90DaysAreCheckedEvery30() throws Exception {
        seed("off.old.stale", 200, 31); // due
        seed("off.old.fresh", 200, 29);
        seed("off.young.stale", 89, 60);
        Map<String, String> after = run(0);
        assertThat(after)
                .containsEntry("off.old.stale", "complete recent")
                .containsEntry("off.old.fresh", "broken old")
                .containsEntry("off.young.stale", "broken old");
    }

    /** Runs the retention workflow once with {@code days}; returns each release's class and whether it was checked in the last hour. */
    private static Map<String, String> run(int days) {
        try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
            Worker worker = env.newWorker(QUEUE);
            worker.registerWorkflowImplementationTypes(RetentionWorkflowImpl.class);
            AvailabilityStore store = new AvailabilityStore(ds);
            worker.registerActivitiesImplementations(new RetentionActivitiesImpl(
                    new CatalogRetention(ds),
                    days,
                    1_000_000,
                    store,
                    new AvailabilityChecker(
                            new ReleaseQueries(ds), store, List.of(new AvailabilityChecker.Checked(1, pool)), 20)));
            env.start();
            env.getWorkflowClient()
                    .newWorkflowStub(
                            RetentionWorkflow.class,
                            WorkflowOptions.newBuilder()
                                    .setTaskQueue(QUEUE)
                                    .setWorkflowId("retention")
                                    .build())
                    .purge();
        }
        return Jdbc.inTransaction(ds, "reading availability", c -> {
            Map<String, String> out = new TreeMap<>();
            for (String[] row : Jdbc.list(
                    c, "select name, class, checked_at > now() - interval '1 hour' from release_availability", rs ->
                            new String[] {rs.getString(1), rs.getString(2), rs.getBoolean(3) ? "recent" : "old"})) {
                out.put(row[0], row[1] + " " + row[2]);
            }
            return out;
        });
    }

    /** A release of one binary whose segments the simulator holds, posted and last checked (broken) days ago. */
    private static void seed(String name, int postedDaysAgo, int checkedDaysAgo) throws Exception {
        List<String> ids = new ArrayList<>();
        List<Integer> parts = new ArrayList<>();
        for (int i = 1; i <= SEGMENTS; i++) {
            String id = name + ".p" + i + "@recheck.test";
            sim.postArticle(
                    GROUP,
                    Article.of(
                            "<" + id + ">",
                            "p <p@recheck.test>",
                            GROUP,
                            name + " (" + i + "/" + SEGMENTS + ")",
                            "Mon, 7 Dec 2026 16:11:48 +0000",
                            "x\r\n".getBytes(StandardCharsets.US_ASCII)));
            ids.add(id);
            parts.add(i);
        }
        Jdbc.inTransaction(ds, "seeding " + name, c -> {
            Jdbc.update(
                    c,
                    "insert into binaries (group_name, poster, file_name, total_parts, release_name, subject, posted,"
                            + " first_article, last_article, rule_version, part_numbers, segment_bytes, message_ids,"
                            + " posted_month)"
                            + " select g, 'p', f, t, r, s, p, 1, l, 0, string_to_array(pn, ',')::int[],"
                            + " array_fill(100, array[n]), ids, date_trunc('month', p at time zone 'UTC')::date"
                            + " from (select ?::text g, ?::text f, ?::int t, ?::text r, ?::text s,"
                            + " now() - ? * interval '1 day' p, ?::bigint l, ?::text pn, ?::int n, ?::bytea ids) k",
                    GROUP,
                    name + ".bin",
                    SEGMENTS,
                    name,
                    name,
                    postedDaysAgo,
                    SEGMENTS,
                    String.join(",", parts.stream().map(String::valueOf).toList()),
                    SEGMENTS,
                    headway.store.MessageIdPack.encode(ids));
            Jdbc.update(
                    c,
                    "insert into releases (group_name, poster, name, files_present, files_complete, bytes, posted,"
                            + " completion_percent, complete, rule_version)"
                            + " values (?, 'p', ?, 1, 1, ?, now() - ? * interval '1 day', 100, true, 0)",
                    GROUP,
                    name,
                    100L * SEGMENTS,
                    postedDaysAgo);
            return Jdbc.update(
                    c,
                    "insert into release_availability (group_name, poster, name, provider, segments, asked, missing,"
                            + " class, checked_at) values (?, 'p', ?, 1, ?, ?, ?, 'broken', now() - ? * interval '1 day')",
                    GROUP,
                    name,
                    SEGMENTS,
                    SEGMENTS,
                    SEGMENTS,
                    checkedDaysAgo);
        });
    }
}
