package headway.index;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Parses the Date field of an overview line, which is RFC 5322 with the usual deviations. Written
 * as scans, without regexes: the field comes from hostile posters, and the regex this replaced
 * ({@code \s*\([^)]*\)\s*$}) took seconds on a 60,000-character field of parentheses. Every
 * header cataloged has its date checked, so the shape nearly all posting tools write ({@code Wed,
 * 02 Dec 2026 17:17:02 +0000}, the day name optional, a zone of GMT, UT, UTC or an offset, a
 * trailing comment) is read by a scan of its own that gives what {@code
 * DateTimeFormatter.RFC_1123_DATE_TIME} gives or leaves the text to it: the formatter cost 42 % of
 * the indexing thread's CPU (JFR samples of {@code bench throughput}), the scan a few percent.
 */
final class HeaderDates {

    /** A date with its comment is about 40 characters; anything much longer is not a date. */
    static final int MAX_LENGTH = 200;

    private HeaderDates() {}

    /** The instant, or null when the text is not a date (the window then puts the header in the ledger, see {@link Poison}). */
    static Instant parse(String text) {
        if (text == null || text.isBlank() || text.length() > MAX_LENGTH) {
            return null;
        }
        Instant usual = text.length() == FIXED_LENGTH ? fixedShape(text) : null;
        if (usual == null) {
            usual = usualShape(text);
        }
        return usual != null ? usual : byFormatter(text);
    }

    /** The length of {@code Wed, 02 Dec 2026 17:17:02 +0000}. */
    private static final int FIXED_LENGTH = 31;

    /**
     * The instant of a date in exactly the shape nearly every posting tool writes, {@code Wed, 02
     * Dec 2026 17:17:02 +0000}, read at fixed positions; null for anything else, which {@link
     * #usualShape} then reads (it gives the same instant for this shape; this is its fast path,
     * because the date is parsed for every header cataloged and the general scan was a sixth of
     * the window's CPU).
     */
    private static Instant fixedShape(String t) {
        if (t.charAt(3) != ','
                || t.charAt(4) != ' '
                || t.charAt(7) != ' '
                || t.charAt(11) != ' '
                || t.charAt(16) != ' '
                || t.charAt(19) != ':'
                || t.charAt(22) != ':'
                || t.charAt(25) != ' '
                || (t.charAt(26) != '+' && t.charAt(26) != '-')) {
            return null;
        }
        int dayName = name(t, 0, DAYS);
        int month = name(t, 8, MONTHS);
        int day = digit(t, 5) * 10 + digit(t, 6);
        int year = digit(t, 12) * 1000 + digit(t, 13) * 100 + digit(t, 14) * 10 + digit(t, 15);
        int hour = digit(t, 17) * 10 + digit(t, 18);
        int minute = digit(t, 20) * 10 + digit(t, 21);
        int second = digit(t, 23) * 10 + digit(t, 24);
        int hh = digit(t, 27) * 10 + digit(t, 28);
        int mm = digit(t, 29) * 10 + digit(t, 30);
        if (dayName < 0
                || month < 0
                || (day | year | hour | minute | second | hh | mm) < 0 // a digit was not one
                || hour > 23
                || minute > 59
                || second > 59
                || mm > 59
                || hh * 60 + mm > 18 * 60
                || day < 1
                || day > monthLength(year, month)) {
            return null;
        }
        long epochDay = epochDay(year, month + 1, day);
        if (Math.floorMod(epochDay + 3, 7) != dayName) { // 1970-01-01 was a Thursday
            return null;
        }
        int offsetSeconds = (t.charAt(26) == '-' ? -1 : 1) * (hh * 3600 + mm * 60);
        return Instant.ofEpochSecond(epochDay * 86_400L + hour * 3600L + minute * 60L + second - offsetSeconds);
    }

    /** The ASCII digit at {@code i} as a number, or a large negative number when it is not one. */
    private static int digit(String t, int i) {
        int d = t.charAt(i) - '0';
        return d >= 0 && d <= 9 ? d : -100_000;
    }

    /** What {@link #parse} gives for any text that is not null, blank or too long, read by the formatter alone. */
    static Instant byFormatter(String text) {
        String t = collapseSpaces(withoutComment(text.strip()));
        if (t.endsWith(" UTC") || t.endsWith(" UT")) {
            t = t.substring(0, t.lastIndexOf(' ')) + " GMT";
        }
        try {
            return ZonedDateTime.parse(t, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** Day and month names as three ASCII letters packed into an int, in the order of {@link DayOfWeek} and of the months. */
    private static final int[] DAYS = packed("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun");

    private static final int[] MONTHS =
            packed("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec");

    private static int[] packed(String... names) {
        int[] out = new int[names.length];
        for (int k = 0; k < names.length; k++) {
            out[k] = (names[k].charAt(0) << 16) | (names[k].charAt(1) << 8) | names[k].charAt(2);
        }
        return out;
    }

    /**
     * The instant of a date in the usual shape, or null for anything else, which the formatter
     * then reads: {@code [Ddd,] d[d] Mon yyyy hh:mm[:ss] zone [(comment)]}, names spelled as
     * listed, two-digit time fields in range, a day that exists and matches the day name, a zone
     * of {@code GMT}, {@code UT}, {@code UTC} or {@code +hhmm}/{@code -hhmm} within 18 hours, and
     * whitespace as the formatter's path collapses it. Null is always safe; an instant must be the
     * formatter's (pinned by HeaderDatesTest over generated dates).
     */
    private static Instant usualShape(String text) {
        int n = text.length();
        int i = skipSpace(text, 0);
        int dayName = -1;
        if (i < n && text.charAt(i) > '9') {
            dayName = name(text, i, DAYS);
            if (dayName < 0 || i + 3 >= n || text.charAt(i + 3) != ',') {
                return null;
            }
            i = skipSpace(text, i + 4);
            if (i == text.length() || !Character.isWhitespace(text.charAt(i - 1))) {
                return null;
            }
        }
        int dayEnd = digitsEnd(text, i, 2);
        if (dayEnd == i || dayEnd == n || !Character.isWhitespace(text.charAt(dayEnd))) {
            return null;
        }
        int day = number(text, i, dayEnd);
        i = skipSpace(text, dayEnd);
        int month = name(text, i, MONTHS);
        if (month < 0 || i + 3 >= n || !Character.isWhitespace(text.charAt(i + 3))) {
            return null;
        }
        i = skipSpace(text, i + 3);
        if (digitsEnd(text, i, 4) != i + 4 || i + 4 >= n || !Character.isWhitespace(text.charAt(i + 4))) {
            return null;
        }
        int year = number(text, i, i + 4);
        i = skipSpace(text, i + 4);
        int hour = twoDigits(text, i);
        if (hour < 0 || hour > 23 || i + 2 >= n || text.charAt(i + 2) != ':') {
            return null;
        }
        int minute = twoDigits(text, i + 3);
        if (minute < 0 || minute > 59) {
            return null;
        }
        i += 5;
        int second = 0;
        if (i < n && text.charAt(i) == ':') {
            second = twoDigits(text, i + 1);
            if (second < 0 || second > 59) {
                return null;
            }
            i += 3;
        }
        if (i == n || !Character.isWhitespace(text.charAt(i))) {
            return null;
        }
        i = skipSpace(text, i);
        int offsetSeconds;
        int zoneEnd;
        if (i < n && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
            int hh = twoDigits(text, i + 1);
            int mm = twoDigits(text, i + 3);
            if (hh < 0 || mm < 0 || mm > 59 || hh * 60 + mm > 18 * 60) {
                return null;
            }
            offsetSeconds = (text.charAt(i) == '-' ? -1 : 1) * (hh * 3600 + mm * 60);
            zoneEnd = i + 5;
        } else if (text.startsWith("GMT", i) || text.startsWith("UTC", i)) {
            offsetSeconds = 0;
            zoneEnd = i + 3;
        } else if (text.startsWith("UT", i)) {
            offsetSeconds = 0;
            zoneEnd = i + 2;
        } else {
            return null;
        }
        if (zoneEnd < n && !Character.isWhitespace(text.charAt(zoneEnd))) {
            return null;
        }
        i = skipSpace(text, zoneEnd);
        if (i < n) {
            int last = lastNonSpace(text);
            if (text.charAt(i) != '('
                    || text.charAt(last) != ')'
                    || text.indexOf('(', i + 1) >= 0
                    || text.indexOf(')', i) != last) {
                return null;
            }
        }
        if (day < 1 || day > monthLength(year, month)) {
            return null;
        }
        long epochDay = epochDay(year, month + 1, day);
        if (dayName >= 0 && Math.floorMod(epochDay + 3, 7) != dayName) { // 1970-01-01 was a Thursday
            return null;
        }
        return Instant.ofEpochSecond(epochDay * 86_400L + hour * 3600L + minute * 60L + second - offsetSeconds);
    }

    private static int monthLength(int year, int month) {
        return switch (month) {
            case 1 -> (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28;
            case 3, 5, 8, 10 -> 30;
            default -> 31;
        };
    }

    /** Days from 1970-01-01 to a date of the proleptic Gregorian calendar ({@code LocalDate.toEpochDay}'s arithmetic). */
    static long epochDay(int year, int month, int day) {
        long y = year;
        long total = 365 * y;
        if (y >= 0) {
            total += (y + 3) / 4 - (y + 99) / 100 + (y + 399) / 400;
        } else {
            total -= y / -4 - y / -100 + y / -400;
        }
        total += (367L * month - 362) / 12;
        total += day - 1;
        if (month > 2) {
            total--;
            if (monthLength(year, 1) == 28) {
                total--;
            }
        }
        return total - 719_528; // days from 0000-01-01 to 1970-01-01
    }

    private static int skipSpace(String t, int i) {
        while (i < t.length() && Character.isWhitespace(t.charAt(i))) {
            i++;
        }
        return i;
    }

    private static int lastNonSpace(String t) {
        int i = t.length() - 1;
        while (i > 0 && Character.isWhitespace(t.charAt(i))) {
            i--;
        }
        return i;
    }

    /** The index of {@code t} at {@code i} in {@code names} (three letters, spelled as listed), or -1. */
    private static int name(String t, int i, int[] names) {
        if (i + 3 > t.length()) {
            return -1;
        }
        int code = (t.charAt(i) << 16) | (t.charAt(i + 1) << 8) | t.charAt(i + 2);
        if (t.charAt(i) > 0x7f || t.charAt(i + 1) > 0x7f || t.charAt(i + 2) > 0x7f) {
            return -1;
        }
        for (int k = 0; k < names.length; k++) {
            if (names[k] == code) {
                return k;
            }
        }
        return -1;
    }

    /** Where a run of at most {@code max} ASCII digits from {@code i} ends. */
    private static int digitsEnd(String t, int i, int max) {
        int j = i;
        while (j < t.length() && j - i < max && t.charAt(j) >= '0' && t.charAt(j) <= '9') {
            j++;
        }
        return j;
    }

    private static int number(String t, int from, int to) {
        int v = 0;
        for (int j = from; j < to; j++) {
            v = v * 10 + (t.charAt(j) - '0');
        }
        return v;
    }

    /** Two ASCII digits at {@code i} as a number, or -1. */
    private static int twoDigits(String t, int i) {
        return digitsEnd(t, i, 2) == i + 2 ? number(t, i, i + 2) : -1;
    }

    /** {@code t} less a trailing {@code (comment)} such as {@code (UTC)}. */
    private static String withoutComment(String t) {
        if (!t.endsWith(")")) {
            return t;
        }
        int open = t.lastIndexOf('(');
        if (open < 0 || t.indexOf(')', open) != t.length() - 1) {
            return t;
        }
        return t.substring(0, open).strip();
    }

    private static String collapseSpaces(String t) {
        StringBuilder sb = new StringBuilder(t.length());
        boolean space = false;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (Character.isWhitespace(c)) {
                space = true;
            } else {
                if (space && sb.length() > 0) {
                    sb.append(' ');
                }
                space = false;
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
