package headway.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.rig.TestCertificates;
import headway.rig.TlsTerminator;
import headway.simulator.NewsSimulator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker process reaches Temporal only through a TLS terminator that requires a client
 * certificate (the dev server behind it speaks plain text), configured by the standard TEMPORAL_*
 * variables with HEADWAY_TEMPORAL as the address: it indexes a group whole, and the catalog is
 * what the server served. Without its certificate the worker exits 3 with the error that names
 * the variables to set.
 */
class TlsWorkerTest {

    private static final String GROUP = "alt.binaries.tls";
    private static final String SERVER_NAME = "temporal.headway.test";

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void aWorkerIndexesThroughMutualTlsAndWithoutItsCertificateSaysWhatToSet() {
        try (Cluster cluster = Cluster.start("tls", List.of(NewsSimulator.GroupSpec.of(GROUP, 18, 40_000)))) {
            TestCertificates certs = TestCertificates.make(cluster.dir().resolve("certs"), SERVER_NAME);
            String[] backend = cluster.temporal().target().split(":");
            try (TlsTerminator tls = TlsTerminator.start(
                    certs.serverCert(), certs.serverKey(), certs.ca(), backend[0], Integer.parseInt(backend[1]))) {
                Map<String, String> noCertificate = Map.of(
                        "HEADWAY_TEMPORAL", tls.target(),
                        "TEMPORAL_TLS_SERVER_CA_CERT_PATH", certs.ca().toString(),
                        "TEMPORAL_TLS_SERVER_NAME", SERVER_NAME);
                assertThatThrownBy(() -> cluster.startWorker("no-cert", noCertificate))
                        .hasMessageContaining("worker no-cert exited with 3 before it ran")
                        .hasMessageContaining("headway: cannot reach Temporal at " + tls.target()
                                + ": the server requires a client certificate (")
                        .hasMessageContaining("set TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH");

                Map<String, String> mutual = new java.util.HashMap<>(noCertificate);
                mutual.put("TEMPORAL_TLS_CLIENT_CERT_PATH", certs.clientCert().toString());
                mutual.put("TEMPORAL_TLS_CLIENT_KEY_PATH", certs.clientKey().toString());
                cluster.startWorker("mtls", mutual);
                cluster.addAndPlan(GROUP, 5_000);
                cluster.startGroup(GROUP, 2, Duration.ofMinutes(10));
                Cluster.await(
                        Duration.ofSeconds(90),
                        Duration.ofMillis(250),
                        "the group indexed whole through TLS",
                        () -> cluster.queryLong(
                                                "select count(*) from ranges where group_name = ? and status <> 'done'",
                                                GROUP)
                                        == 0
                                && cluster.queryLong(
                                                "select count(*) from snapshots where group_name = ? and next_article > ?",
                                                GROUP,
                                                cluster.simulator().high(GROUP))
                                        == 1);
                assertThat(cluster.log("mtls")).contains("worker mtls running");
                ServedCatalog.assertCatalogIsWhatWasServed(cluster, GROUP);
            }
        }
    }
}
