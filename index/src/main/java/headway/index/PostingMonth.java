package headway.index;

import java.time.Instant;
import java.time.LocalDate;

/**
 * The month (UTC) a part was posted in, as the catalog partitions binaries by it: a binary row
 * holds the parts of one month, so that every write of an article lands in the same row. As a
 * number it counts months from January of year 0 ({@code year * 12 + month - 1}); a part without
 * a date has {@link #UNDATED}. An instance remembers the day it was last asked about, because a
 * group's headers come in date order and most share their day with the one before.
 */
public final class PostingMonth {

    /** The month of a part without a date; the catalog keeps such parts under {@code -infinity}. */
    public static final int UNDATED = Integer.MIN_VALUE;

    private static final long SECONDS_PER_DAY = 86_400;

    private long lastDay = Long.MIN_VALUE;
    private int lastMonth;

    /** The month of {@code posted}, or {@link #UNDATED} when it is null. */
    public int of(Instant posted) {
        if (posted == null) {
            return UNDATED;
        }
        long day = Math.floorDiv(posted.getEpochSecond(), SECONDS_PER_DAY);
        if (day != lastDay) {
            LocalDate date = LocalDate.ofEpochDay(day);
            lastMonth = date.getYear() * 12 + date.getMonthValue() - 1;
            lastDay = day;
        }
        return lastMonth;
    }

    /** The first day of the month of {@code posted} (UTC), or null when it is null: the catalog's {@code posted_month}. */
    public static LocalDate firstDay(Instant posted) {
        if (posted == null) {
            return null;
        }
        return LocalDate.ofEpochDay(Math.floorDiv(posted.getEpochSecond(), SECONDS_PER_DAY))
                .withDayOfMonth(1);
    }
}
