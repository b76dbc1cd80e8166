package headway.starter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.rig.TemporalDevServer;
import headway.store.TestDatabase;
import headway.workflow.GroupConfig;
import headway.workflow.TaskQueues;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Starting many groups at once on the real dev server: each group's workflow started once, a second
 * start of them all changes nothing, a refusal names its group and stops the starts after it. The
 * task queue is the test's own and nobody polls it, so the workflows only wait.
 */
class GroupStarterTest {
    private static final String QUEUE = "group-starter-test";
    private static TemporalDevServer temporal;

    @BeforeAll
    static void server() {
        temporal = DevServer.shared();
    }

    @Test
    void startsEveryGroupOnceAndASecondStartChangesNothing() {
        List<GroupConfig> configs = configs("alt.binaries.starter.once.g", 60);
        Map<String, Integer> told = new ConcurrentHashMap<>();
        Set<Integer> counts = ConcurrentHashMap.newKeySet();
        List<GroupStarter.Started> first =
                GroupStarter.startAll(temporal.workflowClient(), configs, 8, (s, done, total) -> {
                    told.merge(s.group(), 1, Integer::sum);
                    counts.add(done);
                    assertThat(total).isEqualTo(60);
                });
        try {
            assertThat(first).extracting(GroupStarter.Started::group).containsExactlyElementsOf(names(configs));
            assertThat(told)
                    .as("progress told once per group")
                    .hasSize(60)
                    .allSatisfy((g, n) -> assertThat(n).isEqualTo(1));
            assertThat(counts)
                    .containsExactlyInAnyOrderElementsOf(
                            IntStream.rangeClosed(1, 60).boxed().toList());
            assertThat(first.stream().map(GroupStarter.Started::runId).distinct())
                    .hasSize(60);
            for (GroupStarter.Started s : first) {
                DescribeWorkflowExecutionResponse d = describe(TaskQueues.workflowId(s.group()));
                assertThat(d.getWorkflowExecutionInfo().getExecution().getRunId())
                        .isEqualTo(s.runId());
                assertThat(d.getWorkflowExecutionInfo().getStatus())
                        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
            }

            List<GroupStarter.Started> again =
                    GroupStarter.startAll(temporal.workflowClient(), configs, 8, (s, done, total) -> {});
            assertThat(again)
                    .as("a second start attaches to the running workflows")
                    .isEqualTo(first);
            assertThat(CliTest.eventually(
                            () -> temporal.workflowClient()
                                    .countWorkflows("WorkflowId STARTS_WITH 'group/alt.binaries.starter.once.'")
                                    .getCount(),
                            n -> n == 60,
                            Duration.ofSeconds(20)))
                    .as("one execution per group")
                    .isEqualTo(60);
        } finally {
            terminate(first);
        }
    }

    @Test
    void aRefusalNamesItsGroupAndStopsTheStartsAfterIt() {
        List<GroupConfig> configs = new ArrayList<>(configs("alt.binaries.starter.refused.a", 5));
        // the server refuses a workflow id longer than its limit (1,000 characters)
        String tooLong = "alt.binaries.starter.refused." + "x".repeat(1_000);
        configs.add(config(tooLong));
        configs.addAll(configs("alt.binaries.starter.refused.b", 5));
        List<GroupStarter.Started> started = new ArrayList<>();
        assertThatThrownBy(() -> GroupStarter.startAll(
                        temporal.workflowClient(), configs, 1, (s, done, total) -> started.add(s)))
                .isInstanceOfSatisfying(GroupStarter.Refused.class, r -> {
                    assertThat(r.group()).isEqualTo(tooLong);
                    assertThat(r.started()).isEqualTo(5);
                })
                .hasMessageStartingWith("starting group/" + tooLong + " was refused: ")
                .hasMessageEndingWith(" (5 of 11 groups started; starting is idempotent, so run it again once fixed)");
        try {
            assertThat(started)
                    .extracting(GroupStarter.Started::group)
                    .containsExactlyElementsOf(names(configs.subList(0, 5)));
            for (GroupConfig after : configs.subList(6, 11)) {
                assertThatThrownBy(() -> describe(TaskQueues.workflowId(after.group())))
                        .as("no start after the refusal: " + after.group())
                        .isInstanceOfSatisfying(
                                StatusRuntimeException.class,
                                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));
            }
        } finally {
            terminate(started);
        }
    }

    @Test
    void startAllGroupsThroughTheCliShowsProgressAndIsIdempotent() {
        Cli cli = Cli.of(TestDatabase.emptyDatabase("starter"), temporal.target());
        List<String> names = IntStream.range(0, 120)
                .mapToObj(i -> "alt.binaries.starter.cli.g" + i)
                .toList();
        List<String> add = new ArrayList<>(List.of("groups", "add"));
        add.addAll(names);
        assertThat(cli.run(add.toArray(String[]::new)).code()).isZero();

        Cli.Result first = cli.run("start", "--all", "--in-flight", "12", "--task-queue", QUEUE);
        try {
            assertThat(first.code()).as(first.toString()).isZero();
            Pattern line =
                    Pattern.compile("started group/(alt\\.binaries\\.starter\\.cli\\.g\\d+) \\(run [0-9a-f-]{36}\\)");
            assertThat(first.lines()).hasSize(120).allMatch(l -> line.matcher(l).matches());
            assertThat(first.lines().stream()
                            .map(l -> l.substring("started group/".length(), l.indexOf(' ', 8)))
                            .collect(Collectors.toSet()))
                    .isEqualTo(new HashSet<>(names));
            assertThat(first.err().lines().toList())
                    .as("a line at every tenth")
                    .hasSize(10)
                    .allMatch(l -> l.matches("headway: started \\d+ of 120 groups \\(\\d+ a second\\)"))
                    .last()
                    .satisfies(l -> assertThat(l).startsWith("headway: started 120 of 120 groups"));

            Cli.Result again = cli.run("start", "--all", "--in-flight", "3", "--task-queue", QUEUE);
            assertThat(again.code()).as(again.toString()).isZero();
            assertThat(Set.copyOf(again.lines()))
                    .as("the same run of every group")
                    .isEqualTo(Set.copyOf(first.lines()));
        } finally {
            for (String g : names) {
                temporal.workflowClient()
                        .newUntypedWorkflowStub(TaskQueues.workflowId(g))
                        .terminate("test done");
            }
        }
    }

    @Test
    void inFlightOutOfRangeIsBadInput() {
        Cli cli = Cli.of(TestDatabase.emptyDatabase("starter_bad"), temporal.target());
        for (String n : List.of("0", "-1", "257")) {
            Cli.Result r = cli.run("start", "--all", "--in-flight", n);
            assertThat(r.code()).as(r.toString()).isEqualTo(Exit.BAD_INPUT);
            assertThat(r.err()).isEqualTo("headway: --in-flight " + n + ": need 1..256\n");
        }
    }

    private static List<GroupConfig> configs(String prefix, int n) {
        return IntStream.range(0, n).mapToObj(i -> config(prefix + i)).toList();
    }

    private static GroupConfig config(String group) {
        return GroupConfig.of(group, Duration.ofSeconds(30), 2, Duration.ofMinutes(10), QUEUE);
    }

    private static List<String> names(List<GroupConfig> configs) {
        return configs.stream().map(GroupConfig::group).toList();
    }

    private static DescribeWorkflowExecutionResponse describe(String workflowId) {
        return temporal.serviceStubs()
                .blockingStub()
                .describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
                        .setNamespace("default")
                        .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
                        .build());
    }

    private static void terminate(List<GroupStarter.Started> started) {
        Function<GroupStarter.Started, String> id = s -> TaskQueues.workflowId(s.group());
        for (GroupStarter.Started s : started) {
            temporal.workflowClient().newUntypedWorkflowStub(id.apply(s)).terminate("test done");
        }
    }
}
