package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.index.CompletedBinary;
import headway.index.RejectedArticle;
import headway.index.Segment;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Retention removes whole releases posted before the horizon with their binaries, the missing runs and
 * rejected articles below them, and nothing a holder may still write to: a release with one binary
 * past the horizon, near a range not done or near the group's cursor, or without a posting time stays
 * whole.
 */
class CatalogRetentionTest {

    private static final String POSTER = "Joe <joe@example.com>";
    private static final long MAX_AGE = 1_000;
    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    private static final Instant OLD = NOW.minus(Duration.ofDays(100));
    private static final Instant NEW = NOW.minus(Duration.ofDays(2));

    private static CatalogTestDatabase db;
    private final CatalogStore store = new CatalogStore();

    @BeforeAll
    static void start() throws Exception {
        db = CatalogTestDatabase.start("a.b.old", "a.b.straddle", "a.b.open", "a.b.window", "a.b.busy", "a.b.many");
    }

    @AfterAll
    static void stop() throws Exception {
        db.close();
    }

    private static CompletedBinary binary(String group, String release, String file, Instant posted, long first) {
        List<Segment> segments = new ArrayList<>();
        for (int p = 1; p <= 3; p++) {
            segments.add(new Segment(p, 500_000, group + "." + file + "." + p + "@news.example"));
        }
        return new CompletedBinary(
                group, POSTER, file, 3, release, 2, "subject of " + file, posted, first, first + 2, 1, segments);
    }

    /** A done range over the whole of 1..end, as a group indexed to its end would have. */
    private void indexedTo(String group, long end) throws Exception {
        db.inTransaction(c -> {
            try (var s = c.prepareStatement("insert into ranges (group_name, start_article, end_article,"
                    + " next_article, status, priority) values (?, 1, ?, ?, 'done', 1)")) {
                s.setString(1, group);
                s.setLong(2, end);
                s.setLong(3, end + 1);
                s.executeUpdate();
            }
        });
    }

    private long count(String sql) throws Exception {
        try (Connection c = db.ds.getConnection();
                var rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void removesWholeReleasesBeforeTheHorizonWithTheMissesBelowThemAndNothingElse() throws Exception {
        String g = "a.b.old";
        indexedTo(g, 1_000_000);
        db.inTransaction(c -> {
            store.writeBinaries(
                    c,
                    List.of(
                            binary(g, "Old.Release", "old.part1.rar", OLD, 100),
                            binary(g, "Old.Release", "old.part2.rar", OLD.plusSeconds(60), 200),
                            binary(g, "New.Release", "new.part1.rar", NEW, 900_000),
                            binary(g, "Undated", "undated.rar", null, 300)));
            store.recordMissing(c, g, 1, 150, List.of(new long[] {50, 60}));
            store.recordMissing(c, g, 899_000, 900_100, List.of(new long[] {899_500, 899_600}));
            store.recordRejected(
                    c,
                    List.of(
                            new RejectedArticle(g, 150, "<x@y>", "poison", "raw"),
                            new RejectedArticle(g, 899_700, "<z@y>", "poison", "raw")));
        });
        db.inTransaction(c -> {
            try (var s = c.prepareStatement(
                    "insert into release_grabs (guid, grabs) select guid, 3 from releases where group_name = 'a.b.old'")) {
                s.executeUpdate();
            }
        });
        CatalogRetention retention = new CatalogRetention(db.ds);

        CatalogRetention.Purged purged = retention.purge(30, MAX_AGE, 1);

        assertThat(purged.releases()).isEqualTo(1);
        assertThat(purged.binaries()).isEqualTo(2);
        assertThat(purged.busy()).isZero();
        assertThat(db.rows("select name from releases where group_name = 'a.b.old' order by name"))
                .containsExactly("New.Release", "Undated");
        assertThat(db.rows("select file_name from binaries where group_name = 'a.b.old' order by file_name"))
                .containsExactly("new.part1.rar", "undated.rar");
        assertThat(count("select count(*) from release_grabs")).isEqualTo(2);
        // Below article 202, the last of the release removed: the run of 1..150 and the article 150.
        assertThat(purged.missingRuns()).isEqualTo(1);
        assertThat(purged.rejected()).isEqualTo(1);
        assertThat(db.rows("select article from rejected_articles where group_name = 'a.b.old'"))
                .containsExactly("899700");
        assertThat(db.rows("select from_article from missing_runs where group_name = 'a.b.old'"))
                .containsExactly("899000");

        String after = db.dump();
        CatalogRetention.Purged again = retention.purge(30, MAX_AGE, 1);
        assertThat(again.releases() + again.binaries() + again.missingRuns() + again.rejected())
                .isZero();
        assertThat(db.dump()).isEqualTo(after);
    }

    @Test
    void keepsAReleaseWholeWhenOneOfItsBinariesIsPastTheHorizon() throws Exception {
        String g = "a.b.straddle";
        indexedTo(g, 1_000_000);
        db.inTransaction(c -> store.writeBinaries(
                c,
                List.of(
                        binary(g, "Straddle", "s.part1.rar", OLD, 100),
                        binary(g, "Straddle", "s.part2.rar", NEW, 200))));

        new CatalogRetention(db.ds).purge(30, MAX_AGE, 100);

        assertThat(db.rows("select file_name from binaries where group_name = 'a.b.straddle' order by 1"))
                .containsExactly("s.part1.rar", "s.part2.rar");
    }

    @Test
    void keepsWhatARangeNotDoneOrAWindowMayStillWriteTo() throws Exception {
        String open = "a.b.open";
        db.inTransaction(c -> {
            try (var s = c.prepareStatement("insert into ranges (group_name, start_article, end_article,"
                    + " next_article, status, priority) values (?, 1, 10000, 10001, 'done', 1),"
                    + " (?, 10001, 20000, 10001, 'planned', 1), (?, 20001, 900000, 900001, 'done', 1)")) {
                s.setString(1, open);
                s.setString(2, open);
                s.setString(3, open);
                s.executeUpdate();
            }
            store.writeBinaries(
                    c,
                    List.of(
                            binary(open, "Far", "far.rar", OLD, 100),
                            binary(open, "Near", "near.part1.rar", OLD, 5_000),
                            binary(open, "Near", "near.part2.rar", OLD, 9_500)));
        });
        String window = "a.b.window";
        indexedTo(window, 100_000);
        db.inTransaction(c -> store.writeBinaries(
                c,
                List.of(
                        binary(window, "Gone", "gone.rar", OLD, 100),
                        binary(window, "Held", "held.rar", OLD, 99_500))));

        new CatalogRetention(db.ds).purge(30, MAX_AGE, 100);

        assertThat(db.rows("select name from releases where group_name = 'a.b.open'"))
                .containsExactly("Near");
        assertThat(db.rows("select name from releases where group_name = 'a.b.window'"))
                .containsExactly("Held");
    }

    @Test
    void smallBatchesGoOnPastTheReleasesTheyKeep() throws Exception {
        String g = "a.b.many";
        indexedTo(g, 1_000_000);
        List<CompletedBinary> binaries = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            binaries.add(binary(g, "Many." + i, "many" + i + ".rar", OLD.plusSeconds(i), 1_000L * (i + 1)));
        }
        // posted among the others, but its second file is recent: kept whole, and passed over
        binaries.add(binary(g, "Kept", "kept.part1.rar", OLD.plusSeconds(3), 50_000));
        binaries.add(binary(g, "Kept", "kept.part2.rar", NEW, 50_010));
        db.inTransaction(c -> store.writeBinaries(c, binaries));

        CatalogRetention.Purged purged = new CatalogRetention(db.ds).purge(30, MAX_AGE, 2);

        assertThat(purged.finished()).isTrue();
        assertThat(db.rows("select name from releases where group_name = 'a.b.many'"))
                .containsExactly("Kept");
        assertThat(db.rows("select file_name from binaries where group_name = 'a.b.many' order by 1"))
                .containsExactly("kept.part1.rar", "kept.part2.rar");
    }

    @Test
    void aGroupWhoseHolderIsWritingIsLeftToTheNextRun() throws Exception {
        String g = "a.b.busy";
        indexedTo(g, 1_000_000);
        db.inTransaction(c -> {
            try (var s = c.prepareStatement("insert into group_leases (group_name) values (?)")) {
                s.setString(1, g);
                s.executeUpdate();
            }
            store.writeBinaries(c, List.of(binary(g, "Busy", "busy.rar", OLD, 100)));
        });
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> {
            try (Connection c = db.ds.getConnection()) {
                c.setAutoCommit(false);
                try (var s = c.prepareStatement("select 1 from group_leases where group_name = ? for share")) {
                    s.setString(1, g);
                    s.executeQuery().close();
                }
                held.countDown();
                assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
                c.commit();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
        try {
            CatalogRetention.Purged purged = new CatalogRetention(db.ds).purge(30, MAX_AGE, 100);
            assertThat(purged.busy()).isEqualTo(1);
            assertThat(db.rows("select name from releases where group_name = 'a.b.busy'"))
                    .containsExactly("Busy");
        } finally {
            done.countDown();
            holder.get(30, TimeUnit.SECONDS);
        }
        assertThat(new CatalogRetention(db.ds).purge(30, MAX_AGE, 100).releases())
                .isGreaterThanOrEqualTo(1);
        assertThat(db.rows("select name from releases where group_name = 'a.b.busy'"))
                .isEmpty();
    }

    @Test
    void refusesANonPositiveRetention() {
        CatalogRetention retention = new CatalogRetention(db.ds);
        assertThatThrownBy(() -> retention.purge(0, MAX_AGE, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> retention.purge(30, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> retention.purge(30, MAX_AGE, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRunOutOfBudgetStopsBeforeItsNextTransactionAndSaysSo() {
        CatalogRetention.Purged purged = new CatalogRetention(db.ds).purge(30, MAX_AGE, 1, () -> false);
        assertThat(purged.finished()).isFalse();
        assertThat(purged.releases()).isZero();
        assertThat(new CatalogRetention(db.ds).purge(30, MAX_AGE, 1).finished()).isTrue();
    }

    @Test
    void theOverviewStatesTheCatalogsBytesAndPostingSpan() {
        CatalogRetention.Overview o = new CatalogRetention(db.ds).overview();
        assertThat(o.bytes()).isPositive();
        if (o.oldest() != null) {
            assertThat(o.oldest()).isBeforeOrEqualTo(o.newest());
        }
    }
}
