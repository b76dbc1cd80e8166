package headway.starter;

import headway.workflow.GroupConfig;
import headway.workflow.GroupRun;
import headway.workflow.GroupWorkflow;
import headway.workflow.SearchAttributes;
import headway.workflow.TaskQueues;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributes.Builder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Starts group workflows, idempotently: the id is {@code group/<name>} and a second start of a
 * running group attaches to the running workflow instead of starting another. Many groups start
 * concurrently with a bounded number of starts in flight, because one start is a round trip that
 * waits on the server's persistence: one after another, 10,000 groups took over ten minutes.
 */
public final class GroupStarter {

    /** The starts in flight at once unless told otherwise: enough to keep a server busy, few enough not to flood it. */
    public static final int DEFAULT_IN_FLIGHT = 16;

    private GroupStarter() {}

    /** One group's started (or found) workflow. */
    public record Started(String group, String runId) {}

    /** Told after each start that succeeded: how many are done of how many. */
    @FunctionalInterface
    public interface Progress {
        void done(Started started, int done, int total);
    }

    /**
     * The server refused a start (or could not be reached for it); the starts before it went
     * through, and no further one was tried.
     */
    public static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String group;
        private final int started;

        Refused(String group, int started, int total, Throwable cause) {
            super(
                    "starting group/" + group + " was refused: " + Connections.rootMessage(cause) + " (" + started
                            + " of " + total + " groups started; starting is idempotent, so run it again once fixed)",
                    cause);
            this.group = group;
            this.started = started;
        }

        public String group() {
            return group;
        }

        public int started() {
            return started;
        }
    }

    /** Starts (or finds) the group's workflow; returns its run id. */
    public static String start(WorkflowClient client, GroupConfig config) {
        Builder attributes = io.temporal.common.SearchAttributes.newBuilder()
                .set(SearchAttributes.GROUP, config.group())
                .set(SearchAttributes.STATE, "STARTING");
        GroupWorkflow workflow = client.newWorkflowStub(
                GroupWorkflow.class,
                WorkflowOptions.newBuilder()
                        .setWorkflowId(TaskQueues.workflowId(config.group()))
                        .setTaskQueue(config.sharedTaskQueue())
                        .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING)
                        .setTypedSearchAttributes(attributes.build())
                        .setMemo(memo(config))
                        .setStaticSummary("Indexes " + config.group() + " in article order")
                        .build());
        return WorkflowClient.start(workflow::run, GroupRun.start(config)).getRunId();
    }

    /**
     * Starts (or finds) every group's workflow with at most {@code inFlight} starts at once; the
     * answer is in the order of {@code configs}. The first refusal stops the starts not yet
     * begun (a refusal is most often the same for all: an unknown namespace, a missing search
     * attribute) and is thrown as {@link Refused} once those in flight have ended.
     */
    public static List<Started> startAll(
            WorkflowClient client, List<GroupConfig> configs, int inFlight, Progress progress) {
        if (inFlight < 1) {
            throw new IllegalArgumentException("starts in flight must be at least 1, not " + inFlight);
        }
        int total = configs.size();
        AtomicInteger done = new AtomicInteger();
        AtomicReference<RuntimeException> refused = new AtomicReference<>();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(inFlight, Math.max(1, total)), r -> {
            Thread t = new Thread(r, "group-start");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Started>> futures = new ArrayList<>(total);
            for (GroupConfig config : configs) {
                futures.add(pool.submit(() -> {
                    if (refused.get() != null) {
                        return null;
                    }
                    try {
                        Started s = new Started(config.group(), start(client, config));
                        progress.done(s, done.incrementAndGet(), total);
                        return s;
                    } catch (RuntimeException e) {
                        refused.compareAndSet(null, e);
                        throw e;
                    }
                }));
            }
            List<Started> started = new ArrayList<>(total);
            String firstRefused = null;
            Throwable why = null;
            for (int i = 0; i < total; i++) {
                try {
                    Started s = futures.get(i).get();
                    if (s != null) {
                        started.add(s);
                    }
                } catch (ExecutionException e) {
                    if (firstRefused == null) {
                        firstRefused = configs.get(i).group();
                        why = e.getCause();
                    }
                }
            }
            if (firstRefused != null) {
                throw new Refused(firstRefused, started.size(), total, why);
            }
            return started;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting groups (" + done.get() + " started)", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** The memo the workflow also keeps: its config, under "config", which the Web UI shows on the execution. */
    static Map<String, Object> memo(GroupConfig config) {
        return Map.of("config", config);
    }
}
