package headway.category;

/**
 * What kind of episode a TV release holds, which decides the searches that find it: Sonarr asks
 * for a standard episode by season and episode, a daily show by air date ({@code season=<yyyy>&ep=<MM>/<dd>}),
 * an anime by its absolute number, and a season by its number alone, which a pack answers.
 */
public enum EpisodeKind {
    /** Not a TV release: no episode marker. */
    NONE,
    /** {@code S01E02}, {@code 1x02}. */
    STANDARD,
    /** Several episodes: {@code S01E01E02}, {@code S01E01-E03}, {@code 1x01-1x03}. */
    MULTI,
    /** A whole season, or several: {@code S01}, {@code Season 1}, {@code S01-S03}. */
    PACK,
    /** A daily show's episode, named by its air date. */
    DAILY,
    /** An episode numbered across seasons, as anime is: {@code Show - 12}, {@code E1135}. */
    ABSOLUTE,
    /** A part of a miniseries: {@code Part01}, {@code Part.Two}. */
    PART,
    /** Season 0: {@code S00E05}. */
    SPECIAL
}
