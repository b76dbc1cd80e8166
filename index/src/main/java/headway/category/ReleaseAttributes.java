package headway.category;

/**
 * What a release name says about its content, each part null where the name does not say it.
 *
 * <ul>
 *   <li>{@code title}: the show or movie title as Sonarr and Radarr parse it: separators as
 *       spaces, acronyms kept dotted ({@code U.N.C.L.E.}); a TV title keeps a year that stands
 *       before the episode marker ({@code Series Title 2010}), a movie title ends before its year;
 *   <li>{@code season}: the season number; for a daily show the air year;
 *   <li>{@code episode}: the episode number as digits ({@code "13"}; the first of a multi-episode
 *       release; an anime absolute number when there is no season), or {@code MM-DD} for a daily show;
 *   <li>{@code year}: the release year, or the air year of a daily show;
 *   <li>{@code resolution}: {@code 360p}, {@code 480p}, {@code 540p}, {@code 576p}, {@code 720p},
 *       {@code 1080p} or {@code 2160p} (from {@code 1080i}, {@code 4K}, {@code UHD} and
 *       {@code 1920x1080} too), only where the name states one.
 * </ul>
 *
 * <p>{@code tv} says the name has an episode, season or air-date marker; {@code anime} that it
 * has a fansub group tag or CRC and an absolute episode number; {@code hashed} that it looks
 * obfuscated (a hash, a UUID, random letters and digits). Category rules test these. {@code kind}
 * says what kind of episode a TV name holds ({@link EpisodeKind}), {@code lastEpisode} the last of a
 * multi-episode release ({@code S02E06E07}: 7) or, for a pack of several seasons, its last season
 * ({@code S01-S03}: 3), else null.
 */
public record ReleaseAttributes(
        String title,
        Integer season,
        String episode,
        Integer year,
        String resolution,
        boolean tv,
        boolean anime,
        boolean hashed,
        EpisodeKind kind,
        Integer lastEpisode) {

    /** As above, for a name with no episode marker. */
    public ReleaseAttributes(
            String title,
            Integer season,
            String episode,
            Integer year,
            String resolution,
            boolean tv,
            boolean anime,
            boolean hashed) {
        this(title, season, episode, year, resolution, tv, anime, hashed, EpisodeKind.NONE, null);
    }

    /** The episode as a number, or null for none or for a daily show's {@code MM-DD}. */
    public Integer episodeNumber() {
        if (episode == null || episode.indexOf('-') >= 0) {
            return null;
        }
        return Integer.valueOf(episode);
    }

    /** True for a daily show, whose episode is its air date {@code MM-DD}. */
    public boolean daily() {
        return episode != null && episode.indexOf('-') >= 0;
    }
}
