package headway.activity;

import headway.coordination.GroupStore;
import headway.nntp.GroupInfo;
import java.io.IOException;
import java.util.Objects;

/**
 * Plans a group's ranges from the server's high-water mark: tail ranges (priority -1) from the
 * highest planned article up to the high-water mark, and history ranges below the lowest planned
 * article down to the backfill target or the server's retention edge (its low mark), the newest
 * window first (priority 1, 2, ...). Planning is idempotent on (group, start), so running the
 * planner twice, or after a crash, plans nothing twice.
 *
 * <p>The server's marks are input from outside: a high-water mark past {@link GroupStore#MAX_ARTICLE},
 * or one that jumped more than {@code maxJump} articles past the highest planned article, is refused
 * with {@link PlanRefusedException} and plans nothing, because one bad answer would otherwise plan
 * ranges no later answer can take back. History is planned at most
 * {@link GroupStore#MAX_RANGES_PER_PLAN} ranges per pass (the next pass goes on below them).
 */
public final class Planner {

    /**
     * How the planner cuts ranges: articles per range, how far back from the high-water mark history
     * goes, and how far past the highest planned article a new high-water mark may jump.
     */
    public record Settings(long rangeSize, long backfillArticles, long maxJump) {
        public Settings {
            if (rangeSize < 1) {
                throw new IllegalArgumentException("HEADWAY_RANGE_SIZE must be >= 1 article, was " + rangeSize);
            }
            if (backfillArticles < 0) {
                throw new IllegalArgumentException("HEADWAY_BACKFILL must be >= 0 articles, was " + backfillArticles);
            }
            if (maxJump < 1) {
                throw new IllegalArgumentException("HEADWAY_PLAN_MAX_JUMP must be >= 1 article, was " + maxJump);
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

    /**
     * Plans against given marks (the server's low and high article numbers); an empty group
     * (high below 1 or below low) plans nothing, and unbelievable marks are refused.
     */
    public Planned plan(String group, long low, long high) {
        if (high < 1 || high < low) {
            return new Planned(group, low, high, 0, 0);
        }
        if (high > GroupStore.MAX_ARTICLE) {
            throw new PlanRefusedException(
                    group,
                    "the news server reports high-water mark " + high + " for " + group + ", past article "
                            + GroupStore.MAX_ARTICLE
                            + ", which no server reaches: it misreports its marks, so nothing was planned; check the server"
                            + " (HEADWAY_NNTP_HOST) or plan by hand with --from/--to");
        }
        long size = settings.rangeSize();
        long lowest = groups.lowestPlanned(group);
        long highest = groups.highestPlanned(group);
        if (highest >= 0 && high > highest && high - highest > settings.maxJump()) {
            throw new PlanRefusedException(
                    group,
                    "the news server reports high-water mark " + high + " for " + group + ", " + (high - highest)
                            + " articles past the highest planned article " + highest
                            + ", more than HEADWAY_PLAN_MAX_JUMP=" + settings.maxJump()
                            + "; nothing was planned: if the server is right, raise HEADWAY_PLAN_MAX_JUMP"
                            + " or plan the span by hand with --from " + (highest + 1) + " --to " + high);
        }
        int tail = 0;
        if (highest < 0) {
            long start = Math.max(Math.max(1, low), high - size + 1);
            tail += groups.plan(group, start, high, size, -1);
            lowest = start;
        } else if (highest < high) {
            tail += groups.plan(group, highest + 1, high, size, -1);
        }
        int history = 0;
        long top = lowest - 1;
        long target = Math.max(Math.max(1, low), high - settings.backfillArticles() + 1);
        if (top >= target) {
            long span = GroupStore.MAX_RANGES_PER_PLAN > Long.MAX_VALUE / size
                    ? Long.MAX_VALUE
                    : GroupStore.MAX_RANGES_PER_PLAN * size;
            long floor = top - span + 1;
            history = groups.planDownward(group, Math.max(target, floor), top, size, 1);
        }
        return new Planned(group, low, high, tail, history);
    }
}
