package headway.store;

/** A range as stored: {@code [start, end]} with cursor {@code next}; negative priority means tail. */
public record RangeRow(
        long id,
        String group,
        long start,
        long end,
        long next,
        String status,
        int priority,
        String node,
        int attempts,
        Integer ruleVersion) {

    public boolean tail() {
        return priority < 0;
    }

    public long remaining() {
        return Math.max(0, end - next + 1);
    }
}
