package headway.catalog;

import headway.category.EpisodeKind;
import headway.category.ReleaseAttributes;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.Locale;

/**
 * The V25 columns of a release's episode, from what its name says: {@code episode_kind} (the
 * {@link EpisodeKind} in lower case, null for none) and {@code air_date} (a daily show's date,
 * {@code yyyy-mm-dd}, from its season, the air year, and its episode {@code MM-DD}).
 * {@code last_episode} is {@link ReleaseAttributes#lastEpisode()} as it is.
 */
final class EpisodeColumns {

    private EpisodeColumns() {}

    /** The kind as the column holds it, or null for a name with no episode marker. */
    static String kind(ReleaseAttributes a) {
        return a.kind() == null || a.kind() == EpisodeKind.NONE
                ? null
                : a.kind().name().toLowerCase(Locale.ROOT);
    }

    /**
     * The air date of a daily show as {@code yyyy-mm-dd}, or null when the release is not one or
     * its date does not exist ({@code 02-30}) or has no four-digit year, because the parser reads
     * month and day apart.
     */
    static String airDate(ReleaseAttributes a) {
        if (!a.daily() || a.season() == null || a.season() < 1 || a.season() > 9999) {
            return null;
        }
        String e = a.episode();
        int dash = e.indexOf('-');
        try {
            return LocalDate.of(
                            a.season(), Integer.parseInt(e.substring(0, dash)), Integer.parseInt(e.substring(dash + 1)))
                    .toString();
        } catch (DateTimeException | NumberFormatException bad) {
            return null;
        }
    }
}
