package headway.activity;

import headway.nntp.GroupInfo;
import headway.store.GroupStore;
import java.io.IOException;
import java.util.Objects;

/**
 * Plans a group's ranges from the server's high-water mark: tail ranges (priority -1) from the
 * highest planned article up to the high-water mark, and history ranges below the lowest planned
 * article down to the backfill target or the server's retention edge (its low mark), the newest
 * window first (priority 1, 2, ...). Planning is idempotent on (group, start), so running the
 * planner twice, or after a crash, plans nothing twice.
 */
public final class Planner {

    /** How the planner cuts ranges: articles per range, and how far back from the high-water mark history goes. */
    public record Settings(long rangeSize, long backfillArticles) {
        public Settings {
            if (rangeSize < 1) {
                throw new IllegalArgumentException("HEADWAY_RANGE_SIZE must be >= 1 article, was " + rangeSize);
            }
            if (backfillArticles < 0) {
                throw new IllegalArgumentException("HEADWAY_BACKFILL must be >= 0 articles, was " + backfillArticles);
            }
        }
    }

    /** What one planning pass did for a group. */
    public record Planned(String group, long low, long high, int tailRanges, int historyRanges) {
        public int total() {
            return tailRanges + historyRanges;
        }
    }

    private final GroupStore groups;
    private final HeaderSource source;
    private final Settings settings;

    public Planner(GroupStore groups, HeaderSource source, Settings settings) {
        this.groups = Objects.requireNonNull(groups, "groups");
        this.source = Objects.requireNonNull(source, "source");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** Reads the group's marks from the server and plans what is new; the group must exist. */
    public Planned plan(String group) throws IOException {
        GroupInfo info = source.group(group);
        return plan(group, info.low(), info.high());
    }

    /** Plans against given marks (the server's low and high article numbers). */
    public Planned plan(String group, long low, long high) {
        if (high < 1 || high < low) {
            return new Planned(group, low, high, 0, 0);
        }
        long size = settings.rangeSize();
        long lowest = groups.lowestPlanned(group);
        long highest = groups.highestPlanned(group);
        int tail = 0;
        if (highest < 0) {
            long start = Math.max(Math.max(1, low), high - size + 1);
            tail += groups.plan(group, start, high, size, -1);
            lowest = start;
        } else if (highest < high) {
            tail += groups.plan(group, highest + 1, high, size, -1);
        }
        long target = Math.max(Math.max(1, low), high - settings.backfillArticles() + 1);
        int history = 0;
        int priority = 1;
        for (long end = lowest - 1; end >= target; end -= size) {
            long start = Math.max(target, end - size + 1);
            history += groups.plan(group, start, end, size, priority++);
        }
        return new Planned(group, low, high, tail, history);
    }
}
