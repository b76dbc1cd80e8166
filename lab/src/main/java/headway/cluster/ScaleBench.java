package headway.cluster;

import headway.settings.Setting;
import headway.simulator.NewsSimulator;
import headway.starter.GroupStarter;
import headway.workflow.GroupConfig;
import io.temporal.client.WorkflowExecutionMetadata;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Many groups on one worker JVM against the dev server: the worker's resident memory (sampled
 * from /proc while it works), the time until every group is caught up, and the longest history of
 * any group workflow run, which continue-as-new keeps bounded.
 */
public final class ScaleBench {

    /** What the run measured; the history length of a running workflow comes from describing it (visibility leaves it 0). */
    public record Result(int groups, long workerRssMb, double caughtUpSeconds, long maxHistoryEvents, long runs) {}

    private final int groups;
    private final long articles;
    private final int maxGroups;
    private final int workflowCache;
    private final int workflowThreads;
    private final PrintWriter out;

    public ScaleBench(
            int groups, long articles, int maxGroups, int workflowCache, int workflowThreads, PrintWriter out) {
        this.groups = groups;
        this.articles = articles;
        this.maxGroups = maxGroups;
        this.workflowCache = workflowCache;
        this.workflowThreads = workflowThreads;
        this.out = out;
    }

    public Result run() {
        List<NewsSimulator.GroupSpec> specs = new ArrayList<>();
        for (int i = 0; i < groups; i++) {
            specs.add(NewsSimulator.GroupSpec.of("alt.binaries.scale.g" + i, 1_000 + i, articles));
        }
        try (Cluster cluster = Cluster.start("bench-scale", specs)) {
            cluster.workerEnv(Setting.MAX_GROUPS.key(), Integer.toString(maxGroups))
                    .workerEnv(Setting.ACTIVITY_CONCURRENCY.key(), Integer.toString(Math.max(16, maxGroups * 2)))
                    .workerEnv(Setting.DB_POOL.key(), Integer.toString(Math.min(100, maxGroups * 2 + 4)))
                    .workerEnv(Setting.NNTP_CONNECTIONS.key(), "8")
                    .workerEnv(Setting.LEASE_TTL.key(), Setting.LEASE_TTL.defaultValue())
                    .workerEnv(Setting.WORKFLOW_CACHE.key(), Integer.toString(workflowCache))
                    .workerEnv(Setting.WORKFLOW_THREADS.key(), Integer.toString(workflowThreads));
            Cluster.Worker worker = cluster.startWorker("w1", List.of("-Xmx1g"));
            for (NewsSimulator.GroupSpec g : specs) {
                cluster.addAndPlan(g.name(), 100_000);
            }
            out.printf(
                    "scale: %d groups x %d articles planned; starting their workflows, %d at once%n",
                    groups, articles, GroupStarter.DEFAULT_IN_FLIGHT);
            out.flush();
            long t0 = System.nanoTime();
            List<GroupConfig> configs = specs.stream()
                    .map(g -> cluster.rig()
                            .groupConfig(g.name(), Setting.LEASE_TTL.durationDefault(), 2, Duration.ofMinutes(30)))
                    .toList();
            GroupStarter.startAll(cluster.client(), configs, GroupStarter.DEFAULT_IN_FLIGHT, (s, done, total) -> {
                if (done % Math.max(1, total / 10) == 0 || done == total) {
                    out.printf(
                            "scale: %d of %d workflows started after %.1f s%n",
                            done, total, (System.nanoTime() - t0) / 1e9);
                    out.flush();
                }
            });
            long[] rssKb = {0};
            // 25 minutes, and a third of a second a group past 1,000: one worker takes a few groups a second
            Duration limit = Duration.ofMinutes(25).plusMillis(Math.max(0, groups - 1_000) * 333L);
            Cluster.await(limit, Duration.ofSeconds(1), "every group caught up", () -> {
                rssKb[0] = Math.max(rssKb[0], rssKb(worker.pid()));
                long open = cluster.rig().progress().openRanges();
                if (open > 0) {
                    return false;
                }
                return cluster.client()
                                .countWorkflows("WorkflowType = 'GroupWorkflow' AND ExecutionStatus = 'Running'"
                                        + " AND HeadwayState != 'IDLE'")
                                .getCount()
                        == 0;
            });
            double seconds = (System.nanoTime() - t0) / 1e9;
            rssKb[0] = Math.max(rssKb[0], rssKb(worker.pid()));
            long maxHistory = 0;
            long events = 0;
            long runs = 0;
            for (WorkflowExecutionMetadata m : (Iterable<WorkflowExecutionMetadata>)
                    cluster.client().listExecutions("WorkflowType = 'GroupWorkflow'")::iterator) {
                long length = m.getHistoryLength() > 0
                        ? m.getHistoryLength()
                        : cluster.client()
                                .newUntypedWorkflowStub(
                                        m.getExecution().getWorkflowId(),
                                        java.util.Optional.of(m.getExecution().getRunId()),
                                        java.util.Optional.empty())
                                .describe()
                                .getHistoryLength();
                maxHistory = Math.max(maxHistory, length);
                events += length;
                runs++;
            }
            out.printf(
                    "scale: caught up in %.1f s; worker peak RSS %d MB; %d workflow runs of %d history events in all,"
                            + " longest %d (budget %d)%n",
                    seconds, rssKb[0] / 1024, runs, events, maxHistory, GroupConfig.DEFAULT_HISTORY_EVENT_BUDGET);
            return new Result(groups, rssKb[0] / 1024, seconds, maxHistory, runs);
        }
    }

    /** Resident set size of a process in KiB, from /proc (0 when unreadable). */
    static long rssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }
}
