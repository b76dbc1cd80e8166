package headway.activity;

/** A leased range {@code [start, end]} with its cursor {@code next}, the next article to index. */
public record RangeLease(long id, String group, long start, long end, long next, int priority, Integer ruleVersion) {

    public long remaining() {
        return Math.max(0, end - next + 1);
    }
}
