package headway.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import headway.simulator.NewsSimulator;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.SetWorkerDeploymentCurrentVersionRequest;
import io.temporal.client.WorkflowExecutionMetadata;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A rolling upgrade with Worker Versioning on the dev server, as docs/deploy.md describes it:
 * group workflows run on build 1; build 2, whose group workflow has a changed step (a timer at the
 * start of every run, which build 1's histories do not have, so replaying one on build 2 would be
 * a non-determinism error), is deployed and made the current version. Every group keeps indexing;
 * each pinned build-1 run continues as new once the target version changed and its next run is on
 * build 2; no workflow task fails; after the old worker is drained the catalog is what the server
 * served.
 */
class UpgradeTest {

    private static final String DEPLOYMENT = "headway-upgrade";
    private static final List<String> GROUPS =
            List.of("alt.binaries.upgrade.a", "alt.binaries.upgrade.b", "alt.binaries.upgrade.c");

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void groupsMoveToTheNewBuildAtContinueAsNewWithoutNonDeterminism() throws Exception {
        List<NewsSimulator.GroupSpec> specs = new ArrayList<>();
        for (int i = 0; i < GROUPS.size(); i++) {
            specs.add(NewsSimulator.GroupSpec.of(GROUPS.get(i), 40 + i, 90_000));
        }
        try (Cluster cluster = Cluster.start(
                "upgrade", specs, NewsSimulator.Options.defaults().withOverLatency(Duration.ofMillis(30)))) {
            cluster.workerEnv("HEADWAY_BATCH", "500");
            cluster.workerEnv("HEADWAY_VERSIONING", "true");
            cluster.workerEnv("HEADWAY_DEPLOYMENT", DEPLOYMENT);
            cluster.startWorker("build1", Map.of("HEADWAY_BUILD_ID", "1"));
            setCurrent(cluster, "1");
            for (String g : GROUPS) {
                cluster.addAndPlan(g, 3_000);
                cluster.startGroup(g, 2, Duration.ofSeconds(3));
            }
            Cluster.await(
                    Duration.ofSeconds(60),
                    Duration.ofMillis(200),
                    "every group indexing on build 1",
                    () -> GROUPS.stream().allMatch(g -> doneRanges(cluster, g) >= 2));
            GROUPS.forEach(g -> assertThat(buildOf(cluster, g)).as(g).isEqualTo("1"));

            Path build2 = compileBuild2(cluster.dir().resolve("build2"));
            cluster.startWorker("build2", Map.of("HEADWAY_BUILD_ID", "2"), build2);
            setCurrent(cluster, "2");
            long doneAtUpgrade =
                    GROUPS.stream().mapToLong(g -> doneRanges(cluster, g)).sum();
            for (String g : GROUPS) {
                // new articles after the switch: every group has work for build 2, however far it got on build 1
                cluster.simulator().post(g, 30_000);
                cluster.plan(g, 3_000);
            }
            Cluster.await(
                    Duration.ofSeconds(150),
                    Duration.ofMillis(500),
                    "every group caught up, its current run on build 2",
                    () -> GROUPS.stream()
                            .allMatch(g -> cluster.queryLong(
                                                    "select count(*) from ranges where group_name = ? and status <> 'done'",
                                                    g)
                                            == 0
                                    && "2".equals(buildOf(cluster, g))));
            cluster.stop("build1");
            long doneAfter =
                    GROUPS.stream().mapToLong(g -> doneRanges(cluster, g)).sum();
            int runs = 0;
            for (String g : GROUPS) {
                for (WorkflowExecutionMetadata run : cluster.client()
                        .listExecutions("WorkflowId = 'group/" + g + "'")
                        .toList()) {
                    runs++;
                    for (HistoryEvent e : cluster.client()
                            .fetchHistory(
                                    run.getExecution().getWorkflowId(),
                                    run.getExecution().getRunId())
                            .getEvents()) {
                        assertThat(e.getEventType())
                                .as(g + " run " + run.getExecution().getRunId() + " has no failed workflow task: " + e)
                                .isNotEqualTo(EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED);
                    }
                }
            }
            Map<String, Long> byBuild2 = new java.util.TreeMap<>();
            for (String g : GROUPS) {
                byBuild2.put(
                        g,
                        cluster.queryLong(
                                "select count(*) from ranges where group_name = ? and status = 'done' and node_id = 'build2'",
                                g));
            }
            System.out.printf(
                    "upgrade: ranges done at upgrade=%d after=%d runs=%d done_by_build2=%s%n",
                    doneAtUpgrade, doneAfter, runs, byBuild2);
            assertThat(doneAfter).as("groups kept indexing after the upgrade").isGreaterThan(doneAtUpgrade);
            assertThat(byBuild2.values())
                    .as("every group indexed on build 2's worker after the upgrade")
                    .allMatch(n -> n > 0);
            for (String g : GROUPS) {
                ServedCatalog.assertCatalogIsWhatWasServed(cluster, g);
            }
        }
    }

    private static long doneRanges(Cluster cluster, String group) {
        return cluster.queryLong("select count(*) from ranges where group_name = ? and status = 'done'", group);
    }

    /** The build the group's current run is pinned to ("" when unversioned). */
    private static String buildOf(Cluster cluster, String group) {
        var info = cluster.client()
                .getWorkflowServiceStubs()
                .blockingStub()
                .describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
                        .setNamespace("default")
                        .setExecution(WorkflowExecution.newBuilder().setWorkflowId("group/" + group))
                        .build())
                .getWorkflowExecutionInfo();
        return info.getVersioningInfo().getDeploymentVersion().getBuildId();
    }

    /** What {@code temporal worker deployment set-current-version} does, retried until the build's workers have polled. */
    private static void setCurrent(Cluster cluster, String buildId) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                cluster.client()
                        .getWorkflowServiceStubs()
                        .blockingStub()
                        .setWorkerDeploymentCurrentVersion(SetWorkerDeploymentCurrentVersionRequest.newBuilder()
                                .setNamespace("default")
                                .setDeploymentName(DEPLOYMENT)
                                .setBuildId(buildId)
                                .setIdentity("upgrade-test")
                                .build());
                return;
            } catch (StatusRuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Cluster.sleep(500);
            }
        }
    }

    /** Build 2: GroupWorkflowImpl with a timer at the start of every run, compiled against this class path. */
    private static Path compileBuild2(Path out) throws IOException {
        Path source = Path.of(System.getProperty("user.dir"))
                .getParent()
                .resolve("workflows/src/main/java/headway/workflow/GroupWorkflowImpl.java");
        String code = Files.readString(source, StandardCharsets.UTF_8);
        String marker = "public void run(GroupRun run) {";
        assertThat(code).contains(marker);
        code = code.replace(
                marker, marker + "\n        Workflow.sleep(Duration.ofMillis(1)); // build 2's changed step\n");
        Path src = out.resolve("src/headway/workflow/GroupWorkflowImpl.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, code, StandardCharsets.UTF_8);
        Path classes = Files.createDirectories(out.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(
                null,
                null,
                null,
                "-proc:none",
                "-d",
                classes.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                src.toString());
        if (rc != 0) {
            throw new UncheckedIOException(new IOException("build 2 did not compile: javac exited " + rc));
        }
        return classes;
    }
}
