package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import headway.catalog.CatalogStore;
import headway.coordination.Band;
import headway.coordination.GroupStore;
import headway.coordination.LeaseStore;
import headway.coordination.PostgresSnapshotStore;
import headway.coordination.RangeRow;
import headway.coordination.RangeStore;
import headway.index.CompletedBinary;
import headway.index.RuleSet;
import headway.nntp.GroupInfo;
import headway.nntp.NntpPool;
import headway.nntp.OverviewSink;
import headway.nntp.Simulators;
import headway.simulator.NewsSimulator;
import headway.store.LeaseLostException;
import headway.store.TestDatabase;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A takeover in the middle of a group gives the catalog an uninterrupted run gives. Each run
 * indexes the same simulated group on its own database with the real range indexer, lease store
 * and PostgreSQL snapshot store; the second holder takes the group through
 * {@link LeaseActivitiesImpl#lease}, so it loads (or fails to load) the snapshot exactly as a worker
 * does. At the end every run flushes its window into the catalog, so whole catalogs compare.
 */
class TakeoverCatalogTest {

    private static final String GROUP = "alt.binaries.takeover";
    private static final long ARTICLES = 3000;
    private static final long RANGE_SIZE = 500;
    private static final int BATCH = 100;
    private static final long WINDOW_MAX_AGE = 1000;
    private static final Duration TTL = Duration.ofSeconds(10);

    private static NewsSimulator sim;
    private static NntpPool pool;
    private static final List<HikariDataSource> databases = new ArrayList<>();
    private static String uninterrupted;

    @BeforeAll
    static void indexStraightThrough() throws Exception {
        sim = NewsSimulator.start(
                NewsSimulator.Options.defaults(),
                List.of(new NewsSimulator.GroupSpec(GROUP, 5, ARTICLES, 5, 15, 4, 0.02, 0.02, 0.01)));
        pool = new NntpPool(NntpPool.Config.defaults(Simulators.server(sim)).withMaxConnections(2));
        DataSource a = database();
        Node node = new Node(a, "node-a", new NntpHeaderSource(pool));
        node.lease();
        node.indexToTheEnd();
        node.flushWindow();
        uninterrupted = dump(a);
    }

    @AfterAll
    static void stop() {
        databases.forEach(HikariDataSource::close);
        if (pool4 != null) {
            pool4.close();
        }
        pool.close();
        sim.close();
    }

    @Test
    void takeoverFromSnapshotGivesTheSameCatalog() throws Exception {
        DataSource b = database();
        Node first = halfwayThenStopped(b);
        Node second = new Node(b, "node-2", new NntpHeaderSource(pool));
        LeaseGrant grant = takeAfterTtl(b, second);

        assertThat(grant.takeover()).isTrue();
        assertThat(grant.snapshotNext()).isEqualTo(1501);
        assertThat(second.held.cursor()).as("window loaded from the snapshot").isEqualTo(1501);
        assertThat(cursorOf(second, 1501))
                .as("range 4 re-planned from the snapshot")
                .isEqualTo(1501);
        staleHolderIsRefused(b, first);

        second.indexToTheEnd();
        second.flushWindow();
        assertThat(dump(b)).isEqualTo(uninterrupted);
    }

    @Test
    void takeoverFromACorruptSnapshotStillCatalogsEveryArticleOnce() throws Exception {
        DataSource c = database();
        Node first = halfwayThenStopped(c);
        TestDatabase.execute(c, "update snapshot_chunks set data = overlay(data placing '\\xdeadbeef'::bytea from 40)");
        Node second = new Node(c, "node-2", new NntpHeaderSource(pool));
        LeaseGrant grant = takeAfterTtl(c, second);

        assertThat(grant.takeover()).isTrue();
        assertThat(second.held.cursor()).as("no window loaded").isEqualTo(-1);
        staleHolderIsRefused(c, first);

        second.indexToTheEnd();
        second.flushWindow();
        List<String> ids = messageIds(c);
        assertThat(new HashSet<>(ids)).as("no segment twice").hasSize(ids.size());
        assertThat(new HashSet<>(ids)).isEqualTo(new HashSet<>(messageIds(databases.get(0))));
        List<Long> missing = missingArticles(c);
        assertThat(new TreeSet<>(missing)).as("no missing article twice").hasSize(missing.size());
        assertThat(missing).containsExactlyElementsOf(missingArticles(databases.get(0)));
        // the new holder re-indexes from the snapshot's cursor minus the window's age, so not even a seam remains
        assertThat(dump(c)).isEqualTo(uninterrupted);
    }

    @Test
    void takeoverBeforeAnySnapshotStillCatalogsEveryArticleOnce() throws Exception {
        DataSource d = database();
        halfwayThenStopped(d, false);
        Node second = new Node(d, "node-2", new NntpHeaderSource(pool));
        LeaseGrant grant = takeAfterTtl(d, second);

        assertThat(grant.takeover()).isTrue();
        assertThat(grant.snapshotNext())
                .as("the first holder never snapshotted")
                .isNull();
        second.indexToTheEnd();
        second.flushWindow();
        // the first holder committed cursors with binaries still open in its window; starting empty
        // at its cursor lost their earlier parts, so the new holder rebuilds the window first
        assertThat(dump(d)).isEqualTo(uninterrupted);
    }

    @Test
    void aFailedProgressReportStopsBetweenBatchesWithTheWindowWhole() throws Exception {
        DataSource e = database();
        Node first = new Node(e, "node-1", new NntpHeaderSource(pool));
        first.lease();
        for (int i = 0; i < 3; i++) {
            first.index(first.nextRange().orElseThrow());
        }
        RangeRow fourth = first.nextRange().orElseThrow();
        RuntimeException abandoned = new IllegalStateException("heartbeat timed out locally (injected)");
        // the first report fails after batch 1501..1600 committed, while 1601..1700 has been fetched
        // and the binaries it completed drained from the window for the next commit
        assertThatThrownBy(() -> first.indexer.index(first.held, fourth, fourth.next(), 0, 0, 0, (c, h, m, x) -> {
                    throw abandoned;
                }))
                .isSameAs(abandoned);
        assertThat(first.held.cursor())
                .as("stopped after the commit in flight, not between a drain and its commit")
                .isEqualTo(1701);
        assertThat(cursorOf(first, 1501)).isEqualTo(1701);
        // what a worker shutting down does with the window: snapshot it at its cursor
        first.snapshots.put(
                first.held.holder(),
                first.held.cursor(),
                out -> first.held.window().writeTo(out));
        Node second = new Node(e, "node-2", new NntpHeaderSource(pool));
        assertThat(takeAfterTtl(e, second).snapshotNext()).isEqualTo(1701);

        second.indexToTheEnd();
        second.flushWindow();
        assertThat(dump(e)).isEqualTo(uninterrupted);
    }

    @Test
    void aGroupReadOverFourConnectionsAtOnceGivesTheSameCatalog() throws Exception {
        DataSource f = database();
        CountingSource source = new CountingSource(new NntpHeaderSource(pool4()), -1);
        Node node = new Node(f, "node-1", source, 4);
        node.lease();
        node.indexToTheEnd();
        node.flushWindow();

        assertThat(source.maxInFlight.get()).as("batches fetched at once").isEqualTo(4);
        assertThat(dump(f)).isEqualTo(uninterrupted);
    }

    @Test
    void theCursorNeverPassesAFailedFetchWhileLaterBatchesArrive() throws Exception {
        DataSource g = database();
        CountingSource source = new CountingSource(new NntpHeaderSource(pool4()), 1701);
        Node node = new Node(g, "node-1", source, 4);
        node.lease();
        for (int i = 0; i < 3; i++) {
            node.index(node.nextRange().orElseThrow());
        }
        RangeRow fourth = node.nextRange().orElseThrow();
        assertThatThrownBy(() -> node.index(fourth))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("1701");
        assertThat(source.fetched)
                .as("the batch after the failed one was fetched ahead, and dropped")
                .contains(1801L);
        assertThat(cursorOf(node, 1501)).as("stopped at the failed batch").isEqualTo(1701);

        node.indexToTheEnd();
        node.flushWindow();
        assertThat(dump(g)).isEqualTo(uninterrupted);
    }

    private static NntpPool pool4;

    private static synchronized NntpPool pool4() {
        if (pool4 == null) {
            pool4 = new NntpPool(
                    NntpPool.Config.defaults(Simulators.server(sim)).withMaxConnections(4));
        }
        return pool4;
    }

    /** Counts the fetches in flight at once (each held 30 ms), and fails the first fetch from {@code failFrom} once. */
    private static final class CountingSource implements HeaderSource {
        private final HeaderSource delegate;
        private final long failFrom;
        private final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger maxInFlight = new AtomicInteger();
        final Queue<Long> fetched = new ConcurrentLinkedQueue<>();
        private volatile boolean failed;

        CountingSource(HeaderSource delegate, long failFrom) {
            this.delegate = delegate;
            this.failFrom = failFrom;
        }

        @Override
        public void fetch(String group, long from, long to, OverviewSink sink) throws IOException {
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            fetched.add(from);
            try {
                Thread.sleep(30);
                if (from == failFrom && !failed) {
                    failed = true;
                    throw new IOException("connection dropped fetching " + from + ".." + to + " (injected)");
                }
                delegate.fetch(group, from, to, sink);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException();
            } finally {
                inFlight.decrementAndGet();
            }
        }

        @Override
        public GroupInfo group(String group) throws IOException {
            return delegate.group(group);
        }
    }

    /** The first holder indexes ranges 1..3, snapshots at 1501, then commits two batches of range 4 and stops (a crash). */
    private static Node halfwayThenStopped(DataSource ds) throws Exception {
        return halfwayThenStopped(ds, true);
    }

    /** As {@link #halfwayThenStopped(DataSource)}, with or without the snapshot at 1501. */
    private static Node halfwayThenStopped(DataSource ds, boolean snapshot) throws Exception {
        StoppingSource source = new StoppingSource(new NntpHeaderSource(pool));
        Node first = new Node(ds, "node-1", source);
        first.lease();
        for (int i = 0; i < 3; i++) {
            first.index(first.nextRange().orElseThrow());
        }
        if (snapshot) {
            first.snapshots.put(
                    first.held.holder(),
                    first.held.cursor(),
                    out -> first.held.window().writeTo(out));
        }
        source.fetchesLeft.set(2);
        RangeRow fourth = first.nextRange().orElseThrow();
        assertThat(fourth.start()).isEqualTo(1501);
        assertThatThrownBy(() -> first.index(fourth)).isInstanceOf(IOException.class);
        assertThat(cursorOf(first, 1501)).isEqualTo(1701);
        source.fetchesLeft.set(Integer.MAX_VALUE);
        return first;
    }

    /** The second node takes the group once the first has been quiet past the TTL on the database clock. */
    private static LeaseGrant takeAfterTtl(DataSource ds, Node second) {
        TestDatabase.setClockSkew(ds, TTL.plusSeconds(1));
        try {
            return second.lease();
        } finally {
            TestDatabase.setClockSkew(ds, Duration.ZERO);
        }
    }

    /** The first holder, still running, indexes three more batches and snapshots: every write is refused and the catalog does not change. */
    private static void staleHolderIsRefused(DataSource ds, Node first) throws Exception {
        String before = dump(ds);
        RangeRow fourth =
                new RangeRow(cursorRangeId(first, 1501), GROUP, 1501, 2000, 1501, "leased", 1, "node-1", 1, 0);
        for (long from = 1701; from <= 1901; from += BATCH) {
            long f = from;
            assertThatThrownBy(() -> first.indexer.index(first.held, fourth, f, 0, 0, 0, (c, h, m, x) -> {}))
                    .isInstanceOf(LeaseLostException.class);
        }
        assertThatThrownBy(() -> first.snapshots.put(
                        first.held.holder(), 2001, out -> first.held.window().writeTo(out)))
                .isInstanceOf(LeaseLostException.class);
        assertThat(dump(ds)).isEqualTo(before);
        assertThat(TestDatabase.queryLong(
                        ds, "select count(*) from lease_events where kind = 'lease_lost' and node_id = 'node-1'"))
                .isEqualTo(4);
        assertThat(TestDatabase.queryLong(ds, "select next_article from snapshots"))
                .isEqualTo(1501);
    }

    private static long cursorOf(Node node, long start) {
        return node.ranges.cursor(cursorRangeId(node, start));
    }

    private static long cursorRangeId(Node node, long start) {
        return node.groups.ranges(GROUP).stream()
                .filter(r -> r.start() == start)
                .findFirst()
                .orElseThrow()
                .id();
    }

    /** One worker's pieces as HeadwayWorker wires them, on one database. */
    private static final class Node {
        final LeaseStore leases;
        final RangeStore ranges;
        final GroupStore groups;
        final PostgresSnapshotStore snapshots;
        final Holdings holdings = new Holdings(4);
        final RangeIndexer indexer;
        final LeaseActivitiesImpl leaseActivities;
        Holdings.Held held;

        Node(DataSource ds, String id, HeaderSource source) {
            this(ds, id, source, 1);
        }

        /** A node whose indexer fetches {@code readAhead} batches ahead, as HEADWAY_NNTP_GROUP_CONNECTIONS sets it. */
        Node(DataSource ds, String id, HeaderSource source, int readAhead) {
            leases = new LeaseStore(ds, 0);
            ranges = new RangeStore(ds, 0);
            groups = new GroupStore(ds);
            snapshots = new PostgresSnapshotStore(ds, leases);
            IndexMetrics metrics = IndexMetrics.discard(holdings);
            indexer = new RangeIndexer(source, leases.fence(), ranges, new CatalogStore(), BATCH, readAhead, metrics);
            leaseActivities = new LeaseActivitiesImpl(
                    leases,
                    snapshots,
                    holdings,
                    () -> RuleSet.defaults(0),
                    id,
                    "own/" + id,
                    TTL,
                    WINDOW_MAX_AGE,
                    metrics,
                    ConflictReporter.NONE,
                    Band.ALL);
        }

        LeaseGrant lease() {
            LeaseGrant grant = leaseActivities.lease(GROUP, TTL);
            assertThat(grant.granted()).as("lease granted").isTrue();
            held = holdings.get(GROUP, grant.token().epoch()).orElseThrow();
            return grant;
        }

        Optional<RangeRow> nextRange() {
            return ranges.nextRange(held.holder(), held.rules.version());
        }

        void index(RangeRow range) throws IOException {
            indexer.index(held, range, range.next(), 0, 0, 0, (c, h, m, x) -> {});
        }

        void indexToTheEnd() throws IOException {
            for (Optional<RangeRow> r = nextRange(); r.isPresent(); r = nextRange()) {
                index(r.get());
            }
            assertThat(groups.ranges(GROUP)).extracting(RangeRow::status).containsOnly("done");
        }

        /** Closes every open binary into the catalog, as retiring the group would, so the whole window is compared too. */
        void flushWindow() {
            held.window().closeAll();
            List<CompletedBinary> open = held.window().drain();
            leases.fence().run(held.holder(), "flushing the window", c -> {
                new CatalogStore().writeBinaries(c, open);
                return null;
            });
        }
    }

    /** Fails every fetch once its budget is spent, like a worker that died mid-range. */
    private static final class StoppingSource implements HeaderSource {
        private final HeaderSource delegate;
        final AtomicInteger fetchesLeft = new AtomicInteger(Integer.MAX_VALUE);

        StoppingSource(HeaderSource delegate) {
            this.delegate = delegate;
        }

        @Override
        public void fetch(String group, long from, long to, OverviewSink sink) throws IOException {
            if (fetchesLeft.getAndDecrement() <= 0) {
                throw new IOException("worker stopped (injected)");
            }
            delegate.fetch(group, from, to, sink);
        }

        @Override
        public GroupInfo group(String group) throws IOException {
            return delegate.group(group);
        }
    }

    /** A fresh migrated database with the group and its six ranges of 500 planned. */
    private static DataSource database() {
        HikariDataSource ds = TestDatabase.migrated("takeover");
        databases.add(ds);
        GroupStore groups = new GroupStore(ds);
        groups.add(GROUP, 0);
        assertThat(groups.plan(GROUP, 1, ARTICLES, RANGE_SIZE, 1)).isEqualTo(6);
        return ds;
    }

    /** Every row of binaries, releases and missing runs as text, in key order, without the binaries' surrogate ids and the releases' adding transaction. */
    private static String dump(DataSource ds) throws SQLException {
        StringBuilder sb = new StringBuilder();
        String[] queries = {
            "select * from binaries order by group_name, poster, file_name, total_parts",
            "select * from releases order by group_name, poster, name",
            "select * from missing_article_runs order by group_name, first_article, last_article"
        };
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            for (String q : queries) {
                sb.append(q).append('\n');
                try (ResultSet rs = st.executeQuery(q)) {
                    ResultSetMetaData md = rs.getMetaData();
                    while (rs.next()) {
                        for (int i = 1; i <= md.getColumnCount(); i++) {
                            if (md.getColumnName(i).equals("id")
                                    || md.getColumnName(i).equals("added")) {
                                // a binary's surrogate id and the transaction that added a release (V31) depend on
                                // when and in what order it was written, not on what the catalog holds
                                continue;
                            }
                            sb.append(md.getColumnName(i))
                                    .append('=')
                                    .append(rs.getString(i))
                                    .append(' ');
                        }
                        sb.append('\n');
                    }
                }
            }
        }
        return sb.toString();
    }

    private static List<String> messageIds(DataSource ds) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select m from binaries, unnest(message_id_array(message_ids)) as m")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    private static List<Long> missingArticles(DataSource ds) throws SQLException {
        List<Long> articles = new ArrayList<>();
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("select first_article, last_article from missing_article_runs order by 1, 2")) {
            while (rs.next()) {
                for (long a = rs.getLong(1); a <= rs.getLong(2); a++) {
                    articles.add(a);
                }
            }
        }
        return articles;
    }
}
