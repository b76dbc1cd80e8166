package headway.lab;

import headway.settings.Setting;
import headway.simulator.NewsSimulator;
import headway.worker.HeadwayWorker;
import headway.workflow.TaskQueues;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.History;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Temporal's overhead per range at the default range size, read from the group workflow's
 * history: the range's own work is its indexRange execution (started to completed, which
 * includes leasing the next range); everything else between one range's end and the next one's
 * (task dispatch, workflow tasks, the first nextRange of a holding cycle) is Temporal's, less
 * the snapshots headway takes in between, which are its own work.
 */
public final class OverheadBench {

    /** Medians over the ranges of one run. */
    public record Result(int ranges, double rangeMs, double temporalMs, double nextRangeMs, double dispatchMs) {
        public double ratio() {
            return temporalMs / rangeMs;
        }
    }

    private final long rangeSize;
    private final int ranges;
    private final boolean inProcessTemporal;
    private final PrintWriter out;

    public OverheadBench(long rangeSize, int ranges, boolean inProcessTemporal, PrintWriter out) {
        this.rangeSize = rangeSize;
        this.ranges = ranges;
        this.inProcessTemporal = inProcessTemporal;
        this.out = out;
    }

    public Result run() throws Exception {
        NewsSimulator.GroupSpec spec =
                NewsSimulator.GroupSpec.of("alt.binaries.bench.overhead", 91, rangeSize * ranges);
        try (Rig rig = Rig.builder()
                .groups(List.of(spec))
                .database("overhead")
                .poolSize(30)
                .webUi()
                .temporal(
                        inProcessTemporal
                                ? TemporalServer.Kind.IN_PROCESS
                                : TemporalServer.Kind.DEV_SERVER_OR_IN_PROCESS)
                .say(msg -> out.println("overhead: " + msg))
                .start()) {
            Map<String, String> env = new HashMap<>(ThroughputBench.BENCH_WORKER);
            env.put(Setting.RANGE_SIZE.key(), Long.toString(rangeSize));
            HeadwayWorker worker = rig.startWorker(env);
            Rig.Indexed run =
                    rig.indexAll(List.of(spec), rangeSize, worker.config().leaseTtl(), Duration.ofMinutes(20));
            out.printf(
                    "overhead: indexed %d headers in %d ranges of %d in %.1f s%n",
                    run.headers(), ranges, rangeSize, run.seconds());
            WorkflowExecutionHistory history = rig.client().fetchHistory(TaskQueues.workflowId(spec.name()));
            printGaps(history.getHistory(), out);
            return measure(history.getHistory());
        }
    }

    /**
     * Walks the history once. A range's cycle runs from the end of the previous range (or the
     * scheduling of the holding cycle's first nextRange) to the completion of its indexRange;
     * Temporal's share is the cycle less indexRange's execution and any snapshot executed in it.
     */
    static Result measure(History history) {
        Map<Long, HistoryEvent> scheduled = new HashMap<>();
        Map<Long, HistoryEvent> started = new HashMap<>();
        List<Double> range = new ArrayList<>();
        List<Double> temporal = new ArrayList<>();
        List<Double> next = new ArrayList<>();
        List<Double> dispatch = new ArrayList<>();
        HistoryEvent cycleStart = null;
        double headwayWorkInCycle = 0;
        for (HistoryEvent e : history.getEventsList()) {
            if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
                scheduled.put(e.getEventId(), e);
                if (type(e).equals("NextRange")) {
                    cycleStart = e;
                    headwayWorkInCycle = 0;
                }
            } else if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
                started.put(e.getActivityTaskStartedEventAttributes().getScheduledEventId(), e);
            } else if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
                long scheduledId = e.getActivityTaskCompletedEventAttributes().getScheduledEventId();
                HistoryEvent s = scheduled.get(scheduledId);
                HistoryEvent st = started.get(scheduledId);
                switch (type(s)) {
                    case "NextRange" -> next.add(millis(s, e));
                    case "PutSnapshot" -> headwayWorkInCycle += millis(st, e);
                    case "IndexRange" -> {
                        double work = millis(st, e);
                        range.add(work);
                        dispatch.add(millis(s, st));
                        if (cycleStart != null) {
                            temporal.add(millis(cycleStart, e) - work - headwayWorkInCycle);
                        }
                        cycleStart = e;
                        headwayWorkInCycle = 0;
                    }
                    default -> {}
                }
            }
        }
        if (range.isEmpty()) {
            throw new IllegalStateException("no indexRange activity in the history");
        }
        return new Result(
                range.size(),
                Medians.of(range),
                Medians.of(temporal),
                next.isEmpty() ? 0 : Medians.of(next),
                Medians.of(dispatch));
    }

    /** The median gap between consecutive event types, to show where Temporal's share goes. */
    static void printGaps(History history, PrintWriter out) {
        Map<String, List<Double>> gaps = new java.util.TreeMap<>();
        HistoryEvent previous = null;
        for (HistoryEvent e : history.getEventsList()) {
            if (previous != null) {
                String key = previous.getEventType().name().replace("EVENT_TYPE_", "") + " -> "
                        + e.getEventType().name().replace("EVENT_TYPE_", "");
                gaps.computeIfAbsent(key, k -> new ArrayList<>()).add(millis(previous, e));
            }
            previous = e;
        }
        gaps.forEach((k, v) -> out.printf("overhead: gap %-75s n=%3d median %.1f ms%n", k, v.size(), Medians.of(v)));
        Map<String, Long> kinds = new java.util.TreeMap<>();
        for (HistoryEvent e : history.getEventsList()) {
            if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) {
                kinds.merge(
                        e.getWorkflowTaskScheduledEventAttributes()
                                .getTaskQueue()
                                .getKind()
                                .name(),
                        1L,
                        Long::sum);
            }
        }
        out.println("overhead: workflow tasks by queue kind " + kinds);
    }

    private static String type(HistoryEvent scheduled) {
        return scheduled
                .getActivityTaskScheduledEventAttributes()
                .getActivityType()
                .getName();
    }

    private static double millis(HistoryEvent from, HistoryEvent to) {
        return (toNanos(to) - toNanos(from)) / 1e6;
    }

    private static long toNanos(HistoryEvent e) {
        return e.getEventTime().getSeconds() * 1_000_000_000L + e.getEventTime().getNanos();
    }
}
