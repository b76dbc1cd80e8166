package headway.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import headway.activity.NntpHeaderSource;
import headway.coordination.LeaseStore;
import headway.coordination.PostgresSnapshotStore;
import headway.coordination.SnapshotStore;
import headway.index.CompletedBinary;
import headway.index.RuleSet;
import headway.index.Segment;
import headway.index.SubjectMatch;
import headway.index.Window;
import headway.nntp.NntpPool;
import headway.nntp.OverviewSink;
import headway.overview.OverviewLine;
import headway.simulator.NewsSimulator;
import headway.worker.HeadwayWorker;
import headway.worker.WorkerConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Two worker JVMs; the one holding the group is killed with SIGKILL in the middle of a range. The
 * other takes the group over within lease TTL + 5 s, restarts from the snapshot (so it redoes at
 * most what the snapshot did not cover), and once caught up every article the rules accept is in
 * the catalog or the final snapshot's window exactly once.
 */
@Isolated("its assertions measure time: it runs alone, not beside another test class")
class TakeoverTest {

    private static final String GROUP = "alt.binaries.takeover";
    private static final long ARTICLES = 120_000;
    private static final long RANGE_SIZE = 10_000;
    private static final Pattern FROM_SNAPSHOT = Pattern.compile("from snapshot (\\d+)");

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void killedHolderIsTakenOverFromItsSnapshotAndEveryArticleIsCatalogedOnce() throws Exception {
        try (Cluster cluster = Cluster.start("takeover", List.of(NewsSimulator.GroupSpec.of(GROUP, 42, ARTICLES)))) {
            cluster.workerEnv("HEADWAY_BATCH", "250");
            cluster.startWorker("w1");
            cluster.startWorker("w2");
            cluster.addAndPlan(GROUP, RANGE_SIZE);
            cluster.startGroupWithCli(GROUP, 1, Duration.ofSeconds(60), Cluster.LEASE_TTL);

            // mid-range after at least one snapshot: the holder's leased range has moved but is not near its end
            Cluster.await(
                    Duration.ofSeconds(60),
                    Duration.ofMillis(50),
                    "a snapshot and a leased range half indexed",
                    () -> cluster.queryLong("""
                            select count(*) from group_leases l join ranges r on r.group_name = l.group_name
                             and r.status = 'leased' and r.node_id = l.holder_node
                            where l.group_name = ? and l.snapshot_next is not null
                              and r.next_article >= r.start_article + 1000 and r.next_article <= r.end_article - 3000
                            """, GROUP) == 1);
            String holder = cluster.queryString("select holder_node from group_leases where group_name = ?", GROUP);
            String other = holder.equals("w1") ? "w2" : "w1";
            cluster.kill9(holder);
            long killedAt = System.nanoTime();

            long epochAtKill = cluster.queryLong("select epoch from group_leases where group_name = ?", GROUP);
            long snapshotAtKill =
                    cluster.queryLong("select snapshot_next from group_leases where group_name = ?", GROUP);
            long cursorAtKill = cluster.queryLong("""
                    select max(next_article) from ranges where group_name = ? and node_id = ? and status = 'leased'
                    """, GROUP, holder);
            assertThat(snapshotAtKill)
                    .as("the snapshot is behind the killed holder's cursor")
                    .isLessThanOrEqualTo(cursorAtKill);

            // the takeover: the other node holds the group and has moved a cursor past where it restarted
            Long[] restart = {null};
            Cluster.await(Duration.ofSeconds(30), Duration.ofMillis(50), "a cursor advance by " + other, () -> {
                if (restart[0] == null) {
                    String detail = cluster.queryString("""
                            select detail from lease_events where group_name = ? and kind = 'takeover' and node_id = ? and epoch > ?
                            order by id limit 1
                            """, GROUP, other, epochAtKill);
                    if (detail == null) {
                        return false;
                    }
                    Matcher m = FROM_SNAPSHOT.matcher(detail);
                    assertThat(m.find())
                            .as("the takeover re-planned from a snapshot: " + detail)
                            .isTrue();
                    restart[0] = Long.parseLong(m.group(1));
                }
                Long advanced = cluster.queryLong("""
                        select count(*) from ranges where group_name = ? and node_id = ? and next_article > greatest(start_article, ?)
                        """, GROUP, other, restart[0]);
                return advanced > 0;
            });
            double takeoverSeconds = (System.nanoTime() - killedAt) / 1e9;
            long redo = cursorAtKill - restart[0];
            System.out.printf(
                    "takeover: seconds=%.1f redo_articles=%d (killed %s at cursor %d, snapshot %d, %s restarted at %d)%n",
                    takeoverSeconds, redo, holder, cursorAtKill, snapshotAtKill, other, restart[0]);

            assertThat(cluster.log(other))
                    .as(other + " loaded the snapshot")
                    .contains("window from snapshot " + restart[0]);
            assertThat(restart[0]).as("restart point is the newest snapshot").isEqualTo(snapshotAtKill);
            assertThat(redo)
                    .as("redo is at most what the snapshot did not cover")
                    .isBetween(0L, cursorAtKill - snapshotAtKill);
            assertThat(takeoverSeconds)
                    .as("takeover within lease TTL + 5 s")
                    .isLessThanOrEqualTo(Cluster.LEASE_TTL.toSeconds() + 5.0);

            Cluster.await(
                    Duration.ofSeconds(90),
                    Duration.ofMillis(500),
                    "the group caught up and handed back",
                    () -> cluster.queryLong(
                                            "select count(*) from ranges where group_name = ? and status <> 'done'",
                                            GROUP)
                                    == 0
                            && cluster.queryString("select holder_node from group_leases where group_name = ?", GROUP)
                                    == null);
            assertExactlyOnce(cluster);
        }
    }

    /** Every header the rules accept is in the catalog or the final snapshot's window, once; gaps and malformed lines are recorded missing. */
    private static void assertExactlyOnce(Cluster cluster) throws IOException {
        long high = cluster.simulator().high(GROUP);
        Map<String, Long> cataloged = new HashMap<>();
        for (Map<String, Object> row : cluster.rows(
                "select m from binaries, unnest(message_id_array(message_ids)) m where group_name = ?", GROUP)) {
            cataloged.merge((String) row.get("m"), 1L, Long::sum);
        }
        SnapshotStore snapshots =
                new PostgresSnapshotStore(cluster.dataSource(), new LeaseStore(cluster.dataSource(), 0));
        Optional<SnapshotStore.Loaded<Window>> last = snapshots.get(GROUP, in -> {
            try {
                return Window.readFrom(in);
            } catch (headway.index.BadSnapshotException e) {
                throw new IOException(e);
            }
        });
        assertThat(last).as("the final snapshot").isPresent();
        assertThat(last.get().meta().next())
                .as("the final snapshot covers every article")
                .isEqualTo(high + 1);
        Window window = last.get().value();
        window.closeAll();
        for (CompletedBinary b : window.drain()) {
            for (Segment s : b.segments()) {
                assertThat(cataloged)
                        .as("the final snapshot wrote its open binaries to the catalog")
                        .containsKey(s.messageId());
            }
        }
        long twice = cataloged.values().stream().filter(n -> n > 1).count();

        RuleSet rules = RuleSet.defaults(0);
        Set<String> expected = new HashSet<>();
        long[] notCounted = new long[2]; // gaps, malformed
        WorkerConfig.NntpServer server = WorkerConfig.fromEnvNntp(cluster.env());
        try (NntpPool pool = new NntpPool(HeadwayWorker.nntpConfig(server))) {
            new NntpHeaderSource(pool).fetch(GROUP, 1, high, new OverviewSink() {
                @Override
                public void header(OverviewLine line) {
                    if (rules.match(GROUP, line.from(), line.subject()) instanceof SubjectMatch.Matched) {
                        expected.add(bare(line.messageId()));
                    }
                }

                @Override
                public void malformed(long article, String reason) {
                    notCounted[1]++;
                }

                @Override
                public void missing(long fromInclusive, long toInclusive) {
                    notCounted[0] += toInclusive - fromInclusive + 1;
                }
            });
        }
        Set<String> lost = new HashSet<>(expected);
        lost.removeAll(cataloged.keySet());
        Set<String> extra = new HashSet<>(cataloged.keySet());
        extra.removeAll(expected);
        long missingRecorded = cluster.queryLong(
                "select coalesce(sum(last_article - first_article + 1), 0) from missing_article_runs where group_name = ?",
                GROUP);
        System.out.printf(
                "takeover: catalog segments=%d expected=%d twice=%d lost=%d extra=%d missing_recorded=%d "
                        + "(gaps %d, malformed %d)%n",
                cataloged.size(),
                expected.size(),
                twice,
                lost.size(),
                extra.size(),
                missingRecorded,
                notCounted[0],
                notCounted[1]);
        assertThat(twice).as("message ids cataloged more than once").isZero();
        assertThat(lost).as("accepted articles not in the catalog").isEmpty();
        assertThat(extra).as("cataloged ids the server never served").isEmpty();
        assertThat(missingRecorded)
                .as("articles recorded missing = gaps + malformed")
                .isEqualTo(notCounted[0] + notCounted[1]);
    }

    private static String bare(String messageId) {
        String id = messageId.strip();
        return id.startsWith("<") && id.endsWith(">") ? id.substring(1, id.length() - 1) : id;
    }
}
