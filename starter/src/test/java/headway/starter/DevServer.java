package headway.starter;

import headway.rig.TemporalDevServer;
import headway.workflow.SearchAttributes;

/**
 * One real Temporal dev server (with its Web UI) per test JVM, started on first use and stopped
 * when the JVM exits; tests keep apart by group names and task queues of their own.
 */
final class DevServer {
    private static TemporalDevServer server;

    private DevServer() {}

    static synchronized TemporalDevServer shared() {
        if (server == null) {
            server = TemporalDevServer.builder()
                    .withUi()
                    .searchAttributes(SearchAttributes.types())
                    .start();
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "temporal-dev-stop"));
        }
        return server;
    }
}
