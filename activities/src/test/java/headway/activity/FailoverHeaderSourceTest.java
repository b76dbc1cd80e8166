package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;

import headway.coordination.ProviderSwitches.Switch;
import headway.nntp.NntpPool;
import headway.nntp.NntpServer;
import headway.nntp.OverviewSink;
import headway.overview.OverviewLine;
import headway.simulator.Article;
import headway.simulator.NewsSimulator;
import headway.simulator.NewsSimulator.GroupSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Two news servers hold the same posts under different article numbers; the primary stops in the
 * middle of a group's run, and the run goes on from the backup from the same cursor: every post is
 * read exactly once, in strictly increasing catalog numbers.
 */
class FailoverHeaderSourceTest {
    private static final String GROUP = "alt.binaries.failover";
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("EEE, d MMM yyyy HH:mm:ss Z", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    @Test
    void aStoppedPrimaryHandsTheGroupToTheBackupWithoutSkippingOrDoubling() throws Exception {
        runThroughFailover(false);
    }

    @Test
    void pipelinedReadsFailOverTheSameWay() throws Exception {
        runThroughFailover(true);
    }

    @Test
    void withoutAnAnchorOrACatalogTheBackupStartsAtItsLowWaterMark() throws Exception {
        try (Pair pair = Pair.start(10, 7, 50)) {
            pair.primary.close();
            Collector seen = new Collector();
            pair.source.fetch(GROUP, 1, 20, seen);
            assertThat(seen.ids).hasSize(17).contains("<only-b-0@rig.test>", "<post-9@rig.test>");
            Switch s = pair.switches.get(GROUP).get(1);
            assertThat(s.mappedBy()).isEqualTo("low-water");
            assertThat(s.onProvider(1)).as("the backup's first article").isEqualTo(1);
        }
    }

    @Test
    void datesAreReadInTheFormsServersWrite() {
        Instant t = Instant.parse("2026-12-07T16:11:48Z");
        assertThat(ProviderMapper.date("Mon, 7 Dec 2026 16:11:48 +0000")).isEqualTo(t);
        assertThat(ProviderMapper.date("7 Dec 2026 17:11:48 +0100 (CET)")).isEqualTo(t);
        assertThat(ProviderMapper.date("Mon, 07 Dec 2026 16:11:48 GMT")).isEqualTo(t);
        assertThat(ProviderMapper.date("yesterday")).isNull();
        assertThat(ProviderMapper.date("")).isNull();
    }

    private static void runThroughFailover(boolean pipelined) throws Exception {
        int posts = 3_000;
        try (Pair pair = Pair.start(posts, 137, 250)) {
            Collector seen = new Collector();
            long cursor = 1;
            long batch = 97;
            boolean stopped = false;
            while (cursor <= pair.source.group(GROUP).high()) {
                if (!stopped && seen.ids.size() >= posts * 2 / 5) {
                    pair.primary.close();
                    stopped = true;
                }
                long to = cursor + batch - 1;
                if (pipelined) {
                    try (HeaderSource.Pipeline pipe = pair.source.pipeline(GROUP)) {
                        pipe.send(cursor, to);
                        pipe.send(to + 1, to + batch);
                        pipe.receive(cursor, to, seen);
                        pipe.receive(to + 1, to + batch, seen);
                    }
                    cursor = to + batch + 1;
                } else {
                    pair.source.fetch(GROUP, cursor, to, seen);
                    cursor = to + 1;
                }
            }
            assertThat(stopped).isTrue();
            assertThat(seen.doubled).as("articles read twice").isEmpty();
            assertThat(seen.ids).as("every post both servers hold is read").containsAll(pair.posted);
            assertThat(seen.ids.stream().filter(id -> !pair.posted.contains(id)))
                    .as("besides them, only the primary's own posts read before it stopped")
                    .allMatch(id -> id.startsWith("<only-a-"))
                    .isNotEmpty();
            assertThat(seen.outOfOrder).as("catalog numbers strictly increase").isZero();
            List<Switch> switches = pair.switches.get(GROUP);
            assertThat(switches).hasSize(2);
            assertThat(switches.get(1).provider()).isEqualTo(1);
            assertThat(switches.get(1).mappedBy()).isEqualTo("message-id");
            String anchor = switches.get(1).anchor();
            assertThat(switches.get(1).shift())
                    .as("the backup's number of the anchor less the primary's")
                    .isEqualTo(pair.number(pair.backup, anchor) - pair.number(pair.primaryNumbers, anchor));
        }
    }

    /** Two simulators: the backup holds {@code extra} posts of its own first, then both hold the same posts. */
    private record Pair(
            NewsSimulator primary,
            NewsSimulator backup,
            NntpPool poolA,
            NntpPool poolB,
            FailoverHeaderSource source,
            Map<String, List<Switch>> switches,
            Set<String> posted,
            Map<String, Long> primaryNumbers)
            implements AutoCloseable {

        static Pair start(int posts, int extra, int gapEvery) throws IOException {
            NewsSimulator a = NewsSimulator.start(NewsSimulator.Options.defaults(), List.of(GroupSpec.posted(GROUP)));
            NewsSimulator b = NewsSimulator.start(NewsSimulator.Options.defaults(), List.of(GroupSpec.posted(GROUP)));
            Instant t = Instant.parse("2026-01-01T00:00:00Z");
            for (int i = 0; i < extra; i++) {
                b.postArticle(GROUP, article("<only-b-" + i + "@rig.test>", "b only " + i, t.minusSeconds(1000 - i)));
            }
            Set<String> posted = new HashSet<>();
            Map<String, Long> numbersOnA = new ConcurrentHashMap<>();
            for (int i = 0; i < posts; i++) {
                String id = "<post-" + i + "@rig.test>";
                Article art = article(id, "post " + i, t.plusSeconds(i / 3));
                numbersOnA.put(id, a.postArticle(GROUP, art));
                b.postArticle(GROUP, art);
                posted.add(id);
                if (i % gapEvery == gapEvery - 1) {
                    // a post the backup never got, so the two differ by more than a constant
                    a.postArticle(GROUP, article("<only-a-" + i + "@rig.test>", "a only " + i, t.plusSeconds(i / 3)));
                }
            }
            NntpPool poolA = pool(a);
            NntpPool poolB = pool(b);
            Map<String, List<Switch>> switches = new ConcurrentHashMap<>();
            FailoverHeaderSource source = new FailoverHeaderSource(
                    List.of(
                            new FailoverHeaderSource.Candidate(0, "0 primary", new NntpHeaderSource(poolA)),
                            new FailoverHeaderSource.Candidate(1, "1 backup", new NntpHeaderSource(poolB))),
                    g -> switches.getOrDefault(g, List.of(Switch.START)),
                    (g, s) -> {
                        List<Switch> list = new ArrayList<>(switches.getOrDefault(g, List.of(Switch.START)));
                        list.removeIf(x -> x.fromArticle() == s.fromArticle());
                        list.add(s);
                        list.sort((x, y) -> Long.compare(x.fromArticle(), y.fromArticle()));
                        switches.put(g, List.copyOf(list));
                        return switches.get(g);
                    },
                    g -> Long.MIN_VALUE,
                    FailoverHeaderSource.AnchorLookup.NONE,
                    FailoverHeaderSource.FAIL_BACK_AFTER,
                    System::nanoTime);
            return new Pair(a, b, poolA, poolB, source, switches, posted, numbersOnA);
        }

        long number(Map<String, Long> numbers, String id) {
            return numbers.get(id);
        }

        long number(NewsSimulator sim, String id) {
            for (long n = 1; n <= sim.high(GROUP); n++) {
                if (("<" + sim.messageId(GROUP, n) + ">").equals(id)) {
                    return n;
                }
            }
            throw new AssertionError(id + " is not on the simulator");
        }

        private static NntpPool pool(NewsSimulator sim) {
            return new NntpPool(NntpPool.Config.defaults(NntpServer.plain(sim.host(), sim.port()))
                    .withMaxConnections(2)
                    .withBorrowTimeout(Duration.ofMillis(500)));
        }

        private static Article article(String id, String subject, Instant date) {
            return Article.of(
                    id,
                    "p <p@rig.test>",
                    GROUP,
                    subject,
                    DATE.format(date),
                    "x\r\n".getBytes(StandardCharsets.US_ASCII));
        }

        @Override
        public void close() {
            poolA.close();
            poolB.close();
            primary.close();
            backup.close();
        }
    }

    /** The catalog's view: headers by message-id, counting doubles and numbers that do not increase. */
    private static final class Collector implements OverviewSink {
        final Set<String> ids = new HashSet<>();
        final List<String> doubled = new ArrayList<>();
        long last = Long.MIN_VALUE;
        int outOfOrder;

        @Override
        public void header(OverviewLine line) {
            if (!ids.add(line.messageId())) {
                doubled.add(line.messageId() + " at " + line.article());
            }
            if (line.article() <= last) {
                outOfOrder++;
            }
            last = line.article();
        }

        @Override
        public void malformed(long article, String reason) {}

        @Override
        public void missing(long fromInclusive, long toInclusive) {}
    }
}
