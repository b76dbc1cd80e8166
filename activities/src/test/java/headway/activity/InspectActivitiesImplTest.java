package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.catalog.CatalogStore;
import headway.catalog.InspectionLedger;
import headway.catalog.Inspections;
import headway.coordination.GroupStore;
import headway.coordination.LeaseStore;
import headway.coordination.RangeRow;
import headway.coordination.RangeStore;
import headway.index.CompletedBinary;
import headway.index.RuleSet;
import headway.index.Segment;
import headway.index.Window;
import headway.nntp.ArticleFetcher;
import headway.nntp.BodyLimits;
import headway.nntp.NntpPool;
import headway.nntp.Simulators;
import headway.poster.PostedRelease;
import headway.poster.ReleasePoster;
import headway.poster.ReleaseSpec;
import headway.poster.ReleaseTools;
import headway.simulator.NewsSimulator;
import headway.store.Holder;
import headway.store.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deep index's activities on embedded PostgreSQL against the simulator, which serves the
 * bodies of releases built by rigs' poster with the real par2 and 7z (obfuscated: random names,
 * random order) after the real range indexer cataloged their headers: each release is claimed once,
 * read within the budget of 3 articles, named right or left unnamed (never named wrong), and the
 * passworded ones are flagged; a second claim finds nothing, and settling a claim again writes
 * nothing. A release whose articles the server does not have is recorded as failed with the reason
 * and its row left as it was, then given up after its last attempt.
 */
class InspectActivitiesImplTest {

    private static final String GROUP = "alt.binaries.headway.inspect";
    private static final Instant POSTED_AT = Instant.parse("2026-12-01T10:00:00Z");

    @TempDir
    static Path work;

    private static NewsSimulator sim;
    private static NntpPool pool;
    private static HikariDataSource ds;
    private static final Map<String, PostedRelease> byToken = new TreeMap<>();

    @BeforeAll
    static void start() throws Exception {
        sim = NewsSimulator.start(NewsSimulator.Options.defaults(), List.of(NewsSimulator.GroupSpec.posted(GROUP)));
        pool = new NntpPool(NntpPool.Config.defaults(Simulators.server(sim)).withMaxConnections(3));
        ds = TestDatabase.migrated("inspect_activities");
        ReleasePoster poster = new ReleasePoster(ReleaseTools.find(), work, 40_000);
        List<ReleaseSpec> specs = ReleaseSpec.mixed(41, 1);
        for (int i = 0; i < specs.size(); i++) {
            PostedRelease r = poster.build(specs.get(i), 4100 + i, GROUP, POSTED_AT.plusSeconds(600L * i));
            ReleasePoster.post(sim, r);
            byToken.put(r.name(), r);
        }
        index();
    }

    @AfterAll
    static void stop() {
        ds.close();
        pool.close();
        sim.close();
    }

    private static InspectActivitiesImpl activities(int attempts) {
        return new InspectActivitiesImpl(
                ds,
                () -> RuleSet.defaults(0),
                new ArticleFetcher(pool, 2, 3, BodyLimits.DEFAULT),
                new InspectActivitiesImpl.Pacing(
                        attempts, Duration.ofMinutes(10), Duration.ofMillis(1), Duration.ofMillis(1)));
    }

    @Test
    void obfuscatedReleasesAreNamedFromInsideWithinTheBudget() throws Exception {
        InspectActivitiesImpl a = activities(5);
        List<InspectTarget> claimed = a.claim(100);
        long obfuscated =
                byToken.values().stream().filter(PostedRelease::obfuscated).count();
        assertThat(claimed)
                .as("one claim per obfuscated release, each its first attempt")
                .hasSize((int) obfuscated)
                .allMatch(t -> t.attempt() == 1);
        assertThat(a.claim(100)).as("claims are exclusive until their deadline").isEmpty();

        int named = 0;
        int passworded = 0;
        List<Integer> articles = new ArrayList<>();
        for (InspectTarget t : claimed) {
            InspectOutcome o = a.inspect(t);
            articles.add(o.articles());
            assertThat(o.articles()).as(o.reason()).isBetween(1, 3);
            PostedRelease r = posted(t);
            if (o.realName() != null) {
                assertThat(o.realName()).as("wrong name: " + o.reason()).isEqualTo(r.name());
                assertThat(o.renamed()).isTrue();
                named++;
            }
            if (o.password() != 0) {
                assertThat(o.password()).as(o.reason()).isEqualTo(r.newznabPassword());
                passworded += o.password() == 1 ? 1 : 0;
            }
            InspectOutcome again = a.inspect(t);
            assertThat(again.renamed())
                    .as("a settled claim writes nothing again")
                    .isFalse();
            InspectionLedger.Entry row =
                    InspectionLedger.of(ds, t.group(), t.poster(), t.release()).orElseThrow();
            assertThat(row.state()).isIn(InspectionLedger.State.NAMED, InspectionLedger.State.UNNAMED);
            assertThat(row.attempts()).isEqualTo(1);
        }
        // all named, and all four passworded sets flagged: the 7z one whose first volume the plan
        // does not read (seed 41) is flagged from its last volume's end, a small file read first
        assertThat(named).as("every obfuscated release named").isEqualTo((int) obfuscated);
        assertThat(passworded).isEqualTo(4);
        assertThat(articles.stream().sorted().toList().get(articles.size() / 2)).isLessThanOrEqualTo(3);
        assertThat(TestDatabase.queryLong(
                        ds, "select count(*) from releases where real_name is not null and category in (8010, 8020)"))
                .as("named releases are categorized by their real name")
                .isZero();
        assertThat(a.claim(100)).isEmpty();
    }

    @Test
    void aReleaseWhoseBodiesAreGoneFailsWithItsReasonThenGivesUp() throws Exception {
        String token = "0f25c1d2a3b4c5d6e7f8091a2b3c4d5e";
        try (Connection c = ds.getConnection()) {
            new CatalogStore()
                    .writeBinaries(
                            c,
                            List.of(new CompletedBinary(
                                    GROUP,
                                    "gone <gone@example.com>",
                                    token,
                                    1,
                                    token,
                                    1,
                                    "[1/1] - \"" + token + "\" yEnc (1/1)",
                                    POSTED_AT,
                                    900_000,
                                    900_000,
                                    0,
                                    List.of(new Segment(1, 5000, "never-posted@example.com")),
                                    false)));
        }
        InspectActivitiesImpl a = activities(2);
        for (int attempt = 1; attempt <= 2; attempt++) {
            Optional<InspectTarget> t = claimUntil(a, token);
            assertThat(t).as("attempt %d is claimed", attempt).isPresent();
            InspectOutcome o = a.inspect(t.get());
            assertThat(o.realName()).isNull();
            assertThat(o.reason()).contains("NO_SUCH_ARTICLE");
            InspectionLedger.Entry row = InspectionLedger.of(ds, GROUP, "gone <gone@example.com>", token)
                    .orElseThrow();
            assertThat(row.lastError()).contains("never-posted@example.com");
            assertThat(row.state())
                    .isEqualTo(attempt == 2 ? InspectionLedger.State.GAVE_UP : InspectionLedger.State.FAILED);
            Thread.sleep(5);
        }
        assertThat(TestDatabase.queryLong(
                        ds,
                        "select count(*) from releases where name = '" + token
                                + "' and real_name is null and password = 0 and category = 8020"))
                .as("the release stays as it was")
                .isEqualTo(1);
        assertThat(Inspections.gaveUp(ds)).isEqualTo(1);
        assertThat(claimUntil(a, token)).isEmpty();
    }

    /** Claims until the release {@code name} is among the claims (others are settled by inspecting them). */
    private static Optional<InspectTarget> claimUntil(InspectActivitiesImpl a, String name) {
        for (InspectTarget t : a.claim(100)) {
            if (t.release().equals(name)) {
                return Optional.of(t);
            }
            a.inspect(t);
        }
        return Optional.empty();
    }

    /** The posted release a claim is of: the one whose first message-id the release's binaries hold. */
    private static PostedRelease posted(InspectTarget t) throws Exception {
        Inspections.Target target =
                Inspections.target(ds, t.group(), t.poster(), t.release()).orElseThrow();
        String id = "<" + target.files().get(0).messageIds().get(0) + ">";
        return byToken.values().stream()
                .filter(r -> r.messageIds().contains(id))
                .findFirst()
                .orElseThrow();
    }

    /** Plans and indexes the whole group with one holder, as a worker would, and flushes the window. */
    private static void index() throws Exception {
        GroupStore groups = new GroupStore(ds);
        groups.add(GROUP, 0);
        LeaseStore leases = new LeaseStore(ds, 0);
        RangeStore ranges = new RangeStore(ds, 0);
        Holdings holdings = new Holdings(1);
        HeaderSource source = new NntpHeaderSource(pool);
        new Planner(groups, source, new Planner.Settings(500, 1_000_000, Long.MAX_VALUE)).plan(GROUP);
        Holder holder =
                leases.lease(GROUP, "node-inspect", Duration.ofSeconds(20)).holder();
        holdings.put(holder, new Window(GROUP, 1000), RuleSet.defaults(0), -1);
        Holdings.Held held = holdings.get(GROUP, holder.epoch()).orElseThrow();
        RangeIndexer indexer = new RangeIndexer(
                source,
                leases.fence(),
                ranges,
                new CatalogStore(),
                100,
                new IndexMetrics(new SimpleMeterRegistry(), holdings));
        for (Optional<RangeRow> r = ranges.nextRange(holder, 0); r.isPresent(); r = ranges.nextRange(holder, 0)) {
            indexer.index(held, r.get(), r.get().next(), 0, 0, 0, (c, h, m, x) -> {});
        }
        held.window().closeAll();
        leases.fence().run(holder, "flushing the window", c -> {
            new CatalogStore().writeBinaries(c, held.window().drain());
            return null;
        });
    }
}
