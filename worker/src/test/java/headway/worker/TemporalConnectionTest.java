package headway.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import io.temporal.client.WorkflowClient;
import io.temporal.testserver.TestServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the connection's settings come from and what a bad one says; the server-side failures are in the CLI's TLS test. */
class TemporalConnectionTest {

    @TempDir
    Path dir;

    private Path profiles() throws IOException {
        Path file = dir.resolve("temporal.toml");
        Files.writeString(file, """
                [profile.default]
                address = "profile-default:7233"
                namespace = "from-profile"

                [profile.cloud]
                address = "cloud.example:7233"
                namespace = "cloud-ns"
                api_key = "secret"
                """);
        return file;
    }

    @Test
    void flagAndHeadwayVariablesWinOverTemporalVariablesOverTheProfileOverTheDefault() throws IOException {
        String file = profiles().toString();
        assertThat(TemporalConnection.fromEnv(Map.of(
                                "TEMPORAL_CONFIG_FILE", dir.resolve("none.toml").toString()))
                        .describe())
                .isEqualTo("127.0.0.1:7233 (namespace default, plain text)");
        assertThat(TemporalConnection.fromEnv(Map.of("TEMPORAL_CONFIG_FILE", file))
                        .describe())
                .isEqualTo("profile-default:7233 (namespace from-profile, plain text)");
        TemporalConnection env = TemporalConnection.fromEnv(
                Map.of("TEMPORAL_CONFIG_FILE", file, "TEMPORAL_ADDRESS", "env:7233", "TEMPORAL_NAMESPACE", "env-ns"));
        assertThat(env.describe()).isEqualTo("env:7233 (namespace env-ns, plain text)");
        TemporalConnection headway = TemporalConnection.fromEnv(Map.of(
                "TEMPORAL_CONFIG_FILE", file,
                "TEMPORAL_ADDRESS", "env:7233",
                "HEADWAY_TEMPORAL", "headway:7233",
                "HEADWAY_NAMESPACE", "headway-ns"));
        assertThat(headway.describe()).isEqualTo("headway:7233 (namespace headway-ns, plain text)");
        assertThat(headway.clientOptions().getNamespace()).isEqualTo("headway-ns");
        assertThat(headway.stubsOptions(null).getTarget()).isEqualTo("headway:7233");
    }

    @Test
    void blankVariablesCountAsUnsetAsComposePassesThemThrough() {
        assertThat(TemporalConnection.fromEnv(Map.of(
                                "TEMPORAL_CONFIG_FILE", dir.resolve("none.toml").toString(),
                                "TEMPORAL_ADDRESS", "",
                                "TEMPORAL_TLS_SERVER_NAME", "",
                                "TEMPORAL_TLS", " ",
                                "HEADWAY_TEMPORAL", ""))
                        .describe())
                .isEqualTo("127.0.0.1:7233 (namespace default, plain text)");
    }

    @Test
    void aProfileWithAnApiKeyIsTls() throws IOException {
        TemporalConnection cloud = TemporalConnection.fromEnv(
                Map.of("TEMPORAL_CONFIG_FILE", profiles().toString(), "TEMPORAL_PROFILE", "cloud"));
        assertThat(cloud.describe()).isEqualTo("cloud.example:7233 (namespace cloud-ns, TLS, API key)");
        assertThat(cloud.stubsOptions(null).getEnableHttps()).isTrue();
    }

    @Test
    void badSettingsNameTheirVariable() throws IOException {
        String file = profiles().toString();
        assertThatThrownBy(() ->
                        TemporalConnection.fromEnv(Map.of("TEMPORAL_CONFIG_FILE", file, "TEMPORAL_PROFILE", "nope")))
                .hasMessage("TEMPORAL_PROFILE=nope names no profile in " + file
                        + " (add [profile.nope] or unset TEMPORAL_PROFILE)");
        assertThatThrownBy(() -> TemporalConnection.fromEnv(Map.of("TEMPORAL_ADDRESS", "temporal")))
                .hasMessage("TEMPORAL_ADDRESS=temporal must be host:port, e.g. 127.0.0.1:7233");
        assertThatThrownBy(() -> TemporalConnection.fromEnv(Map.of("TEMPORAL_TLS", "yes please")))
                .hasMessage("TEMPORAL_TLS=yes please is not a boolean: use true or false");
        assertThatThrownBy(() -> TemporalConnection.fromEnv(Map.of(
                        "TEMPORAL_TLS_CLIENT_CERT_PATH", dir.resolve("none.pem").toString())))
                .hasMessage(
                        "TEMPORAL_TLS_CLIENT_CERT_PATH is set without its key: set TEMPORAL_TLS_CLIENT_KEY_PATH too");
        Path notPem = Files.writeString(dir.resolve("not.pem"), "hello");
        assertThatThrownBy(
                        () -> TemporalConnection.fromEnv(Map.of("TEMPORAL_TLS_SERVER_CA_CERT_PATH", notPem.toString())))
                .hasMessageStartingWith("TEMPORAL_TLS_SERVER_CA_CERT_PATH=" + notPem + " is not a PEM certificate: ");
        Path bad = Files.writeString(dir.resolve("bad.toml"), "[profile.default\naddress=");
        assertThatThrownBy(() -> TemporalConnection.fromEnv(Map.of("TEMPORAL_CONFIG_FILE", bad.toString())))
                .hasMessageStartingWith("cannot read the Temporal profile file " + bad + ": ")
                .hasMessageEndingWith(" (fix it, or point TEMPORAL_CONFIG_FILE elsewhere)");
    }

    @Test
    void aRefusedApiKeyNamesItsVariable() {
        TemporalConnection keyed =
                TemporalConnection.fromEnv(Map.of("TEMPORAL_API_KEY", "k", "TEMPORAL_NAMESPACE", "ns"));
        assertThat(keyed.explain(Status.UNAUTHENTICATED
                        .withDescription("Request unauthorized.")
                        .asRuntimeException()))
                .isEqualTo("the server refused the credentials (UNAUTHENTICATED: Request unauthorized.): check"
                        + " TEMPORAL_API_KEY and that the key may use namespace ns");
        assertThat(TemporalConnection.fromEnv(Map.of()).explain(Status.PERMISSION_DENIED.asRuntimeException()))
                .startsWith("the server refused the credentials (PERMISSION_DENIED): set TEMPORAL_API_KEY");
    }

    @Test
    void aWorkerWaitsForAServerThatComesUpAndStopsAtOnceOnARefusal() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        TemporalConnection connection = TemporalConnection.fromEnv(Map.of(
                "TEMPORAL_CONFIG_FILE", dir.resolve("none.toml").toString(), "HEADWAY_TEMPORAL", "127.0.0.1:" + port));
        List<String> heard = new CopyOnWriteArrayList<>();
        CompletableFuture<WorkflowClient> waiting = CompletableFuture.supplyAsync(
                () -> connection.connect(null, Duration.ofSeconds(2), Duration.ofSeconds(90), heard::add));
        // nothing listens yet: the first attempt fails and is told once
        long told = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (heard.isEmpty() && System.nanoTime() < told) {
            Thread.sleep(50);
        }
        assertThat(heard)
                .singleElement()
                .asString()
                .startsWith("cannot reach Temporal at 127.0.0.1:" + port + ": ")
                .endsWith("; asking again every 2 s for up to 90 s");
        assertThat(waiting).isNotDone();
        try (TestServer.PortBoundTestServer server = TestServer.createPortBoundServer(port)) {
            WorkflowClient client = waiting.get(60, TimeUnit.SECONDS);
            assertThat(client.getWorkflowServiceStubs()
                            .healthCheck()
                            .getStatus()
                            .name())
                    .isEqualTo("SERVING");
            client.getWorkflowServiceStubs().shutdownNow();
        }
        assertThat(heard).hasSize(1);

        // a server that is down with no patience, and a bad TLS setting with patience, both end at once
        assertThatThrownBy(() -> connection.connect(null, Duration.ofSeconds(2), Duration.ZERO, heard::add))
                .isInstanceOf(TemporalConnection.Unreachable.class)
                .satisfies(e -> assertThat(((TemporalConnection.Unreachable) e).mayComeUp())
                        .isTrue());
        assertThat(heard).hasSize(1);
    }
}
