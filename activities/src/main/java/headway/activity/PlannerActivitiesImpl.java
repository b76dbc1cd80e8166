package headway.activity;

import headway.coordination.GroupStore;
import headway.nntp.UnknownGroupException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans every active group from the news server's marks. A group the server does not carry, or
 * whose marks the planner refuses (past the largest article number, or a jump past
 * HEADWAY_PLAN_MAX_JUMP), is logged and skipped, so one bad group or answer never stops the others
 * from being planned; a server that cannot be reached fails the activity, which the planner
 * workflow retries.
 */
public final class PlannerActivitiesImpl implements PlannerActivities {

    private static final Logger log = LoggerFactory.getLogger(PlannerActivitiesImpl.class);

    private final GroupStore groups;
    private final Planner planner;

    public PlannerActivitiesImpl(GroupStore groups, Planner planner) {
        this.groups = Objects.requireNonNull(groups, "groups");
        this.planner = Objects.requireNonNull(planner, "planner");
    }

    @Override
    public List<String> planAll() {
        List<String> gotWork = new ArrayList<>();
        for (GroupStore.Group g : groups.list()) {
            if (!g.active()) {
                continue;
            }
            try {
                Planner.Planned p = planner.plan(g.name());
                if (p.total() > 0) {
                    log.info(
                            "planner: {} server {}..{}: {} tail + {} history range(s)",
                            g.name(),
                            p.low(),
                            p.high(),
                            p.tailRanges(),
                            p.historyRanges());
                    gotWork.add(g.name());
                }
            } catch (UnknownGroupException e) {
                log.warn(
                        "planner: the news server does not carry {}; remove it with `headway groups remove {}`",
                        g.name(),
                        g.name());
            } catch (PlanRefusedException e) {
                log.warn("planner: {}", e.getMessage());
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "planner: reading " + g.name() + " from the news server: " + e.getMessage(), e);
            }
        }
        return gotWork;
    }
}
