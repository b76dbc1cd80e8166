package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.catalog.CatalogStore;
import headway.catalog.MissingRun;
import headway.coordination.GroupStore;
import headway.coordination.LeaseStore;
import headway.coordination.RangeRow;
import headway.coordination.RangeStore;
import headway.index.ParsedSubject;
import headway.index.Poison;
import headway.index.RuleSet;
import headway.index.SubjectMatch;
import headway.index.SubjectParser;
import headway.index.Window;
import headway.nntp.GroupInfo;
import headway.nntp.OverviewSink;
import headway.overview.MalformedOverviewException;
import headway.overview.OverviewLine;
import headway.overview.OverviewParser;
import headway.store.Holder;
import headway.store.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A property of the whole write path: random overview lines (random bytes, NUL and control
 * bytes included, fields up to 4 kB) and random binary subjects with poison spliced in go through
 * the overview parser, the window and the fenced catalog write. Whatever the bytes, no exception
 * escapes, every range finishes (so the group cannot park), and every article is accounted for:
 * cataloged, in the ledger, recorded missing, no binary by the rules, or a repeat of a part the
 * catalog holds (junk can parse to a file name another post had, such as {@code .rar}, and the
 * catalog keeps a part's first segment). Each seed is a case; a failure names it.
 */
class HostileOverviewPropertyTest {

    private static final long ARTICLES = 1500;
    private static final Duration TTL = Duration.ofSeconds(30);
    private static final OverviewParser PARSER = OverviewParser.defaultFormat();
    private static HikariDataSource ds;

    @BeforeAll
    static void database() {
        ds = TestDatabase.migrated("hostile_property");
    }

    @AfterAll
    static void close() {
        ds.close();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void everyArticleIsCatalogedLedgeredMissingOrNoBinary(long seed) throws Exception {
        String group = "alt.binaries.property.s" + seed;
        RandomSource source = new RandomSource(seed);
        RuleSet rules = RuleSet.defaults(0);
        index(group, source, rules);

        Set<String> catalog = new HashSet<>(strings(
                "select unnest(message_id_array(message_ids)) from binaries where group_name = '" + group + "'"));
        Map<Long, String> ledger;
        try (Connection c = ds.getConnection()) {
            ledger = new CatalogStore().rejected(c, group);
        }
        Set<Long> missing = new HashSet<>();
        for (MissingRun run : new CatalogStore().missing(ds, group)) {
            for (long a = run.first(); a <= run.last(); a++) {
                missing.add(a);
            }
        }
        Set<List<Object>> cataloged = new HashSet<>();
        for (long n = 1; n <= ARTICLES; n++) {
            OverviewLine line = source.served.get(n);
            String what = "seed " + seed + ", article " + n + ": " + (line == null ? "unparseable" : line);
            if (line == null) {
                assertThat(missing.contains(n) || ledger.containsKey(n))
                        .as(what)
                        .isTrue();
                continue;
            }
            OverviewLine clean = Poison.clean(line);
            boolean tooLong = clean.subject().strip().length() > SubjectParser.MAX_LENGTH;
            boolean binary =
                    !tooLong && rules.match(group, clean.from(), clean.subject()) instanceof SubjectMatch.Matched;
            if (tooLong || (binary && Poison.reason(clean) != null)) {
                assertThat(ledger).as(what).containsKey(n);
            } else if (binary) {
                ParsedSubject p = ((SubjectMatch.Matched) rules.match(group, clean.from(), clean.subject())).subject();
                List<Object> part = List.of(
                        Poison.bounded(clean.from(), new HashMap<>()),
                        Poison.bounded(p.fileName(), new HashMap<>()),
                        p.totalParts() > 0 ? p.totalParts() : 1,
                        p.part() >= 0 ? p.part() : 1);
                if (catalog.contains(bare(line.messageId()))) {
                    cataloged.add(part);
                } else {
                    assertThat(cataloged)
                            .as(
                                    "%s: neither cataloged nor a repeat of a cataloged part (same poster, file, total, part)",
                                    what)
                            .contains(part);
                }
            }
        }
        assertThat(ledger.size()).as("seed %d: poison was served", seed).isPositive();
        assertThat(catalog.size())
                .as("seed %d: good articles were cataloged", seed)
                .isGreaterThan(100);
    }

    /** Indexes the group's ranges with one holder as a worker would; every range must finish. */
    private static Window index(String group, HeaderSource source, RuleSet rules) throws Exception {
        GroupStore groups = new GroupStore(ds);
        groups.add(group, 0);
        LeaseStore leases = new LeaseStore(ds, 0);
        RangeStore ranges = new RangeStore(ds, 0);
        Holdings holdings = new Holdings(1);
        new Planner(groups, source, new Planner.Settings(300, 1_000_000, Long.MAX_VALUE)).plan(group);
        Holder holder = leases.lease(group, "node-property", TTL).holder();
        Window window = new Window(group, 200);
        holdings.put(holder, window, rules, -1);
        Holdings.Held held = holdings.get(group, holder.epoch()).orElseThrow();
        RangeIndexer indexer = new RangeIndexer(
                source, leases.fence(), ranges, new CatalogStore(), 64, IndexMetrics.discard(holdings));
        for (Optional<RangeRow> r = ranges.nextRange(holder, 0); r.isPresent(); r = ranges.nextRange(holder, 0)) {
            assertThat(indexer.index(held, r.get(), r.get().next(), 0, 0, 0, (c, h, m, x) -> {})
                            .finished())
                    .isTrue();
        }
        window.closeAll();
        leases.fence().run(holder, "flushing the window", c -> {
            new CatalogStore().writeBinaries(c, window.drain());
            return null;
        });
        assertThat(TestDatabase.queryLong(
                        ds, "select count(*) from ranges where status <> 'done' and group_name = '" + group + "'"))
                .isZero();
        return window;
    }

    /**
     * Serves each article once as random bytes parsed as the client parses them: a line that does
     * not parse to its number is missing, as OVER without it would leave it; one that parses badly
     * is malformed.
     */
    private static final class RandomSource implements HeaderSource {
        final Map<Long, OverviewLine> served = new HashMap<>();
        private final Map<Long, byte[]> lines = new HashMap<>();

        RandomSource(long seed) {
            Random random = new Random(seed);
            for (long n = 1; n <= ARTICLES; n++) {
                lines.put(n, line(random, n));
            }
        }

        @Override
        public void fetch(String group, long from, long to, OverviewSink sink) {
            for (long n = from; n <= to; n++) {
                String text = new String(lines.get(n), StandardCharsets.ISO_8859_1);
                try {
                    OverviewLine line = PARSER.parse(text);
                    if (line.article() != n) {
                        sink.missing(n, n);
                        continue;
                    }
                    served.put(n, line);
                    sink.header(line);
                } catch (MalformedOverviewException e) {
                    if (e.article() == n) {
                        sink.malformed(n, e.getMessage());
                    } else {
                        sink.missing(n, n);
                    }
                }
            }
        }

        @Override
        public GroupInfo group(String group) {
            return new GroupInfo(ARTICLES, 1, ARTICLES, group);
        }

        private static byte[] line(Random r, long n) {
            StringBuilder sb = new StringBuilder();
            switch (r.nextInt(4)) {
                case 0 -> sb.append(n).append('\t').append(junk(r, 4096, true));
                case 1 -> sb.append(junk(r, 64, true)).append('\t').append(junk(r, 4096, true));
                default -> {
                    String file = "f" + n + (r.nextInt(5) == 0 ? junk(r, 1200, false) : "") + ".rar";
                    String release = "Rel." + (n / 7) + (r.nextInt(6) == 0 ? junk(r, 1500, false) : "");
                    String subject = release + " - [1/1] - \"" + file + "\" yEnc (1/1)"
                            + (r.nextInt(20) == 0 ? " " + junk(r, 4096, false) : "");
                    String from = r.nextInt(6) == 0 ? junk(r, 4096, false) : "poster" + r.nextInt(5) + " <p@x>";
                    String date = r.nextInt(10) == 0 ? junk(r, 300, false) : "Fri, 04 Dec 2026 10:00:00 +0000";
                    String id = r.nextInt(10) == 0 ? junk(r, 400, false) : "<" + n + "." + r.nextInt(1000) + "@x>";
                    sb.append(n)
                            .append('\t')
                            .append(subject)
                            .append('\t')
                            .append(from)
                            .append('\t')
                            .append(date)
                            .append('\t')
                            .append(id)
                            .append("\t\t")
                            .append(r.nextInt(1_000_000))
                            .append('\t')
                            .append(r.nextInt(1000))
                            .append('\t');
                }
            }
            return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
        }

        /** Up to {@code max} random bytes (never CR or LF, which end a line; tabs only when {@code tabs}). */
        private static String junk(Random r, int max, boolean tabs) {
            int len = r.nextInt(max + 1);
            StringBuilder sb = new StringBuilder(len);
            for (int i = 0; i < len; i++) {
                int b = r.nextInt(4) == 0 ? r.nextInt(32) : r.nextInt(256);
                if (b == '\r' || b == '\n' || (b == '\t' && !tabs)) {
                    b = 0;
                }
                sb.append((char) b);
            }
            return sb.toString();
        }
    }

    private static String bare(String messageId) {
        String id = messageId.strip();
        return id.startsWith("<") && id.endsWith(">") ? id.substring(1, id.length() - 1) : id;
    }

    private static List<String> strings(String sql) throws Exception {
        List<String> out = new java.util.ArrayList<>();
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
