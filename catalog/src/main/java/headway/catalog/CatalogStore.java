package headway.catalog;

import headway.category.CategoryRules;
import headway.category.Classification;
import headway.category.ReleaseAttributes;
import headway.index.CompletedBinary;
import headway.index.Poison;
import headway.index.RejectedArticle;
import headway.index.Segment;
import headway.index.Window;
import headway.overview.HeaderFault;
import headway.store.CatalogCap;
import headway.store.Jdbc;
import headway.store.LeaseLostException;
import headway.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Reads and writes binaries, releases and missing-article runs. Invariant: a binary row holds
 * each part once, whatever order and however often it was written, because an upsert unites the
 * stored and the new segments by part number (the stored one wins a tie) and skips the row when
 * the new write adds nothing; its release row is then recomputed from the binaries. A binary's
 * release name is that of its first write, so a merge under the same rules never moves it to
 * another release; a write under a newer rule set (a redo or re-index) renames it, and the
 * release it left is recomputed or deleted when empty. A message-id is in a group's catalog at
 * most once ({@link Placements}): an article that a newer rule set keys into another binary
 * moves there. A batch is
 * written in chunks of {@value #CHUNK} binaries or {@value #CHUNK_SEGMENTS} segments: the binaries
 * the window marked fresh (opened past everything the catalog held when it took the group, never
 * handed over since) by binary COPY straight into the table ({@link BinaryCopy}, 0.25 us less of
 * PostgreSQL per header than the upsert, measured), the rest by one upsert statement of column arrays, which
 * measured as fast as COPY into a staging table when it was chosen. The cost is a read of the
 * stored arrays on every conflict, and a chunk held in memory at once.
 */
public final class CatalogStore {

    static final int CHUNK = 10_000;
    static final int CHUNK_SEGMENTS = 250_000;
    private static final String FOREIGN_KEY_VIOLATION = "23503";
    private static final String UNIQUE_VIOLATION = "23505";

    /** How the writing build keys headers ({@link Window#KEYING}); another only in tests of an upgrade. */
    private final int keying;

    public CatalogStore() {
        this(Window.KEYING);
    }

    CatalogStore(int keying) {
        this.keying = keying;
    }

    /**
     * The stored row's segments are the first of the new row's, part for part (the common case: a
     * binary written open with a snapshot, written again when it completes), so that the merge is
     * the new row's arrays as they are; the merge by part number then runs only for other rows
     * (PostgreSQL gates a subquery on a condition of the outer row alone, so the sort and
     * aggregates are skipped). Both sides' parts are in ascending order, each once.
     */
    private static final String STORED_IS_PREFIX = """
            (cardinality(binaries.part_numbers) <= cardinality(excluded.part_numbers)
                     and binaries.part_numbers = excluded.part_numbers[1:cardinality(binaries.part_numbers)]
                     and binaries.segment_bytes = excluded.segment_bytes[1:cardinality(binaries.part_numbers)]
                     and starts_with(excluded.message_ids || E'\t', binaries.message_ids || E'\t'))""";

    static final String MERGE = """
            on conflict (group_name, poster, file_name, total_parts) do update set
                (part_numbers, segment_bytes, message_ids, bytes) = (
                    select excluded.part_numbers, excluded.segment_bytes, excluded.message_ids, excluded.bytes
                    where {stored is prefix}
                    union all
                    select array_agg(u.p order by u.p), array_agg(u.y order by u.p), string_agg(u.m, E'\t' order by u.p),
                           sum(u.y)
                    from (select distinct on (a.p) a.p, a.y, a.m
                          from (select o.p, o.y, o.m, 0 as src
                                from unnest(binaries.part_numbers, binaries.segment_bytes, message_id_array(binaries.message_ids)) as o(p, y, m)
                                union all
                                select n.p, n.y, n.m, 1 as src
                                from unnest(excluded.part_numbers, excluded.segment_bytes, message_id_array(excluded.message_ids)) as n(p, y, m)) a
                          order by a.p, a.src) u
                    having not {stored is prefix}),
                first_article = least(binaries.first_article, excluded.first_article),
                last_article = greatest(binaries.last_article, excluded.last_article),
                posted = least(binaries.posted, excluded.posted),
                subject = case when excluded.first_article < binaries.first_article
                               then excluded.subject else binaries.subject end,
                file_total = greatest(binaries.file_total, excluded.file_total),
                release_name = case when excluded.rule_version > binaries.rule_version
                                    then excluded.release_name else binaries.release_name end,
                rule_version = greatest(binaries.rule_version, excluded.rule_version)
            where not (binaries.part_numbers @> excluded.part_numbers
                       and binaries.first_article <= excluded.first_article
                       and binaries.last_article >= excluded.last_article
                       and binaries.file_total >= excluded.file_total
                       and binaries.posted is not distinct from least(binaries.posted, excluded.posted)
                       and binaries.rule_version >= excluded.rule_version)
            """.replace("{stored is prefix}", STORED_IS_PREFIX);

    /**
     * One row per binary; its segments come as three strings (part numbers and sizes separated by
     * spaces, message-ids by tabs, which an overview field cannot hold): the numbers are split
     * into the row's arrays, the message-ids stored as they come. Splitting a few strings per
     * binary costs PostgreSQL less than parsing and grouping one array element per segment (0.4
     * us of 1.6 per segment, measured).
     */
    private static final String UPSERT_BINARIES = """
            insert into binaries (group_name, poster, file_name, total_parts, release_name, file_total, subject, posted,
                                  first_article, last_article, rule_version, part_numbers, segment_bytes, message_ids,
                                  bytes)
            select k.group_name, k.poster, k.file_name, k.total_parts, k.release_name, k.file_total, k.subject, k.posted,
                   k.first_article, k.last_article, k.rule_version,
                   string_to_array(k.parts, ' ')::int[], string_to_array(k.sizes, ' ')::int[],
                   k.ids,
                   k.bytes
            from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[], ?::timestamptz[],
                        ?::bigint[], ?::bigint[], ?::int[], ?::text[], ?::text[], ?::text[], ?::bigint[])
                 as k(group_name, poster, file_name, total_parts, release_name, file_total, subject, posted,
                      first_article, last_article, rule_version, parts, sizes, ids, bytes)
            """ + MERGE;

    /**
     * The {@code set} list of a release write for its category columns: a release categorized by a
     * newer rule-set version than the writer's keeps its categories.
     */
    private static final String SET_CATEGORIES = """
                category = case when excluded.category_version >= releases.category_version
                                then excluded.category else releases.category end,
                title = case when excluded.category_version >= releases.category_version
                             then excluded.title else releases.title end,
                season = case when excluded.category_version >= releases.category_version
                              then excluded.season else releases.season end,
                episode = case when excluded.category_version >= releases.category_version
                               then excluded.episode else releases.episode end,
                year = case when excluded.category_version >= releases.category_version
                            then excluded.year else releases.year end,
                resolution = case when excluded.category_version >= releases.category_version
                                  then excluded.resolution else releases.resolution end,
                category_version = greatest(releases.category_version, excluded.category_version)
            """;

    private static final String UPSERT_RELEASES = """
            insert into releases (group_name, poster, name, files_expected, files_present, files_complete, bytes, posted,
                                  completion_percent, complete, rule_version, category, title, season, episode, year,
                                  resolution, category_version, parts_present, total_parts)
            select k.g, k.p, k.n, a.files_expected, a.files_present, a.files_complete, a.bytes, a.posted,
                   round(100.0 * a.parts_present / a.total_parts
                         * least(1.0, a.files_present::numeric / coalesce(a.files_expected, a.files_present)), 2),
                   a.complete and a.files_present >= coalesce(a.files_expected, 0),
                   a.rule_version,
                   k.category, k.title, k.season, k.episode, k.year, k.resolution, k.category_version,
                   a.parts_present, a.total_parts
            from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[],
                        ?::int[])
                 as k(g, p, n, category, title, season, episode, year, resolution, category_version)
            cross join lateral (
                select nullif(max(b.file_total), -1) as files_expected,
                       count(*) as files_present,
                       count(*) filter (where b.complete) as files_complete,
                       sum(b.bytes) as bytes,
                       min(b.posted) as posted,
                       sum(b.parts_present) as parts_present,
                       sum(b.total_parts) as total_parts,
                       bool_and(b.complete) as complete,
                       max(b.rule_version) as rule_version
                from binaries b
                where b.group_name = k.g and b.poster = k.p and b.release_name = k.n) a
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
            """ + SET_CATEGORIES + """
            where (releases.files_expected, releases.files_present, releases.files_complete, releases.bytes,
                   releases.posted, releases.completion_percent, releases.complete, releases.rule_version,
                   releases.parts_present, releases.total_parts)
                  is distinct from
                  (excluded.files_expected, excluded.files_present, excluded.files_complete, excluded.bytes,
                   excluded.posted, excluded.completion_percent, excluded.complete, excluded.rule_version,
                   excluded.parts_present, excluded.total_parts)
               or (excluded.category_version >= releases.category_version
                   and (releases.category, releases.title, releases.season, releases.episode, releases.year,
                        releases.resolution, releases.category_version)
                       is distinct from
                       (excluded.category, excluded.title, excluded.season, excluded.episode, excluded.year,
                        excluded.resolution, excluded.category_version))
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
                                  resolution, category_version, parts_present, total_parts)
            select k.g, k.p, k.n, nullif(k.file_total, -1), k.files, k.files_complete, k.bytes, k.posted,
                   round(100.0 * k.parts_present / k.total_parts
                         * least(1.0, k.files::numeric / coalesce(nullif(k.file_total, -1), k.files)), 2),
                   k.files_complete = k.files and k.files >= coalesce(nullif(k.file_total, -1), 0),
                   k.rule_version,
                   k.category, k.title, k.season, k.episode, k.year, k.resolution, k.category_version,
                   k.parts_present, k.total_parts
            from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[],
                        ?::int[], ?::int[], ?::int[], ?::int[], ?::bigint[], ?::timestamptz[], ?::bigint[],
                        ?::bigint[], ?::int[])
                 as k(g, p, n, category, title, season, episode, year, resolution, category_version,
                      file_total, files, files_complete, bytes, posted, parts_present, total_parts, rule_version)
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
            """ + SET_CATEGORIES;

    private static final String SELECT_STALE = """
            select group_name, poster, name
            from releases
            where category_version < ? and (group_name, poster, name) > (?, ?, ?)
            order by group_name, poster, name
            limit ?
            """;

    private static final String UPDATE_CATEGORIES = """
            update releases r
            set category = k.category, title = k.title, season = k.season, episode = k.episode, year = k.year,
                resolution = k.resolution, category_version = ?
            from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[])
                 as k(g, p, n, category, title, season, episode, year, resolution)
            where r.group_name = k.g and r.poster = k.p and r.name = k.n and r.category_version < ?
            """;

    private static final String GROUP_KNOWN = "select 1 from groups where name = ? for key share";

    /**
     * Clears the span {@code from..to} of a group's recorded runs before a batch's row is written:
     * rows of {@code missing_runs} that overlap it are deleted, and the parts of their spans and
     * runs outside it are written back as rows of their own, so a batch written again with other
     * boundaries (a redo after {@code HEADWAY_BATCH} changed) leaves each missing article in one
     * row. The rows of a group do not overlap, so the only one that can start before {@code from}
     * and reach into the span is the last that starts before it. Runs an older build wrote one per
     * row in {@code missing_articles} are clipped alike; each of those lay within one of its
     * batches, at most {@link #OLDER_BUILDS_MAX_BATCH} articles, which bounds the search back.
     * Parameters: group, from, to, and {@code from - OLDER_BUILDS_MAX_BATCH}.
     */
    private static final String CLEAR_MISSING_SPAN = """
            with given(g, lo, hi, back) as (values (?::text, ?::bigint, ?::bigint, ?::bigint)),
            span as (
                select given.*, coalesce((select max(p.from_article) from missing_runs p
                                          where p.group_name = given.g and p.from_article < given.lo), given.lo) as start
                from given
            ),
            rows_over as (
                delete from missing_runs m using span s
                where m.group_name = s.g and m.from_article between s.start and s.hi and m.to_article >= s.lo
                returning m.from_article, m.to_article, m.first_articles, m.last_articles
            ),
            rows_kept as (
                insert into missing_runs (group_name, from_article, to_article, first_articles, last_articles)
                select s.g, k.lo, k.hi, array_agg(greatest(u.f, k.lo) order by u.f),
                       array_agg(least(u.l, k.hi) order by u.f)
                from span s, rows_over o,
                     lateral (values (o.from_article, s.lo - 1), (s.hi + 1, o.to_article)) as k(lo, hi),
                     lateral unnest(o.first_articles, o.last_articles) as u(f, l)
                where k.lo <= k.hi and u.f <= k.hi and u.l >= k.lo
                group by s.g, k.lo, k.hi
            ),
            older_over as (
                delete from missing_articles a using span s
                where a.group_name = s.g and a.first_article > s.back and a.first_article <= s.hi
                  and a.last_article >= s.lo
                returning a.first_article, a.last_article
            )
            insert into missing_articles (group_name, first_article, last_article)
            select s.g, k.f, k.l
            from span s, older_over o,
                 lateral (values (o.first_article, least(o.last_article, s.lo - 1)),
                                 (greatest(o.first_article, s.hi + 1), o.last_article)) as k(f, l)
            where k.f <= k.l
            on conflict do nothing
            """;

    /** The largest batch an older build could write its runs for (HEADWAY_BATCH's maximum). */
    static final long OLDER_BUILDS_MAX_BATCH = 1_000_000;

    private static final String INSERT_MISSING_RUNS = """
            insert into missing_runs (group_name, from_article, to_article, first_articles, last_articles)
            values (?, ?, ?, ?::bigint[], ?::bigint[])
            """;

    private static final String INSERT_REJECTED = """
            insert into rejected_articles (group_name, article, message_id, reason, raw)
            select ?, r.article, r.message_id, r.reason, decode(r.raw, 'base64')
            from unnest(?::bigint[], ?::text[], ?::text[], ?::text[]) as r(article, message_id, reason, raw)
            on conflict do nothing
            """;

    private static final String INSERT_LONG_NAMES = """
            insert into long_names (bounded, full_text)
            select * from unnest(?::text[], ?::text[])
            on conflict do nothing
            """;

    private static final String SELECT_REJECTED = """
            select article, message_id, reason from rejected_articles where group_name = ? order by article
            """;

    private static final String SELECT_RELEASE = """
            select group_name, poster, name, files_expected, files_present, files_complete, bytes, posted,
                   completion_percent, complete, rule_version, category, title, season, episode, year, resolution
            from releases
            where group_name = ? and poster = ? and name = ?
            """;

    private static final String NAMED_RELEASES = """
            select group_name, poster, name, files_expected, files_present, files_complete, bytes, posted,
                   completion_percent, complete, rule_version, category, title, season, episode, year, resolution
            from releases
            where name ilike ? escape '\\'
            order by posted desc nulls last, name, group_name, poster
            limit 1000
            """;

    private static final String SELECT_BINARIES_OF_RELEASE = """
            select group_name, poster, file_name, total_parts, release_name, file_total, subject, posted,
                   first_article, last_article, rule_version, part_numbers, segment_bytes, message_ids
            from binaries
            where group_name = ? and poster = ? and release_name = ?
            order by file_name, total_parts
            """;

    private static final String SELECT_MISSING = """
            select first_article, last_article
            from missing_article_runs
            where group_name = ?
            order by first_article, last_article
            """;

    /** {@link #writeBinaries(Connection, List, CategoryRules, int)} with the shipped default categories as version 0. */
    public void writeBinaries(Connection conn, List<CompletedBinary> binaries) throws SQLException {
        writeBinaries(conn, binaries, CategoryRules.defaults(), 0);
    }

    /**
     * Upserts binaries and recomputes their releases; repeats and partial re-writes merge by part
     * number. Each release is categorized by {@code categories}, the categories of rule-set
     * version {@code categoryVersion}; a release already categorized by a newer version keeps its
     * category, because its writer may still hold an older rule set after an import. No binary's
     * content can fail the write (see {@link #isolated}): in a transaction, a binary the catalog
     * cannot take is left out, and each of its articles goes to the {@code rejected_articles}
     * ledger, in this transaction, with the failure as its reason; those entries are returned.
     */
    public List<RejectedArticle> writeBinaries(
            Connection conn, List<CompletedBinary> binaries, CategoryRules categories, int categoryVersion)
            throws SQLException {
        List<CompletedBinary> unique = Placements.firstPlacements(mergeByKey(binaries));
        Set<List<String>> leftBehind = new LinkedHashSet<>();
        List<RejectedArticle> refused = new ArrayList<>();
        int from = 0;
        while (from < unique.size()) {
            int to = from;
            long segments = 0;
            while (to < unique.size()
                    && to - from < CHUNK
                    && (to == from || segments + unique.get(to).partsPresent() <= CHUNK_SEGMENTS)) {
                segments += unique.get(to).partsPresent();
                to++;
            }
            List<CompletedBinary> chunk = unique.subList(from, to);
            Map<CompletedBinary, Throwable> failed = isolated(
                    conn,
                    chunk,
                    part -> {
                        Set<List<String>> left = new LinkedHashSet<>();
                        writeChunk(conn, part, categories, categoryVersion, left);
                        return left;
                    },
                    leftBehind::addAll);
            failed.forEach((b, e) -> refused.addAll(refusal(b, e)));
            from = to;
        }
        if (!leftBehind.isEmpty()) {
            // a release whose recount fails alone keeps its row as it was: it holds none of this write's articles
            isolated(
                    conn,
                    new ArrayList<>(leftBehind),
                    keys -> {
                        upsertReleaseKeys(conn, keys, categories, categoryVersion);
                        Placements.deleteEmptyReleases(conn, new LinkedHashSet<>(keys));
                        return null;
                    },
                    done -> {});
        }
        recordRejected(conn, refused);
        return refused;
    }

    /** Writes one chunk: its spans and placements, its binaries, their releases; releases it leaves go to {@code leftBehind}. */
    private void writeChunk(
            Connection conn,
            List<CompletedBinary> chunk,
            CategoryRules categories,
            int categoryVersion,
            Set<List<String>> leftBehind)
            throws SQLException {
        try {
            List<Placements.Overlap> overlaps = Placements.spans(conn, chunk, keying);
            boolean alone = overlaps.isEmpty();
            if (!alone) {
                leftBehind.addAll(Placements.relinked(conn, chunk));
                chunk = Placements.place(conn, chunk, overlaps, leftBehind);
            }
            if (!chunk.isEmpty()) {
                List<CompletedBinary> copied = upsertChunk(conn, chunk, alone);
                writeReleases(conn, chunk, copied, categories, categoryVersion);
            }
        } catch (SQLException e) {
            throw unknownGroup(e);
        }
    }

    /** One write of some items, giving what {@code accept} takes when it went through. */
    @FunctionalInterface
    private interface Write<T, R> {
        R run(List<T> items) throws SQLException;
    }

    /**
     * Runs {@code write} on {@code items} under a savepoint, and when it fails for what the items
     * hold ({@link #refusedContent}), rolls back to it and runs each item alone under one of its own:
     * returns the items the catalog refused alone, each with its failure. What a write that went
     * through returns goes to {@code accept}. A failure of the database itself (the connection, a
     * lock, a cancelled statement, a full disk) ends the write as before. Without a transaction
     * (autocommit) there is no savepoint: the write runs as it is and its failure is the caller's.
     * The cost: two statements per write (the savepoint and its release); the refused content is
     * written again one item at a time, once.
     */
    private static <T, R> Map<T, Throwable> isolated(
            Connection conn, List<T> items, Write<T, R> write, Consumer<R> accept) throws SQLException {
        if (conn.getAutoCommit()) {
            accept.accept(write.run(items));
            return Map.of();
        }
        Throwable failure = attempt(conn, items, write, accept);
        if (failure == null) {
            return Map.of();
        }
        Map<T, Throwable> refused = new LinkedHashMap<>();
        if (items.size() == 1) {
            refused.put(items.get(0), failure);
            return refused;
        }
        for (T item : items) {
            Throwable alone = attempt(conn, List.of(item), write, accept);
            if (alone != null) {
                refused.put(item, alone);
            }
        }
        return refused;
    }

    /** {@code write} under a savepoint: null when it went through, else its content failure, rolled back. */
    private static <T, R> Throwable attempt(Connection conn, List<T> items, Write<T, R> write, Consumer<R> accept)
            throws SQLException {
        Savepoint before = conn.setSavepoint();
        R result;
        try {
            result = write.run(items);
        } catch (SQLException e) {
            if (!refusedContent(e)) {
                throw e;
            }
            conn.rollback(before);
            return e;
        } catch (RuntimeException | Error e) {
            if (e instanceof StoreException || e instanceof LeaseLostException || !HeaderFault.survivable(e)) {
                throw e;
            }
            conn.rollback(before);
            return e;
        }
        conn.releaseSavepoint(before);
        accept.accept(result);
        return null;
    }

    /**
     * Whether PostgreSQL (or the driver, before sending) refused the values of a write rather than
     * failed itself: a data exception (class 22: a NUL, a character the database's encoding lacks,
     * a date out of range), an integrity violation other than a missing group (class 23), or a
     * program limit (class 54: an index row too large).
     */
    static boolean refusedContent(SQLException e) {
        String state = e.getSQLState();
        if (state == null || state.length() != 5) {
            return false;
        }
        return state.startsWith("22")
                || state.startsWith("54")
                || (state.startsWith("23") && !FOREIGN_KEY_VIOLATION.equals(state));
    }

    /** The ledger's entries for the articles of {@code b}, which the catalog refused with {@code failure}. */
    private static List<RejectedArticle> refusal(CompletedBinary b, Throwable failure) {
        String reason = failure instanceof SQLException e
                ? "the catalog refused its binary: " + e.getSQLState() + " " + e.getMessage()
                : HeaderFault.reason("writing its binary", failure);
        String excerpt = b.subject() + '\t' + b.poster();
        List<RejectedArticle> out = new ArrayList<>(b.segments().size());
        for (Segment s : b.segments()) {
            if (s.article() >= 0) { // -1: read from an older build's snapshot, which did not keep the number
                out.add(new RejectedArticle(b.group(), s.article(), s.messageId(), reason, excerpt));
            }
        }
        return out;
    }

    /** Records that articles {@code from..to} (inclusive) are missing on the server; recording the same run again is a no-op. */
    public void recordMissing(Connection conn, String group, long from, long to) throws SQLException {
        recordMissing(conn, group, from, to, List.<long[]>of(new long[] {from, to}));
    }

    /**
     * Records articles the catalog could not take in the {@code rejected_articles} ledger, one
     * statement for the batch; an article already there keeps its first entry. Text is cleaned of
     * NUL and bounded, the raw excerpt kept as bytes.
     */
    public void recordRejected(Connection conn, List<RejectedArticle> rejected) throws SQLException {
        Map<String, List<RejectedArticle>> byGroup = new LinkedHashMap<>();
        for (RejectedArticle r : rejected) {
            byGroup.computeIfAbsent(r.group(), g -> new ArrayList<>()).add(r);
        }
        for (Map.Entry<String, List<RejectedArticle>> e : byGroup.entrySet()) {
            requireGroup(conn, e.getKey());
            try (PreparedStatement ps = conn.prepareStatement(INSERT_REJECTED)) {
                ps.setString(1, e.getKey());
                REJECTED_ROWS.bind(ps, 2, e.getValue());
                ps.executeUpdate();
            }
        }
    }

    private static final ColumnArrays<RejectedArticle> REJECTED_ROWS = ColumnArrays.<RejectedArticle>of()
            .int8(RejectedArticle::article)
            .text(r ->
                    r.messageId() == null ? null : Poison.prefix(Poison.clean(r.messageId()), Poison.MESSAGE_ID_BYTES))
            .text(r -> Poison.prefix(Poison.clean(r.reason()), 500))
            .text(r -> Base64.getEncoder()
                    .encodeToString(Poison.prefix(r.excerpt(), Poison.RAW_BYTES).getBytes(StandardCharsets.UTF_8)));

    /** Keeps the whole text of each bounded key ({@link Poison#bounded}); a key already kept is left as it is. */
    public void recordLongNames(Connection conn, Map<String, String> longNames) throws SQLException {
        if (longNames.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = conn.prepareStatement(INSERT_LONG_NAMES)) {
            LONG_NAMES.bind(ps, 1, List.copyOf(longNames.entrySet()));
            ps.executeUpdate();
        }
    }

    private static final ColumnArrays<Map.Entry<String, String>> LONG_NAMES =
            ColumnArrays.<Map.Entry<String, String>>of().text(Map.Entry::getKey).text(Map.Entry::getValue);

    /** The ledger of one group: article number to reason, in article order. */
    public Map<Long, String> rejected(Connection conn, String group) throws SQLException {
        Map<Long, String> out = new TreeMap<>();
        try (PreparedStatement ps = conn.prepareStatement(SELECT_REJECTED)) {
            ps.setString(1, group);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getLong(1), rs.getString(3));
                }
            }
        }
        return out;
    }

    /**
     * Records the missing runs among articles {@code from..to} (a batch; each run within it, in
     * article order) as one row. What was recorded for articles {@code from..to} before is
     * replaced, and rows that reach beyond the span keep only their parts outside it, so recording
     * a batch again, with the same boundaries or others (a redo after {@code HEADWAY_BATCH}
     * changed), leaves each missing article in one run. A batch without runs writes nothing.
     */
    public void recordMissing(Connection conn, String group, long from, long to, List<long[]> runs)
            throws SQLException {
        if (runs.isEmpty()) {
            return;
        }
        long last = from - 1;
        for (long[] run : runs) {
            if (run[0] > run[1]) {
                throw new IllegalArgumentException(
                        "missing run " + run[0] + ".." + run[1] + " is empty; pass first <= last");
            }
            if (run[0] <= last || run[1] > to) {
                throw new IllegalArgumentException("missing run " + run[0] + ".." + run[1]
                        + " is out of order or outside articles " + from + ".." + to);
            }
            last = run[1];
        }
        requireGroup(conn, group);
        Jdbc.update(conn, CLEAR_MISSING_SPAN, group, from, to, from - OLDER_BUILDS_MAX_BATCH);
        try (PreparedStatement ps = conn.prepareStatement(INSERT_MISSING_RUNS)) {
            ps.setString(1, group);
            ps.setLong(2, from);
            ps.setLong(3, to);
            RUNS.bind(ps, 4, runs);
            ps.executeUpdate();
        }
    }

    private static final ColumnArrays<long[]> RUNS =
            ColumnArrays.<long[]>of().int8(r -> r[0]).int8(r -> r[1]);

    /** The recorded missing runs of a group, in article order. */
    public List<MissingRun> missing(DataSource ds, String group) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return Jdbc.list(c, SELECT_MISSING, rs -> new MissingRun(rs.getLong(1), rs.getLong(2)), group);
        }
    }

    public Optional<Release> release(DataSource ds, String group, String poster, String name) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return Jdbc.first(c, SELECT_RELEASE, CatalogStore::release, group, poster, name);
        }
    }

    /**
     * The releases named exactly {@code name}, or when there are none, those whose name equals it
     * but for case; newest first, at most 1,000.
     */
    public List<Release> named(DataSource ds, String name) throws SQLException {
        String literal = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
        List<Release> found;
        try (Connection c = ds.getConnection()) {
            found = Jdbc.list(c, NAMED_RELEASES, CatalogStore::release, literal);
        }
        List<Release> exact = found.stream().filter(r -> r.name().equals(name)).toList();
        return exact.isEmpty() ? found : exact;
    }

    /** The binaries of a release with their segments in part order, ready for {@link headway.index.NzbWriter}. */
    public List<CompletedBinary> binaries(DataSource ds, Release release) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return Jdbc.list(
                    c,
                    SELECT_BINARIES_OF_RELEASE,
                    CatalogStore::binary,
                    release.group(),
                    release.poster(),
                    release.name());
        }
    }

    /** The catalog's on-disk size as the database function catalog_bytes() defines it: what the size cap compares. */
    public long catalogBytes(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return CatalogCap.catalogBytes(c);
        }
    }

    /**
     * Fails naming the fix unless {@code group} is in table {@code groups}, and key-share locks its
     * row for the transaction, as the foreign keys that V16 dropped did once per row written.
     */
    private static void requireGroup(Connection conn, String group) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(GROUP_KNOWN)) {
            ps.setString(1, group);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException(
                            "the group " + group + " is not in table groups; add the group (headway groups add " + group
                                    + ") before writing its binaries or missing runs",
                            FOREIGN_KEY_VIOLATION);
                }
            }
        }
    }

    private static SQLException unknownGroup(SQLException e) {
        if (!FOREIGN_KEY_VIOLATION.equals(e.getSQLState())) {
            return e;
        }
        return new SQLException(
                "the group is not in table groups (" + e.getMessage()
                        + "); add the group before writing its binaries or missing runs",
                e.getSQLState(),
                e);
    }

    static List<CompletedBinary> mergeByKey(List<CompletedBinary> binaries) {
        Map<List<Object>, CompletedBinary> byKey = new LinkedHashMap<>();
        for (CompletedBinary b : binaries) {
            byKey.merge(List.of(b.group(), b.poster(), b.fileName(), b.totalParts()), b, CatalogStore::union);
        }
        return new ArrayList<>(byKey.values());
    }

    private static CompletedBinary union(CompletedBinary a, CompletedBinary b) {
        TreeMap<Integer, Segment> parts = new TreeMap<>();
        for (Segment s : a.segments()) {
            parts.putIfAbsent(s.part(), s);
        }
        for (Segment s : b.segments()) {
            parts.putIfAbsent(s.part(), s);
        }
        CompletedBinary first = a.firstArticle() <= b.firstArticle() ? a : b;
        Instant posted = a.posted() == null
                ? b.posted()
                : b.posted() == null ? a.posted() : a.posted().isBefore(b.posted()) ? a.posted() : b.posted();
        return new CompletedBinary(
                a.group(),
                a.poster(),
                a.fileName(),
                a.totalParts(),
                a.releaseName(),
                Math.max(a.fileTotal(), b.fileTotal()),
                first.subject(),
                posted,
                Math.min(a.firstArticle(), b.firstArticle()),
                Math.max(a.lastArticle(), b.lastArticle()),
                a.ruleVersion(),
                new ArrayList<>(parts.values()),
                a.fresh() && b.fresh());
    }

    /** A binary as its row is sent: its segments as text (see {@link #UPSERT_BINARIES}) and their bytes added up. */
    private record BinaryRow(CompletedBinary b, String parts, String sizes, String ids, long bytes) {

        static List<BinaryRow> of(List<CompletedBinary> chunk) {
            List<BinaryRow> rows = new ArrayList<>(chunk.size());
            StringBuilder parts = new StringBuilder();
            StringBuilder sizes = new StringBuilder();
            StringBuilder ids = new StringBuilder();
            for (CompletedBinary b : chunk) {
                parts.setLength(0);
                sizes.setLength(0);
                ids.setLength(0);
                long bytes = 0;
                for (Segment seg : sortedByPart(b.segments())) {
                    if (parts.length() > 0) {
                        parts.append(' ');
                        sizes.append(' ');
                        ids.append('\t');
                    }
                    parts.append(seg.part());
                    sizes.append(seg.bytes());
                    ids.append(seg.messageId());
                    bytes += seg.bytes();
                }
                rows.add(new BinaryRow(b, parts.toString(), sizes.toString(), ids.toString(), bytes));
            }
            return rows;
        }
    }

    private static final ColumnArrays<BinaryRow> BINARY_ROWS = ColumnArrays.<BinaryRow>of()
            .text(r -> r.b().group())
            .text(r -> r.b().poster())
            .text(r -> r.b().fileName())
            .int4(r -> r.b().totalParts())
            .text(r -> r.b().releaseName())
            .int4(r -> r.b().fileTotal())
            .text(r -> r.b().subject())
            .text(r -> r.b().posted() == null ? null : r.b().posted().toString())
            .int8(r -> r.b().firstArticle())
            .int8(r -> r.b().lastArticle())
            .int4(r -> r.b().ruleVersion())
            .text(BinaryRow::parts)
            .text(BinaryRow::sizes)
            .text(BinaryRow::ids)
            .int8(BinaryRow::bytes);

    /**
     * Writes the chunk's binaries. When the chunk met no other rule spans ({@code alone}), those
     * the window marked {@link CompletedBinary#fresh() fresh} go by binary {@code COPY} ({@link
     * BinaryCopy}), and should one be in the catalog after all (a late part of a binary that aged
     * out, a repost under the same key, a holder fenced out mid-commit), the copy is rolled back to
     * its savepoint and the whole chunk merged. The rest are merged into their rows by one
     * statement of column arrays.
     */
    private static List<CompletedBinary> upsertChunk(Connection conn, List<CompletedBinary> chunk, boolean alone)
            throws SQLException {
        List<CompletedBinary> fresh = new ArrayList<>();
        List<CompletedBinary> merged = new ArrayList<>();
        for (CompletedBinary b : chunk) {
            (alone && b.fresh() ? fresh : merged).add(b);
        }
        if (!fresh.isEmpty() && !conn.getAutoCommit()) {
            Savepoint before = conn.setSavepoint();
            try {
                BinaryCopy.copy(conn, fresh);
                conn.releaseSavepoint(before);
            } catch (SQLException e) {
                if (!UNIQUE_VIOLATION.equals(e.getSQLState())) {
                    throw e;
                }
                conn.rollback(before);
                merged = chunk;
                fresh = List.of();
            }
        } else {
            merged = chunk;
            fresh = List.of();
        }
        if (!merged.isEmpty()) {
            try (PreparedStatement ps = conn.prepareStatement(UPSERT_BINARIES)) {
                BINARY_ROWS.bind(ps, 1, BinaryRow.of(merged));
                ps.executeUpdate();
            }
        }
        return fresh;
    }

    /**
     * A binary's segments in part order, each part once (the first): as {@link CompletedBinary}
     * promises and the window hands them over, so this copies only for a caller that did not.
     */
    static List<Segment> sortedByPart(List<Segment> segments) {
        for (int i = 1; i < segments.size(); i++) {
            if (segments.get(i).part() <= segments.get(i - 1).part()) {
                TreeMap<Integer, Segment> byPart = new TreeMap<>();
                for (Segment s : segments) {
                    byPart.putIfAbsent(s.part(), s);
                }
                return new ArrayList<>(byPart.values());
            }
        }
        return segments;
    }

    /**
     * Writes the releases of a chunk's binaries: a release whose binaries in the chunk were all
     * {@code copied} (new rows) gets their sums added ({@link #ADD_TO_RELEASES}); any other is
     * recomputed from all its binaries, which the merge may have changed in place.
     */
    private static void writeReleases(
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
        for (CompletedBinary b : chunk) {
            List<String> key = List.of(b.group(), b.poster(), b.releaseName());
            if (isCopied.contains(b)) {
                added.computeIfAbsent(key, k -> new Addition()).add(b);
            } else {
                recomputed.add(key);
            }
        }
        added.keySet().removeAll(recomputed);
        if (!recomputed.isEmpty()) {
            upsertReleaseKeys(conn, new ArrayList<>(recomputed), categories, categoryVersion);
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

    /** What new binaries add to their release, summed as the release statement sums its binaries' columns. */
    private static final class Addition {
        int fileTotal = Integer.MIN_VALUE;
        int files;
        int filesComplete;
        long bytes;
        Instant posted;
        long partsPresent;
        long totalParts;
        int ruleVersion = Integer.MIN_VALUE;

        void add(CompletedBinary b) {
            // the segments as BinaryCopy writes them, so the sums are those of the rows written
            List<Segment> segments = sortedByPart(b.segments());
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
            .int4(a -> a.ruleVersion);

    /**
     * Recomputes the releases keyed (group, poster, name) from their binaries; a release without
     * binaries is left as it is. {@code keys} holds each release once (a statement may change a
     * row only once). Each key's binaries are aggregated on their own (a lateral subquery on
     * {@code binaries_release}), not joined, sorted and grouped by the release's columns: that
     * sort and grouping was two thirds of the statement's select (measured: 15 against 5 ms for
     * 200 releases of 20 binaries).
     */
    static void upsertReleaseKeys(
            Connection conn, List<List<String>> keys, CategoryRules categories, int categoryVersion)
            throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(UPSERT_RELEASES)) {
            CATEGORIZED.int4(k -> categoryVersion).bind(ps, 1, Categorized.of(keys, categories));
            ps.executeUpdate();
        }
    }

    /**
     * Re-categorizes every release whose categories came from a rule set older than
     * {@code version} (or were never computed), {@code batch} releases per transaction in
     * primary-key order, so no transaction holds many row locks or runs long and a restart
     * resumes where the releases are still stale. Only the derived columns change, guarded by
     * {@code category_version}, so this needs no lease: a holder writing the same release at the
     * same time with an older rule set cannot undo it. Returns how many releases changed.
     */
    public long recategorize(DataSource ds, CategoryRules categories, int version, int batch) throws SQLException {
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be >= 1 release, was " + batch);
        }
        long changed = 0;
        String[] after = {"", "", ""};
        try (Connection c = ds.getConnection()) {
            while (true) {
                List<List<String>> keys = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement(SELECT_STALE)) {
                    ps.setInt(1, version);
                    ps.setString(2, after[0]);
                    ps.setString(3, after[1]);
                    ps.setString(4, after[2]);
                    ps.setInt(5, batch);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            keys.add(List.of(rs.getString(1), rs.getString(2), rs.getString(3)));
                        }
                    }
                }
                if (keys.isEmpty()) {
                    return changed;
                }
                try (PreparedStatement ps = c.prepareStatement(UPDATE_CATEGORIES)) {
                    ps.setInt(1, version);
                    int next = CATEGORIZED.bind(ps, 2, Categorized.of(keys, categories));
                    ps.setInt(next, version);
                    changed += ps.executeUpdate();
                }
                List<String> last = keys.get(keys.size() - 1);
                after = new String[] {last.get(0), last.get(1), last.get(2)};
            }
        }
    }

    /** A release key with its category and parsed attributes: a row of the statements that write categories. */
    private record Categorized(String group, String poster, String name, int category, ReleaseAttributes attributes) {

        static List<Categorized> of(List<List<String>> keys, CategoryRules rules) {
            List<Categorized> out = new ArrayList<>(keys.size());
            for (List<String> key : keys) {
                Classification c = rules.classify(key.get(0), key.get(2));
                out.add(new Categorized(
                        key.get(0), key.get(1), key.get(2), c.category().id(), c.attributes()));
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
            .text(k -> k.attributes().resolution());

    static Release release(ResultSet rs) throws SQLException {
        int expected = rs.getInt("files_expected");
        if (rs.wasNull()) {
            expected = -1;
        }
        Timestamp posted = rs.getTimestamp("posted");
        return new Release(
                rs.getString("group_name"),
                rs.getString("poster"),
                rs.getString("name"),
                expected,
                rs.getInt("files_present"),
                rs.getInt("files_complete"),
                rs.getLong("bytes"),
                posted == null ? null : posted.toInstant(),
                rs.getBigDecimal("completion_percent"),
                rs.getBoolean("complete"),
                rs.getInt("rule_version"),
                (Integer) rs.getObject("category"),
                rs.getString("title"),
                (Integer) rs.getObject("season"),
                rs.getString("episode"),
                (Integer) rs.getObject("year"),
                rs.getString("resolution"));
    }

    private static CompletedBinary binary(ResultSet rs) throws SQLException {
        Integer[] parts = (Integer[]) array(rs.getArray("part_numbers"));
        Integer[] bytes = (Integer[]) array(rs.getArray("segment_bytes"));
        String[] ids = rs.getString("message_ids").split("\t", -1);
        if (ids.length != parts.length) {
            throw new IllegalStateException("binary " + rs.getString("file_name") + " of " + rs.getString("group_name")
                    + " holds " + parts.length + " parts but " + ids.length + " message-ids; the catalog was written"
                    + " outside headway: write the binary again or delete its row");
        }
        List<Segment> segments = new ArrayList<>(parts.length);
        for (int i = 0; i < parts.length; i++) {
            segments.add(new Segment(parts[i], bytes[i], ids[i]));
        }
        Timestamp posted = rs.getTimestamp("posted");
        return new CompletedBinary(
                rs.getString("group_name"),
                rs.getString("poster"),
                rs.getString("file_name"),
                rs.getInt("total_parts"),
                rs.getString("release_name"),
                rs.getInt("file_total"),
                rs.getString("subject"),
                posted == null ? null : posted.toInstant(),
                rs.getLong("first_article"),
                rs.getLong("last_article"),
                rs.getInt("rule_version"),
                segments);
    }

    private static Object array(Array a) throws SQLException {
        try {
            return a.getArray();
        } finally {
            a.free();
        }
    }
}
