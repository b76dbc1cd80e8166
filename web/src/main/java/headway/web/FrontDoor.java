package headway.web;

import headway.store.Stores;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.sql.Connection;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server of {@code headway serve}: {@code /api} (newznab), {@code /} (the search page),
 * {@code /release/<guid>}, {@code /health} and {@code /metrics}. One access-log line per request,
 * its API key redacted; one timer per route and status ({@code headway.http.requests}).
 */
public final class FrontDoor implements AutoCloseable {

    private static final Logger ACCESS = LoggerFactory.getLogger("headway.web.access");
    private static final Logger LOG = LoggerFactory.getLogger(FrontDoor.class);

    /** Query parameters that carry a key, whatever their case; their values never reach a log. */
    private static final Pattern KEY_PARAMETER = Pattern.compile("(?i)((?:^|&)(?:apikey|api_key|r)=)[^&]*");

    /** Long enough for the longest {@code q} a client may send, so that it gets a newznab error rather than a bare 431. */
    private static final int MAX_REQUEST_HEADER = 64 * 1024;

    private final Javalin app;

    private FrontDoor(Javalin app) {
        this.app = app;
    }

    /** Starts serving {@code stores} per {@code config}; {@code metrics} is where request timings go (and what /metrics shows, when Prometheus). */
    public static FrontDoor start(Stores stores, ServeConfig config, MeterRegistry metrics) {
        Newznab api = new Newznab(stores, config.title());
        SearchPage page = new SearchPage(stores, api);
        Javalin app = Javalin.create(c -> {
            c.startup.showJavalinBanner = false;
            c.startup.showOldJavalinVersionWarning = false;
            c.jetty.host = config.bind();
            c.jetty.port = config.port();
            c.jetty.modifyHttpConfiguration(http -> {
                http.setRequestHeaderSize(MAX_REQUEST_HEADER);
                http.setSendServerVersion(false);
            });
            c.requestLogger.http((ctx, ms) -> {
                ACCESS.info(
                        "{} {} {}{} {} {}ms",
                        ctx.ip(),
                        ctx.method(),
                        ctx.path(),
                        ctx.queryString() == null ? "" : "?" + redact(ctx.queryString()),
                        ctx.statusCode(),
                        Math.round(ms));
                Timer.builder("headway.http.requests")
                        .tag("route", route(ctx))
                        .tag("status", Integer.toString(ctx.statusCode()))
                        .register(metrics)
                        .record(Duration.ofNanos((long) (ms * 1_000_000)));
            });
            c.routes.get("/api", ctx -> reply(ctx, api.handle(new Params(ctx::queryParam), base(ctx, config))));
            c.routes.get("/health", ctx -> health(ctx, stores));
            c.routes.get("/metrics", ctx -> {
                if (metrics instanceof PrometheusMeterRegistry prometheus) {
                    ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(prometheus.scrape());
                } else {
                    ctx.status(404).result("metrics are not served by this instance");
                }
            });
            if (config.page()) {
                c.routes.get("/", ctx -> page.search(ctx, base(ctx, config)));
                c.routes.get("/release/{guid}", ctx -> page.release(ctx, ctx.pathParam("guid")));
                c.routes.get("/nzb/{guid}", ctx -> page.nzb(ctx, ctx.pathParam("guid")));
            }
            c.routes.exception(Exception.class, (e, ctx) -> {
                LOG.warn("{} {} failed: {}", ctx.method(), ctx.path(), e.toString());
                if (ctx.path().startsWith("/api")) {
                    reply(ctx, Newznab.error(NewznabException.unknown()));
                } else {
                    ctx.status(500)
                            .contentType("text/plain; charset=utf-8")
                            .result("internal error; see the server log");
                }
            });
        });
        try {
            app.start();
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "cannot listen on " + config.bind() + ":" + config.port() + ": " + rootMessage(e)
                            + " (set HEADWAY_HTTP_PORT or --port to a free port, HEADWAY_HTTP_BIND or --bind to an"
                            + " address of this host)",
                    e);
        }
        return new FrontDoor(app);
    }

    /** The port it listens on (useful when started on port 0). */
    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        app.stop();
    }

    /** The query string with the values of key parameters replaced. */
    static String redact(String query) {
        return KEY_PARAMETER.matcher(query).replaceAll("$1REDACTED");
    }

    private static String route(Context ctx) {
        String path = ctx.path();
        if (path.equals("/api")) {
            String t = ctx.queryParam("t");
            String fn = t == null ? "none" : t.toLowerCase(Locale.ROOT);
            return "api:" + (fn.matches("[a-z]{1,12}") ? fn : "other");
        }
        if (path.startsWith("/release/")) {
            return "release";
        }
        if (path.startsWith("/nzb/")) {
            return "nzb";
        }
        return switch (path) {
            case "/", "/health", "/metrics" -> path;
            default -> "other";
        };
    }

    /** The URL for the links in feeds and the page: the configured public URL, else the one the client reached us at. */
    static String base(Context ctx, ServeConfig config) {
        return config.publicUrl() != null ? config.publicUrl() : base(ctx);
    }

    /** The URL the client reached us at (scheme and Host). */
    static String base(Context ctx) {
        String host = ctx.host();
        if (host == null || !host.matches("[A-Za-z0-9.:\\[\\]-]{1,255}")) {
            host = ctx.req().getLocalAddr() + ":" + ctx.req().getLocalPort();
        }
        return ctx.scheme() + "://" + host;
    }

    static void reply(Context ctx, Newznab.Reply r) {
        ctx.status(r.status()).contentType(r.contentType());
        r.headers().forEach(ctx::header);
        ctx.result(r.body());
    }

    private static void health(Context ctx, Stores stores) {
        boolean ok;
        try (Connection c = stores.dataSource().getConnection()) {
            ok = c.isValid(2);
        } catch (Exception e) {
            ok = false;
        }
        ctx.status(ok ? 200 : 503)
                .contentType("text/plain; charset=utf-8")
                .result(ok ? "ok\n" : "database unreachable\n");
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
