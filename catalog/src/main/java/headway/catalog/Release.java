package headway.catalog;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A release row: the binaries of one post by one poster under one release name, aggregated.
 * {@code filesExpected} is -1 when no subject carried a file counter. {@code category} is a
 * newznab id of {@link headway.category.CategoryTree} and the rest what the name says (see
 * {@link headway.category.ReleaseAttributes}); each is null until the release is categorized, and
 * computed from {@code realName} once the release has one. {@code realName}, {@code namedBy} and
 * {@code imdb} ({@code tt} and 7 to 10 digits) are what inspection of its files found, null when
 * nothing was found; {@code password} is the newznab attribute (0 none, 1 passworded, 2 possibly:
 * an archive inside the archive). {@code name} stays the key (and the guid) either way.
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
        String imdb) {

    /** The name to show: the real name when inspection found one, else the name the subjects gave. */
    public String displayName() {
        return realName != null ? realName : name;
    }
}
