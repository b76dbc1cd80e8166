package headway.workflow;

import headway.activity.WatchmanActivities;
import headway.activity.WatchmanSummary;
import io.temporal.workflow.Workflow;
import org.slf4j.Logger;

/**
 * Runs one scan, then tells the group workflows that became stuck or un-stuck, so the Web UI can
 * filter on HeadwayStuck; the summary is the result. Each signal carries the scan's database time,
 * because runs overlap and their signals arrive in any order: the group keeps the newest verdict.
 */
public final class WatchmanWorkflowImpl implements WatchmanWorkflow {

    private static final Logger log = Workflow.getLogger(WatchmanWorkflowImpl.class);

    /** Timeouts and retries: see {@link SchedulePolicies#watchmanScan}. */
    private final WatchmanActivities watchman =
            Workflow.newActivityStub(WatchmanActivities.class, SchedulePolicies.watchmanScan());

    @Override
    public WatchmanSummary scan() {
        WatchmanSummary summary = watchman.scan();
        if (!summary.newlyStuckGroups().isEmpty() || !summary.unstuckGroups().isEmpty()) {
            log.info(
                    "watchman: newly stuck {}, un-stuck {}, {} open stuck record(s)",
                    summary.newlyStuckGroups(),
                    summary.unstuckGroups(),
                    summary.open());
        }
        if (summary.conflicts() > 0) {
            log.warn(
                    "watchman: {} new claim conflict(s); `headway status --conflicts` lists them", summary.conflicts());
        }
        for (String group : summary.newlyStuckGroups()) {
            GroupSignals.signal(group, "stuck", true, summary.at());
        }
        for (String group : summary.unstuckGroups()) {
            GroupSignals.signal(group, "stuck", false, summary.at());
        }
        return summary;
    }
}
