package headway.store;

/** A group's planned work: ranges planned, articles left in unfinished ranges, most urgent planned priority (null: none). */
public record Outlook(String group, boolean active, int plannedRanges, long lag, Integer urgency) {
}
