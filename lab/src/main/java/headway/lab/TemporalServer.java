package headway.lab;

import headway.rig.TemporalDevServer;
import headway.settings.Setting;
import headway.workflow.SearchAttributes;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The Temporal server a rig runs on: the Temporal CLI's dev server (a child process, one
 * partition per task queue so that lease priorities hold strictly, its Web UI when asked), or the
 * in-process test server in real time, which has no Web UI, no Schedules and no list by query,
 * and which only workers in this JVM can reach. Either way headway's search attributes are
 * registered before use.
 */
public final class TemporalServer implements AutoCloseable {

    /** Which server to run. */
    public enum Kind {
        /** The dev server; fails when there is no {@code temporal} binary. */
        DEV_SERVER,
        /** The dev server, else (saying why) the in-process test server. */
        DEV_SERVER_OR_IN_PROCESS,
        /** The in-process test server. */
        IN_PROCESS
    }

    /** The in-process server has no address; workers in this JVM are handed {@link #client()}, and their config needs some host:port. */
    private static final String NO_ADDRESS = Setting.TEMPORAL.defaultValue();

    private final TemporalDevServer dev;
    private final TestWorkflowEnvironment inProcess;
    private final WorkflowClient client;

    private TemporalServer(TemporalDevServer dev, TestWorkflowEnvironment inProcess, WorkflowClient client) {
        this.dev = dev;
        this.inProcess = inProcess;
        this.client = client;
    }

    /** Starts the server {@code kind} names, with the Web UI when {@code webUi}; {@code say} hears which one runs. */
    static TemporalServer start(Kind kind, boolean webUi, Path log, Consumer<String> say) {
        if (kind != Kind.IN_PROCESS) {
            String why;
            try {
                TemporalDevServer.findBinary();
                why = null;
            } catch (IllegalStateException e) {
                if (kind == Kind.DEV_SERVER) {
                    throw e;
                }
                why = "no `temporal` binary on the PATH, in .tools/bin or in TEMPORAL_BIN";
            }
            if (why == null) {
                try {
                    TemporalDevServer dev = startDevServer(webUi, log);
                    say.accept("Temporal dev server on " + dev.target() + " (" + dev.binary() + ")");
                    return new TemporalServer(dev, null, dev.workflowClient());
                } catch (IllegalStateException e) {
                    if (kind == Kind.DEV_SERVER) {
                        throw e;
                    }
                    why = "the dev server did not start: "
                            + e.getMessage().lines().findFirst().orElse("");
                }
            }
            say.accept("no Temporal dev server (" + why + "); using the in-process Temporal test server:"
                    + " no Web UI, no Schedules (bin/install-test-tools temporal installs the Temporal CLI)");
        }
        TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(
                TestEnvironmentOptions.newBuilder().setUseTimeskipping(false).build());
        SearchAttributes.types().forEach(env::registerSearchAttribute);
        say.accept("in-process Temporal test server");
        return new TemporalServer(null, env, env.getWorkflowClient());
    }

    private static TemporalDevServer startDevServer(boolean webUi, Path log) {
        TemporalDevServer.Builder builder =
                TemporalDevServer.builder().singlePartitionTaskQueues().searchAttributes(SearchAttributes.types());
        if (webUi) {
            builder.withUi();
        }
        if (log != null) {
            builder.logFile(log);
        }
        return builder.start();
    }

    public WorkflowClient client() {
        return client;
    }

    public WorkflowServiceStubs serviceStubs() {
        return client.getWorkflowServiceStubs();
    }

    /** The dev server's host:port; for the in-process server a placeholder only this JVM's workers are given. */
    public String target() {
        return dev != null ? dev.target() : NO_ADDRESS;
    }

    /** Whether this server runs Temporal Schedules (the in-process test server does not). */
    public boolean hasSchedules() {
        return dev != null;
    }

    /** The Web UI's base URL, or null when there is none. */
    public String uiUrl() {
        return dev == null || !dev.hasUi() ? null : dev.uiUrl();
    }

    @Override
    public void close() {
        if (inProcess != null) {
            inProcess.close();
        }
        if (dev != null) {
            dev.close();
        }
    }
}
