package headway.starter;

import static org.assertj.core.api.Assertions.assertThat;

import headway.rig.TestCertificates;
import headway.rig.TlsTerminator;
import headway.store.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI reaches Temporal through a TLS terminator that requires a client certificate (the dev
 * server behind it speaks plain text), configured by the standard TEMPORAL_* variables or a
 * profile file; each way it can go wrong ends with one line that names the variable to fix: exit
 * 2 for what can be checked before connecting, 3 for what the server (or its certificate) refuses.
 */
class TemporalTlsTest {

    private static final String SERVER_NAME = "temporal.headway.test";

    @TempDir
    static Path dir;

    private static TestCertificates certs;
    private static TlsTerminator terminator;
    private static String dbUrl;

    @BeforeAll
    static void start() {
        certs = TestCertificates.make(dir.resolve("certs"), SERVER_NAME);
        String[] backend = DevServer.shared().target().split(":");
        terminator = TlsTerminator.start(
                certs.serverCert(), certs.serverKey(), certs.ca(), backend[0], Integer.parseInt(backend[1]));
        dbUrl = TestDatabase.emptyDatabase("tls");
    }

    @AfterAll
    static void stop() {
        terminator.close();
    }

    /** TEMPORAL_ADDRESS at the terminator, its CA and server name; no --temporal flag. */
    private static Cli secured() {
        return Cli.of(dbUrl, null)
                .env("TEMPORAL_ADDRESS", terminator.target())
                .env("TEMPORAL_TLS_SERVER_CA_CERT_PATH", certs.ca().toString())
                .env("TEMPORAL_TLS_SERVER_NAME", SERVER_NAME);
    }

    private static Cli withClient(Path cert, Path key) {
        return secured()
                .env("TEMPORAL_TLS_CLIENT_CERT_PATH", cert.toString())
                .env("TEMPORAL_TLS_CLIENT_KEY_PATH", key.toString());
    }

    @Test
    void theClientCertificateGetsThrough() {
        Cli.Result r = withClient(certs.clientCert(), certs.clientKey()).run("schedules", "list");
        assertThat(r.code()).as(r.toString()).isZero();
    }

    @Test
    void aProfileFileWorksAsTheVariablesDo() throws Exception {
        Path file = Files.writeString(dir.resolve("temporal.toml"), """
                [profile.secure]
                address = "%s"
                [profile.secure.tls]
                server_ca_cert_path = "%s"
                server_name = "%s"
                client_cert_path = "%s"
                client_key_path = "%s"
                """.formatted(
                        terminator.target(), certs.ca(), SERVER_NAME, certs.clientCert(), certs.clientKey()));
        Cli.Result r = Cli.of(dbUrl, null)
                .env("TEMPORAL_CONFIG_FILE", file.toString())
                .env("TEMPORAL_PROFILE", "secure")
                .run("schedules", "list");
        assertThat(r.code()).as(r.toString()).isZero();
    }

    @Test
    void withoutAClientCertificateItSaysWhichVariablesToSet() {
        Cli.Result r = secured().run("schedules", "list");
        assertThat(r.code()).as(r.toString()).isEqualTo(Exit.UNREACHABLE);
        assertThat(r.err())
                .startsWith("headway: cannot reach Temporal at " + terminator.target()
                        + ": the server requires a client certificate (")
                .endsWith("): set TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH\n");
    }

    @Test
    void aCertificateFromAnotherCaIsRefused() {
        Cli.Result r =
                withClient(certs.strangerClient(), certs.strangerClientKey()).run("schedules", "list");
        assertThat(r.code()).as(r.toString()).isEqualTo(Exit.UNREACHABLE);
        assertThat(r.err())
                .startsWith("headway: cannot reach Temporal at " + terminator.target()
                        + ": the server refused the client certificate of TEMPORAL_TLS_CLIENT_CERT_PATH (")
                .endsWith("): use one signed by a CA the server trusts, and not expired\n");
    }

    @Test
    void anExpiredClientCertificateIsBadInput() {
        Cli.Result r =
                withClient(certs.expiredClient(), certs.expiredClientKey()).run("schedules", "list");
        assertThat(r.code()).as(r.toString()).isEqualTo(Exit.BAD_INPUT);
        assertThat(r.err())
                .startsWith("headway: TEMPORAL_TLS_CLIENT_CERT_PATH=" + certs.expiredClient()
                        + ": the client certificate expired on ")
                .endsWith("(CN=headway-expired): renew it\n");
    }

    @Test
    void aMissingCertificateFileIsBadInput() {
        Path missing = dir.resolve("no-such-ca.pem");
        Cli.Result r = withClient(certs.clientCert(), certs.clientKey())
                .env("TEMPORAL_TLS_SERVER_CA_CERT_PATH", missing.toString())
                .run("schedules", "list");
        assertThat(r.code()).as(r.toString()).isEqualTo(Exit.BAD_INPUT);
        assertThat(r.err()).isEqualTo("headway: TEMPORAL_TLS_SERVER_CA_CERT_PATH=" + missing + ": no such file\n");
    }

    @Test
    void aServerCertificateFromAnUnknownCaIsNotTrusted() {
        Cli.Result r = withClient(certs.clientCert(), certs.clientKey())
                .env(
                        "TEMPORAL_TLS_SERVER_CA_CERT_PATH",
                        certs.dir().resolve("other-ca.pem").toString())
                .run("schedules", "list");
        assertThat(r.code()).as(r.toString()).isEqualTo(Exit.UNREACHABLE);
        assertThat(r.err())
                .startsWith("headway: cannot reach Temporal at " + terminator.target()
                        + ": the server's certificate is not trusted (")
                .contains("set TEMPORAL_TLS_SERVER_CA_CERT_PATH to the CA that signed it");
    }

    @Test
    void aServerNameTheCertificateLacksIsNamed() {
        Cli.Result r = withClient(certs.clientCert(), certs.clientKey())
                .env("TEMPORAL_TLS_SERVER_NAME", "elsewhere.test")
                .run("schedules", "list");
        assertThat(r.code()).as(r.toString()).isEqualTo(Exit.UNREACHABLE);
        assertThat(r.err()).contains("set TEMPORAL_TLS_SERVER_NAME to a name it has");
    }
}
