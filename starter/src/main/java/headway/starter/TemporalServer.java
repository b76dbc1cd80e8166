package headway.starter;

import headway.worker.TemporalDevServer;
import headway.workflow.SearchAttributes;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.client.WorkflowClient;
import io.temporal.common.SearchAttributeKey;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The Temporal server the demo runs on: the Temporal CLI's dev server (with its Web UI) when a
 * {@code temporal} binary is found, else the in-process test server in real time, which has no
 * Web UI and no Schedules. Either way headway's search attributes are registered before use.
 */
final class TemporalServer implements AutoCloseable {
    private final TemporalDevServer dev;
    private final TestWorkflowEnvironment inProcess;
    private final WorkflowClient client;

    private TemporalServer(TemporalDevServer dev, TestWorkflowEnvironment inProcess, WorkflowClient client) {
        this.dev = dev;
        this.inProcess = inProcess;
        this.client = client;
    }

    /** The search attributes of {@link SearchAttributes#ALL} with their server types. */
    static Map<String, IndexedValueType> searchAttributeTypes() {
        Map<String, IndexedValueType> types = new LinkedHashMap<>();
        for (SearchAttributeKey<?> key : SearchAttributes.ALL) {
            types.put(key.getName(), key.getValueType());
        }
        return types;
    }

    static TemporalServer startForDemo(boolean forceInProcess, Consumer<String> say) {
        if (!forceInProcess) {
            try {
                TemporalDevServer.findBinary();
                TemporalDevServer dev = TemporalDevServer.builder()
                        .withUi()
                        .singlePartitionTaskQueues()
                        .searchAttributes(searchAttributeTypes())
                        .start();
                say.accept("Temporal dev server on " + dev.target() + " (" + dev.binary() + ")");
                return new TemporalServer(dev, null, dev.workflowClient());
            } catch (IllegalStateException e) {
                say.accept("no temporal binary (" + e.getMessage().split("\\.")[0]
                        + "); using the in-process Temporal test server (no Web UI)");
            }
        }
        TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(
                TestEnvironmentOptions.newBuilder().setUseTimeskipping(false).build());
        searchAttributeTypes().forEach(env::registerSearchAttribute);
        say.accept("in-process Temporal test server");
        return new TemporalServer(null, env, env.getWorkflowClient());
    }

    WorkflowClient client() {
        return client;
    }

    /** The dev server's host:port; the in-process server has none (workers are handed {@link #client()}), so a placeholder. */
    String target() {
        return dev != null ? dev.target() : "127.0.0.1:7233";
    }

    /** Whether this server runs Temporal Schedules (the in-process test server does not). */
    boolean hasSchedules() {
        return dev != null;
    }

    /** The Web UI's base URL, or null when there is none. */
    String uiUrl() {
        return dev == null ? null : dev.uiUrl();
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
