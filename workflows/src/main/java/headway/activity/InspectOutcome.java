package headway.activity;

/**
 * What one inspection found and recorded: the real name (null when the evidence named none) and
 * which evidence named it, the newznab password (0, 1, 2), the IMDb id (or null), the articles
 * fetched, whether the release was renamed, and a readable reason.
 */
public record InspectOutcome(
        String release,
        String realName,
        String namedBy,
        int password,
        String imdb,
        int articles,
        boolean renamed,
        String reason) {}
