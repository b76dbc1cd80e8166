package headway.workflow;

import headway.activity.InspectActivities;
import headway.activity.InspectOutcome;
import headway.activity.InspectSummary;
import headway.activity.InspectTarget;
import io.temporal.activity.ActivityOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;

/** Claims, then inspects the claimed releases {@value #AT_ONCE} at a time; a failed release fails alone. */
public final class InspectWorkflowImpl implements InspectWorkflow {

    /** Releases read at once: the article fetcher bounds the connections, this the activities waiting on it. */
    static final int AT_ONCE = 4;

    private final InspectActivities claims =
            Workflow.newActivityStub(InspectActivities.class, SchedulePolicies.inspectClaim());

    @Override
    public InspectSummary inspect(int max) {
        List<InspectTarget> targets = claims.claim(max);
        List<String> failed = new ArrayList<>();
        int named = 0;
        int passworded = 0;
        int articles = 0;
        for (int from = 0; from < targets.size(); from += AT_ONCE) {
            List<InspectTarget> batch = targets.subList(from, Math.min(targets.size(), from + AT_ONCE));
            List<Promise<InspectOutcome>> running = new ArrayList<>();
            for (InspectTarget t : batch) {
                ActivityOptions options = SchedulePolicies.inspectRelease(
                        TaskQueues.inspectQueue(Workflow.getInfo().getTaskQueue()),
                        "inspect " + t.release() + " (" + t.group() + ", attempt " + t.attempt() + ")");
                InspectActivities one = Workflow.newActivityStub(InspectActivities.class, options);
                running.add(Async.function(one::inspect, t));
            }
            for (int i = 0; i < running.size(); i++) {
                try {
                    InspectOutcome o = running.get(i).get();
                    named += o.realName() != null ? 1 : 0;
                    passworded += o.password() > 0 ? 1 : 0;
                    articles += o.articles();
                } catch (ActivityFailure e) {
                    failed.add(batch.get(i).release());
                }
            }
        }
        return new InspectSummary(targets.size(), named, passworded, articles, failed);
    }
}
