package headway.index;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/** Parses the Date field of an overview line, which is RFC 5322 with the usual deviations. */
final class HeaderDates {

    private static final Pattern COMMENT = Pattern.compile("\\s*\\([^)]*\\)\\s*$");
    private static final Pattern SPACES = Pattern.compile("\\s+");

    private HeaderDates() {}

    /** The instant, or null when the text is not a date, because a bad date must not lose the segment. */
    static Instant parse(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String t =
                SPACES.matcher(COMMENT.matcher(text.strip()).replaceFirst("")).replaceAll(" ");
        if (t.endsWith(" UTC") || t.endsWith(" UT")) {
            t = t.substring(0, t.lastIndexOf(' ')) + " GMT";
        }
        try {
            return ZonedDateTime.parse(t, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
