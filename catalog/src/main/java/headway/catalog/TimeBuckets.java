package headway.catalog;

import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/**
 * The time words of the search index (V38): each release is indexed with a word for the UTC day
 * and one for the UTC month it was posted ({@code #d20261207}, {@code #m202612}), or {@code
 * #tnone} without a posting time, exactly as SQL's {@code release_time_words} makes them. A walk
 * hands out the buckets of a search newest first, a day or a month at a time, from the newest
 * posting time down to the oldest (or a search's age limit), and last the releases with none.
 */
final class TimeBuckets {

    /** How much time one bucket covers. */
    enum Granularity {
        DAY(86_400),
        MONTH(30.44 * 86_400);

        /** Its length in seconds (a month's on average), for the plan's estimates. */
        final double seconds;

        Granularity(double seconds) {
            this.seconds = seconds;
        }
    }

    /** The word of releases without a posting time. */
    static final String NONE = "#tnone";

    /** One bucket: its word, and the posting times it holds, from {@code start} to before {@code end} (both null for {@link #NONE}). */
    record Bucket(String word, Instant start, Instant end) {}

    private TimeBuckets() {}

    /** PostgreSQL's year of a proleptic ISO year: there is no year 0, 1 BC is -1. */
    private static long sqlYear(int isoYear) {
        return isoYear <= 0 ? isoYear - 1L : isoYear;
    }

    static String dayWord(LocalDate day) {
        return "#d" + (sqlYear(day.getYear()) * 10_000 + day.getMonthValue() * 100L + day.getDayOfMonth());
    }

    static String monthWord(YearMonth month) {
        return "#m" + (sqlYear(month.getYear()) * 100 + month.getMonthValue());
    }

    static Bucket day(LocalDate day) {
        return new Bucket(
                dayWord(day),
                day.atStartOfDay(ZoneOffset.UTC).toInstant(),
                day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
    }

    static Bucket month(YearMonth month) {
        return new Bucket(
                monthWord(month),
                month.atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant(),
                month.plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant());
    }

    /**
     * The buckets of one search, newest first: from the bucket of {@code newest} down to the
     * bucket of {@code oldest} (the catalog's posting times; both null when no release has one),
     * none of them wholly before {@code cutoff} (null: no age limit), then {@link #NONE} unless
     * there is a cutoff (a release without a posting time has no age to meet it).
     */
    static final class Walk {
        private final Instant oldest;
        private final Instant cutoff;
        /** The posting times still to walk are before this; null: none left but {@link #NONE}. */
        private Instant before;

        private boolean noneLeft;

        /** A walk whose first bucket is of {@code first} granularity. */
        Walk(Instant newest, Instant oldest, Instant cutoff, Granularity first) {
            this.oldest = oldest;
            this.cutoff = cutoff;
            if (newest == null) {
                this.before = null;
            } else {
                LocalDate day = LocalDate.ofInstant(newest, ZoneOffset.UTC);
                this.before =
                        first == Granularity.MONTH ? month(YearMonth.from(day)).end() : day(day).end();
            }
            this.noneLeft = cutoff == null;
        }

        /** The posting times still to walk are before this; null when only {@link #NONE} may be left. */
        Instant before() {
            return before;
        }

        /**
         * Skips the time before {@link #before()} that holds no release: {@code next} is the newest
         * posting time before it (null: there is none), so the walk goes on at the bucket of {@code
         * granularity} that holds it. A hostile posting time centuries away then costs one step, not
         * a bucket for every day between.
         */
        void skipTo(Instant next, Granularity granularity) {
            if (before == null) {
                return;
            }
            if (next == null || next.isBefore(oldest) || (cutoff != null && next.isBefore(cutoff))) {
                before = null;
                return;
            }
            LocalDate day = LocalDate.ofInstant(next, ZoneOffset.UTC);
            Instant end = granularity == Granularity.MONTH && atMonthStart()
                    ? month(YearMonth.from(day)).end()
                    : day(day).end();
            if (end.isBefore(before)) {
                before = end;
            }
        }

        /** Whether the next bucket may be a whole month: the walk stands at the start of one. */
        boolean atMonthStart() {
            return before == null
                    || ZonedDateTime.ofInstant(before, ZoneOffset.UTC).getDayOfMonth() == 1;
        }

        /** Whether every bucket has been handed out. */
        boolean done() {
            return before == null && !noneLeft;
        }

        /** Seconds of posting time the walk has still to cover (0 when only {@link #NONE} is left). */
        double secondsLeft() {
            if (before == null) {
                return 0;
            }
            Instant from = cutoff != null && cutoff.isAfter(oldest) ? cutoff : oldest;
            return Math.max(0, before.getEpochSecond() - from.getEpochSecond());
        }

        /** The next bucket of {@code granularity} (a month only {@link #atMonthStart()}), or null when done. */
        Bucket next(Granularity granularity) {
            if (before != null) {
                LocalDate last = LocalDate.ofInstant(before.minusNanos(1), ZoneOffset.UTC);
                Bucket b;
                if (granularity == Granularity.MONTH) {
                    if (!atMonthStart()) {
                        throw new IllegalStateException("a month bucket must start at a month's start, not " + before);
                    }
                    b = month(YearMonth.from(last));
                } else {
                    b = day(last);
                }
                before = b.start();
                if (!before.isAfter(oldest) || (cutoff != null && !before.isAfter(cutoff))) {
                    before = null;
                }
                return b;
            }
            if (noneLeft) {
                noneLeft = false;
                return new Bucket(NONE, null, null);
            }
            return null;
        }
    }
}
