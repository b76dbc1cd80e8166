package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import headway.catalog.CatalogStore;
import headway.catalog.MissStore;
import headway.coordination.Band;
import headway.coordination.GroupStore;
import headway.coordination.LeaseStore;
import headway.coordination.PostgresSnapshotStore;
import headway.coordination.RangeRow;
import headway.coordination.RangeStore;
import headway.index.CompletedBinary;
import headway.index.RuleSet;
import headway.nntp.NntpPool;
import headway.nntp.Simulators;
import headway.simulator.NewsSimulator;
import headway.store.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A span indexed under rule set v1, re-indexed under v1 (a redo) and then under v2, which keys
 * every article differently: each article is cataloged once, in v2's place, every release says v2
 * built it, and the misses of v1 are counted once. The simulator posts UTF-8 subjects, which reach
 * the catalog as the characters they are. One worker's pieces as HeadwayWorker wires them, on the
 * simulator and an embedded PostgreSQL.
 */
class ReindexCatalogTest {

    private static final String GROUP = "alt.binaries.reindex";
    private static final long ARTICLES = 2000;
    private static final Duration TTL = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static NewsSimulator sim;
    private static NntpPool pool;
    private static HikariDataSource ds;

    @BeforeAll
    static void start() throws Exception {
        sim = NewsSimulator.start(
                NewsSimulator.Options.defaults(), List.of(NewsSimulator.GroupSpec.of(GROUP, 9, ARTICLES)));
        pool = new NntpPool(NntpPool.Config.defaults(Simulators.server(sim)).withMaxConnections(2));
        ds = TestDatabase.migrated("reindex");
        GroupStore groups = new GroupStore(ds);
        groups.add(GROUP, 0);
        assertThat(groups.plan(GROUP, 1, ARTICLES, 500, 1)).isEqualTo(4);
    }

    @AfterAll
    static void stop() {
        ds.close();
        pool.close();
        sim.close();
    }

    /** v1: the built-in parser, with the first file of each post black-listed so that some headers are misses. */
    private static RuleSet v1() throws Exception {
        return RuleSet.parse(
                1,
                JSON.writeValueAsString(Map.of(
                        "name",
                        "v1",
                        "groups",
                        List.of(Map.of(
                                "pattern", "*", "subjectBlacklist", List.of("\\.(nfo|sfv|r00|part01\\.rar)\""))))));
    }

    /** v2: a rule that keeps the closing quote in the file name, so every binary is keyed differently from v1. */
    private static RuleSet v2() throws Exception {
        return RuleSet.parse(
                2,
                JSON.writeValueAsString(Map.of(
                        "name",
                        "v2",
                        "groups",
                        List.of(Map.of(
                                "pattern",
                                GROUP,
                                "rules",
                                List.of(Map.of(
                                        "name",
                                        "quoted",
                                        "regex",
                                        "\"(?P<file>[^\"]+\") yEnc \\((?P<part>\\d+)/(?P<total>\\d+)\\)")))))));
    }

    @Test
    void reindexingUnderANewerRuleSetCatalogsEachArticleOnceInItsNewPlace() throws Exception {
        AtomicReference<RuleSet> rules = new AtomicReference<>(v1());
        Node node = new Node(ds, rules);
        GroupStore groups = new GroupStore(ds);

        node.lease();
        node.indexToTheEnd();
        List<String> v1Ids = messageIds();
        assertThat(new HashSet<>(v1Ids)).as("no article twice under v1").hasSize(v1Ids.size());
        assertThat(v1Ids).hasSizeGreaterThan(1000);
        long rejected =
                TestDatabase.queryLong(ds, "select rejected from group_misses where group_name = '" + GROUP + "'");
        assertThat(rejected).as("the headers v1 black-lists").isPositive();
        MissStore.Report report = new MissStore(ds).report(GROUP, 50);
        assertThat(report.shapes())
                .isNotEmpty()
                .allSatisfy(s -> assertThat(s.reason()).startsWith("subject black list"))
                .allSatisfy(s -> assertThat(s.shape()).endsWith("\" a (#/#)"));
        assertThat(report.shapes().stream()
                        .mapToLong(MissStore.ShapeCount::headers)
                        .sum())
                .isEqualTo(rejected);

        // UTF-8 subjects from the simulator arrive as the characters the poster wrote
        assertThat(
                        TestDatabase.queryLong(
                                ds,
                                "select count(*) from releases where name ~ '(Über|über|Déjà|déjà|Café|café|Crème|crème|Brûlée|brûlée|Señor|señor|Fjörd|fjörd)'"))
                .isPositive();
        assertThat(TestDatabase.queryLong(ds, "select count(*) from binaries where subject ~ '[ÃÂ]'"))
                .as("no mojibake")
                .isZero();

        String catalogV1 = dump();
        GroupStore.Reindex again = groups.reindex(GROUP, 1, ARTICLES);
        assertThat(again).isEqualTo(new GroupStore.Reindex(GROUP, 4, 1, ARTICLES, 0, 0));
        assertThat(groups.reindex(GROUP, 1, ARTICLES)).as("idempotent").isEqualTo(again);
        node.indexToTheEnd();
        assertThat(dump()).as("a redo under the same rules changes nothing").isEqualTo(catalogV1);
        assertThat(TestDatabase.queryLong(ds, "select rejected from group_misses where group_name = '" + GROUP + "'"))
                .as("a redo counts no miss again")
                .isEqualTo(rejected);

        rules.set(v2());
        node.lease();
        assertThat(node.held.rules.version()).isEqualTo(2);
        assertThat(groups.reindex(GROUP, 700, 1200))
                .as("whole ranges")
                .isEqualTo(new GroupStore.Reindex(GROUP, 2, 501, 1500, 0, 0));
        groups.reindex(GROUP, 1, ARTICLES);
        node.indexToTheEnd();

        List<String> v2Ids = messageIds();
        assertThat(new HashSet<>(v2Ids))
                .as("each article once after the re-index")
                .hasSize(v2Ids.size());
        assertThat(new HashSet<>(v2Ids)).as("every v1 article is still there").containsAll(v1Ids);
        assertThat(v2Ids.size()).as("plus the files v1 black-listed").isGreaterThan(v1Ids.size());
        assertThat(TestDatabase.queryLong(
                        ds, "select count(*) from binaries where rule_version <> 2 or file_name !~ '\"$'"))
                .as("every binary is in its v2 place")
                .isZero();
        assertThat(TestDatabase.queryLong(ds, "select count(*) from releases where rule_version <> 2"))
                .as("every release says v2 built it, and v1's emptied ones are gone")
                .isZero();
        assertThat(
                        TestDatabase.queryLong(
                                ds,
                                "select count(*) from releases r where not exists (select 1 from binaries b"
                                        + " where b.group_name = r.group_name and b.poster = r.poster and b.release_name = r.name)"))
                .isZero();
        assertThat(TestDatabase.queryLong(
                        ds,
                        "select count(*) from rule_spans v1 join rule_spans v2 using (group_name)"
                                + " where v1.rule_version = 1 and v2.rule_version = 2"
                                + " and v2.first_article <= v1.first_article and v2.last_article >= v1.last_article"))
                .as("v2's span covers v1's: a write under v1 now would meet it")
                .isEqualTo(1);
    }

    private static List<String> messageIds() throws SQLException {
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

    private static String dump() throws SQLException {
        StringBuilder sb = new StringBuilder();
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            for (String q : new String[] {
                "select * from binaries order by group_name, poster, file_name, total_parts",
                "select * from releases order by group_name, poster, name",
                "select * from miss_shapes order by shape"
            }) {
                try (ResultSet rs = st.executeQuery(q)) {
                    ResultSetMetaData md = rs.getMetaData();
                    while (rs.next()) {
                        for (int i = 1; i <= md.getColumnCount(); i++) {
                            if (md.getColumnName(i).equals("added")) {
                                continue; // the transaction that added a release (V31): when, not what
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

    /** One worker's pieces as HeadwayWorker wires them; each take loads the rule set {@code rules} holds then. */
    private static final class Node {
        final LeaseStore leases;
        final RangeStore ranges;
        final GroupStore groups;
        final Holdings holdings = new Holdings(4);
        final RangeIndexer indexer;
        final LeaseActivitiesImpl leaseActivities;
        Holdings.Held held;

        Node(HikariDataSource ds, AtomicReference<RuleSet> rules) {
            leases = new LeaseStore(ds, 0);
            ranges = new RangeStore(ds, 0);
            groups = new GroupStore(ds);
            IndexMetrics metrics = IndexMetrics.discard(holdings);
            indexer = new RangeIndexer(
                    new NntpHeaderSource(pool), leases.fence(), ranges, new CatalogStore(), 100, metrics);
            leaseActivities = new LeaseActivitiesImpl(
                    leases,
                    new PostgresSnapshotStore(ds, leases),
                    holdings,
                    rules::get,
                    "node-1",
                    "own/node-1",
                    TTL,
                    1000,
                    metrics,
                    ConflictReporter.NONE,
                    Band.ALL);
        }

        void lease() {
            LeaseGrant grant = leaseActivities.lease(GROUP);
            assertThat(grant.granted()).as("lease granted").isTrue();
            held = holdings.get(GROUP, grant.token().epoch()).orElseThrow();
        }

        /** Indexes every planned range, then closes the window into the catalog, as retiring the group would. */
        void indexToTheEnd() throws Exception {
            for (Optional<RangeRow> r = ranges.nextRange(held.holder(), held.rules.version());
                    r.isPresent();
                    r = ranges.nextRange(held.holder(), held.rules.version())) {
                indexer.index(held, r.get(), r.get().next(), 0, 0, 0, (c, h, m, x) -> {});
            }
            assertThat(groups.ranges(GROUP)).extracting(RangeRow::status).containsOnly("done");
            held.window().closeAll();
            List<CompletedBinary> open = held.window().drain();
            leases.fence().run(held.holder(), "flushing the window", c -> {
                new CatalogStore().writeBinaries(c, open, held.rules.categories(), held.rules.version());
                return null;
            });
        }
    }
}
