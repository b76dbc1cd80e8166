package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.category.CategoryRules;
import headway.index.CompletedBinary;
import headway.index.Segment;
import headway.store.Database;
import headway.store.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A release written by adding its new binaries' sums (V17) equals the release recomputed from all
 * its binaries, whatever mix of new binaries, reposts, partial binaries completed later and merges
 * wrote it; and V17 gives releases written before it the sums of their binaries.
 */
class ReleaseSumsTest {

    private static final String G = "alt.binaries.sums";
    private static final String OTHER = "alt.binaries.sums.other";
    private static final Instant POSTED = Instant.parse("2026-12-01T10:00:00.123456789Z");

    private static CatalogTestDatabase db;
    private final CatalogStore store = new CatalogStore();

    @BeforeAll
    static void start() throws Exception {
        db = CatalogTestDatabase.start(G, OTHER);
    }

    @AfterAll
    static void stop() throws Exception {
        db.close();
    }

    @Test
    void releasesAddedToEqualReleasesRecomputedFromTheirBinaries() throws Exception {
        Random random = new Random(17);
        Map<String, CompletedBinary> written = new LinkedHashMap<>();
        for (int round = 0; round < 40; round++) {
            List<CompletedBinary> batch = new ArrayList<>();
            int n = 1 + random.nextInt(12);
            for (int i = 0; i < n; i++) {
                String group = random.nextInt(5) == 0 ? OTHER : G;
                String poster = "poster" + random.nextInt(3) + " <p@example.com>";
                String release = "Show.S01E0" + random.nextInt(6) + ".1080p.WEB-DL.x264-GRP";
                String file = release + ".part" + random.nextInt(8) + ".rar";
                int total = 1 + random.nextInt(6);
                String key = group + "|" + poster + "|" + file + "|" + total;
                // some parts now, maybe the rest later; a binary written before comes back as a repost or its
                // completion
                List<Segment> segments = new ArrayList<>();
                for (int p = 1; p <= total; p++) {
                    if (random.nextInt(4) != 0) {
                        segments.add(new Segment(p, 100_000 + random.nextInt(900_000), key + "." + p + "@x"));
                    }
                }
                if (segments.isEmpty()) {
                    segments.add(new Segment(1, 5, key + ".1@x"));
                }
                boolean fresh = !written.containsKey(key) || random.nextInt(3) == 0; // a repost claims to be fresh
                CompletedBinary b = new CompletedBinary(
                        group,
                        poster,
                        file,
                        total,
                        release,
                        random.nextInt(3) == 0 ? -1 : 3 + random.nextInt(8),
                        "subject of " + file,
                        random.nextInt(6) == 0 ? null : POSTED.plusNanos(random.nextInt(1_000_000_000)),
                        1 + round * 100L + i,
                        1 + round * 100L + i,
                        1 + random.nextInt(3),
                        segments,
                        fresh);
                if (batch.stream().noneMatch(o -> sameKey(o, b))) {
                    batch.add(b);
                    written.put(key, b);
                }
            }
            db.inTransaction(c -> store.writeBinaries(c, batch));
            String asWritten = releases();
            db.inTransaction(c -> ReleaseWriter.upsertReleaseKeys(c, allKeys(c), CategoryRules.defaults(), 0));
            assertThat(releases()).as("round %d", round).isEqualTo(asWritten);
        }
        assertThat(TestDatabase.queryLong(
                        db.ds, "select count(*) from releases where parts_present = 0 or total_parts = 0"))
                .isZero();
    }

    @Test
    void theMigrationGivesEarlierReleasesTheSumsOfTheirBinaries() throws Exception {
        try (HikariDataSource ds = TestDatabase.migratedTo("sums_v17", "16")) {
            TestDatabase.execute(ds, """
                    insert into groups (name) values ('alt.binaries.sums');
                    insert into binaries (group_name, poster, file_name, total_parts, release_name, subject, posted,
                                          first_article, last_article, rule_version, part_numbers, segment_bytes,
                                          message_ids, bytes)
                    values ('alt.binaries.sums', 'p', 'a.rar', 3, 'Rel', 's', now(), 1, 3, 1,
                            '{1,2,3}', '{10,20,30}', E'a1@x\\ta2@x\\ta3@x', 60),
                           ('alt.binaries.sums', 'p', 'b.rar', 4, 'Rel', 's', now(), 4, 5, 1,
                            '{1,2}', '{10,20}', E'b1@x\\tb2@x', 30),
                           ('alt.binaries.sums', 'p', 'c.rar', 2, 'Other', 's', now(), 6, 6, 1,
                            '{2}', '{5}', 'c2@x', 5);
                    insert into releases (group_name, poster, name, files_present, files_complete, bytes,
                                          completion_percent, complete, rule_version)
                    values ('alt.binaries.sums', 'p', 'Rel', 2, 1, 90, 71.43, false, 1),
                           ('alt.binaries.sums', 'p', 'Other', 1, 0, 5, 50, false, 1),
                           ('alt.binaries.sums', 'p', 'Empty', 0, 0, 0, 0, false, 1);
                    """);

            Database.migrate(ds);

            assertThat(TestDatabase.queryLong(
                            ds, "select parts_present * 1000 + total_parts from releases where name = 'Rel'"))
                    .isEqualTo(5_007);
            assertThat(TestDatabase.queryLong(
                            ds, "select parts_present * 1000 + total_parts from releases where name = 'Other'"))
                    .isEqualTo(1_002);
            assertThat(TestDatabase.queryLong(
                            ds, "select parts_present * 1000 + total_parts from releases where name = 'Empty'"))
                    .isZero();
            // a new binary of Rel is added to the migrated sums
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                new CatalogStore()
                        .writeBinaries(
                                c,
                                List.of(new CompletedBinary(
                                        "alt.binaries.sums",
                                        "p",
                                        "d.rar",
                                        2,
                                        "Rel",
                                        -1,
                                        "s",
                                        null,
                                        7,
                                        8,
                                        1,
                                        List.of(new Segment(1, 7, "d1@x"), new Segment(2, 8, "d2@x")),
                                        true)));
                c.commit();
            }
            assertThat(TestDatabase.queryLong(
                            ds,
                            "select parts_present * 1000 + total_parts from releases where name = 'Rel'"
                                    + " and files_present = 3 and bytes = 105"))
                    .isEqualTo(7_009);
        }
    }

    private static boolean sameKey(CompletedBinary a, CompletedBinary b) {
        return a.group().equals(b.group())
                && a.poster().equals(b.poster())
                && a.fileName().equals(b.fileName())
                && a.totalParts() == b.totalParts();
    }

    private static String releases() throws SQLException {
        StringBuilder sb = new StringBuilder();
        try (Connection c = db.ds.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select * from releases order by group_name, poster, name")) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    sb.append(rs.getString(i)).append('|');
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    private static List<List<String>> allKeys(Connection c) throws SQLException {
        List<List<String>> keys = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select group_name, poster, name from releases order by 1, 2, 3")) {
            while (rs.next()) {
                keys.add(List.of(rs.getString(1), rs.getString(2), rs.getString(3)));
            }
        }
        return keys;
    }
}
