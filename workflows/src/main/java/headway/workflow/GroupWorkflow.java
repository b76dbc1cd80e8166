package headway.workflow;

import headway.activity.ClaimConflict;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.time.Instant;

/** One long-lived workflow per newsgroup, id {@code group/<name>}: leases the group and indexes it in article order. */
@WorkflowInterface
public interface GroupWorkflow {

    /** Runs until drained, continuing as new before its history grows large. */
    @WorkflowMethod
    void run(GroupRun run);

    /** More ranges were planned: an idle group looks for work at once instead of at its idle timer. */
    @SignalMethod
    void planned();

    /** Finishes the current range, snapshots, releases, and waits for {@link #resume()}. */
    @SignalMethod
    void pause();

    /** Ends a pause or a parking. */
    @SignalMethod
    void resume();

    /** Finishes the current range, snapshots, releases, and completes the workflow. */
    @SignalMethod
    void drain();

    /**
     * The watchman's verdict: the group has (or no longer has) an open stuck record at database
     * time {@code asOf}; shown as HeadwayStuck. Overlapping watchman runs signal in any order (a
     * run whose task a frozen worker swallowed signals seconds late), so a verdict older than the
     * one shown is ignored; one without {@code asOf} (sent before it existed) is applied.
     */
    @SignalMethod
    void stuck(boolean stuck, Instant asOf);

    /**
     * A claim conflict on this group (a refused stale write, a takeover), told by the worker that
     * saw it so that the side holding the group hears of it too; counted in {@link #progress()}
     * and the memo ({@code conflicts}, {@code lastConflict}).
     */
    @SignalMethod
    void conflict(ClaimConflict conflict);

    @QueryMethod
    GroupProgress progress();
}
