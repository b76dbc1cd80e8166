package headway.workflow;

import headway.activity.WatchmanSummary;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** One watchman scan per run, started by its Schedule every interval (overlap allowed: scans are safe to run concurrently). */
@WorkflowInterface
public interface WatchmanWorkflow {

    /** Scans once and returns the summary (groups newly stuck and un-stuck included). */
    @WorkflowMethod
    WatchmanSummary scan();
}
