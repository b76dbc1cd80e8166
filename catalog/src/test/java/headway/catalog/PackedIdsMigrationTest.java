package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.index.CompletedBinary;
import headway.index.NzbWriter;
import headway.store.Database;
import headway.store.MessageIdPack;
import headway.store.TestDatabase;
import headway.store.TestSeeds;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * V34 packs the message-ids of a catalog written at V33 (text, tabs between ids): every release's
 * NZB is the same after, byte for byte, and {@code message_id_array(bytea)} in SQL gives back what
 * the Java decoder does, for ids of the posting tools and of all of Unicode. Seeded: a failure
 * prints its seed, {@code -Dheadway.seed=N} replays it.
 */
class PackedIdsMigrationTest {

    private static final String G = "alt.binaries.packed";
    private static final String LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    private static final String INSERT_V33 = """
            insert into binaries (group_name, poster, file_name, total_parts, release_name, subject, posted,
                                  first_article, last_article, rule_version, part_numbers, segment_bytes,
                                  message_ids, bytes, posted_month)
            values (?, 'p', ?, ?, ?, 's', '2026-10-05T10:00:00Z', ?, ?, 1, ?::int[], ?::int[], ?, ?, '2026-10-01')
            """;

    @Test
    void aCatalogWrittenAtV33GivesTheSameNzbsPacked() throws Exception {
        long seed = TestSeeds.next();
        Random r = new Random(seed);
        try (HikariDataSource ds = TestDatabase.migratedTo("packed_v34", "33")) {
            TestDatabase.execute(ds, "insert into groups (name) values ('" + G + "')");
            Map<String, List<List<String>>> releases = new LinkedHashMap<>();
            try (Connection c = ds.getConnection();
                    PreparedStatement ps = c.prepareStatement(INSERT_V33)) {
                long article = 1;
                for (int rel = 0; rel < 12; rel++) {
                    String name = "Release." + rel;
                    List<List<String>> files = new ArrayList<>();
                    for (int f = 0; f < 1 + r.nextInt(4); f++) {
                        List<String> ids = ids(r);
                        files.add(ids);
                        StringBuilder parts = new StringBuilder("{");
                        StringBuilder sizes = new StringBuilder("{");
                        for (int i = 0; i < ids.size(); i++) {
                            parts.append(i == 0 ? "" : ",").append(i + 1);
                            sizes.append(i == 0 ? "" : ",").append(100 + i);
                        }
                        ps.setString(1, G);
                        ps.setString(2, name + ".f" + f);
                        ps.setInt(3, ids.size());
                        ps.setString(4, name);
                        ps.setLong(5, article);
                        ps.setLong(6, article + ids.size() - 1);
                        ps.setString(7, parts.append('}').toString());
                        ps.setString(8, sizes.append('}').toString());
                        ps.setString(9, String.join("\t", ids));
                        ps.setLong(10, 100L * ids.size());
                        ps.executeUpdate();
                        article += ids.size();
                    }
                    releases.put(name, files);
                }
            }
            Map<String, String> before = new LinkedHashMap<>();
            for (String name : releases.keySet()) {
                before.put(name, nzb(name, v33Binaries(ds, name)));
            }

            Database.migrate(ds);

            CatalogStore store = new CatalogStore();
            for (String name : releases.keySet()) {
                Release rel = new Release(
                        G, "p", name, -1, 0, 0, 0, null, null, false, 1, null, null, null, null, null, null, null, null,
                        0, null, null, null, null, null, null);
                assertThat(nzb(name, store.binaries(ds, rel)))
                        .as(TestSeeds.describe(seed) + " " + name)
                        .isEqualTo(before.get(name));
            }
            assertThat(TestDatabase.queryLong(ds, "select count(*) from binaries where message_ids is null"))
                    .isZero();
        }
    }

    @Test
    void theSqlDecoderReadsWhatJavaWrites() throws Exception {
        long seed = TestSeeds.next();
        Random r = new Random(seed);
        try (HikariDataSource ds = TestDatabase.migrated("packed_sql");
                Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("select message_id_array(?::bytea)")) {
            for (int round = 0; round < 300; round++) {
                List<String> ids = ids(r).stream()
                        .map(id -> new String(id.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
                        .toList();
                ps.setBytes(1, MessageIdPack.encode(ids));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertThat(List.of((String[]) rs.getArray(1).getArray()))
                            .as(TestSeeds.describe(seed))
                            .isEqualTo(ids);
                }
            }
        }
    }

    /** A binary's ids: one tool's shape with its counters, or any text without a tab or NUL. */
    private static List<String> ids(Random r) {
        int n = 1 + r.nextInt(r.nextInt(5) == 0 ? 150 : 12);
        long millis = 1_695_410_374_703L + r.nextInt(1_000_000);
        long a = 3_400_000_000L + r.nextInt(90_000_000);
        long b = 1_000_000L + r.nextInt(8_000_000);
        int kind = r.nextInt(6);
        List<String> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            millis += 20 + r.nextInt(40);
            a += 8 + r.nextInt(5);
            b += 550 + r.nextInt(100);
            ids.add(
                    switch (kind) {
                        case 0 -> millis + "." + TestSeeds.text(r, "0123456789abcdef", 32) + "@nyuu";
                        case 1 -> TestSeeds.text(r, LETTERS, 24) + "-" + millis + "@nyuu";
                        case 2 -> TestSeeds.text(r, LETTERS, 32) + "@abc";
                        case 3 -> "NewzToolz_Rulz!_www.techsono.com_" + a + "_" + b + "@giganews.com";
                        case 4 ->
                            r.nextInt(4) == 0 ? "" : "part" + i + "of" + n + "." + TestSeeds.text(r, LETTERS, 3) + "@x";
                        default -> unicode(r);
                    });
        }
        return ids;
    }

    private static String unicode(Random r) {
        StringBuilder sb = new StringBuilder();
        int len = r.nextInt(30);
        for (int i = 0; i < len; i++) {
            int cp = r.nextBoolean() ? 0x20 + r.nextInt(0x60) : 1 + r.nextInt(0x10FFFF);
            if (cp == '\t' || (cp >= 0xD800 && cp <= 0xDFFF)) {
                cp = 'x';
            }
            sb.appendCodePoint(cp);
        }
        return sb.toString();
    }

    /** A release's binaries as the reader of V33 read them: ids split on tabs. */
    private static List<CompletedBinary> v33Binaries(HikariDataSource ds, String release) throws Exception {
        List<CompletedBinary> out = new ArrayList<>();
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("""
                        select file_name, total_parts, part_numbers, segment_bytes, message_ids, first_article,
                               last_article
                        from binaries where group_name = ? and release_name = ? order by file_name, total_parts
                        """)) {
            ps.setString(1, G);
            ps.setString(2, release);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Integer[] parts = (Integer[]) rs.getArray(3).getArray();
                    Integer[] sizes = (Integer[]) rs.getArray(4).getArray();
                    String[] ids = rs.getString(5).split("\t", -1);
                    List<headway.index.Segment> segments = new ArrayList<>();
                    for (int i = 0; i < parts.length; i++) {
                        segments.add(new headway.index.Segment(parts[i], sizes[i], ids[i]));
                    }
                    out.add(new CompletedBinary(
                            G,
                            "p",
                            rs.getString(1),
                            rs.getInt(2),
                            release,
                            -1,
                            "s",
                            java.time.Instant.parse("2026-10-05T10:00:00Z"),
                            rs.getLong(6),
                            rs.getLong(7),
                            1,
                            segments));
                }
            }
        }
        return out;
    }

    private static String nzb(String release, List<CompletedBinary> binaries) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        NzbWriter.write(out, release, binaries);
        return out.toString(StandardCharsets.UTF_8);
    }
}
