package headway.starter;

import headway.worker.Settings;
import headway.workflow.GroupConfig;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Option;

/** How started group workflows run: flags over HEADWAY_* environment variables over defaults. */
final class GroupOptions {

    @Option(
            names = "--lease-ttl",
            description = "holder quiet this long loses the group (env HEADWAY_LEASE_TTL, default 30s)")
    String leaseTtl;

    @Option(
            names = "--snapshot-every",
            description = "ranges between snapshots (env HEADWAY_SNAPSHOT_EVERY, default 2)")
    Integer snapshotEvery;

    @Option(
            names = "--idle-wait",
            description = "a caught-up group looks again after this (env HEADWAY_IDLE_WAIT, default 5m)")
    String idleWait;

    @Option(names = "--task-queue", description = "the shared task queue (env HEADWAY_TASK_QUEUE, default headway)")
    String taskQueue;

    GroupConfig config(String group, Map<String, String> env) {
        Settings s = new Settings(env);
        Duration ttl = leaseTtl != null
                ? Settings.parseDuration("--lease-ttl", leaseTtl)
                : s.duration("HEADWAY_LEASE_TTL", Duration.ofSeconds(30));
        int every = snapshotEvery != null ? snapshotEvery : s.integer("HEADWAY_SNAPSHOT_EVERY", 2, 1, 1_000_000);
        Duration idle = idleWait != null
                ? Settings.parseDuration("--idle-wait", idleWait)
                : s.duration("HEADWAY_IDLE_WAIT", Duration.ofMinutes(5));
        String queue = taskQueue != null ? taskQueue : s.string("HEADWAY_TASK_QUEUE", "headway");
        return new GroupConfig(group, ttl, every, idle, 5, GroupConfig.DEFAULT_HISTORY_EVENT_BUDGET, queue);
    }
}
