package headway.category;

import java.util.Set;

/** The words episode markers are read by, in the languages release names are posted in. */
final class EpisodeWords {

    /**
     * Words that number a season, and their plurals: a pack of several seasons ({@code Show.Seasons.01-04},
     * {@code Show.Saisons.1-3}) is numbered by the first.
     */
    static final Set<String> SEASON = Set.of(
            "season",
            "seasons",
            "saison",
            "saisons",
            "temporada",
            "temporadas",
            "tem",
            "staffel",
            "staffeln",
            "stagione",
            "seizoen",
            "sezon",
            "sezona",
            "kausi",
            "сезон");
    /**
     * Sources only television has: a bare one- or two-digit number right before one ({@code Show.07.PDTV},
     * {@code Show.13.HDTV}) numbers an episode, as no film is cut from a broadcast under a number alone.
     */
    static final Set<String> BROADCAST = Set.of("hdtv", "pdtv", "sdtv", "dsr", "dsrip", "hdtvrip", "tvrip");

    /** Words before an episode's number, in the languages names are posted in. */
    static final Set<String> EPISODE = Set.of(
            "episode",
            "episodio",
            "episódio",
            "épisode",
            "episodes",
            "ep",
            "folge",
            "aflevering",
            "odcinek",
            "odc",
            "jakso",
            "capitulo",
            "capítulo",
            "серия",
            "серии",
            "эпизод");

    private EpisodeWords() {}
}
