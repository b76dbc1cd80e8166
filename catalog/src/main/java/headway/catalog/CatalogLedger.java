package headway.catalog;

import headway.index.Poison;
import headway.index.RejectedArticle;
import headway.store.Jdbc;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * The catalog's ledgers of what it does not hold: the runs of articles missing on the server
 * (one row per batch, {@code missing_runs}, beside the runs older builds wrote one per row), the
 * articles the index or the catalog refused ({@code rejected_articles}), and the whole text of
 * names the catalog keys by a bounded form ({@code long_names}). Every write joins the caller's
 * transaction and is idempotent, because a batch is written again after a retry or a takeover;
 * {@link CatalogStore} is the public face of these writes.
 */
final class CatalogLedger {

    private CatalogLedger() {}

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

    private static final String SELECT_MISSING = """
            select first_article, last_article
            from missing_article_runs
            where group_name = ?
            order by first_article, last_article
            """;

    /**
     * Fails naming the fix unless {@code group} is in table {@code groups}, and key-share locks its
     * row for the transaction, as the foreign keys that V16 dropped did once per row written.
     */
    static void requireGroup(Connection conn, String group) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(GROUP_KNOWN)) {
            ps.setString(1, group);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException(
                            "the group " + group + " is not in table groups; add the group (headway groups add " + group
                                    + ") before writing its binaries or missing runs",
                            CatalogStore.FOREIGN_KEY_VIOLATION);
                }
            }
        }
    }

    /**
     * Records articles the catalog could not take in the {@code rejected_articles} ledger, one
     * statement for the batch; an article already there keeps its first entry. Text is cleaned of
     * NUL and bounded, the raw excerpt kept as bytes.
     */
    static void recordRejected(Connection conn, List<RejectedArticle> rejected) throws SQLException {
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
    static void recordLongNames(Connection conn, Map<String, String> longNames) throws SQLException {
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
    static Map<Long, String> rejected(Connection conn, String group) throws SQLException {
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
    static void recordMissing(Connection conn, String group, long from, long to, List<long[]> runs)
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
    static List<MissingRun> missing(DataSource ds, String group) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return Jdbc.list(c, SELECT_MISSING, rs -> new MissingRun(rs.getLong(1), rs.getLong(2)), group);
        }
    }
}
