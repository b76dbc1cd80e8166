package headway.catalog;

import headway.category.CategoryRules;
import headway.category.Classification;
import headway.category.ReleaseAttributes;
import headway.index.CompletedBinary;
import headway.index.Segment;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Writes release rows from their binaries: a release is recomputed from all its binaries when a
 * merge may have changed them in place, or has the sums of new binaries added when every binary
 * of it in the chunk is new (so its other binaries are not read); both carry the categories of
 * the writer's rule set, which a release categorized by a newer version keeps. Re-categorizing
 * after a rule-set import changes only those derived columns. {@link CatalogStore} decides which
 * releases a chunk touches.
 */
final class ReleaseWriter {

    private ReleaseWriter() {}

    /**
     * When a release write may set the category columns: the writer's rule set is as new as the
     * one that categorized the release, and inspection has not named the release (a named release
     * is categorized from its real name, by {@link ReleaseEvidence} and {@link #recategorize}, never
     * from the name its subjects gave).
     */
    private static final String MAY_CATEGORIZE =
            "excluded.category_version >= releases.category_version and releases.real_name is null";

    /**
     * The {@code set} list of a release write for its category columns: a release categorized by a
     * newer rule-set version than the writer's, or named by inspection, keeps its categories.
     */
    private static final String SET_CATEGORIES = """
                category = case when %1$s then excluded.category else releases.category end,
                title = case when %1$s then excluded.title else releases.title end,
                season = case when %1$s then excluded.season else releases.season end,
                episode = case when %1$s then excluded.episode else releases.episode end,
                year = case when %1$s then excluded.year else releases.year end,
                resolution = case when %1$s then excluded.resolution else releases.resolution end,
                episode_kind = case when %1$s then excluded.episode_kind else releases.episode_kind end,
                last_episode = case when %1$s then excluded.last_episode else releases.last_episode end,
                air_date = case when %1$s then excluded.air_date else releases.air_date end,
                category_version = case when %1$s then excluded.category_version else releases.category_version end
            """.formatted(MAY_CATEGORIZE);

    private static final String UPSERT_RELEASES = """
            insert into releases (group_name, poster, name, files_expected, files_present, files_complete, bytes, posted,
                                  completion_percent, complete, rule_version, category, title, season, episode, year,
                                  resolution, episode_kind, last_episode, air_date, category_version, parts_present,
                                  total_parts, posted_last)
            select k.g, k.p, k.n, a.files_expected, a.files_present, a.files_complete, a.bytes, a.posted,
                   round(100.0 * a.parts_present / a.total_parts
                         * least(1.0, a.files_present::numeric / coalesce(a.files_expected, a.files_present)), 2),
                   a.complete and a.files_present >= coalesce(a.files_expected, 0),
                   a.rule_version,
                   k.category, k.title, k.season, k.episode, k.year, k.resolution, k.episode_kind, k.last_episode,
                   k.air_date, k.category_version,
                   a.parts_present, a.total_parts, a.posted_last
            from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[],
                        ?::text[], ?::int[], ?::date[], ?::int[], ?::timestamptz[], ?::timestamptz[])
                 as k(g, p, n, category, title, season, episode, year, resolution, episode_kind, last_episode,
                      air_date, category_version, lo, hi)
            left join releases r on r.group_name = k.g and r.poster = k.p and r.name = k.n
            cross join lateral (
                select coalesce(date_trunc('month', least(r.posted, k.lo) at time zone 'UTC')::date,
                                '-infinity'::date) as lo,
                       coalesce(date_trunc('month', greatest(r.posted_last, k.hi) at time zone 'UTC')::date,
                                'infinity'::date) as hi) m
            cross join lateral (
                select nullif(max(f.file_total), -1) as files_expected,
                       count(*) as files_present,
                       count(*) filter (where f.complete) as files_complete,
                       sum(f.bytes) as bytes,
                       min(f.posted) as posted,
                       sum(f.parts_present) as parts_present,
                       sum(f.total_parts) as total_parts,
                       bool_and(f.complete) as complete,
                       max(f.rule_version) as rule_version,
                       max(f.posted_last) as posted_last
                from (select max(b.file_total) as file_total, sum(b.bytes) as bytes, min(b.posted) as posted,
                             sum(b.parts_present) as parts_present, b.total_parts,
                             sum(b.parts_present) >= b.total_parts as complete, max(b.rule_version) as rule_version,
                             max(b.posted) as posted_last
                      from binaries b
                      where b.group_name = k.g and b.poster = k.p and b.release_name = k.n
                        and (b.posted_month = '-infinity'::date or b.posted_month between m.lo and m.hi)
                      group by b.file_name, b.total_parts) f) a
            where a.files_present > 0
            on conflict (group_name, poster, name) do update set
                files_expected = excluded.files_expected,
                files_present = excluded.files_present,
                files_complete = excluded.files_complete,
                bytes = excluded.bytes,
                posted = excluded.posted,
                completion_percent = excluded.completion_percent,
                complete = excluded.complete,
                rule_version = excluded.rule_version,
                parts_present = excluded.parts_present,
                total_parts = excluded.total_parts,
                posted_last = excluded.posted_last,
            """ + SET_CATEGORIES + """
            where (releases.files_expected, releases.files_present, releases.files_complete, releases.bytes,
                   releases.posted, releases.completion_percent, releases.complete, releases.rule_version,
                   releases.parts_present, releases.total_parts, releases.posted_last)
                  is distinct from
                  (excluded.files_expected, excluded.files_present, excluded.files_complete, excluded.bytes,
                   excluded.posted, excluded.completion_percent, excluded.complete, excluded.rule_version,
                   excluded.parts_present, excluded.total_parts, excluded.posted_last)
               or (""" + MAY_CATEGORIZE + """
                   and (releases.category, releases.title, releases.season, releases.episode, releases.year,
                        releases.resolution, releases.episode_kind, releases.last_episode, releases.air_date,
                        releases.category_version)
                       is distinct from
                       (excluded.category, excluded.title, excluded.season, excluded.episode, excluded.year,
                        excluded.resolution, excluded.episode_kind, excluded.last_episode, excluded.air_date,
                        excluded.category_version))
            """;

    /**
     * Adds new binaries to their releases: each key's row of sums (files, complete files, bytes,
     * parts present, parts in all) and extremes (earliest posting, highest file count and rule
     * version) is added to the release, or inserted as it when the release is new; the completion
     * and the flag are computed from the new sums as {@link #UPSERT_RELEASES} computes them from
     * all binaries. Only for binaries that did not exist before this statement's transaction
     * wrote them ({@code COPY} of fresh ones), so that each is added once.
     */
    private static final String ADD_TO_RELEASES = """
            insert into releases (group_name, poster, name, files_expected, files_present, files_complete, bytes, posted,
                                  completion_percent, complete, rule_version, category, title, season, episode, year,
                                  resolution, episode_kind, last_episode, air_date, category_version, parts_present,
                                  total_parts, posted_last)
            select k.g, k.p, k.n, nullif(k.file_total, -1), k.files, k.files_complete, k.bytes, k.posted,
                   round(100.0 * k.parts_present / k.total_parts
                         * least(1.0, k.files::numeric / coalesce(nullif(k.file_total, -1), k.files)), 2),
                   k.files_complete = k.files and k.files >= coalesce(nullif(k.file_total, -1), 0),
                   k.rule_version,
                   k.category, k.title, k.season, k.episode, k.year, k.resolution, k.episode_kind, k.last_episode,
                   k.air_date, k.category_version,
                   k.parts_present, k.total_parts, k.posted_last
            from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[],
                        ?::text[], ?::int[], ?::date[], ?::int[], ?::int[], ?::int[], ?::int[], ?::bigint[],
                        ?::timestamptz[], ?::bigint[], ?::bigint[], ?::int[], ?::timestamptz[])
                 as k(g, p, n, category, title, season, episode, year, resolution, episode_kind, last_episode,
                      air_date, category_version,
                      file_total, files, files_complete, bytes, posted, parts_present, total_parts, rule_version,
                      posted_last)
            on conflict (group_name, poster, name) do update set
                files_expected = nullif(greatest(coalesce(releases.files_expected, -1),
                                                 coalesce(excluded.files_expected, -1)), -1),
                files_present = releases.files_present + excluded.files_present,
                files_complete = releases.files_complete + excluded.files_complete,
                bytes = releases.bytes + excluded.bytes,
                posted = least(releases.posted, excluded.posted),
                completion_percent = round(100.0 * (releases.parts_present + excluded.parts_present)
                        / (releases.total_parts + excluded.total_parts)
                        * least(1.0, (releases.files_present + excluded.files_present)::numeric
                                     / coalesce(nullif(greatest(coalesce(releases.files_expected, -1),
                                                                coalesce(excluded.files_expected, -1)), -1),
                                                releases.files_present + excluded.files_present)), 2),
                complete = releases.files_complete + excluded.files_complete
                               = releases.files_present + excluded.files_present
                           and releases.files_present + excluded.files_present
                               >= coalesce(nullif(greatest(coalesce(releases.files_expected, -1),
                                                           coalesce(excluded.files_expected, -1)), -1), 0),
                rule_version = greatest(releases.rule_version, excluded.rule_version),
                parts_present = releases.parts_present + excluded.parts_present,
                total_parts = releases.total_parts + excluded.total_parts,
                posted_last = greatest(releases.posted_last, excluded.posted_last),
            """ + SET_CATEGORIES;

    private static final String SELECT_STALE = """
            select group_name, poster, name, real_name
            from releases
            where category_version < ? and (group_name, poster, name) > (?, ?, ?)
            order by group_name, poster, name
            limit ?
            """;

    private static final String UPDATE_CATEGORIES = """
            update releases r
            set category = k.category, title = k.title, season = k.season, episode = k.episode, year = k.year,
                resolution = k.resolution, episode_kind = k.episode_kind, last_episode = k.last_episode,
                air_date = k.air_date, category_version = ?
            from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[],
                        ?::text[], ?::int[], ?::date[], ?::text[])
                 as k(g, p, n, category, title, season, episode, year, resolution, episode_kind, last_episode,
                      air_date, real_name)
            where r.group_name = k.g and r.poster = k.p and r.name = k.n and r.category_version < ?
              and r.real_name is not distinct from k.real_name
            """;

    /**
     * Writes the releases of a chunk's binaries: a release whose binaries in the chunk were all
     * {@code copied} (new rows) gets their sums added ({@link #ADD_TO_RELEASES}); any other is
     * recomputed from all its binaries, which the merge may have changed in place.
     */
    static void writeReleases(
            Connection conn,
            List<CompletedBinary> chunk,
            List<CompletedBinary> copied,
            CategoryRules categories,
            int categoryVersion)
            throws SQLException {
        Set<CompletedBinary> isCopied = Collections.newSetFromMap(new IdentityHashMap<>());
        isCopied.addAll(copied);
        Map<List<String>, Addition> added = new LinkedHashMap<>();
        Set<List<String>> recomputed = new LinkedHashSet<>();
        Map<List<String>, Span> spans = new HashMap<>();
        for (CompletedBinary b : chunk) {
            List<String> key = List.of(b.group(), b.poster(), b.releaseName());
            if (isCopied.contains(b)) {
                added.computeIfAbsent(key, k -> new Addition()).add(b);
            } else {
                recomputed.add(key);
            }
            spans.computeIfAbsent(key, k -> new Span()).add(b.posted());
        }
        added.keySet().removeAll(recomputed);
        if (!recomputed.isEmpty()) {
            upsertReleaseKeys(conn, new ArrayList<>(recomputed), spans, categories, categoryVersion);
        }
        if (!added.isEmpty()) {
            List<List<String>> keys = new ArrayList<>(added.keySet());
            try (PreparedStatement ps = conn.prepareStatement(ADD_TO_RELEASES)) {
                int next = CATEGORIZED.int4(k -> categoryVersion).bind(ps, 1, Categorized.of(keys, categories));
                ADDITIONS.bind(ps, next, new ArrayList<>(added.values()));
                ps.executeUpdate();
            }
        }
    }

    /**
     * The earliest and latest posting of a release's binaries in a chunk: with the release's own
     * ({@code posted}, {@code posted_last}) they bound the months its binaries lie in, so that its
     * recompute reads those months' partitions alone. Null where no binary had a date.
     */
    private static final class Span {
        Instant lo;
        Instant hi;

        void add(Instant posted) {
            if (posted != null) {
                lo = lo == null || posted.isBefore(lo) ? posted : lo;
                hi = hi == null || posted.isAfter(hi) ? posted : hi;
            }
        }
    }

    /** What new binaries add to their release, summed as the release statement sums its binaries' columns. */
    private static final class Addition {
        int fileTotal = Integer.MIN_VALUE;
        int files;
        int filesComplete;
        long bytes;
        Instant posted;
        Instant postedLast;
        long partsPresent;
        long totalParts;
        int ruleVersion = Integer.MIN_VALUE;

        void add(CompletedBinary b) {
            // the segments as BinaryCopy writes them, so the sums are those of the rows written
            List<Segment> segments = CatalogStore.sortedByPart(b.segments());
            fileTotal = Math.max(fileTotal, b.fileTotal());
            files++;
            filesComplete += segments.size() >= b.totalParts() ? 1 : 0;
            for (Segment s : segments) {
                bytes += s.bytes();
            }
            if (b.posted() != null) {
                // BinaryCopy writes whole microseconds, dropping the rest
                Instant micros = b.posted().truncatedTo(ChronoUnit.MICROS);
                posted = posted == null || micros.isBefore(posted) ? micros : posted;
                postedLast = postedLast == null || micros.isAfter(postedLast) ? micros : postedLast;
            }
            partsPresent += segments.size();
            totalParts += b.totalParts();
            ruleVersion = Math.max(ruleVersion, b.ruleVersion());
        }
    }

    private static final ColumnArrays<Addition> ADDITIONS = ColumnArrays.<Addition>of()
            .int4(a -> a.fileTotal)
            .int4(a -> a.files)
            .int4(a -> a.filesComplete)
            .int8(a -> a.bytes)
            .text(a -> a.posted == null ? null : a.posted.toString())
            .int8(a -> a.partsPresent)
            .int8(a -> a.totalParts)
            .int4(a -> a.ruleVersion)
            .text(a -> a.postedLast == null ? null : a.postedLast.toString());

    /**
     * Recomputes the releases keyed (group, poster, name) from their binaries; a release without
     * binaries is left as it is. {@code keys} holds each release once (a statement may change a
     * row only once). Each key's binaries are aggregated on their own (a lateral subquery on
     * {@code binaries_release}), not joined, sorted and grouped by the release's columns: that
     * sort and grouping was two thirds of the statement's select (measured: 15 against 5 ms for
     * 200 releases of 20 binaries). A file is the rows of its key, one per posting month (V33): its
     * parts are summed over them, so a file posted across a month boundary counts once.
     */
    static void upsertReleaseKeys(
            Connection conn, List<List<String>> keys, CategoryRules categories, int categoryVersion)
            throws SQLException {
        upsertReleaseKeys(conn, keys, Map.of(), categories, categoryVersion);
    }

    /**
     * As above, for releases whose binaries just written were posted within {@code spans} (by key;
     * a key without one has none), beside the months the release rows say they span.
     */
    private static void upsertReleaseKeys(
            Connection conn,
            List<List<String>> keys,
            Map<List<String>, Span> spans,
            CategoryRules categories,
            int categoryVersion)
            throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(UPSERT_RELEASES)) {
            Span none = new Span();
            CATEGORIZED
                    .int4(k -> categoryVersion)
                    .text(k -> text(spans.getOrDefault(List.of(k.group(), k.poster(), k.name()), none).lo))
                    .text(k -> text(spans.getOrDefault(List.of(k.group(), k.poster(), k.name()), none).hi))
                    .bind(ps, 1, Categorized.of(keys, categories));
            ps.executeUpdate();
        }
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    /**
     * Re-categorizes every release whose categories came from a rule set older than
     * {@code version} (or were never computed), {@code batch} releases per transaction in
     * primary-key order, so no transaction holds many row locks or runs long and a restart
     * resumes where the releases are still stale. Only the derived columns change, guarded by
     * {@code category_version}, so this needs no lease: a holder writing the same release at the
     * same time with an older rule set cannot undo it. Returns how many releases changed.
     */
    static long recategorize(DataSource ds, CategoryRules categories, int version, int batch) throws SQLException {
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be >= 1 release, was " + batch);
        }
        long changed = 0;
        String[] after = {"", "", ""};
        try (Connection c = ds.getConnection()) {
            while (true) {
                List<List<String>> keys = new ArrayList<>();
                List<String> realNames = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement(SELECT_STALE)) {
                    ps.setInt(1, version);
                    ps.setString(2, after[0]);
                    ps.setString(3, after[1]);
                    ps.setString(4, after[2]);
                    ps.setInt(5, batch);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            keys.add(List.of(rs.getString(1), rs.getString(2), rs.getString(3)));
                            realNames.add(rs.getString(4));
                        }
                    }
                }
                if (keys.isEmpty()) {
                    return changed;
                }
                try (PreparedStatement ps = c.prepareStatement(UPDATE_CATEGORIES)) {
                    ps.setInt(1, version);
                    int next = RECATEGORIZED.bind(ps, 2, Categorized.of(keys, realNames, categories));
                    ps.setInt(next, version);
                    changed += ps.executeUpdate();
                }
                List<String> last = keys.get(keys.size() - 1);
                after = new String[] {last.get(0), last.get(1), last.get(2)};
            }
        }
    }

    /**
     * A release key with its category and parsed attributes, computed from its real name when it
     * has one (else from its key's name): a row of the statements that write categories.
     */
    private record Categorized(
            String group, String poster, String name, String realName, int category, ReleaseAttributes attributes) {

        /** Releases not named by inspection, as a write of their binaries sees them. */
        static List<Categorized> of(List<List<String>> keys, CategoryRules rules) {
            List<String> unnamed = new ArrayList<>(keys.size());
            keys.forEach(k -> unnamed.add(null));
            return of(keys, unnamed, rules);
        }

        static List<Categorized> of(List<List<String>> keys, List<String> realNames, CategoryRules rules) {
            List<Categorized> out = new ArrayList<>(keys.size());
            for (int i = 0; i < keys.size(); i++) {
                List<String> key = keys.get(i);
                String realName = realNames.get(i);
                Classification c = rules.classify(key.get(0), realName != null ? realName : key.get(2));
                out.add(new Categorized(
                        key.get(0),
                        key.get(1),
                        key.get(2),
                        realName,
                        c.category().id(),
                        c.attributes()));
            }
            return out;
        }
    }

    private static final ColumnArrays<Categorized> CATEGORIZED = ColumnArrays.<Categorized>of()
            .text(Categorized::group)
            .text(Categorized::poster)
            .text(Categorized::name)
            .int4(Categorized::category)
            .text(k -> k.attributes().title())
            .int4(k -> k.attributes().season())
            .text(k -> k.attributes().episode())
            .int4(k -> k.attributes().year())
            .text(k -> k.attributes().resolution())
            .text(k -> EpisodeColumns.kind(k.attributes()))
            .int4(k -> k.attributes().lastEpisode())
            .text(k -> EpisodeColumns.airDate(k.attributes()));

    private static final ColumnArrays<Categorized> RECATEGORIZED = CATEGORIZED.text(Categorized::realName);
}
