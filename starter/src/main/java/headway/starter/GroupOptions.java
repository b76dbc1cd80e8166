package headway.starter;

import headway.settings.Setting;
import headway.settings.Settings;
import headway.workflow.GroupConfig;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Option;

/** How started group workflows run: flags over HEADWAY_* environment variables over defaults. */
final class GroupOptions {

    @Option(names = "--lease-ttl", descriptionKey = "HEADWAY_LEASE_TTL")
    String leaseTtl;

    @Option(names = "--snapshot-every", descriptionKey = "HEADWAY_SNAPSHOT_EVERY")
    Integer snapshotEvery;

    @Option(names = "--idle-wait", descriptionKey = "HEADWAY_IDLE_WAIT")
    String idleWait;

    @Option(names = "--task-queue", descriptionKey = "HEADWAY_TASK_QUEUE")
    String taskQueue;

    /** Reads every option once, so a bad one is reported before the database or Temporal is tried. */
    void check(Map<String, String> env) {
        config("alt.binaries.example", env);
    }

    GroupConfig config(String group, Map<String, String> env) {
        Settings s = new Settings(env);
        Duration ttl =
                leaseTtl != null ? Settings.parseDuration("--lease-ttl", leaseTtl) : s.duration(Setting.LEASE_TTL);
        int every = snapshotEvery != null ? snapshotEvery : s.integer(Setting.SNAPSHOT_EVERY);
        Duration idle =
                idleWait != null ? Settings.parseDuration("--idle-wait", idleWait) : s.duration(Setting.IDLE_WAIT);
        String queue = taskQueue != null ? taskQueue : s.string(Setting.TASK_QUEUE);
        return GroupConfig.of(group, ttl, every, idle, queue).withNodeTtl(s.duration(Setting.NODE_TTL));
    }
}
