package headway.catalog;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A release row: the binaries of one post by one poster under one release name, aggregated.
 * {@code filesExpected} is -1 when no subject carried a file counter. {@code category} is a
 * newznab id of {@link headway.category.CategoryTree} and the rest what the name says (see
 * {@link headway.category.ReleaseAttributes}); each is null until the release is categorized.
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
        String resolution) {}
