package headway.catalog;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

/**
 * A release row: the binaries of one post by one poster under one release name, aggregated.
 * {@code filesExpected} is -1 when no subject carried a file counter. {@code category} is a
 * newznab id of {@link headway.category.CategoryTree} and the rest what the name says (see
 * {@link headway.category.ReleaseAttributes}); each is null until the release is categorized, and
 * computed from {@code realName} once the release has one. {@code realName}, {@code namedBy} and
 * {@code imdb} ({@code tt} and 7 to 10 digits) are what inspection of its files found, null when
 * nothing was found; {@code password} is the newznab attribute (0 none, 1 passworded, 2 possibly:
 * an archive inside the archive). {@code episodeKind} ({@code standard}, {@code multi}, {@code pack},
 * {@code daily}, {@code absolute}, {@code part}, {@code special}), {@code lastEpisode} (of a
 * multi-episode release) and {@code airDate} (of a daily show) are V25's, null where the name does
 * not say them or the row was written before V25; {@code tvdb} and {@code tvmaze} the series ids
 * inspection found in its NFOs (V25), null when none. {@code name} stays the key (and the guid) either way.
 */
public record Release(
        String group,
        String poster,
        String name,
        int filesExpected,
        int filesPresent,
        int filesComplete,
        long bytes,
        Instant posted,
        BigDecimal completionPercent,
        boolean complete,
        int ruleVersion,
        Integer category,
        String title,
        Integer season,
        String episode,
        Integer year,
        String resolution,
        String realName,
        String namedBy,
        int password,
        String imdb,
        String episodeKind,
        Integer lastEpisode,
        LocalDate airDate,
        Long tvdb,
        Long tvmaze) {

    /**
     * A release of which only the key is known ({@code group}, {@code poster}, {@code name}): what a
     * reader of its binaries needs, and nothing a caller could take for the catalog's figures.
     */
    public static Release keyOnly(String group, String poster, String name) {
        return new Release(
                group,
                poster,
                name,
                -1,
                0,
                0,
                0,
                null,
                BigDecimal.ZERO,
                false,
                0,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                0,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    /** The name to show: the real name when inspection found one, else the name the subjects gave. */
    public String displayName() {
        return realName != null ? realName : name;
    }
}
