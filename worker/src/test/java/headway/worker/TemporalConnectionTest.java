package headway.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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
}
