package headway.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.zaxxer.hikari.HikariDataSource;
import headway.activity.ConflictReporter;
import headway.activity.Failures;
import headway.activity.GroupActivitiesImpl;
import headway.activity.HeaderSource;
import headway.activity.Holdings;
import headway.activity.IndexMetrics;
import headway.activity.LeaseActivitiesImpl;
import headway.activity.NntpHeaderSource;
import headway.activity.Planner;
import headway.activity.RangeIndexer;
import headway.catalog.CatalogStore;
import headway.coordination.Band;
import headway.coordination.GroupStore;
import headway.coordination.LeaseOutcome;
import headway.coordination.LeaseStore;
import headway.coordination.PostgresSnapshotStore;
import headway.coordination.RangeRow;
import headway.coordination.RangeStore;
import headway.coordination.SnapshotStore;
import headway.index.BadSnapshotException;
import headway.index.CompletedBinary;
import headway.index.RuleSet;
import headway.index.Segment;
import headway.index.Window;
import headway.nntp.GroupInfo;
import headway.nntp.HostileNntpServer;
import headway.nntp.MisbehavingServerException;
import headway.nntp.NntpClient;
import headway.nntp.NntpPool;
import headway.nntp.OverviewSink;
import headway.nntp.Simulators;
import headway.overview.OverviewLine;
import headway.simulator.ArticleKind;
import headway.simulator.NewsSimulator;
import headway.simulator.Truth;
import headway.store.Holder;
import headway.store.TestDatabase;
import headway.workflow.GroupConfig;
import headway.workflow.GroupProgress;
import headway.workflow.GroupRun;
import headway.workflow.GroupState;
import headway.workflow.GroupWorkflow;
import headway.workflow.GroupWorkflowImpl;
import headway.workflow.SearchAttributes;
import headway.workflow.TaskQueues;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.common.SearchAttributeKey;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerOptions;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The group workflow with everything real but Temporal's server: the time-skipping test server,
 * the activities wired as {@link HeadwayWorker#start} wires them (shared queue and the node's own
 * queue), the store on embedded PostgreSQL, and the news simulator as the NNTP server. Each test
 * indexes its own simulated group and then compares the catalog with what the server serves: every
 * valid header is in the catalog or in the stored window exactly once, and every gap or malformed
 * article is a recorded missing run. Time is real (nothing waits on a result while work runs), so
 * heartbeats and the lease TTL behave as in production.
 */
class GroupWorkflowIntegrationTest {

    private static final String NODE = "node-a";
    private static final String OWN_QUEUE = TaskQueues.SHARED + "/node/" + NODE;
    private static final Duration TTL = Duration.ofSeconds(10);
    private static final long ARTICLES = 3000;
    private static final long RANGE_SIZE = 500;
    private static final int BATCH = 100;
    private static final long WINDOW_MAX_AGE = 1000;
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final List<String> GROUPS = List.of(
            "alt.binaries.it.order",
            "alt.binaries.it.cadence",
            "alt.binaries.it.resume",
            "alt.binaries.it.pause",
            "alt.binaries.it.leaselost",
            "alt.binaries.it.retry");

    private static HikariDataSource ds;
    private static NewsSimulator sim;
    private static NntpPool pool;
    private static GroupStore groups;
    private static LeaseStore leases;
    private static RangeStore ranges;

    private TestWorkflowEnvironment env;
    private WorkflowClient client;
    private Planner planner;
    private final HookedSource source = new HookedSource();
    private final List<Long> snapshotsPut = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startServers() throws IOException {
        ds = TestDatabase.migrated("group_it");
        List<NewsSimulator.GroupSpec> specs = new ArrayList<>();
        long seed = 11;
        for (String g : GROUPS) {
            specs.add(new NewsSimulator.GroupSpec(g, seed++, ARTICLES, 5, 15, 4, 0.02, 0.02, 0.01));
        }
        sim = NewsSimulator.start(NewsSimulator.Options.defaults(), specs);
        pool = new NntpPool(NntpPool.Config.defaults(Simulators.server(sim)).withMaxConnections(4));
        groups = new GroupStore(ds);
        leases = new LeaseStore(ds, 0);
        ranges = new RangeStore(ds, 0);
        for (String g : GROUPS) {
            groups.add(g, 0);
        }
    }

    @AfterAll
    static void stopServers() {
        pool.close();
        sim.close();
        ds.close();
    }

    @BeforeEach
    void startWorkers() {
        source.delegate = new NntpHeaderSource(pool);
        env = TestWorkflowEnvironment.newInstance();
        for (SearchAttributeKey<?> key : SearchAttributes.ALL) {
            env.registerSearchAttribute(key.getName(), key.getValueType());
        }
        SnapshotStore snapshots = new RecordingSnapshots(new PostgresSnapshotStore(ds, leases), snapshotsPut);
        Holdings holdings = new Holdings(4);
        IndexMetrics metrics = new IndexMetrics(new SimpleMeterRegistry(), holdings);
        RangeIndexer indexer = new RangeIndexer(source, leases.fence(), ranges, new CatalogStore(), BATCH, metrics);
        planner = new Planner(groups, source, new Planner.Settings(RANGE_SIZE, 1_000_000, Long.MAX_VALUE));
        WorkerOptions options = WorkerOptions.newBuilder()
                .setMaxHeartbeatThrottleInterval(Duration.ofSeconds(2))
                .build();
        Worker shared = env.newWorker(TaskQueues.SHARED, options);
        shared.registerWorkflowImplementationTypes(GroupWorkflowImpl.class);
        LeaseActivitiesImpl leaseActivities = new LeaseActivitiesImpl(
                leases,
                snapshots,
                holdings,
                () -> RuleSet.defaults(0),
                NODE,
                OWN_QUEUE,
                TTL,
                WINDOW_MAX_AGE,
                metrics,
                ConflictReporter.NONE,
                Band.ALL);
        shared.registerActivitiesImplementations(leaseActivities);
        env.newWorker(TaskQueues.leaseQueue(TaskQueues.SHARED), options)
                .registerActivitiesImplementations(leaseActivities);
        env.newWorker(TaskQueues.historyLeaseQueue(TaskQueues.SHARED), options)
                .registerActivitiesImplementations(leaseActivities);
        Worker own = env.newWorker(OWN_QUEUE, options);
        own.registerActivitiesImplementations(
                new GroupActivitiesImpl(leases, ranges, snapshots, holdings, indexer, metrics));
        env.start();
        client = env.getWorkflowClient();
    }

    @AfterEach
    void stopWorkers() {
        env.close();
    }

    @Test
    void indexesAGroupInArticleOrderToTheEnd() throws Exception {
        String group = GROUPS.get(0);
        int ranges = plan(group);
        assertThat(ranges).isEqualTo(6);
        List<long[]> fetched = new CopyOnWriteArrayList<>();
        source.hook = (g, from, to) -> fetched.add(new long[] {from, to});

        start(group, 2);
        GroupProgress p = awaitCaughtUp(group, ranges);

        // in article order: each batch starts where the one before ended, from 1 to the high-water mark
        assertThat(fetched.get(0)[0]).isEqualTo(1);
        for (int i = 1; i < fetched.size(); i++) {
            assertThat(fetched.get(i)[0])
                    .as("batch %s starts after batch %s", i, i - 1)
                    .isEqualTo(fetched.get(i - 1)[1] + 1);
        }
        assertThat(fetched.get(fetched.size() - 1)[1]).isEqualTo(ARTICLES);

        assertThat(p.headers()).isEqualTo(sim.truth(group, 1, ARTICLES).valid());
        assertCatalogMatchesServer(group, ARTICLES);
        assertThat(groups.ranges(group)).extracting(RangeRow::status).containsOnly("done");
        assertThat(groups.ranges(group)).allSatisfy(r -> assertThat(r.next()).isEqualTo(r.end() + 1));
        assertThat(holderInDatabase(group)).isNull();
    }

    @Test
    void snapshotsEveryNRangesAndWhenCaughtUp() throws Exception {
        String group = GROUPS.get(1);
        groups.plan(group, 1, 2500, RANGE_SIZE, 1);
        start(group, 2);
        awaitCaughtUp(group, 5);

        // five ranges of 500 with a snapshot every 2: after ranges 2 and 4, then at caught-up after range 5
        assertThat(snapshotsPut).containsExactly(1001L, 2001L, 2501L);
        assertThat(queryLong("select snapshot_next from group_leases where group_name = ?", group))
                .isEqualTo(2501);
        assertThat(queryLong("select next_article from snapshots where group_name = ?", group))
                .isEqualTo(2501);
        assertThat(queryLong("select count(*) from snapshots where group_name = ?", group))
                .isEqualTo(1);
    }

    @Test
    void caughtUpGroupReleasesAndAPlannedSignalResumesIt() throws Exception {
        String group = GROUPS.get(2);
        int ranges = plan(group);
        start(group, 2);
        awaitCaughtUp(group, ranges);
        assertThat(holderInDatabase(group)).isNull();
        assertThat(group(group).progress().state()).isEqualTo(GroupState.IDLE);

        long high = sim.post(group, 700);
        int more = planner.plan(group).total();
        assertThat(more).isEqualTo(2);
        group(group).planned();
        GroupProgress p = awaitCaughtUp(group, ranges + more);

        assertThat(p.headers()).isEqualTo(sim.truth(group, 1, high).valid());
        assertThat(p.cursor()).isEqualTo(high + 1);
        assertCatalogMatchesServer(group, high);
        assertThat(groups.ranges(group)).extracting(RangeRow::status).containsOnly("done");
    }

    @Test
    void pauseHandsBackBetweenRangesResumeFinishesAndDrainCompletes() throws Exception {
        String group = GROUPS.get(3);
        int ranges = plan(group);
        CountDownLatch reached = new CountDownLatch(1);
        CountDownLatch open = new CountDownLatch(1);
        source.hook = (g, from, to) -> {
            if (g.equals(group) && from == 1001) {
                reached.countDown();
                await(open);
            }
        };
        start(group, 10);
        await(reached);
        group(group).pause();
        open.countDown();

        GroupProgress paused = awaitProgress(group, "paused", p -> p.state() == GroupState.PAUSED);
        assertThat(paused.rangesDone()).isEqualTo(3);
        assertThat(holderInDatabase(group)).isNull();
        assertThat(queryLong("select count(*) from ranges where group_name = ? and status = 'leased'", group))
                .isZero();
        assertThat(queryLong("select snapshot_next from group_leases where group_name = ?", group))
                .isEqualTo(1501);
        assertThat(group(group).progress().rangesDone()).isEqualTo(3);

        group(group).resume();
        awaitCaughtUp(group, ranges);
        assertCatalogMatchesServer(group, ARTICLES);

        group(group).drain();
        WorkflowStub.fromTyped(group(group)).getResult(30, TimeUnit.SECONDS, Void.class);
        assertThat(group(group).progress().state()).isEqualTo(GroupState.DRAINED);
    }

    @Test
    void leaseTakenByAnotherNodeStopsTheRunningAttemptWithLeaseLost() throws Exception {
        String group = GROUPS.get(4);
        int ranges = plan(group);
        AtomicBoolean taken = new AtomicBoolean();
        source.hook = (g, from, to) -> {
            if (g.equals(group) && from == 1201 && taken.compareAndSet(false, true)) {
                takeAndGiveBack(group, "node-b");
            }
        };
        start(group, 1);
        GroupProgress p = awaitCaughtUp(group, ranges);

        assertThat(taken).isTrue();
        assertThat(queryLong(
                        "select count(*) from lease_events where group_name = ? and kind = 'lease_lost' and node_id = ?",
                        group,
                        NODE))
                .isGreaterThanOrEqualTo(1);
        assertThat(queryLong(
                        "select count(*) from lease_events where group_name = ? and kind = 'takeover' and node_id = ?",
                        group,
                        "node-b"))
                .isEqualTo(1);
        assertThat(failureTypes(group)).contains(Failures.LEASE_LOST);
        assertThat(p.epoch()).isEqualTo(3);
        assertCatalogMatchesServer(group, ARTICLES);
        assertThat(groups.ranges(group)).extracting(RangeRow::status).containsOnly("done");
    }

    @Test
    void aFailedFetchIsRetriedFromTheCommittedCursor() throws Exception {
        String group = GROUPS.get(5);
        int ranges = plan(group);
        AtomicBoolean failed = new AtomicBoolean();
        List<Long> fetches = new CopyOnWriteArrayList<>();
        source.hook = (g, from, to) -> {
            if (!g.equals(group)) {
                return;
            }
            fetches.add(from);
            if (from == 1301 && failed.compareAndSet(false, true)) {
                throw new IOException("connection reset (injected)");
            }
        };
        start(group, 10);
        GroupProgress p = awaitCaughtUp(group, ranges);

        assertThat(failed).isTrue();
        // the retried attempt asks for 1301 again, never for 1001..1201 that were committed before the failure
        // (the failed attempt's other connections may still ask for the batches after 1301 meanwhile)
        int at = fetches.indexOf(1301L);
        assertThat(fetches.subList(at + 1, fetches.size()))
                .contains(1301L)
                .allSatisfy(from -> assertThat(from).isGreaterThanOrEqualTo(1301L));
        assertThat(fetches.stream().filter(f -> f == 1301L)).hasSize(2);
        assertThat(retriedAttempts(group))
                .as("activity attempts started as retries")
                .containsExactly(2);
        assertThat(p.headers()).isEqualTo(sim.truth(group, 1, ARTICLES).valid());
        assertThat(p.failedCycles()).isZero();
        assertCatalogMatchesServer(group, ARTICLES);
    }

    /**
     * A server that breaks a bound on every attempt of a holding cycle (five, backing off from
     * 1 s): the cycle ends as NewsServer, the group hands its lease back and waits a lease TTL
     * (BACKING_OFF), then leases again and indexes everything once the server behaves; the cycle
     * never counts toward parking. Takes about 25 s of real time (the retries' backoff and a TTL).
     */
    @Test
    void aServerBreakingAReplyBoundBacksOffAndTheGroupIsNotParked() throws Exception {
        String group = HostileNntpServer.GROUP;
        try (HostileNntpServer hostile = HostileNntpServer.start(1000);
                NntpPool hostilePool = new NntpPool(new NntpPool.Config(
                                hostile.server(),
                                2,
                                Duration.ofSeconds(2),
                                Duration.ofSeconds(2),
                                Duration.ofSeconds(10),
                                Duration.ofMillis(50),
                                Duration.ofMillis(200))
                        .withLimits(NntpClient.Limits.DEFAULT))) {
            groups.add(group, 0);
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            HeaderSource hostileSource = new NntpHeaderSource(hostilePool);
            source.delegate = new HeaderSource() {
                @Override
                public void fetch(String g, long from, long to, OverviewSink sink) throws IOException {
                    try {
                        hostileSource.fetch(g, from, to, sink);
                    } catch (IOException e) {
                        failures.add(e);
                        throw e;
                    }
                }

                @Override
                public GroupInfo group(String g) throws IOException {
                    return hostileSource.group(g);
                }
            };
            int ranges = plan(group);
            assertThat(ranges).isEqualTo(2);
            hostile.misbehave(HostileNntpServer.Misbehaviour.OUT_OF_RANGE, 5);
            start(group, 2);
            awaitProgress(group, "backing off", q -> q.state() == GroupState.BACKING_OFF);
            assertThat(holderInDatabase(group)).as("the lease was handed back").isNull();
            GroupProgress p = awaitCaughtUp(group, ranges);

            assertThat(hostile.misbehavioursLeft()).isZero();
            assertThat(failures)
                    .hasSize(5)
                    .allSatisfy(e -> assertThat(e)
                            .isInstanceOf(MisbehavingServerException.class)
                            .hasMessage(hostile.server() + " broke the article range bound on OVER 1-100: article"
                                    + " 1000000000000000 outside 1-100 (line 51); the connection is dropped and the range"
                                    + " retried later"));
            assertThat(failureTypes(group)).as("the cycle's last failure").containsExactly(Failures.NEWS_SERVER);
            assertThat(p.parked()).isFalse();
            assertThat(p.failedCycles()).isZero();
            assertThat(p.epoch()).as("leased again after the pause").isEqualTo(2);
            assertThat(p.headers()).isEqualTo(1000);
            assertThat(p.missing()).isZero();
            assertThat(missingArticles(group)).isEmpty();
            assertThat(queryLong("select count(*) from binaries where group_name = ?", group))
                    .as("100 binaries of 10 parts")
                    .isEqualTo(100);
        }
    }

    /**
     * The case measured before by-construction: a group whose third article's subject starts with
     * U+1F600 ran five failing cycles, parked after 77 s with none of its nine good articles
     * cataloged, and met the same failure at once on resume. Now the group catches up in its first
     * cycle and the emoji's segment joins its file like any other part.
     */
    @Test
    void aGroupWhoseThirdArticleStartsWithAnEmojiCatalogsEveryArticleAndIsNotParked() throws Exception {
        String group = "alt.binaries.it.emoji";
        try (HostileNntpServer server = HostileNntpServer.start(group, 10);
                NntpPool emojiPool =
                        new NntpPool(NntpPool.Config.defaults(server.server()).withMaxConnections(2))) {
            server.misbehave(HostileNntpServer.Misbehaviour.GARBAGE_BODY, Integer.MAX_VALUE)
                    .garbage((lo, hi) -> {
                        StringBuilder body = new StringBuilder();
                        for (long a = lo; a <= hi; a++) {
                            String line = HostileNntpServer.line(a);
                            body.append(a == 3 ? line.replaceFirst("\t", "\t\uD83D\uDE00 ") : line)
                                    .append("\r\n");
                        }
                        return body.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    });
            groups.add(group, 0);
            source.delegate = new NntpHeaderSource(emojiPool);
            int ranges = plan(group);
            start(group, 2);
            GroupProgress p = awaitCaughtUp(group, ranges);

            assertThat(p.parked()).isFalse();
            assertThat(p.failedCycles()).isZero();
            assertThat(p.headers()).isEqualTo(10);
            assertThat(new TreeSet<>(catalogMessageIds(group)))
                    .as("the nine good articles and the emoji's, in one binary of ten parts")
                    .hasSize(10)
                    .contains("3.hostile@test");
            assertThat(queryLong("select count(*) from rejected_articles where group_name = ?", group))
                    .isZero();
        }
    }

    /** Plans the group's ranges from the simulator's high-water mark, as the planner workflow does. */
    private int plan(String group) throws IOException {
        return planner.plan(group).total();
    }

    private void start(String group, int snapshotEvery) {
        GroupConfig config = new GroupConfig(
                group,
                TTL,
                snapshotEvery,
                Duration.ofDays(7),
                3,
                GroupConfig.DEFAULT_HISTORY_EVENT_BUDGET,
                TaskQueues.SHARED,
                null);
        GroupWorkflow workflow = client.newWorkflowStub(
                GroupWorkflow.class,
                WorkflowOptions.newBuilder()
                        .setWorkflowId(TaskQueues.workflowId(group))
                        .setTaskQueue(TaskQueues.SHARED)
                        .build());
        WorkflowClient.start(workflow::run, GroupRun.start(config));
    }

    private GroupWorkflow group(String group) {
        return client.newWorkflowStub(GroupWorkflow.class, TaskQueues.workflowId(group));
    }

    private GroupProgress awaitCaughtUp(String group, long ranges) throws SQLException {
        GroupProgress p = awaitProgress(
                group,
                "idle after " + ranges + " ranges",
                q -> q.state() == GroupState.IDLE && q.rangesDone() == ranges);
        assertThat(holderInDatabase(group)).isNull();
        return p;
    }

    /** Polls the workflow's progress query until the condition holds, in real time so leases and heartbeats are not skipped over. */
    private GroupProgress awaitProgress(String group, String what, Predicate<GroupProgress> condition) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        GroupProgress p = group(group).progress();
        while (!condition.test(p)) {
            if (System.nanoTime() > deadline) {
                fail(group + " never " + what + "; last progress: " + p);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting for " + what);
            }
            p = group(group).progress();
        }
        return p;
    }

    /** Another node takes the group (its holder looks silent past the TTL on the database clock), then hands it back without indexing. */
    /**
     * Takes the group as {@code node} past the TTL and releases it. The holder's catalog writer
     * may renew the lease under the moved clock while this runs (it commits the previous batch
     * concurrently), so the clock moves one more TTL until the take succeeds.
     */
    private static void takeAndGiveBack(String group, String node) {
        try {
            LeaseOutcome outcome = null;
            for (int k = 1; k <= 4 && (outcome == null || !outcome.granted()); k++) {
                TestDatabase.setClockSkew(ds, TTL.plusSeconds(1).multipliedBy(k));
                outcome = leases.lease(group, node, TTL);
            }
            assertThat(outcome.granted()).isTrue();
            leases.release(outcome.holder());
        } finally {
            TestDatabase.setClockSkew(ds, Duration.ZERO);
        }
    }

    /**
     * The catalog against what the server serves for 1..high: the valid headers are exactly the
     * segments of the catalog, none of them twice (the caught-up snapshot wrote the open binaries
     * too, as incomplete), and the gap and malformed articles are exactly the recorded missing
     * runs, none of them twice.
     */
    private void assertCatalogMatchesServer(String group, long high) throws Exception {
        Served served = serve(group, high);
        Truth truth = sim.truth(group, 1, high);
        assertThat((long) served.validIds.size()).isEqualTo(truth.valid());
        assertThat((long) served.missing.size()).isEqualTo(truth.gaps() + truth.malformed());

        List<String> catalog = catalogMessageIds(group);
        assertThat(new HashSet<>(catalog))
                .as("catalog of %s, nothing twice", group)
                .hasSize(catalog.size());
        assertThat(new HashSet<>(catalog))
                .as("the caught-up snapshot wrote the open binaries too")
                .isEqualTo(served.validIds);
        List<String> window = windowMessageIds(group, high + 1);
        assertThat(window)
                .as("binaries still assembling are in the stored window")
                .isNotEmpty();
        assertThat(served.validIds).containsAll(window);

        List<Long> recorded = missingArticles(group);
        assertThat(new TreeSet<>(recorded)).as("missing runs of %s", group).hasSize(recorded.size());
        assertThat(new TreeSet<>(recorded)).isEqualTo(served.missing);
        for (long a : served.missing) {
            assertThat(sim.kind(group, a)).isIn(ArticleKind.GAP, ArticleKind.MALFORMED);
        }
    }

    private record Served(Set<String> validIds, TreeSet<Long> missing) {}

    /** What OVER 1..high serves, read straight from the simulator. */
    private static Served serve(String group, long high) throws IOException {
        Set<String> ids = new HashSet<>();
        TreeSet<Long> missing = new TreeSet<>();
        new NntpHeaderSource(pool).fetch(group, 1, high, new OverviewSink() {
            @Override
            public void header(OverviewLine line) {
                String id = line.messageId().strip();
                ids.add(id.substring(1, id.length() - 1));
            }

            @Override
            public void malformed(long article, String reason) {
                missing.add(article);
            }

            @Override
            public void missing(long fromInclusive, long toInclusive) {
                for (long a = fromInclusive; a <= toInclusive; a++) {
                    missing.add(a);
                }
            }
        });
        return new Served(ids, missing);
    }

    private static List<String> catalogMessageIds(String group) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection c = ds.getConnection();
                PreparedStatement s = c.prepareStatement(
                        "select m from binaries, unnest(message_id_array(message_ids)) as m where group_name = ?")) {
            s.setString(1, group);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
        }
        return ids;
    }

    /** The segments of the group's stored window, which must cover the articles up to {@code next}. */
    private static List<String> windowMessageIds(String group, long next) {
        Optional<SnapshotStore.Loaded<Window>> loaded = new PostgresSnapshotStore(ds, leases).get(group, in -> {
            try {
                return Window.readFrom(in);
            } catch (BadSnapshotException e) {
                throw new IOException(e.getMessage(), e);
            }
        });
        assertThat(loaded).as("snapshot of %s", group).isPresent();
        assertThat(loaded.get().meta().next()).isEqualTo(next);
        Window window = loaded.get().value();
        window.closeAll();
        List<String> ids = new ArrayList<>();
        for (CompletedBinary b : window.drain()) {
            for (Segment s : b.segments()) {
                ids.add(s.messageId());
            }
        }
        return ids;
    }

    private static List<Long> missingArticles(String group) throws SQLException {
        List<Long> articles = new ArrayList<>();
        for (var run : new CatalogStore().missing(ds, group)) {
            for (long a = run.first(); a <= run.last(); a++) {
                articles.add(a);
            }
        }
        return articles;
    }

    private static String holderInDatabase(String group) throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement s = c.prepareStatement("select holder_node from group_leases where group_name = ?")) {
            s.setString(1, group);
            try (ResultSet rs = s.executeQuery()) {
                assertThat(rs.next()).as("lease row of %s", group).isTrue();
                return rs.getString(1);
            }
        }
    }

    private static long queryLong(String sql, Object... params) throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getLong(1);
            }
        }
    }

    /** The failure types of every failed activity attempt in the workflow's history. */
    private List<String> failureTypes(String group) {
        List<String> types = new ArrayList<>();
        for (HistoryEvent e : client.fetchHistory(TaskQueues.workflowId(group)).getEvents()) {
            if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED) {
                types.add(e.getActivityTaskFailedEventAttributes()
                        .getFailure()
                        .getApplicationFailureInfo()
                        .getType());
            }
        }
        return types;
    }

    /** The attempt numbers of every activity attempt that the server started as a retry. */
    private List<Integer> retriedAttempts(String group) {
        List<Integer> attempts = new ArrayList<>();
        for (HistoryEvent e : client.fetchHistory(TaskQueues.workflowId(group)).getEvents()) {
            if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED
                    && e.getActivityTaskStartedEventAttributes().getAttempt() > 1) {
                attempts.add(e.getActivityTaskStartedEventAttributes().getAttempt());
            }
        }
        return attempts;
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
                fail("latch not reached in " + DEADLINE);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted");
        }
    }

    /** Runs before each fetch; may block, take the lease elsewhere, or throw like a broken connection. */
    @FunctionalInterface
    interface FetchHook {
        void beforeFetch(String group, long from, long to) throws IOException;
    }

    /** The worker's header source with a hook in front of each fetch. */
    private static final class HookedSource implements HeaderSource {
        volatile HeaderSource delegate;
        volatile FetchHook hook = (g, from, to) -> {};

        @Override
        public void fetch(String group, long from, long to, OverviewSink sink) throws IOException {
            hook.beforeFetch(group, from, to);
            delegate.fetch(group, from, to, sink);
        }

        @Override
        public GroupInfo group(String group) throws IOException {
            return delegate.group(group);
        }
    }

    /** The real snapshot store, noting the cursor of every snapshot stored. */
    private record RecordingSnapshots(SnapshotStore store, List<Long> puts) implements SnapshotStore {
        @Override
        public Meta put(Holder holder, long next, Writer writer) {
            Meta meta = store.put(holder, next, writer);
            puts.add(next);
            return meta;
        }

        @Override
        public <T> Optional<Loaded<T>> get(String group, Reader<T> reader) {
            return store.get(group, reader);
        }
    }
}
