package headway.worker;

import headway.settings.Setting;
import headway.settings.Settings;
import headway.workflow.InspectWorkflow;
import headway.workflow.PlannerWorkflow;
import headway.workflow.RegistryPruneWorkflow;
import headway.workflow.RetentionWorkflow;
import headway.workflow.WatchmanWorkflow;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.schedules.Schedule;
import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import io.temporal.client.schedules.ScheduleAlreadyRunningException;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleClientOptions;
import io.temporal.client.schedules.ScheduleIntervalSpec;
import io.temporal.client.schedules.ScheduleListActionStartWorkflow;
import io.temporal.client.schedules.ScheduleListDescription;
import io.temporal.client.schedules.ScheduleOptions;
import io.temporal.client.schedules.SchedulePolicy;
import io.temporal.client.schedules.ScheduleSpec;
import io.temporal.client.schedules.ScheduleUpdate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * headway's Temporal Schedules: registry prune (every node TTL), planner, watchman, retention and
 * the deep index ({@code headway-inspect}, every HEADWAY_INSPECT_EVERY). The planner
 * has overlap policy skip, so exactly one run is in flight and no leader election is needed. The
 * watchman and the prune allow overlap, because a frozen or just-killed worker still holds the
 * long polls it had open and swallows the next task handed to one of them: with skip, that one
 * run would silence the schedule until its activity's timeout (measured: no watchman scan for the
 * 15 s after a freeze; a kill -9'd node's row pruned 21 s after the kill instead of within 3x the
 * node TTL + 1 s). Both are safe to run concurrently: the watchman keeps one open record per move
 * (a unique index) with idempotent closes and signals; the prune is one idempotent delete.
 * Retention ({@code headway-retention}) skips overlap like the planner, and for another reason: a
 * purge can run for its whole budget (ten minutes) on a large catalog, and runs piling up behind it
 * would purge the same groups at once, each waiting on the other's locks of the lease rows. The
 * silence a frozen worker's swallowed task causes (one activity timeout, fifteen minutes) costs
 * nothing against a horizon counted in days. It is installed whatever HEADWAY_RETENTION_DAYS says:
 * the workers read the setting, and a run with retention off removes nothing.
 * The deep index allows overlap too, for the same reason and because its runs cannot collide: a
 * claim is a run's alone until its deadline, so two runs read different releases, and the load
 * they make is bounded by the inspect queue's activity slots and HEADWAY_INSPECT_CONNECTIONS, not
 * by how many runs there are; with skip, one run stuck on a frozen worker's task would stop
 * naming for minutes, the time seconds_to_named is measured in.
 * Installing is idempotent: a schedule that exists is updated to the wanted spec, never doubled.
 */
public final class Schedules {

    public static final String REGISTRY_PRUNE = "headway-registry-prune";
    public static final String PLANNER = "headway-planner";
    public static final String WATCHMAN = "headway-watchman";
    public static final String RETENTION = "headway-retention";
    public static final String INSPECT = "headway-inspect";

    /** Releases one deep-index run claims: at 15 s a run, about 4 a second, more than a busy group posts. */
    public static final int INSPECT_BATCH = 64;

    /** How often each scheduled workflow runs. */
    public record Intervals(
            Duration registryPrune, Duration planner, Duration watchman, Duration retention, Duration inspect) {
        public Intervals {
            for (Duration d : List.of(registryPrune, planner, watchman, retention, inspect)) {
                if (d.compareTo(SHORTEST) < 0) {
                    throw new IllegalArgumentException("schedule intervals must be at least " + Settings.show(SHORTEST)
                            + ", was " + d
                            + " (HEADWAY_NODE_TTL, HEADWAY_PLAN_EVERY, HEADWAY_WATCH_EVERY, HEADWAY_RETENTION_EVERY,"
                            + " HEADWAY_INSPECT_EVERY)");
                }
            }
        }

        /** Retention and the deep index at the catalogue's default intervals. */
        public Intervals(Duration registryPrune, Duration planner, Duration watchman) {
            this(registryPrune, planner, watchman, Setting.RETENTION_EVERY.durationDefault());
        }

        /** The deep index at the catalogue's default interval. */
        public Intervals(Duration registryPrune, Duration planner, Duration watchman, Duration retention) {
            this(registryPrune, planner, watchman, retention, Setting.INSPECT_EVERY.durationDefault());
        }

        /** The shortest interval a schedule may have: what the catalogue allows for the planner's. */
        private static final Duration SHORTEST = Setting.PLAN_EVERY.minDuration();

        /** From HEADWAY_NODE_TTL, HEADWAY_PLAN_EVERY, HEADWAY_WATCH_EVERY, HEADWAY_RETENTION_EVERY and HEADWAY_INSPECT_EVERY. */
        public static Intervals fromEnv(Map<String, String> env) {
            Settings s = new Settings(env);
            return new Intervals(
                    interval(s, Setting.NODE_TTL),
                    interval(s, Setting.PLAN_EVERY),
                    interval(s, Setting.WATCH_EVERY),
                    interval(s, Setting.RETENTION_EVERY),
                    interval(s, Setting.INSPECT_EVERY));
        }

        /** One interval, checked here so the error names the variable that is too short. */
        private static Duration interval(Settings s, Setting setting) {
            Duration d = s.duration(setting);
            if (d.compareTo(SHORTEST) < 0) {
                throw new IllegalArgumentException(setting.key() + "=" + Settings.show(d)
                        + " is too short: schedule intervals must be at least " + Settings.show(SHORTEST));
            }
            return d;
        }
    }

    /** What installing did to one schedule. */
    public record Installed(String id, Duration every, boolean created) {}

    /** One schedule as the server lists it. */
    public record Listed(String id, String workflowType, List<String> recentActions) {}

    private Schedules() {}

    /** Creates each schedule, or updates it to the wanted spec when it exists. */
    public static List<Installed> install(WorkflowClient client, String taskQueue, Intervals intervals) {
        ScheduleClient schedules = scheduleClient(client);
        List<Installed> done = new ArrayList<>();
        done.add(installOne(
                schedules,
                REGISTRY_PRUNE,
                RegistryPruneWorkflow.class,
                taskQueue,
                intervals.registryPrune(),
                ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL));
        done.add(installOne(
                schedules,
                PLANNER,
                PlannerWorkflow.class,
                taskQueue,
                intervals.planner(),
                ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_SKIP));
        done.add(installOne(
                schedules,
                WATCHMAN,
                WatchmanWorkflow.class,
                taskQueue,
                intervals.watchman(),
                ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL));
        done.add(installOne(
                schedules,
                RETENTION,
                RetentionWorkflow.class,
                taskQueue,
                intervals.retention(),
                ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_SKIP));
        done.add(installOne(
                schedules,
                INSPECT,
                InspectWorkflow.class,
                taskQueue,
                intervals.inspect(),
                ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL,
                INSPECT_BATCH));
        return done;
    }

    /** headway's schedules on the server. */
    public static List<Listed> list(WorkflowClient client) {
        List<Listed> listed = new ArrayList<>();
        scheduleClient(client).listSchedules().forEach(d -> {
            if (d.getScheduleId().startsWith("headway-")) {
                listed.add(new Listed(
                        d.getScheduleId(),
                        workflowType(d),
                        d.getInfo() == null
                                ? List.of()
                                : d.getInfo().getRecentActions().stream()
                                        .map(a -> a.getStartedAt().toString())
                                        .toList()));
            }
        });
        listed.sort(java.util.Comparator.comparing(Listed::id));
        return listed;
    }

    /** When the schedule {@code id} runs next, or null when it is not installed or has no next run. */
    public static java.time.Instant nextRun(WorkflowClient client, String id) {
        try {
            List<java.time.Instant> next =
                    scheduleClient(client).getHandle(id).describe().getInfo().getNextActionTimes();
            return next.isEmpty() ? null : next.get(0);
        } catch (io.temporal.client.schedules.ScheduleException | io.grpc.StatusRuntimeException e) {
            return null;
        }
    }

    private static String workflowType(ScheduleListDescription d) {
        return d.getSchedule() != null && d.getSchedule().getAction() instanceof ScheduleListActionStartWorkflow start
                ? start.getWorkflow()
                : "?";
    }

    private static Installed installOne(
            ScheduleClient schedules,
            String id,
            Class<?> workflow,
            String taskQueue,
            Duration every,
            ScheduleOverlapPolicy overlap,
            Object... arguments) {
        Schedule schedule = Schedule.newBuilder()
                .setAction(ScheduleActionStartWorkflow.newBuilder()
                        .setWorkflowType(workflow)
                        .setArguments(arguments)
                        .setOptions(WorkflowOptions.newBuilder()
                                .setWorkflowId(id)
                                .setTaskQueue(taskQueue)
                                .build())
                        .build())
                .setSpec(ScheduleSpec.newBuilder()
                        .setIntervals(List.of(new ScheduleIntervalSpec(every)))
                        .build())
                .setPolicy(SchedulePolicy.newBuilder().setOverlap(overlap).build())
                .build();
        try {
            schedules.createSchedule(
                    id,
                    schedule,
                    ScheduleOptions.newBuilder().setTriggerImmediately(true).build());
            return new Installed(id, every, true);
        } catch (ScheduleAlreadyRunningException exists) {
            schedules.getHandle(id).update(input -> new ScheduleUpdate(schedule));
            return new Installed(id, every, false);
        }
    }

    private static ScheduleClient scheduleClient(WorkflowClient client) {
        return ScheduleClient.newInstance(
                client.getWorkflowServiceStubs(),
                ScheduleClientOptions.newBuilder()
                        .setNamespace(client.getOptions().getNamespace())
                        .build());
    }
}
