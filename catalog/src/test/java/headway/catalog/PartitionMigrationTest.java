package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.index.CompletedBinary;
import headway.index.NzbWriter;
import headway.index.Segment;
import headway.store.Database;
import headway.store.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * V33 partitions an existing catalog by posting month: a catalog written with the schema as of V28
 * has, after the migration, every row (but for the new month), search answer and NZB it had, each
 * row in its month's partition; and a re-index of a file its old build kept in one row although it
 * was posted across a month boundary places each article once.
 */
class PartitionMigrationTest {

    private static final String G = "alt.binaries.migrated";
    private static final String POSTER = "p <p@example.com>";
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-07T00:00:00Z"), ZoneOffset.UTC);

    /** The binaries' columns as V28 has them, in key order. */
    private static final String BINARY_ROWS = """
            select group_name, poster, file_name, total_parts, release_name, file_total, subject, posted, first_article,
                   last_article, rule_version, part_numbers, segment_bytes, array_to_string(message_id_array(message_ids), E'\t'), parts_present, bytes, complete
            from binaries order by group_name, poster, file_name, total_parts
            """;

    /** The releases' columns as V28 has them (V33 adds posted_last), in key order. */
    private static final String RELEASE_ROWS =
            "select to_jsonb(r) - 'posted_last' from releases r order by group_name, poster, name";

    /**
     * 90 binaries of 30 releases posted from September to November 2026, every seventh without a
     * date, and a file whose parts 3 and 4 were posted a minute after midnight on 1 November while
     * the old build kept it whole in one row with the date of its earliest part.
     */
    private static final String V28_CATALOG = """
            insert into groups (name) values ('alt.binaries.migrated');
            insert into binaries (group_name, poster, file_name, total_parts, release_name, file_total, subject, posted,
                                  first_article, last_article, rule_version, part_numbers, segment_bytes, message_ids,
                                  bytes)
            select 'alt.binaries.migrated', 'p <p@example.com>', 'show.' || i || '.rar', 3,
                   'Some.Show.S01E' || lpad((i / 3)::text, 2, '0') || '.720p-GRP', 3, 'subject ' || i,
                   case when i % 7 = 0 then null
                        else timestamptz '2026-09-02 10:00:00+00' + (i / 3) * interval '3 days' + i * interval '1 minute' end,
                   i * 10, i * 10 + 2, 1, '{1,2,3}', array[100 * i, 100 * i + 1, 100 * i + 2],
                   'm' || i || '.1@x' || E'\\t' || 'm' || i || '.2@x' || E'\\t' || 'm' || i || '.3@x', 300 * i + 3
            from generate_series(0, 89) as i;
            insert into binaries (group_name, poster, file_name, total_parts, release_name, file_total, subject, posted,
                                  first_article, last_article, rule_version, part_numbers, segment_bytes, message_ids,
                                  bytes)
            values ('alt.binaries.migrated', 'p <p@example.com>', 'straddle.rar', 4, 'Straddle.Release', 1, 's',
                    '2026-10-31 23:59:00+00', 2000, 2003, 1, '{1,2,3,4}', '{10,20,30,40}',
                    's1@x' || E'\\t' || 's2@x' || E'\\t' || 's3@x' || E'\\t' || 's4@x', 100);
            insert into releases (group_name, poster, name, files_expected, files_present, files_complete, bytes, posted,
                                  completion_percent, complete, rule_version, parts_present, total_parts, category)
            select group_name, poster, release_name, max(file_total), count(*), count(*) filter (where complete),
                   sum(bytes), min(posted), 100, bool_and(complete), 1, sum(parts_present), sum(total_parts), 5030
            from binaries group by group_name, poster, release_name;
            insert into release_grabs (guid, grabs) select guid, 2 from releases where name like '%E01%';
            insert into rule_spans (group_name, rule_version, keying, first_article, last_article, widest)
            values ('alt.binaries.migrated', 1, 1, 0, 2003, 3);
            """;

    private static final List<String> SEARCHES = List.of("", "some show", "s01e05", "720p", "straddle");

    @Test
    void aCatalogWrittenAtV28IsTheSameAtV33EachRowInItsMonth() throws Exception {
        try (HikariDataSource ds = TestDatabase.migratedTo("partitions_v33", "28")) {
            TestDatabase.execute(ds, V28_CATALOG);
            // the migrations between (V29 an index, V30 a check, V31 releases.added) leave the rows as they
            // are; the searches of this build need V31's column, so the catalog is read before V33 at V31
            TestDatabase.migrateTo(ds, "31");
            // and they ask the index of V38 by its functions, which V38 makes with "create or replace"
            TestDatabase.execute(ds, searchFunctionsOfV38());
            String binaries = dump(ds, BINARY_ROWS);
            String releases = dump(ds, RELEASE_ROWS);
            Map<String, List<String>> searches = searches(ds);
            Map<String, String> nzbs = new LinkedHashMap<>();
            for (String release : releaseNames(ds)) {
                nzbs.put(release, nzb(release, v28Binaries(ds, release)));
            }

            Database.migrate(ds);

            assertThat(dump(ds, BINARY_ROWS)).isEqualTo(binaries);
            assertThat(dump(ds, RELEASE_ROWS)).isEqualTo(releases);
            assertThat(TestDatabase.queryLong(ds, """
                            select count(*) from releases r
                            where posted_last is distinct from (select max(b.posted) from binaries b
                                                                where b.group_name = r.group_name and b.poster = r.poster
                                                                  and b.release_name = r.name)
                            """))
                    .as("every release knows its latest binary")
                    .isZero();
            assertThat(searches(ds)).isEqualTo(searches);
            CatalogStore store = new CatalogStore();
            for (Map.Entry<String, String> e : nzbs.entrySet()) {
                Release r = store.release(ds, G, POSTER, e.getKey()).orElseThrow();
                assertThat(nzb(e.getKey(), store.binaries(ds, r)))
                        .as(e.getKey())
                        .isEqualTo(e.getValue());
            }
            assertThat(TestDatabase.queryLong(ds, """
                            select count(*) from binaries
                            where tableoid::regclass::text <> case when posted is null then 'binaries_default'
                                  else 'binaries_' || to_char(posted at time zone 'UTC', 'YYYY_MM') end
                               or posted_month is distinct from date_trunc('month', posted at time zone 'UTC')::date
                                  and posted_month <> '-infinity'
                            """))
                    .as("every row in the partition of its month, an undated one in the default")
                    .isZero();
            assertThat(TestDatabase.queryLong(ds, "select count(*) from binaries_default"))
                    .isEqualTo(13);
            assertThat(new CatalogMonths(ds).months().stream().map(Object::toString))
                    .contains("2026-09-01", "2026-10-01", "2026-11-01");

            // the new build keys parts 3 and 4 into November; they leave the October row, each article once
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                store.writeBinaries(
                        c,
                        List.of(
                                straddle(
                                        "2026-10-31T23:59:00Z",
                                        2000,
                                        new Segment(1, 10, "s1@x"),
                                        new Segment(2, 20, "s2@x")),
                                straddle(
                                        "2026-11-01T00:01:00Z",
                                        2002,
                                        new Segment(3, 30, "s3@x"),
                                        new Segment(4, 40, "s4@x"))));
                c.commit();
            }
            assertThat(TestDatabase.queryLong(ds, """
                            select count(*) - count(distinct m)
                            from binaries, unnest(message_id_array(message_ids)) as m
                            """)).isZero();
            assertThat(dump(
                            ds,
                            "select tableoid::regclass, part_numbers from binaries where file_name = 'straddle.rar'"
                                    + " order by posted_month"))
                    .isEqualTo("binaries_2026_10\t{1,2}\nbinaries_2026_11\t{3,4}\n");
            Release straddle = store.release(ds, G, POSTER, "Straddle.Release").orElseThrow();
            assertThat(straddle.filesPresent()).isEqualTo(1);
            assertThat(straddle.complete()).isTrue();
            assertThat(nzb("Straddle.Release", store.binaries(ds, straddle))).isEqualTo(nzbs.get("Straddle.Release"));
        }
    }

    private static CompletedBinary straddle(String posted, long first, Segment... segments) {
        return new CompletedBinary(
                G,
                POSTER,
                "straddle.rar",
                4,
                "Straddle.Release",
                1,
                "s",
                Instant.parse(posted),
                first,
                first + 1,
                1,
                List.of(segments));
    }

    /** V38's functions without its index: what this build's searches call, on a catalog at an older version. */
    private static String searchFunctionsOfV38() throws java.io.IOException {
        try (var in = PartitionMigrationTest.class.getResourceAsStream(
                "/db/migration/V38__index_release_words_with_their_posting_day.sql")) {
            String script = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            return script.substring(script.indexOf("create or replace function"), script.indexOf("create index"));
        }
    }

    private static Map<String, List<String>> searches(DataSource ds) {
        ReleaseSearch search = new ReleaseSearch(ds, CLOCK);
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String q : SEARCHES) {
            ReleaseSearch.Page page = search.search(ReleaseSearch.Query.text(q, 100));
            List<String> names = new ArrayList<>();
            names.add("total=" + page.total());
            page.releases().forEach(r -> names.add(r.name() + " " + r.posted() + " " + r.filesPresent()));
            out.put(q, names);
        }
        return out;
    }

    private static List<String> releaseNames(DataSource ds) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select name from releases order by name")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** A release's binaries read as an NZB reader of the V28 schema would: a row per file. */
    private static List<CompletedBinary> v28Binaries(DataSource ds, String release) throws SQLException {
        List<CompletedBinary> out = new ArrayList<>();
        try (Connection c = ds.getConnection();
                var ps = c.prepareStatement("""
                        select file_name, total_parts, file_total, subject, posted, first_article, last_article,
                               part_numbers, segment_bytes, message_ids
                        from binaries where group_name = ? and poster = ? and release_name = ?
                        order by file_name, total_parts
                        """)) {
            ps.setString(1, G);
            ps.setString(2, POSTER);
            ps.setString(3, release);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Integer[] parts = (Integer[]) array(rs.getArray(8));
                    Integer[] sizes = (Integer[]) array(rs.getArray(9));
                    String[] ids = rs.getString(10).split("\t", -1);
                    List<Segment> segments = new ArrayList<>();
                    for (int i = 0; i < parts.length; i++) {
                        segments.add(new Segment(parts[i], sizes[i], ids[i]));
                    }
                    var posted = rs.getTimestamp(5);
                    out.add(new CompletedBinary(
                            G,
                            POSTER,
                            rs.getString(1),
                            rs.getInt(2),
                            release,
                            rs.getInt(3),
                            rs.getString(4),
                            posted == null ? null : posted.toInstant(),
                            rs.getLong(6),
                            rs.getLong(7),
                            1,
                            segments));
                }
            }
        }
        return out;
    }

    private static Object array(Array a) throws SQLException {
        try {
            return a.getArray();
        } finally {
            a.free();
        }
    }

    private static String nzb(String release, List<CompletedBinary> binaries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        NzbWriter.write(out, release, binaries);
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Every row of {@code sql}, columns by tabs, rows by newlines. */
    private static String dump(DataSource ds, String sql) throws SQLException {
        StringBuilder sb = new StringBuilder();
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    sb.append(i > 1 ? "\t" : "").append(rs.getString(i));
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }
}
