package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import headway.index.CompletedBinary;
import headway.index.NzbWriter;
import headway.index.RuleSet;
import headway.index.Segment;
import headway.index.Window;
import headway.overview.OverviewLine;
import headway.store.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The catalog partitioned by posting month (V33): a file posted across a month boundary is a row
 * per month, in that month's partition, however often and wherever a re-index cuts its headers,
 * with each article once and its release counting it once; retention removes a month past the
 * horizon by dropping its partition, keeping whole the releases it may not remove.
 */
class MonthlyCatalogTest {

    private static final String G = "a.b.monthly";
    private static final String POSTER = "Joe <joe@example.com>";
    private static final String OCTOBER_31 = "Sat, 31 Oct 2026 23:59:30 +0000";
    private static final String NOVEMBER_1 = "Sun, 01 Nov 2026 00:00:30 +0000";
    private static final RuleSet RULES = RuleSet.defaults(1);

    private static CatalogTestDatabase db;
    private final CatalogStore store = new CatalogStore();

    @BeforeAll
    static void start() throws Exception {
        db = CatalogTestDatabase.start(G, "a.b.fresh", "a.b.edge");
        TestDatabase.execute(db.ds, "select binaries_month('2026-10-01'), binaries_month('2026-11-17')");
    }

    @AfterAll
    static void stop() throws Exception {
        db.close();
    }

    private static OverviewLine header(int part, String date) {
        return new OverviewLine(
                1_000 + part,
                "Straddle.Release.2026 - [1/1] - \"straddle.rar\" yEnc (" + part + "/4)",
                POSTER,
                date,
                "<s" + part + "@x>",
                "",
                700_000,
                5400,
                "");
    }

    /** Feeds the headers of {@code parts} (1 and 2 on 31 October, 3 and 4 on 1 November) to a new window and writes all it holds. */
    private void index(int... parts) throws Exception {
        Window w = new Window(G, 50_000);
        for (int part : parts) {
            w.accept(header(part, part <= 2 ? OCTOBER_31 : NOVEMBER_1), RULES);
        }
        w.closeAll();
        List<CompletedBinary> out = w.drain();
        db.inTransaction(c -> store.writeBinaries(c, out));
    }

    @Test
    void reindexingAFileAcrossAMonthBoundaryPlacesEachArticleOnceInItsMonth() throws Exception {
        index(1, 2, 3, 4);
        String first = db.dump();
        index(3, 4); // a re-index that starts inside the file, in November
        index(2, 3); // and one that cuts it across the boundary
        index(4, 3, 2, 1);
        assertThat(db.dump()).isEqualTo(first);

        assertThat(db.rows("select tableoid::regclass || ' ' || part_numbers::text from binaries where group_name = '"
                        + G + "' order by posted_month"))
                .containsExactly("binaries_2026_10 {1,2}", "binaries_2026_11 {3,4}");
        assertThat(db.rows("select m from binaries, unnest(message_id_array(message_ids)) as m where group_name = '" + G
                        + "' order by m"))
                .containsExactly("s1@x", "s2@x", "s3@x", "s4@x");
        Release r = store.named(db.ds, "Straddle.Release.2026").get(0);
        assertThat(r.filesPresent()).isEqualTo(1);
        assertThat(r.filesComplete()).isEqualTo(1);
        assertThat(r.complete()).isTrue();
        List<CompletedBinary> nzb = store.binaries(db.ds, r);
        assertThat(nzb).hasSize(1);
        assertThat(nzb.get(0).segments())
                .extracting(Segment::messageId)
                .containsExactly("s1@x", "s2@x", "s3@x", "s4@x");
        ByteArrayOutputStream xml = new ByteArrayOutputStream();
        NzbWriter.write(xml, r.name(), nzb);
        assertThat(xml.toString(StandardCharsets.UTF_8))
                .containsOnlyOnce("<file ")
                .contains("s4@x");
    }

    @Test
    void aFreshHalfWhoseOtherHalfIsStoredIsNotAddedToItsReleaseTwice() throws Exception {
        String g = "a.b.fresh";
        db.inTransaction(c -> store.writeBinaries(c, List.of(half(g, "a.rar", "2026-10-31T23:59:00Z", 10, 1, 2))));
        // the other half, fresh to a window that no longer held the first: copied, then merged after all
        db.inTransaction(c -> store.writeBinaries(c, List.of(half(g, "a.rar", "2026-11-01T00:01:00Z", 12, 3, 4))));
        db.inTransaction(c -> store.writeBinaries(c, List.of(half(g, "other.rar", "2026-11-02T00:01:00Z", 20, 1, 2))));

        Release r = store.release(db.ds, g, POSTER, "Fresh").orElseThrow();
        String counted = r.filesPresent() + " " + r.filesComplete() + " " + r.complete() + " " + r.bytes();
        assertThat(counted).isEqualTo("2 1 false 150");
        db.inTransaction(c -> ReleaseWriter.upsertReleaseKeys(
                c, List.of(List.of(g, POSTER, "Fresh")), headway.category.CategoryRules.defaults(), 0));
        Release again = store.release(db.ds, g, POSTER, "Fresh").orElseThrow();
        assertThat(again.filesPresent() + " " + again.filesComplete() + " " + again.complete() + " " + again.bytes())
                .as("a recompute changes nothing")
                .isEqualTo(counted);
    }

    @Test
    void freshBinariesAtTheEdgesOfTheYearsTheCatalogHoldsAreWritten() throws Exception {
        // a binary near a month boundary looks for its file's other half in the months beside it; the
        // first and the last month the catalog holds (years 1 and 9999) have no month beyond them
        String g = "a.b.edge";
        db.inTransaction(c -> store.writeBinaries(c, List.of(half(g, "late.rar", "9999-12-31T23:59:00Z", 10, 1, 2))));
        db.inTransaction(c -> store.writeBinaries(c, List.of(half(g, "early.rar", "0001-01-01T00:01:00Z", 20, 1, 2))));

        Release r = store.release(db.ds, g, POSTER, "Fresh").orElseThrow();
        assertThat(r.filesPresent() + " " + r.bytes()).isEqualTo("2 100");
    }

    /** A fresh binary of {@code file} (4 parts) holding {@code parts}, as a window that saw nothing of it before writes it. */
    private static CompletedBinary half(String group, String file, String posted, long first, int... parts) {
        List<Segment> segments = new ArrayList<>();
        for (int p : parts) {
            segments.add(new Segment(p, 25, group + "." + file + "." + p + "@x", first + p));
        }
        return new CompletedBinary(
                group,
                POSTER,
                file,
                4,
                "Fresh",
                2,
                "subject",
                Instant.parse(posted),
                first,
                first + parts.length,
                1,
                segments,
                true);
    }

    @Test
    void retentionDropsAMonthPastTheHorizonWholeAndKeepsAReleaseItMayNotRemove() throws Exception {
        String g = "a.b.old";
        try (CatalogTestDatabase own = CatalogTestDatabase.start(g)) {
            retentionDropsAMonth(own, g);
        }
    }

    /** A database of its own: the purge's horizon would take the other tests' months too. */
    private void retentionDropsAMonth(CatalogTestDatabase own, String g) throws Exception {
        TestDatabase.execute(own.ds, "select binaries_month('2025-01-01')");
        own.inTransaction(c -> {
            try (var s = c.prepareStatement("insert into ranges (group_name, start_article, end_article,"
                    + " next_article, status, priority) values (?, 1, 400000, 400001, 'done', 1),"
                    + " (?, 400001, 500000, 400001, 'planned', 1)")) {
                s.setString(1, g);
                s.setString(2, g);
                s.executeUpdate();
            }
            store.writeBinaries(
                    c,
                    List.of(
                            old(g, "Gone.Release", "gone.part1.rar", "2025-01-10T10:00:00Z", 100),
                            old(g, "Gone.Release", "gone.part2.rar", "2025-01-10T10:01:00Z", 200),
                            old(g, "Near.Release", "near.part1.rar", "2025-01-20T10:00:00Z", 399_900),
                            old(g, "Near.Release", "near.part2.rar", "2025-01-20T10:01:00Z", 399_950)));
        });
        long partition = TestDatabase.queryLong(own.ds, "select 'binaries_2025_01'::regclass::oid::bigint");
        assertThat(own.rows("select distinct tableoid::regclass::text from binaries where group_name = '" + g + "'"))
                .containsExactly("binaries_2025_01");
        List<CompletedBinary> nearBefore =
                store.binaries(own.ds, store.named(own.ds, "Near.Release").get(0));

        CatalogRetention.Purged purged = new CatalogRetention(own.ds).purge(30, 1_000, 500);

        assertThat(purged.monthsDropped()).isEqualTo(1);
        assertThat(purged.releases()).isEqualTo(1);
        assertThat(purged.binaries()).isEqualTo(2);
        assertThat(TestDatabase.queryLong(own.ds, "select count(*) from pg_class where oid = " + partition))
                .as("the month's table is gone, not emptied")
                .isZero();
        assertThat(new CatalogMonths(own.ds).months().stream().map(Object::toString))
                .doesNotContain("2025-01-01");
        assertThat(own.rows("select name from releases where group_name = '" + g + "'"))
                .containsExactly("Near.Release");
        assertThat(own.rows("select file_name || ' ' || tableoid::regclass from binaries where group_name = '" + g
                        + "' order by file_name"))
                .as("the release within a holder's reach stays whole, in the default partition")
                .containsExactly("near.part1.rar binaries_default", "near.part2.rar binaries_default");
        assertThat(store.binaries(own.ds, store.named(own.ds, "Near.Release").get(0)))
                .isEqualTo(nearBefore);

        CatalogRetention.Purged again = new CatalogRetention(own.ds).purge(30, 1_000, 500);
        assertThat(again.monthsDropped() + again.releases() + again.binaries()).isZero();
    }

    private static CompletedBinary old(String group, String release, String file, String posted, long first) {
        List<Segment> segments = new ArrayList<>();
        for (int p = 1; p <= 2; p++) {
            segments.add(new Segment(p, 500, group + "." + file + "." + p + "@x"));
        }
        return new CompletedBinary(
                group, POSTER, file, 2, release, 2, "subject", Instant.parse(posted), first, first + 1, 1, segments);
    }
}
