package headway.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.rig.TestCertificates;
import headway.rig.TlsTerminator;
import headway.simulator.NewsSimulator;
import headway.workflow.GroupConfig;
import io.temporal.api.enums.v1.EventType;
import io.temporal.client.WorkflowExecutionMetadata;
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
 * the variables to set. On the way the group continues as new several times (a small history
 * budget), unversioned, without a failed workflow task.
 */
class TlsWorkerTest {

    private static final String GROUP = "alt.binaries.tls";
    private static final String GROUP_ID = "group/" + GROUP;
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
                // a small history budget: the group continues as new several times, unversioned, on the way
                GroupConfig c = cluster.rig().groupConfig(GROUP, Cluster.LEASE_TTL, 2, Duration.ofMinutes(10));
                cluster.rig()
                        .startGroup(new GroupConfig(
                                c.group(),
                                c.leaseTtl(),
                                c.snapshotEvery(),
                                c.idleWait(),
                                c.maxFailedCycles(),
                                60,
                                c.sharedTaskQueue(),
                                c.nodeTtl()));
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
                List<WorkflowExecutionMetadata> runs = cluster.client()
                        .listExecutions("WorkflowId = 'group/" + GROUP + "'")
                        .toList();
                assertThat(runs).as("the group continued as new").hasSizeGreaterThan(1);
                for (WorkflowExecutionMetadata run : runs) {
                    assertThat(cluster.client()
                                    .fetchHistory(GROUP_ID, run.getExecution().getRunId())
                                    .getEvents())
                            .as("no failed workflow task in run "
                                    + run.getExecution().getRunId())
                            .noneMatch(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED);
                }
                ServedCatalog.assertCatalogIsWhatWasServed(cluster, GROUP);
            }
        }
    }
}
