package headway.cluster;

import headway.settings.Setting;
import headway.simulator.NewsSimulator;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takeover time and redo over repeated kills: two worker JVMs share one big group at the default
 * range size and snapshot cadence; each round waits until a range has finished since the last
 * kill (five failed holding cycles in a row would park the group, as a crash loop should) and
 * the holder is mid-range and at least the round's distance past the last snapshot, then kills
 * it with SIGKILL, starts a replacement, and measures the time from the kill to the first cursor
 * advance by the new holder and the articles it redid (the killed holder's committed cursor less
 * the snapshot it restarted from). The rounds' distances are spread over the snapshot cadence
 * (snapshotEvery ranges), in a fixed shuffled order, so the redo figures cover the whole span
 * from just after a snapshot to just before the next one.
 */
public final class TakeoverBench {

    private static final String GROUP = "alt.binaries.bench.takeover";
    private static final Pattern FROM_SNAPSHOT = Pattern.compile("from snapshot (\\d+)");

    /**
     * The rounds' figures; with node expiry, {@code nodeTtl} and how long after each kill the killed
     * holder's node row expired (else {@code null} and empty).
     */
    public record Result(
            int kills, List<Double> seconds, List<Long> redo, Duration ttl, Duration nodeTtl, List<Double> rowExpired) {
        public double rowExpiredMax() {
            return rowExpired.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        }

        public double secondsMax() {
            return seconds.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        }

        public double secondsMedian() {
            return median(seconds);
        }

        public long redoMedian() {
            return median(redo);
        }

        private static <T extends Comparable<T>> T median(List<T> values) {
            List<T> sorted = new ArrayList<>(values);
            Collections.sort(sorted);
            return sorted.get(sorted.size() / 2);
        }

        public long redoMax() {
            return redo.stream().mapToLong(Long::longValue).max().orElse(0);
        }
    }

    private final int kills;
    private final long articles;
    private final long rangeSize;
    private final int snapshotEvery;
    private final PrintWriter out;
    private final boolean nodeExpiry;

    public TakeoverBench(int kills, long articles, long rangeSize, int snapshotEvery, PrintWriter out) {
        this(kills, articles, rangeSize, snapshotEvery, false, out);
    }

    /**
     * With {@code nodeExpiry}, the workers run with the settings' default TTLs (lease 30 s, node
     * 15 s, node heartbeat 5 s) instead of the cluster's short ones, so a killed holder's node row
     * expires well before its lease: the new holder's first article then measures how soon a
     * group is taken once its holder's row has expired (target: within the node TTL + 5 s).
     */
    public TakeoverBench(
            int kills, long articles, long rangeSize, int snapshotEvery, boolean nodeExpiry, PrintWriter out) {
        this.kills = kills;
        this.articles = articles;
        this.rangeSize = rangeSize;
        this.snapshotEvery = snapshotEvery;
        this.nodeExpiry = nodeExpiry;
        this.out = out;
    }

    public Result run() {
        List<Double> seconds = new ArrayList<>();
        List<Long> redo = new ArrayList<>();
        List<Double> rowExpired = new ArrayList<>();
        Duration ttl = nodeExpiry ? Setting.LEASE_TTL.durationDefault() : Cluster.LEASE_TTL;
        Duration nodeTtl = nodeExpiry ? Setting.NODE_TTL.durationDefault() : Cluster.NODE_TTL;
        try (Cluster cluster =
                Cluster.start("bench-takeover", List.of(NewsSimulator.GroupSpec.of(GROUP, 4242, articles)))) {
            cluster.workerEnv(Setting.RANGE_SIZE.key(), Long.toString(rangeSize));
            if (nodeExpiry) {
                cluster.workerEnv(Setting.LEASE_TTL.key(), ttl.toSeconds() + "s")
                        .workerEnv(Setting.NODE_TTL.key(), nodeTtl.toSeconds() + "s")
                        .workerEnv(
                                Setting.NODE_HEARTBEAT.key(),
                                Setting.NODE_HEARTBEAT.durationDefault().toSeconds() + "s");
            }
            List<String> live = new ArrayList<>(List.of("w1", "w2"));
            live.forEach(cluster::startWorker);
            int serial = 2;
            cluster.addAndPlan(GROUP, rangeSize);
            cluster.startGroup(GROUP, snapshotEvery, Duration.ofMinutes(5), ttl);
            List<Long> distances = distances(kills, snapshotEvery * rangeSize);
            for (int round = 1; round <= kills; round++) {
                long restartedFrom = round == 1 ? 0 : lastRestart(cluster);
                long distance = distances.get(round - 1);
                long doneBefore = cluster.queryLong(
                        "select count(*) from ranges where group_name = ? and status = 'done'", GROUP);
                Cluster.await(
                        Duration.ofMinutes(3),
                        Duration.ofMillis(20),
                        "the holder mid-range, past where it started and " + distance
                                + " articles past the last snapshot," + " with a range finished since the last kill",
                        () -> cluster.queryLong(
                                                "select count(*) from ranges where group_name = ? and status = 'done'",
                                                GROUP)
                                        > doneBefore
                                && cluster.queryLong("""
                                select count(*) from group_leases l join ranges r on r.group_name = l.group_name
                                 and r.status = 'leased' and r.node_id = l.holder_node
                                where l.group_name = ? and l.snapshot_next is not null
                                  and r.next_article >= greatest(r.start_article, ?) + 2000
                                  and r.next_article <= r.end_article - 2000
                                  and r.next_article >= l.snapshot_next + ?
                                """, GROUP, restartedFrom, distance) == 1);
                String holder = cluster.queryString("select holder_node from group_leases where group_name = ?", GROUP);
                cluster.kill9(holder);
                long killedAt = System.nanoTime();
                Long rowLeftMillis = cluster.queryLong(
                        "select (extract(epoch from expires_at - hw_now()) * 1000)::bigint from nodes where id = ?",
                        holder);
                live.remove(holder);
                long epochAtKill = cluster.queryLong("select epoch from group_leases where group_name = ?", GROUP);
                long cursorAtKill = cluster.queryLong("""
                        select max(next_article) from ranges where group_name = ? and node_id = ? and status = 'leased'
                        """, GROUP, holder);
                String replacement = "w" + (++serial);
                cluster.startWorker(replacement);
                live.add(replacement);
                long[] restart = {-1};
                Cluster.await(
                        Duration.ofMinutes(1), Duration.ofMillis(20), "a cursor advance by the new holder", () -> {
                            if (restart[0] < 0) {
                                String detail = cluster.queryString("""
                                select detail from lease_events where group_name = ? and kind in ('take', 'takeover') and epoch > ?
                                order by id limit 1
                                """, GROUP, epochAtKill);
                                if (detail == null) {
                                    return false;
                                }
                                Matcher m = FROM_SNAPSHOT.matcher(detail);
                                restart[0] = m.find() ? Long.parseLong(m.group(1)) : 0;
                            }
                            return cluster.queryLong("""
                            select count(*) from ranges r join group_leases l on l.group_name = r.group_name
                            where r.group_name = ? and r.node_id = l.holder_node and l.epoch > ?
                              and r.next_article > greatest(r.start_article, ?)
                            """, GROUP, epochAtKill, restart[0]) > 0;
                        });
                double s = (System.nanoTime() - killedAt) / 1e9;
                long redone = Math.max(0, cursorAtKill - restart[0]);
                seconds.add(s);
                redo.add(redone);
                out.printf(
                        "takeover: round %d: killed %s at cursor %d, taken over from snapshot %d in %.1f s, %d articles redone",
                        round, holder, cursorAtKill, restart[0], s, redone);
                if (nodeExpiry) {
                    double expired = rowLeftMillis == null ? 0 : Math.max(0, rowLeftMillis) / 1000.0;
                    rowExpired.add(expired);
                    out.printf(", its node row expired %.1f s after the kill", expired);
                }
                out.println();
                out.flush();
            }
            return new Result(kills, seconds, redo, ttl, nodeExpiry ? nodeTtl : null, rowExpired);
        }
    }

    /** {@code kills} distances past a snapshot, at the middles of equal slices of {@code span}, shuffled with a fixed seed. */
    static List<Long> distances(int kills, long span) {
        List<Long> distances = new ArrayList<>();
        for (int i = 0; i < kills; i++) {
            distances.add((2L * i + 1) * span / (2L * kills));
        }
        Collections.shuffle(distances, new Random(42));
        return distances;
    }

    private static long lastRestart(Cluster cluster) {
        String detail = cluster.queryString("""
                select detail from lease_events where group_name = ? and kind in ('take', 'takeover') order by id desc limit 1
                """, GROUP);
        Matcher m = detail == null ? null : FROM_SNAPSHOT.matcher(detail);
        return m != null && m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
