package headway.workflow;

import headway.activity.InspectSummary;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One pass of the deep index per run, started by its Schedule ({@code headway-inspect}): claims the
 * releases due for inspection and reads inside each, a few at a time, each as an activity of its
 * own (visible in the Web UI by its summary {@code inspect <release>}) on the inspect task queue.
 * Overlap is allowed, because claims are exclusive until their deadline.
 */
@WorkflowInterface
public interface InspectWorkflow {

    /** Claims at most {@code max} releases and inspects them; the summary says what was named. */
    @WorkflowMethod
    InspectSummary inspect(int max);
}
