package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import headway.catalog.ReleaseSearch.Plan;
import headway.store.TestSeeds;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every plan of {@link ReleaseSearch} gives the same page as fetching every match: newest first,
 * by days, by months, and the cheapest as chosen with samples of every size, on a seeded random
 * catalog of releases posted over five hundred days (equal posting times, a few without one, one
 * centuries ahead as a hostile Date header makes) and random searches (words dense and rare,
 * categories, an age limit, a group, pages deep and shallow).
 */
class ReleaseSearchPlansTest {

    private static final String G = "alt.binaries.test";
    private static final String OTHER = "alt.binaries.other";
    private static final Instant NOW = Instant.parse("2026-12-07T15:00:00Z");
    private static final String[] WORDS = {"dense", "half", "some", "few", "rare", "once", "never"};
    private static final double[] SHARE = {0.6, 0.3, 0.1, 0.03, 0.01, 0.003, 0};
    private static final int[] CATEGORIES = {5040, 5030, 2040, 3010};

    private static CatalogTestDatabase db;
    private static long seed;

    @BeforeAll
    static void catalog() throws Exception {
        db = CatalogTestDatabase.start(G, OTHER);
        seed = TestSeeds.next();
        Random r = new Random(seed);
        try (Connection c = db.ds.getConnection();
                PreparedStatement ps = c.prepareStatement("""
                        insert into releases (group_name, poster, name, files_present, files_complete, bytes, posted,
                                              completion_percent, complete, rule_version, category)
                        values (?, 'p', ?, 1, 1, 1, ?, 100, true, 1, ?)""")) {
            OffsetDateTime last = null;
            for (int i = 0; i < 900; i++) {
                StringBuilder name = new StringBuilder("Release." + i);
                for (int w = 0; w < WORDS.length; w++) {
                    if (r.nextDouble() < SHARE[w]) {
                        name.append('.').append(WORDS[w]);
                    }
                }
                OffsetDateTime posted;
                int kind = r.nextInt(100);
                if (kind < 3) {
                    posted = null;
                } else if (kind < 13 && last != null) {
                    posted = last; // the same second as another release
                } else if (kind < 14) {
                    posted = NOW.plus(Duration.ofDays(365L * (1 + r.nextInt(300))))
                            .atOffset(ZoneOffset.UTC);
                } else {
                    posted = NOW.minusSeconds((long) (r.nextDouble() * 500 * 86_400))
                            .atOffset(ZoneOffset.UTC);
                }
                if (posted != null) {
                    last = posted;
                }
                ps.setString(1, r.nextInt(4) == 0 ? OTHER : G);
                ps.setString(2, name.toString());
                ps.setObject(3, posted);
                ps.setInt(4, CATEGORIES[r.nextInt(CATEGORIES.length)]);
                ps.addBatch();
            }
            ps.executeBatch();
            try (Statement s = c.createStatement()) {
                s.execute("analyze releases");
            }
        }
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    @Test
    void everyPlanGivesThePageOfEveryMatch() {
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        ReleaseSearch reference = new ReleaseSearch(db.ds, clock, 5_000, Plan.ALL);
        List<ReleaseSearch> others = new ArrayList<>();
        for (Plan p : List.of(Plan.NEWEST, Plan.DAYS, Plan.MONTHS)) {
            others.add(new ReleaseSearch(db.ds, clock, 50, p));
        }
        for (int sample : List.of(1, 8, 50, 400)) {
            others.add(new ReleaseSearch(db.ds, clock, sample));
        }
        Random r = new Random(seed + 1);
        for (int i = 0; i < 50; i++) {
            ReleaseSearch.Query q = query(r);
            ReleaseSearch.Page expected = reference.search(q);
            for (int k = 0; k < others.size(); k++) {
                String as = TestSeeds.describe(seed) + " search " + k + " " + q;
                ReleaseSearch.Page page = others.get(k).search(q);
                assertThat(page.releases()).as(as).isEqualTo(expected.releases());
                if (!page.releases().isEmpty()) {
                    assertThat(page.total())
                            .as(as)
                            .isGreaterThanOrEqualTo(q.offset() + page.releases().size());
                }
                if (page.releases().size() < q.limit()) {
                    assertThat(page.total()).as(as).isEqualTo(expected.total());
                }
            }
        }
    }

    private static ReleaseSearch.Query query(Random r) {
        StringBuilder text = new StringBuilder();
        for (int w = r.nextInt(3); w > 0; w--) {
            text.append(' ').append(WORDS[r.nextInt(WORDS.length)]);
        }
        List<Integer> categories =
                r.nextInt(3) == 0 ? List.of(r.nextBoolean() ? 5000 : CATEGORIES[r.nextInt(4)]) : List.of();
        Duration maxAge = r.nextInt(4) == 0 ? Duration.ofHours(r.nextInt(600 * 24)) : null;
        String group = r.nextInt(5) == 0 ? OTHER : null;
        int limit = 1 + r.nextInt(r.nextBoolean() ? 5 : 60);
        int offset = r.nextBoolean() ? 0 : r.nextInt(r.nextBoolean() ? 20 : 400);
        return new ReleaseSearch.Query(text.toString().strip(), categories, null, null, maxAge, group, limit, offset);
    }
}
