package headway.worker;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * The Prometheus endpoint, {@code GET /metrics}, on the JDK's own HTTP server, on loopback unless
 * HEADWAY_METRICS_BIND says otherwise, because the metrics name groups and nodes.
 */
public final class MetricsServer implements AutoCloseable {
    private final HttpServer server;

    private MetricsServer(HttpServer server) {
        this.server = server;
    }

    /** Serves {@code registry} on {@code bind}:{@code port} (0 picks a free port). */
    public static MetricsServer start(PrometheusMeterRegistry registry, String bind, int port) {
        InetSocketAddress address = new InetSocketAddress(bind, port);
        if (address.isUnresolved()) {
            throw new IllegalArgumentException(
                    "HEADWAY_METRICS_BIND=" + bind
                            + " does not resolve to an address of this machine: use an IP address such as 127.0.0.1 or 0.0.0.0");
        }
        try {
            HttpServer server = HttpServer.create(address, 0);
            server.createContext("/metrics", exchange -> {
                byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.setExecutor(Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "metrics-http");
                t.setDaemon(true);
                return t;
            }));
            server.start();
            return new MetricsServer(server);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "metrics port " + bind + ":" + port + " is not free or not an address of this machine: set"
                            + " HEADWAY_METRICS_PORT (or --metrics-port) to another port, or 0 to turn metrics off,"
                            + " or HEADWAY_METRICS_BIND to an address of this machine",
                    e);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
