package headway.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import headway.activity.InspectActivities;
import headway.activity.InspectOutcome;
import headway.activity.InspectSummary;
import headway.activity.InspectTarget;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An inspection run claims, reads each release on the inspect queue a few at a time, and one failure fails alone. */
class InspectWorkflowTest {

    private static final String QUEUE = "headway-test";

    private TestWorkflowEnvironment env;
    private Worker shared;
    private Worker inspect;

    @BeforeEach
    void start() {
        env = TestWorkflowEnvironment.newInstance();
        shared = env.newWorker(QUEUE);
        inspect = env.newWorker(TaskQueues.inspectQueue(QUEUE));
        shared.registerWorkflowImplementationTypes(InspectWorkflowImpl.class);
    }

    @AfterEach
    void stop() {
        env.close();
    }

    /** Claims {@code releases}; names those whose name starts with "obf", fails "broken" every attempt. */
    static final class FakeInspector implements InspectActivities {
        final List<String> releases;
        final List<String> inspected = Collections.synchronizedList(new ArrayList<>());
        final ConcurrentHashMap<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();
        final AtomicInteger claims = new AtomicInteger();

        FakeInspector(List<String> releases) {
            this.releases = releases;
        }

        @Override
        public List<InspectTarget> claim(int max) {
            claims.incrementAndGet();
            return releases.stream()
                    .limit(max)
                    .map(r -> new InspectTarget("alt.binaries.x", "poster", r, 1))
                    .toList();
        }

        @Override
        public InspectOutcome inspect(InspectTarget target) {
            int now = running.incrementAndGet();
            mostAtOnce.accumulateAndGet(now, Math::max);
            try {
                attempts.computeIfAbsent(target.release(), k -> new AtomicInteger())
                        .incrementAndGet();
                Thread.sleep(20);
                if (target.release().equals("broken")) {
                    throw new IllegalStateException("news server refused");
                }
                inspected.add(target.release());
                boolean named = target.release().startsWith("obf");
                return new InspectOutcome(
                        target.release(),
                        named ? "Real.Name-" + target.release() : null,
                        named ? "PAR2" : null,
                        target.release().endsWith("pw") ? 1 : 0,
                        null,
                        2,
                        named,
                        named ? "named by its PAR2" : "no evidence");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } finally {
                running.decrementAndGet();
            }
        }
    }

    @Test
    void claimsThenInspectsEachReleaseOnTheInspectQueueAFewAtATime() {
        List<String> releases = List.of("obf1", "obf2", "plain", "broken", "obf3pw", "obf4", "obf5", "plain2", "obf6");
        FakeInspector fake = new FakeInspector(releases);
        shared.registerActivitiesImplementations(fake);
        inspect.registerActivitiesImplementations(fake);
        env.start();

        InspectSummary summary = env.getWorkflowClient()
                .newWorkflowStub(
                        InspectWorkflow.class,
                        WorkflowOptions.newBuilder()
                                .setTaskQueue(QUEUE)
                                .setWorkflowId("inspect")
                                .build())
                .inspect(20);

        assertThat(summary.claimed()).isEqualTo(9);
        assertThat(summary.named()).isEqualTo(6);
        assertThat(summary.passworded()).isEqualTo(1);
        assertThat(summary.articles()).isEqualTo(16);
        assertThat(summary.failed()).containsExactly("broken");
        assertThat(fake.inspected).hasSize(8);
        assertThat(fake.attempts.get("broken"))
                .as("retried with backoff, then left to the next run")
                .hasValue(3);
        assertThat(fake.mostAtOnce.get()).isBetween(1, InspectWorkflowImpl.AT_ONCE);
        assertThat(fake.claims).hasValue(1);
    }

    @Test
    void nothingDueIsAnEmptyRun() {
        FakeInspector fake = new FakeInspector(List.of());
        shared.registerActivitiesImplementations(fake);
        inspect.registerActivitiesImplementations(fake);
        env.start();

        InspectSummary summary = env.getWorkflowClient()
                .newWorkflowStub(
                        InspectWorkflow.class,
                        WorkflowOptions.newBuilder()
                                .setTaskQueue(QUEUE)
                                .setWorkflowId("inspect")
                                .build())
                .inspect(20);

        assertThat(summary).isEqualTo(new InspectSummary(0, 0, 0, 0, List.of()));
    }
}
