package headway.coordination;

/**
 * A group's work: ranges planned or still leased (a dead holder's range stays leased until the
 * group is taken again), articles left in unfinished ranges, the most urgent priority among them
 * (null: none).
 */
public record Outlook(String group, boolean active, int plannedRanges, long lag, Integer urgency) {}
