package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.zaxxer.hikari.HikariDataSource;
import headway.catalog.CatalogStore;
import headway.coordination.Band;
import headway.coordination.GroupStore;
import headway.coordination.LeaseStore;
import headway.coordination.PostgresSnapshotStore;
import headway.coordination.RangeRow;
import headway.coordination.RangeStore;
import headway.index.RuleSet;
import headway.nntp.HostileNntpServer;
import headway.nntp.HostileNntpServer.Misbehaviour;
import headway.nntp.MisbehavingServerException;
import headway.nntp.NntpClient;
import headway.nntp.NntpPool;
import headway.store.TestDatabase;
import java.io.EOFException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A misbehaving news server through the real range indexer, lease store and catalog on embedded
 * PostgreSQL: the failed fetch is an IOException (MisbehavingServerException naming the server, or
 * EOF for a dropped connection), the range's cursor has not moved, nothing is recorded missing or
 * cataloged for the failed batch, and indexing the range again once the server behaves gives the
 * catalog an honest server gives from the start.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostileServerIndexingTest {

    private static final String GROUP = HostileNntpServer.GROUP;
    private static final int BATCH = 50;
    private static final Duration TTL = Duration.ofSeconds(10);

    private static HostileNntpServer server;
    private static final List<AutoCloseable> closing = new ArrayList<>();
    private static String honest;

    @BeforeAll
    static void indexHonestly() throws Exception {
        server = HostileNntpServer.start(100);
        Node node = new Node(database());
        RangeIndexer.Outcome outcome = node.index();
        assertThat(outcome.finished()).isTrue();
        honest = node.catalog();
        assertThat(TestDatabase.queryLong(node.ds, "select count(*) from binaries"))
                .as("ten complete binaries of ten parts")
                .isEqualTo(10);
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        server.close();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = Misbehaviour.class,
            names = {"NONE", "GARBAGE_BODY"},
            mode = EnumSource.Mode.EXCLUDE)
    void aFailedFetchMovesNothingAndTheRetryCatalogsAsAnHonestServerDoes(Misbehaviour m) throws Exception {
        Node node = new Node(database());
        server.trickleMillis(20).misbehave(m, 1);
        IndexMetrics metrics = node.metrics;

        Throwable thrown = catchThrowable(node::index);

        if (m == Misbehaviour.CLOSE_MID_REPLY) {
            assertThat(thrown).isInstanceOf(EOFException.class).hasMessageContaining(server.server() + " closed");
        } else {
            assertThat(thrown)
                    .isInstanceOf(MisbehavingServerException.class)
                    .hasMessageContaining(server.server().toString())
                    .hasMessageContaining("the range retried later");
            assertThat(metrics.nntpMisbehaved.count()).isEqualTo(1);
        }
        assertThat(metrics.nntpErrors.count()).isEqualTo(1);
        assertThat(server.misbehavioursLeft()).isZero();
        assertThat(node.ranges.cursor(node.range.id())).as("cursor unmoved").isEqualTo(1);
        assertThat(TestDatabase.queryLong(node.ds, "select count(*) from missing_article_runs"))
                .isZero();
        assertThat(TestDatabase.queryLong(node.ds, "select count(*) from binaries"))
                .isZero();

        RangeIndexer.Outcome retried = node.index();
        assertThat(retried.finished()).isTrue();
        assertThat(retried.cursor()).isEqualTo(101);
        assertThat(node.catalog()).isEqualTo(honest);
    }

    @Test
    void aBatchIsFetchedInPiecesAndCommitsWhole() throws Exception {
        // batches of 50 in pieces of at most 20: three of 17, so the batches are 1..51 and 52..100
        assertThat(RangeIndexer.pieceArticles(BATCH, 20)).isEqualTo(17);
        assertThat(RangeIndexer.pieceArticles(20_000)).isEqualTo(5_000);
        assertThat(RangeIndexer.pieceArticles(9_999)).isEqualTo(5_000);
        assertThat(RangeIndexer.pieceArticles(7_000)).isEqualTo(3_500);
        assertThat(RangeIndexer.pieceArticles(100)).isEqualTo(100);

        Node node = new Node(database(), 20);
        int oversBefore = server.overs();
        server.trickleMillis(20).misbehave(Misbehaviour.CLOSE_MID_REPLY, 1, 1);
        List<Long> commits = new ArrayList<>();

        Throwable thrown = catchThrowable(() -> node.index(commits));

        assertThat(thrown).as("the second piece's reply was cut").isInstanceOf(EOFException.class);
        assertThat(server.misbehavioursLeft()).isZero();
        assertThat(commits).as("the first piece alone commits nothing").isEmpty();
        assertThat(node.ranges.cursor(node.range.id())).as("cursor unmoved").isEqualTo(1);
        assertThat(TestDatabase.queryLong(node.ds, "select count(*) from binaries"))
                .isZero();

        int oversBeforeRetry = server.overs();
        RangeIndexer.Outcome retried = node.index(commits);
        assertThat(retried.finished()).isTrue();
        assertThat(commits).as("one commit a batch").containsExactly(52L, 101L);
        // 100 articles in pieces of at most 17 are six commands (whole batches would be two); a
        // command of the failed attempt may still reach the server after the count was read
        assertThat(server.overs() - oversBeforeRetry).as("pieces of at most 17").isBetween(6, 7);
        assertThat(server.overs() - oversBefore).isGreaterThanOrEqualTo(8);
        assertThat(node.catalog()).isEqualTo(honest);
    }

    /** One holder of the group on its own database and its own connections, with a range of 1..100 leased. */
    private static final class Node {
        final HikariDataSource ds;
        final LeaseStore leases;
        final RangeStore ranges;
        final Holdings holdings = new Holdings(1);
        final IndexMetrics metrics = IndexMetrics.discard(holdings);
        final RangeIndexer indexer;
        final Holdings.Held held;
        final RangeRow range;

        Node(HikariDataSource ds) {
            this(ds, RangeIndexer.MAX_PIECE);
        }

        /** A holder whose batches are fetched in pieces of at most {@code maxPiece} articles. */
        Node(HikariDataSource ds, int maxPiece) {
            this.ds = ds;
            NntpPool pool = new NntpPool(new NntpPool.Config(
                            server.server(),
                            2,
                            Duration.ofSeconds(2),
                            Duration.ofSeconds(1),
                            Duration.ofSeconds(5),
                            Duration.ofMillis(50),
                            Duration.ofMillis(200))
                    .withLimits(
                            new NntpClient.Limits(2048, 64 * 1024, 1000, 64 * 1024, 16 * 1024, Duration.ofMillis(2))));
            closing.add(pool);
            leases = new LeaseStore(ds, 0);
            ranges = new RangeStore(ds, 0);
            indexer = new RangeIndexer(
                    new NntpHeaderSource(pool),
                    leases.fence(),
                    ranges,
                    new CatalogStore(),
                    BATCH,
                    1,
                    maxPiece,
                    metrics);
            LeaseActivitiesImpl leaseActivities = new LeaseActivitiesImpl(
                    leases,
                    new PostgresSnapshotStore(ds, leases),
                    holdings,
                    () -> RuleSet.defaults(0),
                    "node-h",
                    "own/node-h",
                    TTL,
                    1000,
                    metrics,
                    ConflictReporter.NONE,
                    Band.ALL);
            LeaseGrant grant = leaseActivities.lease(GROUP, TTL);
            held = holdings.get(GROUP, grant.token().epoch()).orElseThrow();
            range = ranges.nextRange(held.holder(), 0).orElseThrow();
        }

        RangeIndexer.Outcome index() throws IOException {
            return index(new ArrayList<>());
        }

        /** Indexes from the range's cursor, adding each commit's cursor to {@code commits}. */
        RangeIndexer.Outcome index(List<Long> commits) throws IOException {
            long from = ranges.cursor(range.id());
            return indexer.index(held, range, from, 0, 0, 0, (c, h, m, x) -> commits.add(c));
        }

        /** The catalog with the window flushed, as text. */
        String catalog() throws Exception {
            held.window().closeAll();
            var open = held.window().drain();
            leases.fence().run(held.holder(), "flushing the window", c -> {
                new CatalogStore().writeBinaries(c, open);
                return null;
            });
            StringBuilder sb = new StringBuilder();
            try (var c = ds.getConnection();
                    var st = c.createStatement();
                    var rs = st.executeQuery(
                            "select file_name, total_parts, message_ids from binaries order by file_name")) {
                while (rs.next()) {
                    sb.append(rs.getString(1))
                            .append(' ')
                            .append(rs.getInt(2))
                            .append(' ')
                            .append(String.join("\t", headway.store.MessageIdPack.decode(rs.getBytes(3))))
                            .append('\n');
                }
            }
            sb.append("missing ").append(TestDatabase.queryLong(ds, "select count(*) from missing_article_runs"));
            return sb.toString();
        }
    }

    /** A fresh migrated database with the group and one range 1..100 planned. */
    private static HikariDataSource database() {
        HikariDataSource ds = TestDatabase.migrated("hostile");
        closing.add(ds);
        GroupStore groups = new GroupStore(ds);
        groups.add(GROUP, 0);
        assertThat(groups.plan(GROUP, 1, 100, 100, -1)).isEqualTo(1);
        return ds;
    }
}
