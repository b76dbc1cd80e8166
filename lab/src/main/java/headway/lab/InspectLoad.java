package headway.lab;

import headway.poster.PostedRelease;
import headway.poster.ReleasePoster;
import headway.poster.ReleaseSpec;
import headway.poster.ReleaseTools;
import headway.settings.Setting;
import headway.simulator.NewsSimulator;
import headway.worker.Schedules;
import io.temporal.client.WorkflowClient;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleClientOptions;
import io.temporal.client.schedules.ScheduleHandle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The deep index's load for {@code bench throughput --inspect}: each round gets a group of the
 * simulator of its own holding {@link ReleaseSpec#mixed} releases (real par2 and 7z, obfuscated),
 * posted and indexed before the round's timed phases while the {@code headway-inspect} schedule is
 * paused, so that their inspection (the schedule's workflow, the inspect queue's activities and the
 * bodies they fetch from the simulator) starts when the schedule is unpaused and triggered at the
 * start of the end-to-end phase measured with inspection on, and not before. The schedules are the
 * default ones, installed with the others as a deployment installs them; after the phase the load
 * waits for every release of the round to be settled (named, unnamed, given up or failed) and
 * pauses the schedule again, so no inspection spills into the next round's phases.
 */
final class InspectLoad {

    private static final String SETTLED = """
            select count(*) filter (where r.real_name is not null),
                   count(*) filter (where r.real_name is null and not exists (
                       select 1 from release_inspections i
                       where i.group_name = r.group_name and i.poster = r.poster and i.name = r.name
                         and i.state in ('named', 'unnamed', 'gave_up', 'failed')))
            from releases r
            where r.group_name = ? and r.complete and (r.category in (8010, 8020) or r.real_name is not null)
            """;

    /** What one round's inspection did. */
    record Settled(int releases, int named, int unsettled, long bodies, double seconds) {}

    private final int rounds;
    private final int each;
    private final long seed;
    private final List<List<PostedRelease>> releases = new ArrayList<>();
    private ScheduleHandle schedule;
    private long triggeredAt;

    InspectLoad(int rounds, int each, long seed) {
        this.rounds = rounds;
        this.each = each;
        this.seed = seed;
    }

    /** The simulator's groups the rounds post into, one each. */
    List<NewsSimulator.GroupSpec> groups() {
        List<NewsSimulator.GroupSpec> out = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            out.add(NewsSimulator.GroupSpec.posted(group(r)));
        }
        return out;
    }

    private static String group(int round) {
        return "alt.binaries.bench.deep" + round;
    }

    /** Builds every round's releases with par2 and 7z (untimed: the tools' CPU is no part of a phase). */
    void build() throws IOException {
        Path work = Files.createTempDirectory("headway-throughput-inspect");
        ReleasePoster poster = new ReleasePoster(ReleaseTools.find(), work, ReleasePoster.DEFAULT_PART_BYTES);
        for (int r = 0; r < rounds; r++) {
            List<ReleaseSpec> specs = ReleaseSpec.mixed(seed + r, each);
            List<PostedRelease> mine = new ArrayList<>();
            for (int i = 0; i < specs.size(); i++) {
                mine.add(poster.build(specs.get(i), seed * 1000 + r * 100L + i, group(r), Instant.now()));
            }
            releases.add(mine);
        }
    }

    /** Installs the default schedules (the worker's environment's intervals) and pauses inspection until a phase. */
    void install(Rig rig) {
        rig.installSchedules(Schedules.Intervals.fromEnv(rig.env()));
        WorkflowClient client = rig.client();
        schedule = ScheduleClient.newInstance(
                        client.getWorkflowServiceStubs(),
                        ScheduleClientOptions.newBuilder()
                                .setNamespace(client.getOptions().getNamespace())
                                .build())
                .getHandle(Schedules.INSPECT);
        schedule.pause("bench throughput: inspection runs during the phase that measures it");
    }

    /** Posts round {@code round}'s releases and indexes its group until caught up (untimed). */
    void prepare(Rig rig, int round, Duration limit) {
        for (PostedRelease r : releases.get(round)) {
            ReleasePoster.post(rig.simulator(), r);
        }
        rig.addAndPlan(group(round), Setting.RANGE_SIZE.longDefault());
        rig.startGroup(rig.groupConfig(
                group(round), Setting.LEASE_TTL.durationDefault(), 2, Setting.IDLE_WAIT.durationDefault()));
        rig.waitCaughtUp(List.of(group(round)), limit);
    }

    /** Lets inspection run: the schedule unpaused and triggered now, as its next interval would start it. */
    void start() {
        triggeredAt = System.nanoTime();
        schedule.unpause("bench throughput: the phase with inspection on starts");
        schedule.trigger();
    }

    /** Bodies the simulator has served so far. */
    static long bodies(Rig rig) {
        return rig.simulator().bodiesServed().values().stream()
                .mapToLong(Integer::longValue)
                .sum();
    }

    /** Waits until every release of round {@code round} is settled (at most {@code limit}), then pauses inspection. */
    Settled settle(Rig rig, int round, long bodiesBefore, Duration limit) throws InterruptedException, SQLException {
        long deadline = System.nanoTime() + limit.toNanos();
        int[] counts = count(rig, round);
        while (counts[1] > 0 && System.nanoTime() < deadline) {
            Thread.sleep(250);
            counts = count(rig, round);
        }
        double seconds = (System.nanoTime() - triggeredAt) / 1e9;
        schedule.pause("bench throughput: round " + (round + 1) + "'s inspection settled");
        long obfuscated =
                releases.get(round).stream().filter(PostedRelease::obfuscated).count();
        return new Settled((int) obfuscated, counts[0], counts[1], bodies(rig) - bodiesBefore, seconds);
    }

    /** Named releases and releases not settled yet, of round {@code round}'s group. */
    private static int[] count(Rig rig, int round) throws SQLException {
        try (Connection c = rig.dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement(SETTLED)) {
            ps.setString(1, group(round));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new int[] {rs.getInt(1), rs.getInt(2)};
            }
        }
    }
}
