package headway.coordination;

import java.util.Locale;

/**
 * Which of a group's ranges a worker works on (HEADWAY_WORKER_ROLE): the tail (negative priority,
 * the newest articles), the history (the backfill, priority 0 and up), or all. A group is held by
 * one worker at a time whatever its band, because its window is one worker's memory; a role only
 * chooses which ranges that holder takes and which groups' lease tasks it serves.
 */
public enum Band {
    ALL,
    TAIL,
    HISTORY;

    /** The band's name as the setting and the SQL statements spell it: {@code all}, {@code tail}, {@code history}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The band named {@code value} (any case, surrounding blanks ignored); IllegalArgumentException naming {@code setting} otherwise. */
    public static Band parse(String setting, String value) {
        String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
        for (Band b : values()) {
            if (b.key().equals(v)) {
                return b;
            }
        }
        throw new IllegalArgumentException(setting + "=" + value + " is not one of tail, history, all");
    }
}
