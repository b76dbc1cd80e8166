package headway.web;

import headway.catalog.Stores;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.sql.Connection;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server of {@code headway serve}: {@code /api} (newznab), {@code /} (the search page),
 * {@code /release/<guid>}, {@code /nzb/<guid>}, {@code /health} and {@code /metrics}. One
 * access-log line per request, its API key redacted; one timer per route and status
 * ({@code headway.http.requests}), whose tags take only known values, so no client can grow the
 * registry (a distinct {@code t=} a series made {@code /metrics} 11 MB after 50,000 requests and a
 * 64 MB heap ran out).
 *
 * <p>What no key limits is limited per client address before any database work ({@link
 * ClientLimits}): the page, caps and {@code /metrics} take an anonymous token, and the page and
 * caps a slot of the anonymous concurrency bound; wrong keys have a bucket of their own.
 * {@code /health} is never limited: it answers from one pooled connection check and must stay
 * fast for the orchestrator. Every response says {@code nosniff}, forbids framing and sends no
 * referrer; the page's HTML also has a Content-Security-Policy.
 */
public final class FrontDoor implements AutoCloseable {

    private static final Logger ACCESS = LoggerFactory.getLogger("headway.web.access");
    private static final Logger LOG = LoggerFactory.getLogger(FrontDoor.class);

    /** Query parameters that carry a key, whatever their case; their values never reach a log. */
    private static final Pattern KEY_PARAMETER = Pattern.compile("(?i)((?:^|&)(?:apikey|api_key|r)=)[^&]*");

    /**
     * The longest request line and headers Jetty reads: long enough for the longest {@code q} a
     * client may send, so that it gets a newznab error rather than a bare 431. A longer request is
     * answered by {@link JettyErrors}, still as a newznab error on {@code /api}.
     */
    static final int MAX_REQUEST_HEADER = 64 * 1024;

    /** A Host header's form: a name or address, bracketed IPv6, and a port. */
    private static final Pattern HOST =
            Pattern.compile("(\\[[0-9A-Fa-f:.]{2,45}]|[A-Za-z0-9.-]{1,253})(?::(\\d{1,5}))?");

    private final Javalin app;

    private FrontDoor(Javalin app) {
        this.app = app;
    }

    /** Starts serving {@code stores} per {@code config}; {@code metrics} is where request timings go (and what /metrics shows, when Prometheus). */
    public static FrontDoor start(Stores stores, ServeConfig config, MeterRegistry metrics) {
        ServeConfig.Limits l = config.limits();
        ClientLimits limits = new ClientLimits(l.anonymousPerMinute(), l.anonymousBurst(), l.anonymousAtOnce());
        TrustedProxies proxies = TrustedProxies.parse(l.trustedProxies());
        Set<String> ownNames = ownNames();
        Newznab api = new Newznab(stores, config, limits);
        SearchPage page = new SearchPage(stores, api, config);
        Javalin app = Javalin.create(c -> {
            c.startup.showJavalinBanner = false;
            c.startup.showOldJavalinVersionWarning = false;
            c.jetty.host = config.bind();
            c.jetty.port = config.port();
            c.jetty.modifyHttpConfiguration(http -> {
                http.setRequestHeaderSize(MAX_REQUEST_HEADER);
                http.setSendServerVersion(false);
            });
            c.jetty.modifyServer(server -> server.setErrorHandler(new JettyErrors()));
            RefusalLog refusals = new RefusalLog();
            c.requestLogger.http((ctx, ms) -> {
                long quiet = ctx.statusCode() == 429 ? refusals.suppressedBefore() : 0;
                if (quiet >= 0) {
                    ACCESS.info(
                            "{} {} {}{} {} {}ms{}",
                            ctx.ip(),
                            ctx.method(),
                            ctx.path(),
                            ctx.queryString() == null ? "" : "?" + redact(ctx.queryString()),
                            ctx.statusCode(),
                            Math.round(ms),
                            quiet > 0 ? " (and " + quiet + " more 429s not logged)" : "");
                }
                Timer.builder("headway.http.requests")
                        .tag("route", route(ctx))
                        .tag("status", Integer.toString(ctx.statusCode()))
                        .register(metrics)
                        .record(Duration.ofNanos((long) (ms * 1_000_000)));
            });
            c.routes.before(FrontDoor::securityHeaders);
            c.routes.get(
                    "/api",
                    ctx -> reply(
                            ctx,
                            api.handle(
                                    new Params(QueryString.parse(ctx.queryString())),
                                    base(ctx, config, ownNames),
                                    client(ctx, proxies))));
            c.routes.get("/health", ctx -> health(ctx, stores));
            c.routes.get("/metrics", ctx -> {
                if (refused(ctx, limits.anonymous(client(ctx, proxies)))) {
                    return;
                }
                if (metrics instanceof PrometheusMeterRegistry prometheus) {
                    ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(prometheus.scrape());
                } else {
                    ctx.status(404).result("metrics are not served by this instance");
                }
            });
            if (config.page()) {
                c.routes.get(
                        "/",
                        ctx -> anonymous(ctx, limits, proxies, () -> page.search(ctx, base(ctx, config, ownNames))));
                c.routes.get(
                        "/release/{guid}",
                        ctx -> anonymous(ctx, limits, proxies, () -> page.release(ctx, ctx.pathParam("guid"))));
                c.routes.get(
                        "/nzb/{guid}",
                        ctx -> anonymous(ctx, limits, proxies, () -> page.nzb(ctx, ctx.pathParam("guid"))));
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

    /**
     * The access log's 429 lines: at most one a second, each saying how many it left out, so that a
     * flood the limits refuse cannot fill a disk with log lines or queue the request threads on the
     * appender's lock. Every other status is logged.
     */
    static final class RefusalLog {
        private final LongSupplier clock;
        private final AtomicLong next;
        private final AtomicLong left = new AtomicLong();

        RefusalLog() {
            this(System::nanoTime);
        }

        RefusalLog(LongSupplier clock) {
            this.clock = clock;
            this.next = new AtomicLong(clock.getAsLong());
        }

        /** -1: leave this one out; else how many were left out before it (and it is logged). */
        long suppressedBefore() {
            long now = clock.getAsLong();
            long due = next.get();
            if (now - due >= 0 && next.compareAndSet(due, now + 1_000_000_000L)) {
                return left.getAndSet(0);
            }
            left.incrementAndGet();
            return -1;
        }
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

    /**
     * The route tag: {@code api:<t>} for the functions served (and {@code api:none} without one),
     * {@code api:other} for any other {@code t}; the page's routes by name; anything else
     * {@code other}. Never a value a client chose.
     */
    static String route(Context ctx) {
        String path = ctx.path();
        if (path.equals("/api")) {
            String t = QueryString.parse(ctx.queryString()).quietly("t");
            if (t == null || t.isBlank()) {
                return "api:none";
            }
            String fn = t.strip().toLowerCase(Locale.ROOT);
            return "api:" + (Newznab.FUNCTIONS.contains(fn) ? fn : "other");
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

    /** What every response says: no sniffing, no framing, no referrer; the page's CSP. */
    private static void securityHeaders(Context ctx) {
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("X-Frame-Options", "DENY");
        ctx.header("Referrer-Policy", "no-referrer");
        ctx.header("Content-Security-Policy", SearchPage.CSP);
    }

    /** Runs {@code work} for a request without a key: one anonymous token, then a slot of the concurrency bound. */
    private static void anonymous(Context ctx, ClientLimits limits, TrustedProxies proxies, Runnable work) {
        if (refused(ctx, limits.anonymous(client(ctx, proxies)))) {
            return;
        }
        try (ClientLimits.Permit permit = limits.enter()) {
            if (permit == null) {
                refused(ctx, ClientLimits.BUSY_RETRY_SECONDS);
                return;
            }
            work.run();
        }
    }

    /** True (and the 429 written) when {@code waitSeconds} is positive. */
    private static boolean refused(Context ctx, long waitSeconds) {
        if (waitSeconds <= 0) {
            return false;
        }
        ctx.status(429)
                .header("Retry-After", Long.toString(waitSeconds))
                .contentType("text/plain; charset=utf-8")
                .result("too many requests without a key from your address: try again in " + waitSeconds + " s\n");
        return true;
    }

    /** The client's address: the connection's peer, or what a trusted proxy forwarded. */
    static InetAddress client(Context ctx, TrustedProxies proxies) {
        InetAddress peer = TrustedProxies.literal(ctx.req().getRemoteAddr());
        if (peer == null) {
            peer = InetAddress.getLoopbackAddress();
        }
        if (proxies.isEmpty()) {
            return peer;
        }
        return proxies.client(peer, Collections.list(ctx.req().getHeaders("X-Forwarded-For")));
    }

    /**
     * The URL for the links in feeds: the configured public URL; else the request's Host when it
     * names this server (a loopback name or address, this host's name, or the address the
     * connection reached), else the address and port the connection reached. An arbitrary Host is
     * not followed: the links carry the client's key, and a Host chosen by whoever sits between a
     * client and {@code serve} (or a client's DNS name that {@code serve} cannot vouch for) would
     * send that key elsewhere.
     */
    static String base(Context ctx, ServeConfig config, Set<String> ownNames) {
        if (config.publicUrl() != null) {
            return config.publicUrl();
        }
        String local = ctx.req().getLocalAddr();
        String host = ctx.header("Host");
        if (host != null) {
            Matcher m = HOST.matcher(host.strip());
            if (m.matches() && own(m.group(1), local, ownNames)) {
                return ctx.scheme() + "://" + m.group(0).toLowerCase(Locale.ROOT);
            }
        }
        InetAddress localAddress = TrustedProxies.literal(local);
        String shown = localAddress instanceof Inet6Address ? "[" + localAddress.getHostAddress() + "]" : local;
        return ctx.scheme() + "://" + shown + ":" + ctx.req().getLocalPort();
    }

    private static boolean own(String name, String local, Set<String> ownNames) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.equals("localhost") || n.endsWith(".localhost") || ownNames.contains(n)) {
            return true;
        }
        InetAddress address = TrustedProxies.literal(n);
        if (address == null) {
            return false;
        }
        return address.isLoopbackAddress() || address.equals(TrustedProxies.literal(local));
    }

    /** This host's names, read once at start (a lookup may be slow; never per request). */
    private static Set<String> ownNames() {
        Set<String> names = new HashSet<>();
        try {
            InetAddress self = InetAddress.getLocalHost();
            names.add(self.getHostName().toLowerCase(Locale.ROOT));
            names.add(self.getCanonicalHostName().toLowerCase(Locale.ROOT));
        } catch (java.io.IOException | RuntimeException e) {
            LOG.debug("this host's name is unknown ({}); links follow only loopback and local addresses", e.toString());
        }
        names.removeIf(n -> TrustedProxies.literal(n) != null);
        return Set.copyOf(names);
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
