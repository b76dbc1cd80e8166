package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.catalog.CatalogStore;
import headway.catalog.RuleSetStore;
import headway.coordination.Band;
import headway.coordination.GroupStore;
import headway.coordination.LeaseStore;
import headway.coordination.PostgresSnapshotStore;
import headway.coordination.RangeRow;
import headway.coordination.RangeStore;
import headway.index.ParsedSubject;
import headway.index.Poison;
import headway.index.RuleSet;
import headway.index.SubjectMatch;
import headway.index.Window;
import headway.nntp.HostileNntpServer;
import headway.nntp.NntpPool;
import headway.overview.HeaderText;
import headway.overview.OverviewLine;
import headway.simulator.HostileText;
import headway.store.TestDatabase;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A property of the whole path over all of Unicode: overview lines whose subjects (in the shapes
 * posters write, with hostile text in every slot: release, file name, extension, counters,
 * brackets and quotes), posters, message-ids and dates are drawn from {@link HostileText} (every
 * plane, surrogate pairs and lone surrogates, combining marks, bidi controls, U+FFFD, U+0000,
 * unassigned code points, noncharacters, the four normalization forms), some with bytes that are
 * not UTF-8, are served by a news server, read by the real client and overview parser, classified
 * by the rules as the worker builds them (the shipped defaults, or an imported set with regex
 * rules and lists), assembled by the window (which ages and snapshots) and written by the fenced
 * catalog write on embedded PostgreSQL. Whatever the text: no exception escapes and every range
 * finishes; each article is cataloged (its message-id in one binary) or in the ledger, never both,
 * or is what the rules drop (a miss), or a repeat of a part the catalog holds; what {@code headway
 * rules test} makes of each subject ({@link Window#classify}, which {@code RulesCommand} calls) is
 * what the worker did with it, down to the binary's key; and no ledger row says that code failed
 * or that the catalog refused a write, because hostile text is the header's business, never a
 * crash's. Each run draws a fresh seed, named when it fails; {@code -Dheadway.hostile.seed=N}
 * replays it, {@code -Dheadway.hostile.tries=N} runs more tries (each a group of {@value
 * #ARTICLES} articles).
 */
class HostileUnicodePropertyTest {

    private static final int ARTICLES = 300;
    private static final Duration TTL = Duration.ofSeconds(30);
    private static final String REGEX_RULES = """
            {"name": "hostile regexes", "groups": [{"pattern": "alt.binaries.unicode.*",
              "subjectBlacklist": ["(?i)^fwd?:\\\\s", "\\\\x{1F4A9}"],
              "posterBlacklist": ["(?i)spam", "\\\\p{Cf}{3}"],
              "rules": [
                {"name": "counted", "regex": "^(?<release>.*?) *\\\\[(?<fileno>\\\\d+)/(?<files>\\\\d+)\\\\] - \\"(?<file>[^\\"]+)\\" yEnc \\\\((?<part>\\\\d+)/(?<total>\\\\d+)\\\\)$"},
                {"name": "any digits", "regex": "(?<file>[\\\\pL\\\\pN_.-]+\\\\.\\\\pL{2,4})\\\\s.*[(\\\\[](?<part>\\\\pN+)/(?<total>\\\\pN+)[)\\\\]]"},
                {"name": "greedy", "regex": "^(?<release>\\\\S+) (?<file>\\\\S+) \\\\((?<part>\\\\S+)/(?<total>\\\\S+)\\\\)$"}
              ]}]}
            """;

    private static HikariDataSource ds;
    private static int regexVersion;
    private static int groups;

    @BeforeAll
    static void database() throws Exception {
        ds = TestDatabase.migrated("hostile_unicode");
        regexVersion = new RuleSetStore(ds).importRuleSet("hostile regexes", REGEX_RULES);
    }

    @AfterAll
    static void close() {
        ds.close();
    }

    @Test
    void everyArticleIsCatalogedLedgeredOrDroppedByTheRulesAsRulesTestSaysWhateverItsText() throws Exception {
        long seed = Long.getLong("headway.hostile.seed", new SecureRandom().nextLong());
        int tries = Integer.getInteger("headway.hostile.tries", 4);
        Random seeds = new Random(seed);
        for (int t = 0; t < tries; t++) {
            long trySeed = seeds.nextLong();
            boolean regex = t % 2 == 1;
            try {
                run(trySeed, regex);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(
                        "seed " + seed + ", try " + t + " (" + (regex ? "regex rules" : "default rules")
                                + "); replay with -Dheadway.hostile.seed=" + seed,
                        e);
            }
        }
    }

    /** One group of hostile articles indexed and accounted for. */
    private static void run(long seed, boolean regex) throws Exception {
        String group = "alt.binaries.unicode.g" + (++groups);
        Random r = new Random(seed);
        List<Served> lines = articles(r);
        RuleSet rules = regex ? new RuleSetStore(ds).byVersion(regexVersion).orElseThrow() : RuleSet.defaults(0);
        try (HostileNntpServer server = HostileNntpServer.start(group, ARTICLES)) {
            server.misbehave(HostileNntpServer.Misbehaviour.GARBAGE_BODY, Integer.MAX_VALUE)
                    .garbage((lo, hi) -> body(lines, lo, hi));
            index(group, server, rules);
        }
        account(group, lines, rules);
    }

    /** Indexes the group's ranges with one holder as a worker does, snapshotting the window after each range. */
    private static void index(String group, HostileNntpServer server, RuleSet rules) throws Exception {
        GroupStore groupStore = new GroupStore(ds);
        groupStore.add(group, 0);
        groupStore.plan(group, 1, ARTICLES, 100, -1);
        LeaseStore leases = new LeaseStore(ds, 0);
        RangeStore ranges = new RangeStore(ds, 0);
        Holdings holdings = new Holdings(1);
        IndexMetrics metrics = IndexMetrics.discard(holdings);
        try (NntpPool pool = new NntpPool(new NntpPool.Config(
                server.server(),
                1,
                Duration.ofSeconds(2),
                Duration.ofSeconds(5),
                Duration.ofSeconds(10),
                Duration.ofMillis(50),
                Duration.ofMillis(200)))) {
            PostgresSnapshotStore snapshots = new PostgresSnapshotStore(ds, leases);
            LeaseActivitiesImpl leaseActivities = new LeaseActivitiesImpl(
                    leases,
                    snapshots,
                    holdings,
                    () -> rules,
                    "node-u",
                    "own/node-u",
                    TTL,
                    150,
                    metrics,
                    ConflictReporter.NONE,
                    Band.ALL);
            LeaseGrant grant = leaseActivities.lease(group, TTL);
            Holdings.Held held = holdings.get(group, grant.token().epoch()).orElseThrow();
            RangeIndexer indexer = new RangeIndexer(
                    new NntpHeaderSource(pool), leases.fence(), ranges, new CatalogStore(), 64, metrics);
            WindowSnapshots windowSnapshots =
                    new WindowSnapshots(leases.fence(), snapshots, new CatalogStore(), metrics);
            for (Optional<RangeRow> range = ranges.nextRange(held.holder(), rules.version());
                    range.isPresent();
                    range = ranges.nextRange(held.holder(), rules.version())) {
                RangeIndexer.Outcome outcome =
                        indexer.index(held, range.get(), range.get().next(), 0, 0, 0, (c, h, m, x) -> {});
                assertThat(outcome.finished())
                        .as("range %s finished", range.get())
                        .isTrue();
                windowSnapshots.take(held);
                ByteArrayOutputStream snapshot = new ByteArrayOutputStream();
                held.window().writeTo(snapshot);
                Window back = Window.readFrom(new ByteArrayInputStream(snapshot.toByteArray()));
                assertThat(back.stats()).isEqualTo(held.window().stats());
                ByteArrayOutputStream again = new ByteArrayOutputStream();
                back.writeTo(again);
                assertThat(again.toByteArray()).as("the snapshot read back").isEqualTo(snapshot.toByteArray());
            }
            held.window().closeAll();
            List<headway.index.CompletedBinary> rest = held.window().drain();
            leases.fence().run(held.holder(), "flushing the window", c -> {
                new CatalogStore().writeBinaries(c, rest, rules.categories(), rules.version());
                return null;
            });
        }
        assertThat(TestDatabase.queryLong(
                        ds, "select count(*) from ranges where status <> 'done' and group_name = '" + group + "'"))
                .isZero();
    }

    /** Checks every article against what rules test says of it, the catalog and the ledger. */
    private static void account(String group, List<Served> lines, RuleSet rules) throws Exception {
        Map<String, Placed> catalog = catalog(group);
        Map<Long, String> ledger;
        try (Connection c = ds.getConnection()) {
            ledger = new CatalogStore().rejected(c, group);
        }
        assertThat(ledger.values())
                .as("a ledger row that says code failed or the catalog refused a write")
                .noneMatch(reason -> reason.contains(" failed: ") || reason.startsWith("the catalog refused"));
        Set<Long> ledgerExpected = new HashSet<>();
        Set<List<Object>> cataloged = new HashSet<>();
        long misses = 0;
        for (Served s : lines) {
            String what = "article " + s.article + ": " + s;
            if (s.malformed) {
                ledgerExpected.add(s.article);
                assertThat(ledger.get(s.article)).as(what).startsWith("malformed overview line");
                continue;
            }
            String id = bare(s.messageId);
            Placed placed = catalog.get(id);
            SubjectMatch match = Window.classify(rules, group, s.poster, s.subject);
            if (match instanceof SubjectMatch.Unusable u) {
                ledgerExpected.add(s.article);
                assertThat(ledger.get(s.article)).as(what).isEqualTo(Poison.prefix(Poison.clean(u.reason()), 500));
                assertThat(placed).as(what).isNull();
                continue;
            }
            if (!(match instanceof SubjectMatch.Matched m)) {
                misses++;
                assertThat(ledger).as(what).doesNotContainKey(s.article);
                assertThat(placed).as("%s: a miss cataloged", what).isNull();
                continue;
            }
            OverviewLine clean =
                    Poison.clean(new OverviewLine(s.article, s.subject, s.poster, s.date, s.messageId, "", 1, 1, ""));
            String poison = Poison.reason(clean);
            if (poison != null) {
                ledgerExpected.add(s.article);
                assertThat(ledger.get(s.article)).as(what).isEqualTo(poison);
                assertThat(placed).as(what).isNull();
                continue;
            }
            assertThat(ledger).as(what).doesNotContainKey(s.article);
            ParsedSubject p = m.subject();
            List<Object> key = List.of(
                    Poison.bounded(clean.from(), new HashMap<>()),
                    Poison.bounded(p.fileName(), new HashMap<>()),
                    p.totalParts() > 0 ? p.totalParts() : 1,
                    p.part() >= 0 ? p.part() : 1);
            if (placed != null) {
                assertThat(placed.key())
                        .as("%s: rules test keyed it %s, the worker %s", what, key, placed.key())
                        .isEqualTo(key);
                assertThat(placed.count()).as("%s: cataloged once", what).isEqualTo(1);
                cataloged.add(key);
            } else {
                assertThat(cataloged)
                        .as("%s: neither cataloged nor a repeat of a cataloged part %s", what, key)
                        .contains(key);
            }
        }
        assertThat(ledger.keySet()).isEqualTo(ledgerExpected);
        assertThat(TestDatabase.queryLong(
                        ds,
                        "select coalesce(sum(unmatched + rejected), 0) from group_misses where group_name = '" + group
                                + "'"))
                .as("misses counted")
                .isEqualTo(misses);
        Set<String> served = new HashSet<>();
        for (Served s : lines) {
            served.add(bare(s.messageId));
        }
        assertThat(served).as("every cataloged message-id was served").containsAll(catalog.keySet());
        assertThat(cataloged).as("something was cataloged").isNotEmpty();
    }

    /** Where the catalog holds a message-id: its binary's key with the part, and how many times it is held. */
    private record Placed(List<Object> key, int count) {}

    private static Map<String, Placed> catalog(String group) throws Exception {
        Map<String, Placed> out = new HashMap<>();
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "select poster, file_name, total_parts, part_numbers, message_ids from binaries"
                                + " where group_name = ?")) {
            ps.setString(1, group);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Integer[] parts = (Integer[]) rs.getArray(4).getArray();
                    String[] ids =
                            headway.store.MessageIdPack.decode(rs.getBytes(5)).toArray(new String[0]);
                    for (int i = 0; i < ids.length; i++) {
                        List<Object> key = List.of(rs.getString(1), rs.getString(2), rs.getInt(3), parts[i]);
                        Placed before = out.get(ids[i]);
                        out.put(ids[i], new Placed(key, before == null ? 1 : before.count() + 1));
                    }
                }
            }
        }
        return out;
    }

    /** One served overview line and the fields as the client reads them. */
    private record Served(
            long article,
            byte[] line,
            boolean malformed,
            String subject,
            String poster,
            String date,
            String messageId) {
        @Override
        public String toString() {
            return new String(line, StandardCharsets.UTF_8).replace("\t", " | ");
        }
    }

    private static byte[] body(List<Served> lines, long lo, long hi) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Served s : lines) {
            if (s.article >= lo && s.article <= hi) {
                out.writeBytes(s.line);
                out.writeBytes(new byte[] {'\r', '\n'});
            }
        }
        return out.toByteArray();
    }

    /** The group's articles 1..ARTICLES: the parts of hostile posts, interleaved with chatter and malformed lines. */
    private static List<Served> articles(Random r) {
        List<byte[][]> items = new ArrayList<>();
        while (items.size() < ARTICLES) {
            int kind = r.nextInt(10);
            if (kind == 0) {
                items.add(new byte[][] {field(r, HostileText.text(r, 40))});
            } else if (kind == 1) {
                items.add(null);
            } else {
                items.addAll(post(r));
            }
        }
        List<byte[][]> order = new ArrayList<>(items.subList(0, ARTICLES));
        for (int i = 0; i < order.size(); i++) { // near article order, as posts interleave
            Collections.swap(order, i, Math.min(order.size() - 1, i + r.nextInt(8)));
        }
        List<Served> out = new ArrayList<>();
        for (int i = 0; i < ARTICLES; i++) {
            long n = i + 1L;
            byte[][] item = order.get(i);
            if (item == null) {
                byte[] line = concat(ascii(n + "\t"), field(r, HostileText.text(r, 30)));
                out.add(new Served(n, line, true, "", "", "", ""));
                continue;
            }
            byte[] subject = item[0];
            byte[] poster = item.length > 1 ? item[1] : field(r, HostileText.text(r, 20));
            byte[] date = item.length > 2 ? item[2] : field(r, date(r));
            String idText = messageId(r, n);
            byte[] id = idText.isEmpty() ? new byte[0] : field(r, idText); // ids stay unique: no bytes alone
            byte[] line = concat(
                    ascii(n + "\t"),
                    subject,
                    ascii("\t"),
                    poster,
                    ascii("\t"),
                    date,
                    ascii("\t"),
                    id,
                    ascii("\t\t" + r.nextInt(1_000_000) + "\t" + r.nextInt(10_000) + "\t"));
            out.add(new Served(
                    n,
                    line,
                    false,
                    HeaderText.decode(subject),
                    HeaderText.decode(poster),
                    HeaderText.decode(date),
                    HeaderText.decode(id)));
        }
        return out;
    }

    /** The parts of one post: subject, poster and date of each, hostile text in every slot of the subject. */
    private static List<byte[][]> post(Random r) {
        String release = slot(r, "Release.Name.S01E0" + r.nextInt(10) + ".1080p-GRP");
        String file = slot(r, "release.name.part0" + r.nextInt(10)) + slot(r, "." + ext(r));
        String files = digits(r, 1 + r.nextInt(20));
        String fileNo = digits(r, 1 + r.nextInt(20));
        int total = 1 + r.nextInt(5);
        int shape = r.nextInt(6);
        String open = r.nextInt(8) == 0 ? HostileText.text(r, 1) : "[";
        String close = r.nextInt(8) == 0 ? HostileText.text(r, 1) : "]";
        String quote = r.nextInt(8) == 0 ? HostileText.text(r, 1) : "\"";
        String poster = poster(r);
        String date = date(r);
        List<byte[][]> parts = new ArrayList<>();
        for (int part = 1; part <= total; part++) {
            if (r.nextInt(12) == 0) {
                continue; // a part never posted
            }
            String counter = "(" + digits(r, part) + "/" + digits(r, total) + ")";
            String subject = switch (shape) {
                case 0 ->
                    release + " " + open + fileNo + "/" + files + close + " - " + quote + file + quote + " yEnc "
                            + counter;
                case 1 ->
                    open + fileNo + "/" + files + close + " - " + quote + file + quote + " yEnc " + counter + " "
                            + r.nextInt(100_000_000);
                case 2 -> release + " - " + quote + file + quote + " " + counter;
                case 3 -> quote + file + quote + " yEnc " + counter;
                case 4 -> release + " " + file + " " + counter;
                default -> HostileText.text(r, 30) + " " + counter;
            };
            parts.add(new byte[][] {field(r, subject), field(r, poster), field(r, date)});
        }
        return parts;
    }

    /** A slot's text: as posters write it, with hostile text in it, or hostile text alone. */
    private static String slot(Random r, String usual) {
        return switch (r.nextInt(4)) {
            case 0 -> HostileText.text(r, 16);
            case 1 -> {
                int at = r.nextInt(usual.length() + 1);
                yield usual.substring(0, at) + HostileText.text(r, 4) + usual.substring(at);
            }
            default -> usual;
        };
    }

    private static String ext(Random r) {
        String[] usual = {"rar", "par2", "nfo", "mkv", "7z.001", "r00", "vol00+01.par2"};
        return r.nextInt(6) == 0 ? HostileText.text(r, 4) : usual[r.nextInt(usual.length)];
    }

    /** {@code value} in ASCII digits, or now and then in another script's digits or hostile text. */
    private static String digits(Random r, int value) {
        return switch (r.nextInt(12)) {
            case 0 -> HostileText.text(r, 3);
            case 1 -> {
                StringBuilder sb = new StringBuilder();
                int zero = new int[] {0x660, 0xFF10, 0x1D7CE, 0x966}[r.nextInt(4)];
                for (char c : Integer.toString(value).toCharArray()) {
                    sb.appendCodePoint(zero + c - '0');
                }
                yield sb.toString();
            }
            case 2 -> "0" + value;
            default -> Integer.toString(value);
        };
    }

    private static String poster(Random r) {
        return switch (r.nextInt(6)) {
            case 0 -> HostileText.text(r, 30);
            case 1 -> HostileText.text(r, 8) + " <p" + r.nextInt(5) + "@example.com>";
            case 2 -> HostileText.text(r, 600) + " <long@example.com>"; // keyed by a bounded form
            default -> "poster" + r.nextInt(5) + " <p@example.com>";
        };
    }

    /** A date as posting tools write it, at the edges of what PostgreSQL holds, or hostile text. */
    private static String date(Random r) {
        int year = switch (r.nextInt(8)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> 9999;
            default -> 1980 + r.nextInt(50);
        };
        LocalDate day = LocalDate.of(year, 1 + r.nextInt(12), 1 + r.nextInt(28));
        String zone = r.nextInt(4) == 0 ? (r.nextBoolean() ? "+1400" : "-1400") : "+0000";
        String date = day.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ROOT) + ", "
                + String.format(
                        Locale.ROOT,
                        "%02d %s %04d",
                        day.getDayOfMonth(),
                        day.getMonth().getDisplayName(TextStyle.SHORT, Locale.ROOT),
                        year)
                + " 12:34:56 " + zone;
        return switch (r.nextInt(8)) {
            case 0 -> HostileText.text(r, 40);
            case 1 -> date + " (" + HostileText.text(r, 10) + ")";
            default -> date;
        };
    }

    /** A message-id with the article's number in it, so that ids are unique; hostile text around it, now and then. */
    private static String messageId(Random r, long n) {
        return switch (r.nextInt(10)) {
            case 0 -> "<" + HostileText.text(r, 8) + "." + n + "@" + HostileText.text(r, 6) + ">";
            case 1 -> "<" + HostileText.foreign(r, 6) + "." + n + "@x.test>";
            case 2 -> "<" + "z".repeat(250) + "." + n + "@x.test>";
            case 3 -> "";
            default -> "<part" + n + "." + r.nextInt(1000) + "@news.example>";
        };
    }

    /** {@code text} as served: UTF-8, or one time in six with bytes that are not UTF-8 spliced in. */
    private static byte[] field(Random r, String text) {
        return r.nextInt(6) == 0 ? HostileText.corrupted(r, text, 1 + r.nextInt(2)) : HostileText.utf8(text);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static String bare(String messageId) {
        String id = messageId.strip();
        return id.startsWith("<") && id.endsWith(">") && id.length() >= 2 ? id.substring(1, id.length() - 1) : id;
    }
}
