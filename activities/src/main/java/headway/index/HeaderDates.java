package headway.index;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Parses the Date field of an overview line, which is RFC 5322 with the usual deviations. Written
 * as scans, without regexes: the field comes from hostile posters, and the regex this replaced
 * ({@code \s*\([^)]*\)\s*$}) took seconds on a 60,000-character field of parentheses.
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
