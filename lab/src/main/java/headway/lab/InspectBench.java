package headway.lab;

import headway.poster.PostedRelease;
import headway.poster.ReleasePoster;
import headway.poster.ReleaseSpec;
import headway.poster.ReleaseTools;
import headway.settings.Setting;
import headway.simulator.NewsSimulator;
import headway.worker.Schedules;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code headway bench inspect}: the deep index in the default deployment. A worker on the
 * Temporal dev server with the default schedules (planner every HEADWAY_PLAN_EVERY, inspection
 * every HEADWAY_INSPECT_EVERY) follows a group of the simulator, into which rigs' poster posts
 * {@link ReleaseSpec#mixed} releases (real par2 and 7z, RAR volumes from rarfile's test files, an
 * NFO; obfuscated by PAR2 only, NFO only, archive listing only, passworded both ways, and readable
 * controls) one after another; each release's seconds_to_named run from its last article reaching
 * the server to its catalog row carrying its real name (searchable by it: the search words are
 * generated from it). Articles per release are the bodies the simulator served of its articles;
 * CPU is this JVM's (worker, simulator, poster) and PostgreSQL's are not split, so
 * cpu_ms_per_release is the JVM's CPU over the run per release, an upper bound of inspection's.
 */
final class InspectBench {

    static final String GROUP = "alt.binaries.headway.deep";

    /** What one run measured. */
    record Result(
            int releases,
            int named,
            int wrong,
            int passwordedFound,
            int passworded,
            double articlesMedian,
            double releasesPerSecond,
            double cpuMsPerRelease,
            double secondsToNamedP50) {

        String line() {
            return String.format(
                    Locale.ROOT,
                    "inspect: releases=%d named=%d wrong=%d passworded=%d/%d articles_per_release_median=%.1f"
                            + " releases_per_s=%.2f cpu_ms_per_release=%.0f seconds_to_named_p50=%.1f",
                    releases,
                    named,
                    wrong,
                    passwordedFound,
                    passworded,
                    articlesMedian,
                    releasesPerSecond,
                    cpuMsPerRelease,
                    secondsToNamedP50);
        }
    }

    private final int each;
    private final long seed;
    private final Duration gap;
    private final Duration limit;
    private final PrintWriter out;

    InspectBench(int each, long seed, Duration gap, Duration limit, PrintWriter out) {
        this.each = each;
        this.seed = seed;
        this.gap = gap;
        this.limit = limit;
        this.out = out;
    }

    Result run() throws Exception {
        Path work = Files.createTempDirectory("headway-inspect-bench");
        ReleasePoster poster = new ReleasePoster(ReleaseTools.find(), work, ReleasePoster.DEFAULT_PART_BYTES);
        List<ReleaseSpec> specs = ReleaseSpec.mixed(seed, each);
        try (Rig rig = Rig.builder()
                .groups(List.of(NewsSimulator.GroupSpec.posted(GROUP)))
                .database("inspect_bench")
                .temporal(TemporalServer.Kind.DEV_SERVER_OR_IN_PROCESS)
                .say(out::println)
                .start()) {
            rig.startWorker(Map.of());
            rig.addAndPlan(GROUP, Setting.RANGE_SIZE.longDefault());
            rig.startGroup(rig.groupConfig(
                    GROUP, Setting.LEASE_TTL.durationDefault(), 2, Setting.IDLE_WAIT.durationDefault()));
            rig.installSchedules(Schedules.Intervals.fromEnv(rig.env()));

            long cpu0 = processCpuNanos();
            long t0 = System.nanoTime();
            Map<String, PostedRelease> byFirstId = new HashMap<>();
            Map<String, Long> postedAt = new HashMap<>();
            List<PostedRelease> posted = new ArrayList<>();
            for (int i = 0; i < specs.size(); i++) {
                PostedRelease r = poster.build(specs.get(i), seed * 1000 + i, GROUP, Instant.now());
                ReleasePoster.post(rig.simulator(), r);
                postedAt.put(r.name(), System.nanoTime());
                for (PostedRelease.PostedFile f : r.files()) {
                    byFirstId.put(f.messageIds().get(0), r);
                }
                posted.add(r);
                Thread.sleep(gap.toMillis());
            }
            Map<String, Double> namedAfter = new HashMap<>();
            Map<String, Integer> password = new HashMap<>();
            int wrong = 0;
            long deadline = System.nanoTime() + limit.toNanos();
            while (namedAfter.size() < posted.size() && System.nanoTime() < deadline) {
                wrong = 0;
                for (Row row : rows(rig)) {
                    PostedRelease r = byFirstId.get("<" + row.firstId() + ">");
                    if (r == null) {
                        continue;
                    }
                    String shown = row.realName() != null ? row.realName() : row.name();
                    if (row.realName() != null && !row.realName().equals(r.name())) {
                        wrong++;
                    }
                    if (shown.equals(r.name()) && !namedAfter.containsKey(r.name())) {
                        namedAfter.put(r.name(), (System.nanoTime() - postedAt.get(r.name())) / 1e9);
                    }
                    password.merge(r.name(), row.password(), Math::max);
                }
                Thread.sleep(250);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            long cpu = processCpuNanos() - cpu0;
            int passworded = 0;
            int found = 0;
            for (PostedRelease r : posted) {
                if (r.newznabPassword() == 1) {
                    passworded++;
                    found += password.getOrDefault(r.name(), 0) == 1 ? 1 : 0;
                }
            }
            Map<String, Integer> served = rig.simulator().bodiesServed();
            List<Double> articles = new ArrayList<>();
            for (PostedRelease r : posted) {
                if (r.obfuscated()) {
                    articles.add((double) r.messageIds().stream()
                            .mapToInt(id -> served.getOrDefault(id, 0))
                            .sum());
                }
            }
            return new Result(
                    posted.size(),
                    namedAfter.size(),
                    wrong,
                    found,
                    passworded,
                    median(articles),
                    namedAfter.size() / seconds,
                    cpu / 1e6 / posted.size(),
                    median(new ArrayList<>(namedAfter.values())));
        }
    }

    record Row(String name, String realName, int password, String firstId) {}

    private static final String ROWS = """
            select r.name, r.real_name, r.password,
                   (select (message_id_array(b.message_ids))[1] from binaries b
                    where b.group_name = r.group_name and b.poster = r.poster and b.release_name = r.name
                    order by b.first_article limit 1)
            from releases r where r.group_name = ?
            """;

    private static List<Row> rows(Rig rig) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (Connection c = rig.dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement(ROWS)) {
            ps.setString(1, GROUP);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Row(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getString(4)));
                }
            }
        }
        return rows;
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }
}
