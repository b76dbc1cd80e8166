package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.index.CompletedBinary;
import headway.index.NzbWriter;
import headway.index.Segment;
import headway.store.Database;
import headway.store.TestDatabase;
import headway.store.TestSeeds;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * V36 stores every variable-width column of {@code binaries} uncompressed and a row's packed ids
 * out of line past 2,032 bytes: a catalog written at V35 (binaries of 1 to 700 parts, by COPY and
 * by the merge, in two months and the default partition) gives every NZB it gave, its long rows
 * rewritten with their ids in TOAST, and the months made after the migration take the same
 * storage. Seeded: a failure prints its seed, {@code -Dheadway.seed=N} replays it.
 */
class RowsOutOfLineMigrationTest {

    private static final String G = "alt.binaries.outofline";
    private static final String POSTER = "p <p@example.com>";
    private static final String HEX = "0123456789abcdef";
    private static final int[] PARTS = {1, 3, 40, 72, 143, 286, 700};

    /** Rows whose ids alone pass the target and still sit in the heap. */
    private static final String LONG_IDS_INLINE = """
            select count(*) filter (where pg_column_toast_chunk_id(message_ids) is null)
            from binaries where octet_length(message_ids) > 2032
            """;

    /** Partitions without the target or with a variable-width column stored otherwise than EXTERNAL. */
    private static final String PARTITIONS_OTHERWISE = """
            select count(*) from pg_inherits i join pg_class c on c.oid = i.inhrelid
            where i.inhparent = 'binaries'::regclass
              and (not coalesce(c.reloptions @> array['toast_tuple_target=2032'], false)
                   or exists (select 1 from pg_attribute a
                              where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attlen = -1
                                and a.attstorage <> 'e'))
            """;

    @Test
    void aCatalogWrittenAtV35GivesTheSameNzbsWithItsLongIdsOutOfLine() throws Exception {
        long seed = TestSeeds.next();
        Random r = new Random(seed);
        try (HikariDataSource ds = TestDatabase.migratedTo("out_of_line_v36", "35")) {
            TestDatabase.execute(ds, "insert into groups (name) values ('" + G + "')");
            Instant now = Instant.now();
            new CatalogMonths(ds).prepare(now.minus(Duration.ofDays(70)));
            Map<String, List<CompletedBinary>> releases = new LinkedHashMap<>();
            long article = 1;
            for (int rel = 0; rel < 10; rel++) {
                String name = "Release." + rel;
                Instant posted = rel % 4 == 3 ? null : now.minus(Duration.ofDays(rel % 2 == 0 ? 40 : 1));
                List<CompletedBinary> files = new ArrayList<>();
                for (int f = 0; f < 1 + r.nextInt(3); f++) {
                    // a RAR volume of 143 parts first: a row of about 4.5 kB that V35 keeps inline
                    int parts = rel == 0 && f == 0 ? 143 : PARTS[r.nextInt(PARTS.length)];
                    files.add(binary(r, name, name + ".part" + f + ".rar", parts, posted, article, true));
                    article += parts;
                }
                releases.put(name, files);
            }
            CatalogStore store = new CatalogStore();
            write(ds, store, releases.values().stream().flatMap(List::stream).toList());
            // the first release's files again, by the merge: nothing changes, but the rows are read and locked
            write(
                    ds,
                    store,
                    releases.get("Release.0").stream()
                            .map(RowsOutOfLineMigrationTest::stale)
                            .toList());
            Map<String, String> before = nzbs(ds, store, releases.keySet());
            for (Map.Entry<String, List<CompletedBinary>> e : releases.entrySet()) {
                assertThat(before.get(e.getKey()))
                        .as(TestSeeds.describe(seed))
                        .isEqualTo(nzb(e.getKey(), e.getValue()));
            }
            long longRows =
                    TestDatabase.queryLong(ds, "select count(*) from binaries where octet_length(message_ids) > 2032");
            assertThat(longRows)
                    .as(TestSeeds.describe(seed) + ": long rows written at V35")
                    .isPositive();
            assertThat(TestDatabase.queryLong(ds, LONG_IDS_INLINE))
                    .as(TestSeeds.describe(seed) + ": V35 keeps those of rows under 8,160 bytes inline")
                    .isPositive();

            Database.migrate(ds);

            assertThat(nzbs(ds, store, releases.keySet()))
                    .as(TestSeeds.describe(seed))
                    .isEqualTo(before);
            assertThat(TestDatabase.queryLong(ds, LONG_IDS_INLINE))
                    .as("every long row rewritten, its ids out of line")
                    .isZero();
            assertThat(TestDatabase.queryLong(ds, PARTITIONS_OTHERWISE)).isZero();

            // a month made after the migration stores its rows the same way
            Instant later = now.plus(Duration.ofDays(3 * 365));
            TestDatabase.execute(
                    ds, "select binaries_month('" + later.toString().substring(0, 10) + "'::date)");
            assertThat(TestDatabase.queryLong(ds, PARTITIONS_OTHERWISE)).isZero();
            CompletedBinary big = binary(r, "Later", "later.part1.rar", 700, later, article, true);
            write(ds, store, List.of(big));
            assertThat(nzbs(ds, store, List.of("Later")).get("Later")).isEqualTo(nzb("Later", List.of(big)));
            assertThat(TestDatabase.queryLong(
                            ds,
                            "select count(*) from binaries where release_name = 'Later'"
                                    + " and pg_column_toast_chunk_id(message_ids) is not null"
                                    + " and tableoid::regclass::text like 'binaries_2___\\___'"))
                    .isEqualTo(1);
        }
    }

    /** A file of {@code parts} parts with Nyuu's ids ({@code <ms>.<32 hex>@nyuu}) and article sizes. */
    private static CompletedBinary binary(
            Random r, String release, String file, int parts, Instant posted, long first, boolean fresh) {
        long millis = 1_695_410_374_703L + r.nextInt(1_000_000);
        List<Segment> segments = new ArrayList<>(parts);
        for (int p = 1; p <= parts; p++) {
            millis += 20 + r.nextInt(40);
            StringBuilder id = new StringBuilder().append(millis).append('.');
            for (int i = 0; i < 32; i++) {
                id.append(HEX.charAt(r.nextInt(16)));
            }
            segments.add(
                    new Segment(p, 739_000 + r.nextInt(400), id.append("@nyuu").toString(), first + p - 1));
        }
        return new CompletedBinary(
                G,
                POSTER,
                file,
                parts,
                release,
                3,
                "[1/3] - \"" + file + "\" yEnc (1/" + parts + ")",
                posted,
                first,
                first + parts - 1,
                1,
                segments,
                fresh);
    }

    private static CompletedBinary stale(CompletedBinary b) {
        return new CompletedBinary(
                b.group(),
                b.poster(),
                b.fileName(),
                b.totalParts(),
                b.releaseName(),
                b.fileTotal(),
                b.subject(),
                b.posted(),
                b.firstArticle(),
                b.lastArticle(),
                b.ruleVersion(),
                b.segments(),
                false);
    }

    private static void write(DataSource ds, CatalogStore store, List<CompletedBinary> binaries) throws Exception {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            store.writeBinaries(c, binaries);
            c.commit();
        }
    }

    private static Map<String, String> nzbs(DataSource ds, CatalogStore store, Iterable<String> names)
            throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        for (String name : names) {
            Release release = store.release(ds, G, POSTER, name).orElseThrow();
            out.put(name, nzb(name, store.binaries(ds, release)));
        }
        return out;
    }

    /** The NZB of a release's files in the catalog's order (file name, total parts). */
    private static String nzb(String release, List<CompletedBinary> binaries) throws Exception {
        List<CompletedBinary> ordered = binaries.stream()
                .sorted(Comparator.comparing(CompletedBinary::fileName).thenComparingInt(CompletedBinary::totalParts))
                .toList();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        NzbWriter.write(out, release, ordered);
        return out.toString(StandardCharsets.UTF_8);
    }
}
