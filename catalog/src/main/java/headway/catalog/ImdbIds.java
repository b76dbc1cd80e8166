package headway.catalog;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * IMDb title ids as the catalog stores them: {@code tt} and 7 to 10 ASCII digits
 * ({@code tt0058935}; ids past 9,999,999 have 8). Clients send them in several forms: Radarr and
 * Prowlarr without {@code tt} ({@code 0058935}), others with it, some without the leading zeros;
 * each reads as the same id.
 */
public final class ImdbIds {

    /** The stored form. */
    public static final Pattern FORM = Pattern.compile("tt[0-9]{7,10}");

    private static final Pattern SENT = Pattern.compile("(?:tt)?([0-9]{1,10})");

    private ImdbIds() {}

    /** The stored form of what a client sent, or empty when it is no IMDb id (and id 0 is none). */
    public static Optional<String> normalize(String sent) {
        if (sent == null) {
            return Optional.empty();
        }
        var m = SENT.matcher(sent.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return Optional.empty();
        }
        String digits = m.group(1).replaceFirst("^0+", "");
        if (digits.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("tt" + "0".repeat(Math.max(0, 7 - digits.length())) + digits);
    }

    /** The digits of a stored id, as the newznab {@code imdb} attribute carries it ({@code 0058935}). */
    public static String digits(String stored) {
        return stored.substring(2);
    }
}
