package headway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import headway.rig.EmbeddedDatabase;
import headway.rig.TestCertificates;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL over TLS, as docs/deploy.md sets it up: {@code sslmode=verify-full} with the CA in
 * {@code sslrootcert} checks the server's certificate and its host name, the pool migrates and
 * every connection is encrypted; a server certificate from another CA is refused with the
 * driver's reason.
 */
class DatabaseTlsTest {

    @TempDir
    Path dir;

    @Test
    void verifyFullConnectsEncryptedAndRefusesAServerItCannotVerify() throws Exception {
        TestCertificates certs = TestCertificates.make(dir.resolve("certs"), "db.headway.test");
        try (EmbeddedDatabase postgres = EmbeddedDatabase.startWithTls(certs.serverCert(), certs.serverKey())) {
            postgres.createDatabase("tls");
            String url = "jdbc:postgresql://localhost:" + postgres.port() + "/tls?sslmode=verify-full&sslrootcert="
                    + certs.ca();
            try (HikariDataSource ds = Database.pool(
                    new Database.Settings(url, "postgres", null, 2, Duration.ofSeconds(10)), "tls-test")) {
                Database.migrate(ds);
                try (Connection c = ds.getConnection();
                        Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("select ssl from pg_stat_ssl where pid = pg_backend_pid()")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getBoolean(1))
                            .as("the connection is encrypted")
                            .isTrue();
                }
            }
            String otherCa = url.replace(
                    certs.ca().toString(), certs.dir().resolve("other-ca.pem").toString());
            assertThatThrownBy(() -> Database.pool(
                                    new Database.Settings(otherCa, "postgres", null, 1, Duration.ofSeconds(5)),
                                    "tls-untrusted")
                            .close())
                    .hasStackTraceContaining("PKIX path");
        }
    }
}
