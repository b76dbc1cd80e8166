package headway.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.nntp.NntpServer;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The news server's security settings: defaults, and a bad value named with its fix before anything connects. */
class NntpSettingsTest {

    @TempDir
    Path dir;

    @Test
    void defaultsAreStartTlsWhereOfferedTheJvmTrustStoreNoPlainPasswordAndCompression() {
        WorkerConfig.NntpServer s = WorkerConfig.fromEnvNntp(Map.of());
        assertThat(s.security()).isEqualTo(NntpServer.Security.DEFAULT);
        assertThat(s.security()).isEqualTo(new NntpServer.Security(NntpServer.StartTls.AUTO, null, false, true));
    }

    /** Issue 44: each provider's pool has its own server, credentials and limit, with provider 0's security and timeout. */
    @Test
    void everyProviderGetsAPoolOfItsOwnWithProviderZerosSecurity() {
        Map<String, String> env = Map.of(
                "HEADWAY_NNTP_HOST", "news.example",
                "HEADWAY_NNTP_COMPRESS", "false",
                "HEADWAY_NNTP_TIMEOUT", "7s",
                "HEADWAY_NNTP_1_HOST", "block.example",
                "HEADWAY_NNTP_1_TLS", "true",
                "HEADWAY_NNTP_1_USER", "u",
                "HEADWAY_NNTP_1_PASSWORD", "secret-pw",
                "HEADWAY_NNTP_1_CONNECTIONS", "3");
        WorkerConfig.NntpServer zero = WorkerConfig.fromEnvNntp(env);
        headway.settings.Providers.Provider one =
                WorkerConfig.otherProviders(env).get(0);
        var pool = HeadwayWorker.providerConfig(zero, one);
        assertThat(pool.server().address()).isEqualTo("block.example:563");
        assertThat(pool.server().tls()).isTrue();
        assertThat(pool.server().credentials().password()).isEqualTo("secret-pw");
        assertThat(pool.server().security().compress()).isFalse();
        assertThat(pool.maxConnections()).isEqualTo(3);
        assertThat(pool.readTimeout()).isEqualTo(java.time.Duration.ofSeconds(7));
        assertThat(pool.toString() + one).doesNotContain("secret-pw");
    }

    @Test
    void readsEverySecuritySetting() throws Exception {
        Path ca = dir.resolve("ca.pem");
        Files.writeString(ca, pemOfSomeJvmCertificate(), StandardCharsets.US_ASCII);
        WorkerConfig.NntpServer s = WorkerConfig.fromEnvNntp(Map.of(
                "HEADWAY_NNTP_STARTTLS", "require",
                "HEADWAY_NNTP_CA", ca.toString(),
                "HEADWAY_NNTP_PLAIN_AUTH", "true",
                "HEADWAY_NNTP_COMPRESS", "false"));
        assertThat(s.security()).isEqualTo(new NntpServer.Security(NntpServer.StartTls.REQUIRE, ca, true, false));
        assertThat(HeadwayWorker.nntpConfig(s).server().security()).isEqualTo(s.security());
    }

    @Test
    void aBadValueIsNamedWithItsFix() throws Exception {
        assertThatThrownBy(() -> WorkerConfig.fromEnvNntp(Map.of("HEADWAY_NNTP_STARTTLS", "yes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("HEADWAY_NNTP_STARTTLS=yes")
                .hasMessageContaining("auto, require, off");
        assertThatThrownBy(() -> WorkerConfig.fromEnvNntp(
                        Map.of("HEADWAY_NNTP_CA", dir.resolve("missing.pem").toString())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("HEADWAY_NNTP_CA=")
                .hasMessageContaining("cannot read");
        Path notPem = dir.resolve("not.pem");
        Files.writeString(notPem, "hello\n");
        assertThatThrownBy(() -> WorkerConfig.fromEnvNntp(Map.of("HEADWAY_NNTP_CA", notPem.toString())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("HEADWAY_NNTP_CA=")
                .hasMessageContaining("BEGIN CERTIFICATE");
    }

    /** One certificate of the JVM's own trust store, as PEM. */
    private static String pemOfSomeJvmCertificate() throws Exception {
        KeyStore cacerts = KeyStore.getInstance(KeyStore.getDefaultType());
        Path file = Path.of(System.getProperty("java.home"), "lib", "security", "cacerts");
        try (InputStream in = Files.newInputStream(file)) {
            cacerts.load(in, null);
        }
        Certificate c = cacerts.getCertificate(cacerts.aliases().nextElement());
        return "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(c.getEncoded())
                + "\n-----END CERTIFICATE-----\n";
    }
}
