package headway.activity;

import headway.watchman.Watchman;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/** Runs {@link Watchman#scan} with the worker's bounds and folds the result into a summary. */
public final class WatchmanActivitiesImpl implements WatchmanActivities {

    private final Watchman watchman;
    private final Watchman.Bounds bounds;

    public WatchmanActivitiesImpl(Watchman watchman, Watchman.Bounds bounds) {
        this.watchman = Objects.requireNonNull(watchman, "watchman");
        this.bounds = Objects.requireNonNull(bounds, "bounds");
    }

    @Override
    public WatchmanSummary scan() {
        return summarize(watchman.scan(bounds));
    }

    /**
     * The summary of a scan. Both lists of groups to signal hold as of the scan's time: a group is
     * newly stuck only when a record it opened is still open at the end (another scan may have
     * closed it meanwhile), and un-stuck only when none of its records is left open.
     */
    static WatchmanSummary summarize(Watchman.ScanResult r) {
        Set<String> stuck = groups(r.open());
        Set<String> newlyStuck = groups(r.opened());
        newlyStuck.retainAll(stuck);
        Set<String> unstuck = groups(r.closed());
        unstuck.removeAll(stuck);
        return new WatchmanSummary(
                r.at(),
                r.opened().size(),
                r.closed().size(),
                r.open().size(),
                List.copyOf(stuck),
                List.copyOf(newlyStuck),
                List.copyOf(unstuck),
                r.pulses().size(),
                r.presenceChanges().size(),
                r.writeFailures(),
                r.conflicts());
    }

    private static Set<String> groups(Collection<Watchman.StuckMove> moves) {
        Set<String> groups = new TreeSet<>();
        for (Watchman.StuckMove m : moves) {
            if (m.group() != null) {
                groups.add(m.group());
            }
        }
        return groups;
    }
}
