package headway.starter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import headway.coordination.LeaseStore;
import headway.coordination.NodeRegistry;
import headway.nntp.HostileNntpServer;
import headway.rig.TemporalDevServer;
import headway.simulator.NewsSimulator;
import headway.store.Holder;
import headway.store.LeaseLostException;
import headway.store.TestDatabase;
import headway.workflow.SearchAttributes;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/**
 * Every subcommand through {@link Headway#run}: its happy path, and its bad input with the exact
 * message and exit code. A fresh embedded PostgreSQL database per test, the real Temporal dev
 * server shared by the JVM, group names of each test's own (workflow ids are server-wide).
 */
class CliTest {
    private static final ObjectMapper json = new ObjectMapper();
    private static TemporalDevServer temporal;
    private static NewsSimulator simulator;

    @TempDir
    Path tmp;

    @BeforeAll
    static void servers() throws IOException {
        temporal = DevServer.shared();
        simulator = NewsSimulator.start(
                NewsSimulator.Options.defaults(),
                List.of(
                        NewsSimulator.GroupSpec.of("alt.binaries.cli.plan", 7, 5000),
                        NewsSimulator.GroupSpec.of("alt.binaries.cli.index", 11, 3000)));
    }

    @AfterAll
    static void stopSimulator() {
        simulator.close();
    }

    private static Cli cli() {
        return Cli.of(TestDatabase.emptyDatabase("cli"), temporal.target());
    }

    private static Cli withNews(Cli cli) {
        return cli.env("HEADWAY_NNTP_HOST", "127.0.0.1").env("HEADWAY_NNTP_PORT", Integer.toString(simulator.port()));
    }

    // ------------------------------------------------------------------ groups

    @Test
    void groupsAddListRemove() throws Exception {
        Cli cli = cli();
        assertOk(
                cli.run("groups", "add", "alt.binaries.a", "alt.binaries.b"),
                "added alt.binaries.a (priority 0)\nadded alt.binaries.b (priority 0)\n");
        assertOk(
                cli.run("groups", "add", "--priority", "-5", "alt.binaries.b"), "added alt.binaries.b (priority -5)\n");
        Cli.Result list = cli.run("groups", "list");
        assertThat(list.code()).as(list.toString()).isZero();
        assertThat(list.lines())
                .as("most urgent first")
                .containsExactly(
                        String.format("%-40s priority %d", "alt.binaries.b", -5),
                        String.format("%-40s priority %d", "alt.binaries.a", 0));
        JsonNode asJson = json.readTree(cli.run("groups", "list", "--json").out());
        assertThat(asJson.size()).isEqualTo(2);
        assertThat(asJson.get(0).get("name").asText()).isEqualTo("alt.binaries.b");
        assertThat(asJson.get(0).get("priority").asInt()).isEqualTo(-5);
        assertOk(cli.run("groups", "remove", "alt.binaries.a"), "removed alt.binaries.a\n");
        assertThat(cli.run("groups", "list").lines()).hasSize(1);
    }

    @Test
    void groupsAddRejectsABadName() {
        assertFails(
                cli().run("groups", "add", "alt..binaries"),
                Exit.BAD_INPUT,
                "headway: bad group name 'alt..binaries': use dot-separated letters, digits, '+', '_' or '-', e.g. alt.binaries.example\n");
    }

    @Test
    void groupsRemoveRejectsAnUnknownGroup() {
        assertFails(
                cli().run("groups", "remove", "alt.binaries.nowhere"),
                Exit.BAD_INPUT,
                "headway: unknown group 'alt.binaries.nowhere': `headway groups list` shows the groups\n");
    }

    @Test
    void groupsWithoutASubcommandIsUsage() {
        Cli.Result r = Cli.of(null, null).run("groups");
        assertThat(r.code()).isEqualTo(Exit.BAD_INPUT);
        assertThat(r.err()).startsWith("name a subcommand: add, list or remove\n");
    }

    // ------------------------------------------------------------------ connections

    @Test
    void aMissingDatabaseUrlIsBadInput() {
        assertFails(
                Cli.of(null, null).run("groups", "list"),
                Exit.BAD_INPUT,
                "headway: HEADWAY_DB_URL is not set: set it (or --db-url) to a PostgreSQL JDBC URL, "
                        + "e.g. jdbc:postgresql://localhost:5432/headway; `headway demo` runs on an embedded database instead\n");
    }

    @Test
    void anUnreachableDatabaseExitsThree() throws IOException {
        String url = "jdbc:postgresql://127.0.0.1:" + closedPort() + "/headway";
        Cli.Result r = Cli.of(url, null).run("groups", "list");
        assertFails(
                r,
                Exit.UNREACHABLE,
                "headway: cannot reach the database at " + url
                        + ": Connection refused (is PostgreSQL running? set HEADWAY_DB_URL or --db-url)\n");
    }

    @Test
    void anUnreachableTemporalExitsThree() throws IOException {
        String target = "127.0.0.1:" + closedPort();
        Cli cli = Cli.of(TestDatabase.emptyDatabase("cli"), target);
        Cli.Result r = cli.run("schedules", "list");
        assertThat(r.code()).as(r.toString()).isEqualTo(Exit.UNREACHABLE);
        assertThat(r.err())
                .startsWith("headway: cannot reach Temporal at " + target + ": ")
                .endsWith(" (start it with `temporal server start-dev`, or set HEADWAY_TEMPORAL or --temporal)\n");
        assertOk(
                cli.run("groups", "add", "alt.binaries.cli.unreachable"),
                "added alt.binaries.cli.unreachable (priority 0)\n");
        Cli.Result start = cli.run("start", "alt.binaries.cli.unreachable");
        assertThat(start.code()).as(start.toString()).isEqualTo(Exit.UNREACHABLE);
        assertThat(start.err()).startsWith("headway: cannot reach Temporal at " + target + ": ");
    }

    @Test
    void aTemporalTargetThatIsNotHostPortIsBadInput() {
        assertFails(
                cli().run("schedules", "list", "--temporal", "localhost"),
                Exit.BAD_INPUT,
                "headway: HEADWAY_TEMPORAL=localhost must be host:port, e.g. 127.0.0.1:7233 (set it or --temporal)\n");
    }

    // ------------------------------------------------------------------ worker

    @Test
    void workerRejectsALeaseTtlUnderTwoSeconds() {
        assertFails(
                cli().env("HEADWAY_LEASE_TTL", "1s").run("worker", "--metrics-port", "0"),
                Exit.BAD_INPUT,
                "headway: HEADWAY_LEASE_TTL=1s is too short: use at least 2s\n");
    }

    @Test
    void workerRejectsABadTemporalTarget() {
        assertFails(
                cli().env("HEADWAY_TEMPORAL", "temporal:frontend").run("worker", "--temporal", "temporal:frontend"),
                Exit.BAD_INPUT,
                "headway: HEADWAY_TEMPORAL=temporal:frontend must be host:port, e.g. 127.0.0.1:7233 (set it or --temporal)\n");
    }

    @Test
    void workerRejectsADurationItCannotRead() {
        assertFails(
                cli().env("HEADWAY_NODE_TTL", "soon").run("worker"),
                Exit.BAD_INPUT,
                "headway: HEADWAY_NODE_TTL=soon is not a duration: write e.g. 500ms, 30s, 5m, 1h or PT30S\n");
    }

    // ------------------------------------------------------------------ start

    @Test
    void startRejectsAnUnknownGroup() {
        assertFails(
                cli().run("start", "alt.binaries.cli.unknown"),
                Exit.BAD_INPUT,
                "headway: unknown group 'alt.binaries.cli.unknown': add it first with `headway groups add alt.binaries.cli.unknown`\n");
    }

    @Test
    void startWantsGroupsOrAllButNotBoth() {
        Cli cli = cli();
        assertFails(cli.run("start"), Exit.BAD_INPUT, "headway: name groups or give --all (not both)\n");
        assertFails(
                cli.run("start", "--all", "alt.binaries.x"),
                Exit.BAD_INPUT,
                "headway: name groups or give --all (not both)\n");
    }

    @Test
    void startStartsTheGroupWorkflowOnceWithItsSearchAttributes() {
        Cli cli = cli();
        cli.run("groups", "add", "alt.binaries.cli.start1", "alt.binaries.cli.start2");
        Cli.Result first = cli.run("start", "alt.binaries.cli.start1");
        assertThat(first.code()).as(first.toString()).isZero();
        Matcher m = Pattern.compile("started group/alt\\.binaries\\.cli\\.start1 \\(run ([0-9a-f-]{36})\\)\n")
                .matcher(first.out());
        assertThat(m.matches()).as(first.out()).isTrue();
        Cli.Result again = cli.run("start", "alt.binaries.cli.start1");
        assertThat(again.out())
                .as("a second start attaches to the running workflow")
                .isEqualTo(first.out());

        DescribeWorkflowExecutionResponse d = describe("group/alt.binaries.cli.start1");
        assertThat(d.getWorkflowExecutionInfo().getExecution().getRunId()).isEqualTo(m.group(1));
        assertThat(d.getWorkflowExecutionInfo().getStatus())
                .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
        assertThat(d.getWorkflowExecutionInfo().getSearchAttributes().getIndexedFieldsMap())
                .containsKeys(SearchAttributes.GROUP.getName(), SearchAttributes.STATE.getName());

        Cli.Result all = cli.run("start", "--all", "--idle-wait", "1m");
        assertThat(all.code()).as(all.toString()).isZero();
        assertThat(all.lines()).hasSize(2).allMatch(l -> l.startsWith("started group/alt.binaries.cli.start"));
        terminate("group/alt.binaries.cli.start1", "group/alt.binaries.cli.start2");
    }

    @Test
    void startRejectsABadDurationFlag() {
        Cli cli = cli();
        cli.run("groups", "add", "alt.binaries.cli.badttl");
        assertFails(
                cli.run("start", "alt.binaries.cli.badttl", "--lease-ttl", "ten"),
                Exit.BAD_INPUT,
                "headway: --lease-ttl=ten is not a duration: write e.g. 500ms, 30s, 5m, 1h or PT30S\n");
    }

    // ------------------------------------------------------------------ plan

    @Test
    void planRejectsABadRange() {
        Cli cli = cli();
        cli.run("groups", "add", "alt.binaries.cli.range");
        assertFails(
                cli.run("plan", "alt.binaries.cli.range", "--from", "10", "--to", "5"),
                Exit.BAD_INPUT,
                "headway: bad range --from 10 --to 5: need 1 <= from <= to <= 1000000000000000"
                        + " (article numbers start at 1)\n");
        assertFails(
                cli.run("plan", "alt.binaries.cli.range", "--from", "-1", "--to", "5"),
                Exit.BAD_INPUT,
                "headway: bad range --from -1 --to 5: need 1 <= from <= to <= 1000000000000000"
                        + " (article numbers start at 1)\n");
        assertFails(
                cli.run("plan", "alt.binaries.cli.range", "--from", "0", "--to", "5"),
                Exit.BAD_INPUT,
                "headway: bad range --from 0 --to 5: need 1 <= from <= to <= 1000000000000000"
                        + " (article numbers start at 1)\n");
        assertFails(
                cli.run("plan", "alt.binaries.cli.range", "--from", "1", "--to", "9223372036854775807"),
                Exit.BAD_INPUT,
                "headway: bad range --from 1 --to 9223372036854775807: need 1 <= from <= to <= 1000000000000000"
                        + " (article numbers start at 1)\n");
        assertFails(
                cli.run("plan", "alt.binaries.cli.range", "--from", "1", "--to", "1000000000000000", "--size", "1"),
                Exit.BAD_INPUT,
                "headway: [1, 1000000000000000] in ranges of 1 articles is 1000000000000000 ranges, more than 1000000"
                        + " at once: use a larger range size (--size or HEADWAY_RANGE_SIZE) or plan a smaller span\n");
        assertFails(
                cli.run("plan", "alt.binaries.cli.range", "--from", "10"),
                Exit.BAD_INPUT,
                "headway: give both --from and --to for a hand-planned range\n");
        assertFails(
                cli.run("plan", "alt.binaries.cli.range", "--from", "1", "--to", "5", "--size", "0"),
                Exit.BAD_INPUT,
                "headway: --size must be >= 1, was 0\n");
    }

    @Test
    void planRejectsAnUnknownGroup() {
        assertFails(
                cli().run("plan", "alt.binaries.cli.nope", "--from", "1", "--to", "5"),
                Exit.BAD_INPUT,
                "headway: unknown group 'alt.binaries.cli.nope': add it first with `headway groups add alt.binaries.cli.nope`\n");
    }

    @Test
    void planByHandCutsTheRangeAndSaysWhenNoWorkflowRuns() {
        Cli cli = cli();
        cli.run("groups", "add", "alt.binaries.cli.byhand");
        assertOk(
                cli.run("plan", "alt.binaries.cli.byhand", "--from", "1", "--to", "25000", "--size", "10000"),
                "alt.binaries.cli.byhand: planned 3 range(s) in [1, 25000]\n"
                        + "alt.binaries.cli.byhand: no running workflow to signal (headway start alt.binaries.cli.byhand)\n");
        assertOk(
                cli.run("plan", "--all", "--from", "1", "--to", "25000", "--size", "10000", "--no-signal"),
                "alt.binaries.cli.byhand: planned 0 range(s) in [1, 25000]\n");
    }

    @Test
    void reindexPlansWholeRangesAgainAndIsIdempotent() {
        Cli cli = cli();
        cli.run("groups", "add", "alt.binaries.cli.reindex");
        assertThat(cli.run(
                                "plan",
                                "alt.binaries.cli.reindex",
                                "--from",
                                "1",
                                "--to",
                                "25000",
                                "--size",
                                "10000",
                                "--no-signal")
                        .code())
                .isZero();
        String once =
                "reindex: group=alt.binaries.cli.reindex ranges=2 articles=1-20000 rule_version=0 leased_skipped=0\n";
        assertOk(cli.run("reindex", "alt.binaries.cli.reindex", "--from", "500", "--to", "12000", "--no-signal"), once);
        assertOk(cli.run("reindex", "alt.binaries.cli.reindex", "--from", "500", "--to", "12000", "--no-signal"), once);
        assertOk(
                cli.run("reindex", "alt.binaries.cli.reindex", "--from", "20001"),
                "reindex: group=alt.binaries.cli.reindex ranges=1 articles=20001-25000 rule_version=0 leased_skipped=0\n"
                        + "alt.binaries.cli.reindex: no running workflow to signal (headway start alt.binaries.cli.reindex)\n");
        assertFails(
                cli.run("reindex", "alt.binaries.cli.nope"),
                Exit.BAD_INPUT,
                "headway: unknown group 'alt.binaries.cli.nope': add it first with `headway groups add alt.binaries.cli.nope`\n");
        assertFails(
                cli.run("reindex", "alt.binaries.cli.reindex", "--from", "9", "--to", "3"),
                Exit.BAD_INPUT,
                "headway: bad span --from 9 --to 3: need 1 <= from <= to <= 1000000000000000 (article numbers start at 1)\n");
    }

    @Test
    void rulesMissesShowsAGroupsCountsAndRejectsABadLimit() throws Exception {
        Cli cli = cli();
        cli.run("groups", "add", "alt.binaries.cli.misses");
        assertOk(
                cli.run("rules", "misses", "alt.binaries.cli.misses"),
                "alt.binaries.cli.misses: unmatched=0 rejected=0\n");
        JsonNode report = json.readTree(
                cli.run("rules", "misses", "alt.binaries.cli.misses", "--json").out());
        assertThat(report.get("unmatched").asLong()).isZero();
        assertThat(report.get("shapes").size()).isZero();
        assertFails(
                cli.run("rules", "misses", "alt.binaries.cli.misses", "--limit", "0"),
                Exit.BAD_INPUT,
                "headway: --limit must be between 1 and 200 (the shapes kept), was 0\n");
        assertFails(
                cli.run("rules", "misses", "alt.binaries.cli.nope"),
                Exit.BAD_INPUT,
                "headway: unknown group 'alt.binaries.cli.nope': add it first with `headway groups add alt.binaries.cli.nope`\n");
    }

    @Test
    void anNzbFileNameKeepsLettersOfAnyScript() {
        // the unsafe characters were replaced, so a short hash of the whole name follows (a/b and a_b differ)
        assertThat(Releases.fileName("City.Nord.Über.2020/..\\x:y"))
                .matches("City\\.Nord\\.Über\\.2020_\\.\\._x_y~[0-9a-f]{12}\\.nzb");
        assertThat(Releases.fileName("東京物語.1953")).isEqualTo("東京物語.1953.nzb");
    }

    @Test
    void planReadsTheNewsServersMarks() {
        Cli cli = withNews(cli());
        cli.run("groups", "add", "alt.binaries.cli.plan");
        assertOk(
                cli.run("plan", "alt.binaries.cli.plan", "--size", "1000", "--backfill", "3000"),
                "alt.binaries.cli.plan: server 1..5000, planned 1 tail and 2 history range(s)\n"
                        + "alt.binaries.cli.plan: no running workflow to signal (headway start alt.binaries.cli.plan)\n");
        assertOk(
                cli.run("plan", "alt.binaries.cli.plan", "--size", "1000", "--backfill", "3000", "--no-signal"),
                "alt.binaries.cli.plan: server 1..5000, planned 0 tail and 0 history range(s)\n");
    }

    @Test
    void planFromTheNewsServerRejectsAGroupTheServerDoesNotCarry() {
        Cli cli = withNews(cli());
        cli.run("groups", "add", "alt.binaries.cli.notcarried");
        Cli.Result r = cli.run("plan", "alt.binaries.cli.notcarried");
        assertThat(r.code()).as(r.toString()).isEqualTo(Exit.BAD_INPUT);
        assertFails(
                r,
                Exit.BAD_INPUT,
                "headway: no such newsgroup 'alt.binaries.cli.notcarried' on nntp://127.0.0.1:" + simulator.port()
                        + ": check the group name, or that this server carries it (LIST ACTIVE)\n");
    }

    @Test
    void planRefusesAHighWaterMarkNoServerReachesAtOnce() throws IOException {
        String g = HostileNntpServer.GROUP;
        try (HostileNntpServer hostile = HostileNntpServer.start(100).reportHigh(Long.MAX_VALUE)) {
            Cli cli = cli().env("HEADWAY_NNTP_HOST", "127.0.0.1")
                    .env("HEADWAY_NNTP_PORT", Integer.toString(hostile.server().port()));
            cli.run("groups", "add", g);
            long t0 = System.nanoTime();
            Cli.Result r = cli.run("plan", g);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
            assertFails(
                    r,
                    Exit.UNREACHABLE,
                    "headway: the news server reports high-water mark 9223372036854775807 for " + g
                            + ", past article 1000000000000000, which no server reaches: it misreports its marks, so"
                            + " nothing was planned; check the server (HEADWAY_NNTP_HOST) or plan by hand with"
                            + " --from/--to\n");
            assertOk(
                    cli.run("plan", g, "--from", "1", "--to", "100", "--no-signal"),
                    g + ": planned 1 range(s) in [1, 100]\n");
        }
    }

    @Test
    void planRefusesAJumpPastHeadwayPlanMaxJump() throws IOException {
        String g = HostileNntpServer.GROUP;
        try (HostileNntpServer hostile = HostileNntpServer.start(100)) {
            Cli cli = cli().env("HEADWAY_NNTP_HOST", "127.0.0.1")
                    .env("HEADWAY_NNTP_PORT", Integer.toString(hostile.server().port()))
                    .env("HEADWAY_PLAN_MAX_JUMP", "1000");
            cli.run("groups", "add", g);
            assertOk(
                    cli.run("plan", g, "--size", "100", "--no-signal"),
                    g + ": server 1..100, planned 1 tail and 0 history range(s)\n");
            hostile.reportHigh(5000);
            assertFails(
                    cli.run("plan", g, "--size", "100", "--no-signal"),
                    Exit.UNREACHABLE,
                    "headway: the news server reports high-water mark 5000 for " + g
                            + ", 4900 articles past the highest planned article 100, more than"
                            + " HEADWAY_PLAN_MAX_JUMP=1000; nothing was planned: if the server is right, raise"
                            + " HEADWAY_PLAN_MAX_JUMP or plan the span by hand with --from 101 --to 5000\n");
            cli.env("HEADWAY_PLAN_MAX_JUMP", "10000");
            assertOk(
                    cli.run("plan", g, "--size", "100", "--no-signal"),
                    g + ": server 1..5000, planned 49 tail and 0 history range(s)\n");
        }
    }

    @Test
    void planFromAnUnreachableNewsServerExitsThree() throws IOException {
        int port = closedPort();
        Cli cli = cli().env("HEADWAY_NNTP_HOST", "127.0.0.1").env("HEADWAY_NNTP_PORT", Integer.toString(port));
        cli.run("groups", "add", "alt.binaries.cli.nonews");
        long t0 = System.nanoTime();
        Cli.Result r = cli.run("plan", "alt.binaries.cli.nonews");
        assertThat(Duration.ofNanos(System.nanoTime() - t0))
                .as("a person at a prompt is not kept waiting")
                .isLessThan(Duration.ofSeconds(20));
        assertThat(r.code()).as(r.toString()).isEqualTo(Exit.UNREACHABLE);
        assertThat(r.err())
                .startsWith("headway: cannot read the NNTP server 127.0.0.1:" + port
                        + ": could not connect to nntp://127.0.0.1:" + port)
                .contains("Connection refused")
                .endsWith("(set HEADWAY_NNTP_HOST and HEADWAY_NNTP_PORT)\n");
    }

    // ------------------------------------------------------------------ status

    @Test
    void statusShowsGroupsNodesAndConflicts() throws Exception {
        String url = TestDatabase.emptyDatabase("cli");
        Cli cli = Cli.of(url, temporal.target());
        cli.run("groups", "add", "alt.binaries.cli.status");
        cli.run("plan", "alt.binaries.cli.status", "--from", "1", "--to", "20000", "--size", "10000", "--no-signal");
        cli.run("groups", "add", "alt.binaries.cli.stolen");
        cli.run("plan", "alt.binaries.cli.stolen", "--from", "1", "--to", "100", "--size", "100", "--no-signal");
        cli.run("groups", "add", "alt.binaries.cli.unasked");
        cli.run("plan", "alt.binaries.cli.unasked", "--from", "1", "--to", "100", "--size", "100", "--no-signal");
        try (var ds = TestDatabase.pool(url, 2)) {
            new NodeRegistry(ds, "node-one", "one:9464", Duration.ofSeconds(15), Clock.systemUTC())
                    .reporting(() -> new NodeRegistry.Report(8, 3, 4, 6))
                    .register();
            new NodeRegistry(ds, "node-two", "two:9464", Duration.ofSeconds(15), Clock.systemUTC())
                    .reporting(() -> new NodeRegistry.Report(8, 1, 4, 6))
                    .register();
            LeaseStore leases = new LeaseStore(ds, 0);
            leases.want("alt.binaries.cli.status"); // its workflow asked for a lease; unasked did not
            Holder stale = leases.lease("alt.binaries.cli.stolen", "node-one", Duration.ofSeconds(30))
                    .holder();
            TestDatabase.setClockSkew(ds, Duration.ofSeconds(31));
            leases.lease("alt.binaries.cli.stolen", "node-two", Duration.ofSeconds(30));
            TestDatabase.setClockSkew(ds, Duration.ZERO);
            assertThatThrownBy(() -> leases.renew(stale)).isInstanceOf(LeaseLostException.class);
        }
        Cli.Result text = cli.run("status");
        assertThat(text.code()).as(text.toString()).isZero();
        assertThat(text.lines().get(0))
                .startsWith("GROUP")
                .contains("HOLDER", "STATE", "CURSOR", "LAG", "PLAN", "LEASE", "DONE", "STUCK");
        assertThat(text.lines().get(1)).startsWith("alt.binaries.cli.status").contains(" - ");
        assertThat(text.out()).contains("\nNODE ").contains("\nSCHEDULE ");
        assertThat(text.out())
                .as("the asking group in the leasing order, with the free slots (16 of two nodes less one live lease);"
                        + " the held one is not waiting, the one that did not ask is apart")
                .contains("\nlease order: 1.alt.binaries.cli.status; free slots 15\n")
                .contains("\nnot asking for a lease: alt.binaries.cli.unasked (no workflow)\n");
        assertThat(text.lines().stream().filter(l -> l.startsWith("node-one")))
                .singleElement()
                .asString()
                .contains(" online ", " 0/8 ", " 3/4 ");
        assertThat(text.lines().stream().filter(l -> l.startsWith("node-two")))
                .singleElement()
                .asString()
                .contains(" online ", " 1/8 ", " 1/4 ");
        assertThat(text.out())
                .contains("\nfleet: 2 of 2 nodes online, NNTP connections 4 open of 8 allowed, provider limit 6;"
                        + " the online workers may open 8, over the limit\n");
        assertThat(text.out())
                .as("an empty catalog, retention off, the retention schedule not installed")
                .containsPattern("\ncatalog: [0-9,]+ bytes, posts none; retention off \\(HEADWAY_RETENTION_DAYS=0\\),"
                        + " next purge not scheduled \\(headway schedules install\\)\n");

        JsonNode doc = json.readTree(cli.run("status", "--json").out());
        assertThat(doc.get("catalog").get("bytes").asLong()).isPositive();
        assertThat(doc.get("catalog").get("retentionDays").asInt()).isZero();
        assertThat(doc.get("catalog").get("nextPurge").isNull()).isTrue();
        JsonNode g = doc.get("groups").get(0);
        assertThat(g.get("group").asText()).isEqualTo("alt.binaries.cli.status");
        assertThat(g.get("planned").asLong()).isEqualTo(2);
        assertThat(g.get("state").asText()).as("no workflow yet").isEqualTo("-");
        assertThat(doc.get("nodes").isArray()).isTrue();
        assertThat(doc.get("schedules").isArray()).isTrue();
        assertThat(doc.has("temporal")).isFalse();
        assertThat(doc.get("freeSlots").asLong()).isEqualTo(15);
        assertThat(doc.get("notAsking").get(0).asText()).isEqualTo("alt.binaries.cli.unasked (no workflow)");

        Cli.Result conflicts = cli.run("status", "--conflicts");
        assertThat(conflicts.code()).isZero();
        assertThat(conflicts.lines()).hasSize(3);
        assertThat(conflicts.lines().get(0))
                .startsWith("AT")
                .contains("GROUP", "KIND", "NODE", "EPOCH", "OTHER", "DETAIL");
        assertThat(conflicts.lines().get(1))
                .as("newest first: the stale holder's refused renewal, naming the current holder")
                .contains(" alt.binaries.cli.stolen ", " lease_lost ", " node-one ", " node-two ")
                .containsPattern("node-one +1 node-two +2 ");
        assertThat(conflicts.lines().get(2))
                .contains(" alt.binaries.cli.stolen ", " takeover ")
                .containsPattern("node-two +2 node-one +1 ");
        assertThat(json.readTree(cli.run("status", "--conflicts", "--json").out())
                        .isArray())
                .isTrue();
    }

    @Test
    void statusWithoutTemporalStillShowsTheDatabase() throws IOException {
        String target = "127.0.0.1:" + closedPort();
        Cli cli = Cli.of(TestDatabase.emptyDatabase("cli"), target);
        cli.run("groups", "add", "alt.binaries.cli.notemporal");
        Cli.Result r = cli.run("status");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.lines().get(1)).startsWith("alt.binaries.cli.notemporal").contains(" ? ");
        assertThat(r.out()).contains("\ncatalog: ").contains("next purge not scheduled");
        assertThat(r.err()).startsWith("headway: workflow states unknown: cannot reach Temporal at " + target);
    }

    // ------------------------------------------------------------------ pause, resume, drain

    @Test
    void signalsNeedARunningWorkflow() {
        Cli cli = cli();
        for (String verb : List.of("pause", "resume", "drain")) {
            assertFails(
                    cli.run(verb, "alt.binaries.cli.idle"),
                    Exit.BAD_INPUT,
                    "headway: no running workflow for group 'alt.binaries.cli.idle': start it with `headway start alt.binaries.cli.idle`\n");
        }
    }

    // ------------------------------------------------------------------ schedules

    @Test
    void schedulesInstallIsIdempotentAndListShowsThem() throws Exception {
        Cli cli = cli().env("HEADWAY_TASK_QUEUE", "cli-schedules-test").env("HEADWAY_PLAN_EVERY", "10m");
        assertOk(cli.run("schedules", "install"), """
                created headway-registry-prune (every 15s)
                created headway-planner (every 10m)
                created headway-watchman (every 30s)
                created headway-retention (every 1h)
                created headway-inspect (every 15s)
                """);
        assertOk(cli.env("HEADWAY_PLAN_EVERY", "20m").run("schedules", "install"), """
                updated headway-registry-prune (every 15s)
                updated headway-planner (every 20m)
                updated headway-watchman (every 30s)
                updated headway-retention (every 1h)
                updated headway-inspect (every 15s)
                """);
        Cli.Result list =
                eventually(() -> cli.run("schedules", "list"), r -> r.lines().size() == 5, Duration.ofSeconds(20));
        assertThat(list.lines()).anyMatch(l -> l.startsWith("headway-planner") && l.contains("PlannerWorkflow"));
        assertThat(list.lines()).anyMatch(l -> l.startsWith("headway-watchman") && l.contains("WatchmanWorkflow"));
        assertThat(list.lines()).anyMatch(l -> l.startsWith("headway-inspect") && l.contains("InspectWorkflow"));
        assertThat(list.lines())
                .anyMatch(l -> l.startsWith("headway-registry-prune") && l.contains("RegistryPruneWorkflow"));
        assertThat(json.readTree(cli.run("schedules", "list", "--json").out()).size())
                .isEqualTo(5);
        assertFails(
                cli.env("HEADWAY_WATCH_EVERY", "0s").run("schedules", "install"),
                Exit.BAD_INPUT,
                "headway: HEADWAY_WATCH_EVERY=0s is too short: schedule intervals must be at least 1s\n");
    }

    // ------------------------------------------------------------------ search attributes

    @Test
    void searchAttributesRegistersWhatIsMissingOnceOnly() {
        try (TemporalDevServer bare = TemporalDevServer.builder().start()) {
            Cli cli = Cli.of(null, bare.target());
            assertOk(cli.run("search-attributes"), """
                    registered HeadwayGroup (Keyword)
                    registered HeadwayHolder (Keyword)
                    registered HeadwayState (Keyword)
                    registered HeadwayLag (Int)
                    registered HeadwayCursor (Int)
                    registered HeadwayStuck (Bool)
                    """);
            Cli.Result again = eventually(
                    () -> cli.run("search-attributes"),
                    r -> r.lines().stream().allMatch(l -> l.startsWith("exists ")),
                    Duration.ofSeconds(20));
            assertThat(again.lines()).hasSize(6);
        }
    }

    // ------------------------------------------------------------------ rules

    @Test
    void rulesDefaultsImportAndList() throws Exception {
        Cli cli = cli();
        Cli.Result defaults = cli.run("rules", "defaults");
        assertThat(defaults.code()).isZero();
        assertThat(json.readTree(defaults.out()).get("groups").isArray()).isTrue();
        assertOk(cli.run("rules", "list"), "no rule sets imported: the built-in defaults (version 0) are in use\n");

        Path file = tmp.resolve("mine.json");
        Files.writeString(file, defaults.out());
        assertThat(json.readTree(defaults.out()).get("categories").isArray()).isTrue();
        assertOk(
                cli.run("rules", "import", file.toString()),
                "imported " + file + " as rule set version 1\nrecategorized 0 releases\n");
        Cli.Result list = cli.run("rules", "list");
        assertThat(list.lines()).hasSize(1);
        assertThat(list.lines().get(0)).startsWith("    1  mine.json");
    }

    @Test
    void rulesClassifyPrintsOneJsonObjectPerName() throws Exception {
        String names = "Series.Title.S02E14.720p.HDTV.x264-LOL\n"
                + "A.Late.Talk.Show.2011.04.12.Guest.Name.1080p.WEB.h264-GRP\n"
                + "\n"
                + "The.Movie.from.U.N.C.L.E.2015.2160p.BluRay.x265-SPARKS\n"
                + "d41d8cd98f00b204e9800998ecf8427e\n";
        Cli.Result r = withStdin(names, () -> cli().run("rules", "classify", "--group", "alt.binaries.test"));
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.lines())
                .containsExactly(
                        "{\"name\":\"Series.Title.S02E14.720p.HDTV.x264-LOL\",\"category\":5040,\"category_name\":\"TV/HD\","
                                + "\"title\":\"Series Title\",\"season\":2,\"episode\":14,\"year\":null,\"resolution\":\"720p\"}",
                        "{\"name\":\"A.Late.Talk.Show.2011.04.12.Guest.Name.1080p.WEB.h264-GRP\",\"category\":5040,"
                                + "\"category_name\":\"TV/HD\",\"title\":\"A Late Talk Show\",\"season\":2011,\"episode\":\"04-12\","
                                + "\"year\":2011,\"resolution\":\"1080p\"}",
                        "{\"name\":\"The.Movie.from.U.N.C.L.E.2015.2160p.BluRay.x265-SPARKS\",\"category\":2045,"
                                + "\"category_name\":\"Movies/UHD\",\"title\":\"The Movie from U.N.C.L.E.\",\"season\":null,"
                                + "\"episode\":null,\"year\":2015,\"resolution\":\"2160p\"}",
                        "{\"name\":\"d41d8cd98f00b204e9800998ecf8427e\",\"category\":8020,\"category_name\":\"Other/Hashed\","
                                + "\"title\":null,\"season\":null,\"episode\":null,\"year\":null,\"resolution\":null}");
    }

    @Test
    void rulesClassifyUsesARuleFileAndRejectsABadOne() throws Exception {
        Path file = tmp.resolve("cats.json");
        Files.writeString(file, """
                {"name": "cats", "groups": [{"pattern": "*", "rules": []}],
                 "categories": [{"name": "docs", "group": "alt.binaries.docs", "category": 5080}]}
                """);
        Cli.Result r = withStdin(
                "Any.Name.S01E01\n",
                () -> cli().run("rules", "classify", "--group", "alt.binaries.docs", "--rules", file.toString()));
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(json.readTree(r.out()).get("category_name").asText()).isEqualTo("TV/Documentary");

        Files.writeString(
                file, "{\"name\": \"x\", \"groups\": [{\"pattern\": \"*\"}], \"categories\": [{\"category\": 1}]}");
        Cli.Result bad = withStdin("x\n", () -> cli().run("rules", "classify", "--rules", file.toString()));
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err())
                .startsWith("headway: rule file " + file
                        + ": categories rule #0 names category 1, which is not a newznab category");
    }

    @Test
    void rulesImportRefusesARuleTheLinearEngineCannotRun() throws IOException {
        Path file = tmp.resolve("lookahead.json");
        Files.writeString(file, """
                {"name": "slow", "groups": [{"pattern": "*", "rules": [
                  {"name": "ahead", "regex": "^(?<file>\\\\S+)(?=\\\\s+yEnc)"}]}]}
                """);
        Cli.Result r = cli().run("rules", "import", file.toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(Exit.BAD_INPUT);
        assertThat(r.err())
                .startsWith("headway: rule file " + file + ": group '*' rule #0 ('ahead') uses a lookahead (?= in ")
                .contains("which the linear-time engine (RE2/J) cannot run");
    }

    @Test
    void rulesTestPrintsOneJsonObjectPerSubjectWithTheShippedRulesAndNoDatabase() throws Exception {
        String subjects = String.join(
                        "\n",
                        "[PRiVATE]-[WtFnZb]-[Show.S04E04.720p.AMZN.WEBRip.x264-GalaxyTV.mkv]-[1/2] - \"\" yEnc  293197257 (1/573)",
                        "\"lone.nfo\" yEnc",
                        "Anyone have the new album?",
                        "Fwd: \"x.rar\" yEnc (1/2)",
                        "Re: Artist Band's The Album-Thanks much - Band, John - Artist - The Album.mp3 (2/3)")
                + "\n";
        Cli.Result r = withStdin(subjects, () -> Cli.of(null, null).run("rules", "test"));
        assertThat(r.code()).as(r.toString()).isZero();
        List<String> lines = r.lines();
        assertThat(lines).hasSize(5);
        for (String line : lines) {
            assertThat(iterable(json.readTree(line).fieldNames()))
                    .containsExactly(
                            "subject", "matched", "rule", "file", "part", "total", "fileno", "files", "release",
                            "reason");
        }
        JsonNode wtf = json.readTree(lines.get(0));
        assertThat(wtf.get("matched").asBoolean()).isTrue();
        assertThat(wtf.get("rule").asText()).isEqualTo("parser");
        assertThat(wtf.get("file").asText()).isEqualTo("Show.S04E04.720p.AMZN.WEBRip.x264-GalaxyTV.mkv");
        assertThat(wtf.get("part").asInt()).isEqualTo(1);
        assertThat(wtf.get("total").asInt()).isEqualTo(573);
        assertThat(wtf.get("fileno").asInt()).isEqualTo(1);
        assertThat(wtf.get("files").asInt()).isEqualTo(2);
        assertThat(wtf.get("release").asText()).isEqualTo("Show.S04E04.720p.AMZN.WEBRip.x264-GalaxyTV");
        assertThat(wtf.get("reason").isNull()).isTrue();
        JsonNode lone = json.readTree(lines.get(1));
        assertThat(lone.get("part").isNull())
                .as("absent counters are null, never a made-up 1")
                .isTrue();
        assertThat(lone.get("total").isNull()).isTrue();
        assertThat(lone.get("fileno").isNull()).isTrue();
        JsonNode chatter = json.readTree(lines.get(2));
        assertThat(chatter.get("matched").asBoolean()).isFalse();
        assertThat(chatter.get("rule").isNull()).isTrue();
        assertThat(chatter.get("reason").asText())
                .isEqualTo("no rule matched and the built-in parser found no file name");
        assertThat(json.readTree(lines.get(3)).get("reason").asText()).isEqualTo("subject black list (?i)^fwd?:\\s");
        assertThat(json.readTree(lines.get(4)).get("matched").asBoolean())
                .as("a reply that carries a file is a binary post")
                .isTrue();
    }

    @Test
    void rulesTestSaysWhatTheWorkerDoesWithSubjectsFromAllOfUnicode() throws Exception {
        // measured before: the first line failed the command with ArrayIndexOutOfBoundsException (exit 1)
        String subjects = String.join(
                        "\n",
                        "\uD83D\uDE00 Release.Name [1/1] - \"f.bin\" yEnc (1/1)",
                        "\u0130\u0130\u0130\u0130\u0130\u0130 [1/2] - \"\u0130\u0130\u0130\u0130\u0130\u0130.r00\" yEnc (1/2)",
                        "Rel\u0000ease [1/1] - \"nul.bin\" yEnc (1/1)",
                        "\"" + "a".repeat(1200) + ".rar\" yEnc (1/2)")
                + "\n";
        Cli.Result r = withStdin(subjects, () -> Cli.of(null, null).run("rules", "test"));
        assertThat(r.code()).as(r.toString()).isZero();
        List<String> lines = r.lines();
        assertThat(lines).hasSize(4);
        JsonNode emoji = json.readTree(lines.get(0));
        assertThat(emoji.get("file").asText()).isEqualTo("f.bin");
        assertThat(emoji.get("release").asText()).isEqualTo("\uD83D\uDE00 Release.Name");
        assertThat(json.readTree(lines.get(1)).get("release").asText())
                .isEqualTo("\u0130\u0130\u0130\u0130\u0130\u0130");
        assertThat(json.readTree(lines.get(2)).get("release").asText())
                .as("NUL is dropped as the worker drops it")
                .isEqualTo("Release");
        JsonNode tooLong = json.readTree(lines.get(3));
        assertThat(tooLong.get("matched").asBoolean()).isFalse();
        assertThat(tooLong.get("reason").asText())
                .isEqualTo("subject longer than 1000 characters (the worker puts the header in the rejected-articles"
                        + " ledger)");
    }

    @Test
    void rulesTestUsesARuleFileForAGroupAndPoster() throws Exception {
        Path file = tmp.resolve("tv.json");
        Files.writeString(file, """
                {"name": "tv", "groups": [{"pattern": "alt.binaries.tv", "posterBlacklist": ["spam@"],
                  "rules": [{"name": "tv", "regex": "^TV (?<file>\\\\S+) \\\\((?<part>\\\\d+)/(?<total>\\\\d+)\\\\)$"}]}]}
                """);
        String in = "TV x.mkv (1/2)\n";
        Cli cli = cli();
        JsonNode tv = json.readTree(
                withStdin(in, () -> cli.run("rules", "test", "--rules", file.toString(), "--group", "alt.binaries.tv"))
                        .out());
        assertThat(tv.get("rule").asText()).isEqualTo("tv");
        JsonNode spam = json.readTree(withStdin(
                        in,
                        () -> cli.run(
                                "rules",
                                "test",
                                "--rules",
                                file.toString(),
                                "--group",
                                "alt.binaries.tv",
                                "--poster",
                                "spam@example.com"))
                .out());
        assertThat(spam.get("matched").asBoolean()).isFalse();
        assertThat(spam.get("reason").asText()).isEqualTo("poster black list spam@");
        JsonNode elsewhere = json.readTree(withStdin(
                        in, () -> cli.run("rules", "test", "--rules", file.toString(), "--group", "alt.binaries.misc"))
                .out());
        assertThat(elsewhere.get("matched").asBoolean())
                .as("no entry covers the group")
                .isFalse();
        assertFails(
                cli.run("rules", "test", "--rules", tmp.resolve("absent.json").toString()),
                Exit.BAD_INPUT,
                "headway: cannot read rule file " + tmp.resolve("absent.json") + ": " + tmp.resolve("absent.json")
                        + "\n");
    }

    private static <T> List<T> iterable(java.util.Iterator<T> it) {
        List<T> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    private static Cli.Result withStdin(String text, java.util.function.Supplier<Cli.Result> run) {
        java.io.InputStream saved = System.in;
        System.setIn(new java.io.ByteArrayInputStream(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        try {
            return run.get();
        } finally {
            System.setIn(saved);
        }
    }

    @Test
    void rulesImportRejectsABadRegexNamingTheRule() throws IOException {
        Path file = tmp.resolve("broken.json");
        Files.writeString(file, """
                {"name": "broken", "groups": [{"pattern": "alt.binaries.*", "rules": [
                  {"name": "ok", "regex": "^(?<file>.+)$"},
                  {"name": "unclosed", "regex": "^(?<file>[a-z+$"}]}]}
                """);
        Cli.Result r = cli().run("rules", "import", file.toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(Exit.BAD_INPUT);
        assertThat(r.err())
                .startsWith("headway: rule file " + file
                        + ": group 'alt.binaries.*' rule #1 ('unclosed') has a bad regex: ")
                .endsWith("; fix the regex (RE2 syntax) and import the rule set again\n");
    }

    @Test
    void rulesImportRejectsAMissingFile() {
        Path file = tmp.resolve("absent.json");
        assertFails(
                cli().run("rules", "import", file.toString()),
                Exit.BAD_INPUT,
                "headway: cannot read rule file " + file + ": " + file + "\n");
    }

    // ------------------------------------------------------------------ search and nzb

    @Test
    void searchRejectsAnEmptyQueryAndABadLimit() {
        Cli cli = cli();
        assertFails(
                cli.run("search", " "),
                Exit.BAD_INPUT,
                "headway: the search query is empty: give a word of a release name\n");
        assertFails(
                cli.run("search", "x", "--limit", "0"),
                Exit.BAD_INPUT,
                "headway: --limit must be between 1 and 10000, was 0\n");
        Cli.Result none = cli.run("search", "nothing.here");
        assertThat(none.code()).isZero();
        assertThat(none.lines()).hasSize(1).allMatch(l -> l.startsWith("RELEASE"));
    }

    @Test
    void nzbRejectsAnUnknownRelease() {
        assertFails(
                cli().run("nzb", "No.Such.Release"),
                Exit.BAD_INPUT,
                "headway: no release named 'No.Such.Release': `headway search No.Such.Release` lists similar ones\n");
    }

    // ------------------------------------------------------------------ the whole path

    /**
     * A worker started through the CLI indexes a planned group; status, search and nzb then see
     * the release; pause, resume and drain reach the running workflow; interrupting the worker
     * hands the group back.
     */
    @Test
    void aWorkerIndexesAGroupThenSearchAndNzbFindItsRelease() throws Exception {
        String group = "alt.binaries.cli.index";
        Cli cli = withNews(cli())
                .env("HEADWAY_TASK_QUEUE", "cli-index-test")
                .env("HEADWAY_NODE_ID", "cli-test-worker")
                .env("HEADWAY_LEASE_TTL", "10s")
                .env("HEADWAY_NODE_TTL", "10s")
                .env("HEADWAY_NODE_HEARTBEAT", "2s");
        assertOk(cli.run("groups", "add", group), "added " + group + " (priority 0)\n");
        assertThat(cli.run("plan", group, "--size", "1000").code()).isZero();

        int metricsPort = closedPort();
        AtomicReference<Cli.Result> workerResult = new AtomicReference<>();
        Thread worker = new Thread(
                () -> workerResult.set(cli.run("worker", "--metrics-port", Integer.toString(metricsPort))),
                "cli-worker");
        worker.start();
        try {
            Cli.Result started = cli.run("start", group, "--snapshot-every", "2", "--idle-wait", "1m");
            assertThat(started.code()).as(started.toString()).isZero();

            JsonNode idle = eventually(
                    () -> groupStatus(cli, group),
                    g -> g.get("lag").asLong() == 0
                            && g.get("leased").asLong() == 0
                            && g.get("state").asText().equals("IDLE"),
                    Duration.ofSeconds(120));
            assertThat(idle.get("done").asLong()).isEqualTo(3);
            assertThat(idle.get("headers").asLong())
                    .as("3000 articles less the simulator's missing ones")
                    .isBetween(2900L, 3000L);

            JsonNode found = json.readTree(
                    cli.run("search", ".", "--json", "--limit", "100").out());
            assertThat(found.size()).as("releases in the catalog").isPositive();
            assertThat(found.findValuesAsText("name"))
                    .as("the simulator's UTF-8 subjects, as the characters posted")
                    .anyMatch(n -> n.matches(".*(Über|über|Déjà|déjà|Café|café|Crème|crème|Señor|señor|Fjörd|fjörd).*"))
                    .noneMatch(n -> n.contains("Ã"));
            String release = found.get(0).get("name").asText();
            Cli.Result search = cli.run("search", release);
            assertThat(search.lines()).anyMatch(l -> l.startsWith(release) && l.contains(group));

            Path nzb = tmp.resolve("out.nzb");
            Cli.Result written = cli.run("nzb", release, "-o", nzb.toString());
            assertThat(written.code()).as(written.toString()).isZero();
            assertThat(written.out())
                    .matches("wrote " + Pattern.quote(nzb.toAbsolutePath().toString()) + " \\(\\d+ files\\)\n");
            Document doc = parseXml(nzb);
            assertThat(doc.getDocumentElement().getTagName()).isEqualTo("nzb");
            assertThat(doc.getElementsByTagName("file").getLength()).isPositive();
            assertFails(
                    cli.run("nzb", release, "--group", "alt.binaries.other"),
                    Exit.BAD_INPUT,
                    "headway: no release named '" + release + "' in alt.binaries.other: `headway search " + release
                            + "` lists similar ones\n");

            String poster = found.get(0).get("poster").asText();
            assertThat(cli.run(
                                    "nzb",
                                    release,
                                    "--group",
                                    group,
                                    "--poster",
                                    poster,
                                    "-o",
                                    tmp.resolve("again.nzb").toString())
                            .code())
                    .isZero();
            assertFails(
                    cli.run("nzb", release, "--poster", "nobody@example.com"),
                    Exit.BAD_INPUT,
                    "headway: no release named '" + release + "' by nobody@example.com: `headway search " + release
                            + "` lists similar ones\n");

            JsonNode node = json.readTree(cli.run("status", "--json").out()).get("nodes");
            assertThat(node.findValuesAsText("id")).contains("cli-test-worker");

            String metrics = eventually(
                    () -> scrape(metricsPort),
                    m -> m.contains("temporal_activity_execution_latency"),
                    Duration.ofSeconds(30));
            assertThat(metrics)
                    .as("every metric docker/grafana/headway-dashboard.json queries")
                    .contains(dashboardMetrics());

            assertOk(cli.run("pause", group), "paused " + group + "\n");
            eventually(
                    () -> groupStatus(cli, group),
                    g -> g.get("state").asText().equals("PAUSED"),
                    Duration.ofSeconds(30));
            assertOk(cli.run("resume", group), "resumed " + group + "\n");
            eventually(
                    () -> groupStatus(cli, group),
                    g -> !g.get("state").asText().equals("PAUSED"),
                    Duration.ofSeconds(30));
            assertOk(cli.run("drain", group), "draining " + group + "\n");
            eventually(
                    () -> describe("group/" + group).getWorkflowExecutionInfo().getStatus(),
                    s -> s == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED,
                    Duration.ofSeconds(30));
            assertFails(
                    cli.run("pause", group),
                    Exit.BAD_INPUT,
                    "headway: no running workflow for group '" + group + "': start it with `headway start " + group
                            + "`\n");
        } finally {
            worker.interrupt();
            worker.join(Duration.ofSeconds(60).toMillis());
        }
        assertThat(worker.isAlive()).isFalse();
        assertThat(workerResult.get().code()).as(workerResult.get().toString()).isZero();
        assertThat(workerResult.get().out())
                .isEqualTo("worker cli-test-worker running; SIGTERM or Ctrl-C stops it cleanly\n");
    }

    // ------------------------------------------------------------------ helpers

    /** The metric names the Grafana dashboard's queries use. */
    private static String[] dashboardMetrics() {
        try {
            String dashboard = Files.readString(Path.of("..", "docker", "grafana", "headway-dashboard.json"));
            Matcher m = Pattern.compile("\\b(?:headway|temporal)_[a-z_]+").matcher(dashboard);
            java.util.Set<String> names = new java.util.TreeSet<>();
            while (m.find()) {
                names.add(m.group());
            }
            assertThat(names)
                    .contains(
                            "headway_headers_total",
                            "headway_takeovers_total",
                            "temporal_activity_execution_latency_seconds_sum");
            return names.toArray(String[]::new);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static String scrape(int port) {
        try {
            java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient()
                    .send(
                            java.net.http.HttpRequest.newBuilder(
                                            java.net.URI.create("http://127.0.0.1:" + port + "/metrics"))
                                    .build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString());
            return r.body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Parses an NZB without fetching its DTD from the network. */
    static Document parseXml(Path file) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return f.newDocumentBuilder().parse(file.toFile());
    }

    private static JsonNode groupStatus(Cli cli, String group) {
        try {
            for (JsonNode g : json.readTree(cli.run("status", "--json").out()).get("groups")) {
                if (g.get("group").asText().equals(group)) {
                    return g;
                }
            }
            throw new AssertionError("no status for " + group);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void assertOk(Cli.Result r, String out) {
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(out);
        assertThat(r.err()).isEmpty();
    }

    private static void assertFails(Cli.Result r, int code, String err) {
        assertThat(r.code()).as(r.toString()).isEqualTo(code);
        assertThat(r.err()).isEqualTo(err);
    }

    private static DescribeWorkflowExecutionResponse describe(String workflowId) {
        return temporal.serviceStubs()
                .blockingStub()
                .describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
                        .setNamespace("default")
                        .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
                        .build());
    }

    private static void terminate(String... workflowIds) {
        for (String id : workflowIds) {
            temporal.workflowClient().newUntypedWorkflowStub(id).terminate("test done");
        }
    }

    static <T> T eventually(
            java.util.function.Supplier<T> probe, java.util.function.Predicate<T> done, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        T last = probe.get();
        while (!done.test(last)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not reached within " + within + "; last: " + last);
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            last = probe.get();
        }
        return last;
    }

    /** A loopback port nothing listens on (bound, then closed). */
    static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
