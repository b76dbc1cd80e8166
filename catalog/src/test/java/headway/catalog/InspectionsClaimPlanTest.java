package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.store.Database;
import headway.store.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the claim statement costs on a catalog of releases ({@code -Dheadway.claimPlan.releases},
 * 20,000 in the suite, 200,000 for the figures in docs/benchmarks.md) in the steady state
 * between posts: a tenth filed under 8010/8020 and never named, every one of them enrolled already
 * (inspected, unnamed or given up), so enrolment finds nothing new and walks every candidate. Before
 * V29 enrolment read releases in posted order through {@code releases_posted} and filtered all of
 * them; V29's partial index holds only the candidates. The plans and their times are printed (the
 * figures in docs/benchmarks.md, "Inspect"); the test asserts the plan's shape, never a time.
 */
class InspectionsClaimPlanTest {

    static final int RELEASES = Integer.getInteger("headway.claimPlan.releases", 20_000);
    private static final String G = "alt.binaries.claim.plan";

    private static final String FILL = """
            insert into releases (group_name, poster, name, files_expected, files_present, files_complete, bytes,
                                  posted, completion_percent, complete, rule_version, category, real_name)
            select ?, 'poster' || (g % 97) || ' <p@x>', 'release.' || g || '.' || md5(g::text), 10, 10, 10,
                   1000000, now() - g * interval '1 second', 100, g % 50 <> 0,
                   0, case when g % 10 = 8 then 8010 when g % 10 = 9 then 8020
                           else (array[2040, 5040, 5030, 3010, 7020])[g % 5 + 1] end,
                   case when g % 20 = 8 then 'Named.From.Files.' || g || '.1080p.WEB-DL.x264-GRP' end
            from generate_series(1, ?) g
            """;

    private static final String ENROLLED = """
            insert into release_inspections (group_name, poster, name, state, attempts, next_attempt, updated_at)
            select group_name, poster, name, case when posted > now() - interval '1 day' then 'unnamed'
                                                   else 'gave_up' end, 1, null, now()
            from releases where category in (8010, 8020) and complete and real_name is null
            """;

    @Test
    void enrolmentReadsOnlyTheCandidatesNotEveryRelease() throws Exception {
        try (HikariDataSource ds = TestDatabase.migratedTo("claim_plan", "28")) {
            fill(ds);
            List<String> before = explain(ds, Inspections.ENROL);
            List<String> claimBefore = explain(ds, Inspections.CLAIM, 600_000, 5, 64);
            print("before V29, enrolment", before);
            print("before V29, claim", claimBefore);

            Database.migrate(ds);
            TestDatabase.execute(ds, "vacuum analyze releases");
            List<String> after = explain(ds, Inspections.ENROL);
            print("after V29, enrolment", after);
            print("after V29, claim", explain(ds, Inspections.CLAIM, 600_000, 5, 64));

            assertThat(before)
                    .as("the catalog this test builds makes the old plan read every release")
                    .anyMatch(l -> l.contains("releases_posted") || l.contains("Seq Scan on releases"));
            assertThat(after).anyMatch(l -> l.contains("releases_to_inspect"));
            assertThat(after).noneMatch(l -> l.contains("Seq Scan on releases") || l.contains("releases_posted"));
            assertThat(Inspections.claim(ds, 64, 5, Duration.ofMinutes(10))).isEmpty();
        }
    }

    private static void fill(HikariDataSource ds) throws SQLException {
        TestDatabase.execute(ds, "insert into groups (name) values ('" + G + "')");
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(FILL)) {
            ps.setString(1, G);
            ps.setInt(2, RELEASES);
            ps.executeUpdate();
        }
        TestDatabase.execute(ds, ENROLLED);
        // as autovacuum leaves them between posts: statistics and a visibility map, so the
        // anti-join's probes of release_inspections are index-only
        TestDatabase.execute(ds, "vacuum analyze releases");
        TestDatabase.execute(ds, "vacuum analyze release_inspections");
    }

    /** EXPLAIN ANALYZE of {@code sql} with {@code limit 64} (enrolment) or {@code params}, rolled back. */
    private static List<String> explain(HikariDataSource ds, String sql, Object... params) throws SQLException {
        List<String> plan = new ArrayList<>();
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("explain (analyze, buffers) " + sql)) {
                Object[] values = params.length == 0 ? new Object[] {64} : params;
                for (int i = 0; i < values.length; i++) {
                    ps.setObject(i + 1, values[i]);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        plan.add(rs.getString(1));
                    }
                }
            } finally {
                c.rollback();
            }
        }
        return plan;
    }

    private static void print(String what, List<String> plan) {
        System.out.println("InspectionsClaimPlanTest: " + what + " (" + RELEASES + " releases)");
        plan.forEach(l -> System.out.println("  " + l));
    }
}
