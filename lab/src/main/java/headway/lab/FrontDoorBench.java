package headway.lab;

import headway.catalog.ApiKeyStore;
import headway.catalog.ReleaseSearch;
import headway.rig.RawHttp;
import headway.starter.Headway;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * {@code headway bench frontdoor}: {@code headway serve} in a JVM of its own (its shipped options:
 * {@code -XX:+ExitOnOutOfMemoryError}, a 256 MB heap, the catalogue's limits unless {@code --set}
 * says otherwise) over a catalog of {@link SyntheticReleases} loaded as {@code bench search} loads
 * it, on loopback. While hostile clients send requests without a key as fast as they are answered,
 * each from a loopback address of its own (127.0.0.x needs no setup on Linux) and each a mix of
 * what starved or crashed the front door before (the page with a term of no word, deep pages,
 * distinct {@code t=} values, wrong keys, 100 kB request lines and headers, NUL, random guids), a
 * keyed client sends the searches of {@code bench search} through the API and another polls
 * {@code /health}. Bounded in count and time. It prints each kind's statuses, then
 * {@code frontdoor: hostile_rps=<> keyed_p95_ms=<> health_p95_ms=<> errors_5xx=<>}.
 *
 * <p>The hostile clients run in this JVM, on the server's cores, which an attacker's machine would
 * not share: they run at nice {@code hostileNice} (19 by default), so they take a core only when
 * serve, PostgreSQL and the keyed clients leave it idle; {@code hostile_rps} is what the server
 * answered meanwhile.
 */
final class FrontDoorBench {

    /** What the benchmark measured. */
    record Result(
            double hostileRps,
            double keyedP95Ms,
            double healthP95Ms,
            long errors5xx,
            long hostile,
            long keyed,
            long keyedFailed,
            long health,
            double seconds) {}

    /** How it runs: the catalog, the clients, the bounds, and settings for serve laid over the catalogue's. */
    record Options(
            int releases,
            String sharedBuffers,
            int hostileThreads,
            int sources,
            int keyedThreads,
            Duration keyedPause,
            Duration healthEvery,
            long maxHostile,
            Duration warmUp,
            Duration duration,
            Duration quiet,
            int hostileNice,
            Map<String, String> serveEnv) {}

    private static final Pattern LISTENING = Pattern.compile("serve: api=http://127\\.0\\.0\\.1:(\\d+)/api");
    private static final Duration SERVE_READY = Duration.ofSeconds(60);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final String[] WORDS = {"1080p", "web", "flac", "the", "night", "x264", "love", "dark"};

    private final Options options;
    private final PrintWriter out;

    FrontDoorBench(Options options, PrintWriter out) {
        this.options = options;
        this.out = out;
    }

    Result run() throws SQLException, IOException, InterruptedException {
        Path dir = Files.createTempDirectory("headway-frontdoor-bench");
        try (Rig rig = Rig.builder()
                .database("frontdoor")
                .postgresDir(dir.resolve("pg"))
                .temporalLater()
                .start()) {
            SearchBench.Loaded loaded =
                    SearchBench.load(rig, options.releases(), options.sharedBuffers(), "frontdoor", out);
            String key = new ApiKeyStore(rig.dataSource()).add("bench", null, null);
            Process serve = startServe(rig, dir.resolve("serve.log"));
            try {
                int port = awaitListening(serve, dir.resolve("serve.log"));
                out.printf("frontdoor: serve listens on 127.0.0.1:%d (its log: %s)%n", port, dir.resolve("serve.log"));
                out.flush();
                return measure(port, key, loaded.catalog());
            } finally {
                serve.destroy();
                if (!serve.waitFor(20, TimeUnit.SECONDS)) {
                    serve.destroyForcibly();
                    serve.waitFor(10, TimeUnit.SECONDS);
                }
            }
        } finally {
            SearchBench.deleteTree(dir);
        }
    }

    private Process startServe(Rig rig, Path log) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+ExitOnOutOfMemoryError",
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path")));
        var logback = FrontDoorBench.class.getClassLoader().getResource("logback.xml");
        if (logback != null) {
            cmd.add("-Dlogback.configurationFile=" + logback);
        }
        cmd.addAll(List.of(Headway.class.getName(), "serve", "--port", "0", "--bind", "127.0.0.1"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("HEADWAY_"));
        pb.environment().putAll(rig.env());
        pb.environment().putAll(options.serveEnv());
        return pb.start();
    }

    private static int awaitListening(Process serve, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + SERVE_READY.toNanos();
        while (System.nanoTime() < deadline) {
            String text = Files.exists(log) ? Files.readString(log) : "";
            Matcher m = LISTENING.matcher(text);
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            if (!serve.isAlive()) {
                throw new IllegalStateException("serve exited with " + serve.exitValue() + ":\n" + text);
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("serve did not listen within " + SERVE_READY + ":\n" + Files.readString(log));
    }

    /** Latencies in ms, appended by one thread each. */
    private static final class Latencies {
        private final List<Double> ms = new ArrayList<>();

        synchronized void add(double v) {
            ms.add(v);
        }

        synchronized double[] values() {
            return ms.stream().mapToDouble(Double::doubleValue).toArray();
        }
    }

    /** What the clients record in one phase; the phase in force is swapped by the main thread. */
    private static final class Recording {
        final Latencies keyed = new Latencies();
        final Latencies health = new Latencies();
        final LongAdder keyedFailed = new LongAdder();
        final Map<Integer, LongAdder> keyedStatuses = new ConcurrentHashMap<>();
        final LongAdder hostile = new LongAdder();
        final LongAdder clientErrors = new LongAdder();
        final LongAdder fivexx = new LongAdder();
        final Map<String, Map<Integer, LongAdder>> statuses = new ConcurrentHashMap<>();
    }

    /**
     * Three phases: a warm-up with every client (not counted: the JIT compiles the paths), the
     * hostile phase (counted, bounded by the request count and the time), then the keyed and
     * health clients alone for {@code quiet}, the baseline the hostile figures compare
     * with on this machine at this hour.
     */
    private Result measure(int port, String key, SyntheticReleases catalog) throws InterruptedException {
        InetSocketAddress server = new InetSocketAddress("127.0.0.1", port);
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(REQUEST_TIMEOUT)
                .build();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean hostileOn = new AtomicBoolean(true);
        AtomicBoolean counted = new AtomicBoolean();
        AtomicLong hostileLeft = new AtomicLong(options.maxHostile());
        AtomicReference<Recording> now = new AtomicReference<>(new Recording());
        List<SearchBench.Timed> searches = SearchBench.mix(catalog, new Random(67), 2_000);

        List<Thread> hostileThreads = new ArrayList<>();
        for (int i = 0; i < options.hostileThreads(); i++) {
            InetAddress from = loopback(10 + i % options.sources());
            Random r = new Random(1_000 + i);
            hostileThreads.add(new Thread(
                    () -> {
                        while (hostileOn.get() && (!counted.get() || hostileLeft.getAndDecrement() > 0)) {
                            Hostile h = hostile(r, catalog);
                            Recording rec = now.get();
                            int status;
                            try {
                                status = RawHttp.send(from, server, h.request(), REQUEST_TIMEOUT)
                                        .status();
                            } catch (IOException e) {
                                status = 0;
                                rec.clientErrors.increment();
                            }
                            rec.statuses
                                    .computeIfAbsent(h.kind(), k -> new ConcurrentHashMap<>())
                                    .computeIfAbsent(status, x -> new LongAdder())
                                    .increment();
                            if (status >= 500) {
                                rec.fivexx.increment();
                            }
                            rec.hostile.increment();
                        }
                    },
                    "hostile-" + i));
        }
        List<Thread> others = new ArrayList<>();
        for (int i = 0; i < options.keyedThreads(); i++) {
            int first = i;
            others.add(new Thread(
                    () -> {
                        for (int n = first; !stop.get(); n += options.keyedThreads()) {
                            String url = "http://127.0.0.1:" + port + "/api?"
                                    + apiQuery(searches.get(n % searches.size()), key);
                            long start = System.nanoTime();
                            int status = get(http, url);
                            Recording rec = now.get();
                            rec.keyed.add((System.nanoTime() - start) / 1e6);
                            if (status != 200) {
                                rec.keyedFailed.increment();
                                rec.keyedStatuses
                                        .computeIfAbsent(status, x -> new LongAdder())
                                        .increment();
                            }
                            if (status >= 500) {
                                rec.fivexx.increment();
                            }
                            pause(options.keyedPause());
                        }
                    },
                    "keyed-" + i));
        }
        others.add(new Thread(
                () -> {
                    while (!stop.get()) {
                        long start = System.nanoTime();
                        int status = get(http, "http://127.0.0.1:" + port + "/health");
                        Recording rec = now.get();
                        rec.health.add((System.nanoTime() - start) / 1e6);
                        if (status >= 500) {
                            rec.fivexx.increment();
                        }
                        pause(options.healthEvery());
                    }
                },
                "health"));

        hostileThreads.forEach(Thread::start);
        others.forEach(Thread::start);
        renice(options.hostileNice());
        Thread.sleep(options.warmUp().toMillis());

        Recording hostile = new Recording();
        now.set(hostile);
        counted.set(true);
        long start = System.nanoTime();
        long deadline = start + options.duration().toNanos();
        while (System.nanoTime() < deadline && hostileThreads.stream().anyMatch(Thread::isAlive)) {
            Thread.sleep(20);
        }
        hostileOn.set(false);
        for (Thread t : hostileThreads) {
            t.join(REQUEST_TIMEOUT.toMillis() + 5_000);
        }
        double seconds = (System.nanoTime() - start) / 1e9;

        Recording quiet = new Recording();
        now.set(quiet);
        Thread.sleep(options.quiet().toMillis());
        stop.set(true);
        for (Thread t : others) {
            t.join(REQUEST_TIMEOUT.toMillis() + 5_000);
        }

        for (Map.Entry<String, Map<Integer, LongAdder>> e : new TreeMap<>(hostile.statuses).entrySet()) {
            out.printf(
                    "frontdoor: hostile %-13s %s%n",
                    e.getKey(),
                    new TreeMap<>(e.getValue())
                            .entrySet().stream()
                                    .map(s -> (s.getKey() == 0 ? "no answer" : "HTTP " + s.getKey()) + " x"
                                            + s.getValue().sum())
                                    .collect(Collectors.joining(", ")));
        }
        double[] k = hostile.keyed.values();
        double[] h = hostile.health.values();
        double[] qk = quiet.keyed.values();
        double[] qh = quiet.health.values();
        out.printf(
                Locale.ROOT,
                "frontdoor: under the hostile mix: %d hostile requests in %.1f s from %d threads on %d addresses (%d got"
                        + " no answer); %d keyed searches (%d not 200%s) p50 %.1f / p95 %.1f / max %.1f ms; %d health"
                        + " checks p50 %.1f / p95 %.1f / max %.1f ms%n",
                hostile.hostile.sum(),
                seconds,
                options.hostileThreads(),
                Math.min(options.sources(), options.hostileThreads()),
                hostile.clientErrors.sum(),
                k.length,
                hostile.keyedFailed.sum(),
                hostile.keyedStatuses.isEmpty()
                        ? ""
                        : ": "
                                + new TreeMap<>(hostile.keyedStatuses)
                                        .entrySet().stream()
                                                .map(e -> (e.getKey() == 0 ? "no answer" : "HTTP " + e.getKey()) + " x"
                                                        + e.getValue().sum())
                                                .collect(Collectors.joining(", ")),
                SearchBench.percentile(k, 50),
                SearchBench.percentile(k, 95),
                SearchBench.percentile(k, 100),
                h.length,
                SearchBench.percentile(h, 50),
                SearchBench.percentile(h, 95),
                SearchBench.percentile(h, 100));
        out.printf(
                Locale.ROOT,
                "frontdoor: alone afterwards (%.0f s, the baseline): %d keyed searches (%d not 200) p50 %.1f / p95 %.1f"
                        + " ms; %d health checks p50 %.1f / p95 %.1f ms; 5xx %d%n",
                options.quiet().toMillis() / 1000.0,
                qk.length,
                quiet.keyedFailed.sum(),
                SearchBench.percentile(qk, 50),
                SearchBench.percentile(qk, 95),
                qh.length,
                SearchBench.percentile(qh, 50),
                SearchBench.percentile(qh, 95),
                quiet.fivexx.sum());
        return new Result(
                hostile.hostile.sum() / seconds,
                SearchBench.percentile(k, 95),
                SearchBench.percentile(h, 95),
                hostile.fivexx.sum(),
                hostile.hostile.sum(),
                k.length,
                hostile.keyedFailed.sum(),
                h.length,
                seconds);
    }

    /**
     * Gives this JVM's hostile threads the nice value {@code nice} (Linux: a thread is a task of
     * its own, {@code /proc/self/task/<tid>/comm} its name): they then take a core only when serve,
     * PostgreSQL and the keyed clients leave it idle, as an attacker's machine would not share the
     * server's cores at all. 0 leaves them as they are.
     */
    private void renice(int nice) {
        if (nice == 0) {
            return;
        }
        List<String> cmd = new ArrayList<>(List.of("renice", "-n", Integer.toString(nice), "-p"));
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                String name = Files.readString(task.resolve("comm")).strip();
                if (name.startsWith("hostile-")) {
                    cmd.add(task.getFileName().toString());
                }
            }
            Process p = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                out.println("frontdoor: could not renice the hostile threads; they run at the JVM's priority");
            }
        } catch (IOException e) {
            out.println("frontdoor: could not renice the hostile threads (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A hostile request and its kind, for the counts by kind. */
    record Hostile(String kind, byte[] request) {}

    /** One request of the hostile mix, each kind equally often. */
    static Hostile hostile(Random r, SyntheticReleases catalog) {
        String word = WORDS[r.nextInt(WORDS.length)];
        return switch (r.nextInt(11)) {
            case 0 -> new Hostile("page-noword", RawHttp.get("/?q=" + (r.nextBoolean() ? "%21" : "%25%25%25")));
            case 1 -> new Hostile("page-deep", RawHttp.get("/?q=" + word + "&page=" + (1 + r.nextInt(2_000))));
            case 2 ->
                new Hostile(
                        "page-search",
                        RawHttp.get("/?q="
                                + catalog.shows()
                                        .get(r.nextInt(catalog.shows().size()))
                                        .replace(' ', '+') + "&cat=" + (r.nextBoolean() ? 5000 : 2000)));
            case 3 -> new Hostile("api-t", RawHttp.get("/api?t=" + letters(r, 1 + r.nextInt(12))));
            case 4 -> new Hostile("api-wrongkey", RawHttp.get("/api?t=search&q=" + word + "&apikey=" + hex(r, 40)));
            case 5 -> new Hostile("api-caps", RawHttp.get("/api?t=caps"));
            case 6 -> new Hostile("uri-100kB", RawHttp.get("/api?t=search&q=" + "a".repeat(100_000)));
            case 7 -> new Hostile("header-100kB", RawHttp.get("/?q=" + word, "X-Filler: " + "b".repeat(100_000)));
            case 8 -> new Hostile("nul", RawHttp.get((r.nextBoolean() ? "/api?t=search&q=%00" : "/?q=%00")));
            case 9 -> new Hostile("page-release", RawHttp.get("/release/" + hex(r, 32)));
            default ->
                new Hostile("api-nokey", RawHttp.get("/api?t=search&q=" + word + "&offset=" + r.nextInt(1_000_000)));
        };
    }

    /** The newznab request of a search of the mix, as Sonarr or NZBHydra2 sends it. */
    static String apiQuery(SearchBench.Timed t, String key) {
        ReleaseSearch.Query q = t.query();
        StringBuilder s = new StringBuilder(q.season() != null ? "t=tvsearch" : "t=search");
        if (!q.text().isEmpty()) {
            s.append("&q=").append(URLEncoder.encode(q.text(), StandardCharsets.UTF_8));
        }
        if (!q.categories().isEmpty()) {
            s.append("&cat=")
                    .append(q.categories().stream().map(String::valueOf).collect(Collectors.joining(",")));
        }
        if (q.season() != null) {
            s.append("&season=").append(q.season());
        }
        if (q.episode() != null) {
            s.append("&ep=").append(q.episode());
        }
        s.append("&limit=").append(q.limit()).append("&offset=").append(q.offset());
        return s.append("&apikey=").append(key).toString();
    }

    private static int get(HttpClient http, String url) {
        try {
            return http.send(
                            HttpRequest.newBuilder(URI.create(url))
                                    .timeout(REQUEST_TIMEOUT)
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String letters(Random r, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append((char) ('a' + r.nextInt(26)));
        }
        return sb.toString();
    }

    private static String hex(Random r, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(Character.forDigit(r.nextInt(16), 16));
        }
        return sb.toString();
    }

    /** 127.0.0.n: a client address of its own on Linux loopback. */
    static InetAddress loopback(int n) {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) n});
        } catch (UnknownHostException e) {
            throw new UncheckedIOException(e);
        }
    }
}
