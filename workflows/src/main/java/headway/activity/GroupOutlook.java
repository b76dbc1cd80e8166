package headway.activity;

/**
 * What a group has to do: planned ranges, articles left (the lag), and the most urgent range's
 * priority (negative: tail; null when nothing is planned). {@code temporalPriority} is the
 * Temporal priority key the lease activity is scheduled with (1 most urgent).
 */
public record GroupOutlook(
        String group, boolean active, int plannedRanges, long lag, Integer urgency, int temporalPriority) {

    public boolean hasWork() {
        return active && plannedRanges > 0;
    }
}
