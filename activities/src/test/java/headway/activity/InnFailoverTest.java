package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.catalog.CatalogStore;
import headway.catalog.NewestBinary;
import headway.coordination.GroupStore;
import headway.coordination.LeaseStore;
import headway.coordination.ProviderSwitches;
import headway.coordination.ProviderSwitches.Switch;
import headway.coordination.RangeRow;
import headway.coordination.RangeStore;
import headway.guard.InnLock;
import headway.index.RuleSet;
import headway.index.Window;
import headway.nntp.InnPeer;
import headway.nntp.NntpPool;
import headway.nntp.NntpServer;
import headway.store.Holder;
import headway.store.Jdbc;
import headway.store.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Failover between two real INN servers (two {@code nntp-peer.sh} instances): the same binary posts
 * are fed to both, but the second holds posts of its own first and the first a chatter post every
 * {@value #CHATTER_EVERY} posts, so their article numbers differ by more than a constant. A group is
 * indexed from the first server into the catalog (embedded PostgreSQL) through {@link
 * FailoverHeaderSource}; the first server is stopped in the middle of a range, and the group goes
 * on from the second from the mapped cursor. The catalog then holds every posted segment exactly
 * once, and {@code group_provider_switches} says how the switch was mapped.
 */
@ExtendWith(InnLock.class)
class InnFailoverTest {
    private static final String WITH_ANCHOR = "alt.binaries.headway.failover";
    private static final String NO_ANCHOR = "alt.binaries.headway.failover.fresh";
    private static final int FILES = 3;
    private static final int PARTS = 10;
    private static final int SECOND_ONLY = 23;
    private static final int CHATTER_EVERY = 25;
    private static final DateTimeFormatter DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private static HikariDataSource ds;

    @BeforeAll
    static void start() throws Exception {
        InnPeer.FIRST.run("start", WITH_ANCHOR, NO_ANCHOR);
        InnPeer.FIRST.run("reset", WITH_ANCHOR, NO_ANCHOR);
        InnPeer.SECOND.run("start", WITH_ANCHOR, NO_ANCHOR);
        InnPeer.SECOND.run("reset", WITH_ANCHOR, NO_ANCHOR);
        ds = TestDatabase.migrated("inn_failover");
    }

    @AfterAll
    static void close() throws Exception {
        try {
            InnPeer.FIRST.run("start");
            InnPeer.SECOND.run("stop");
        } finally {
            if (ds != null) {
                ds.close();
            }
        }
    }

    @Test
    void theGroupGoesOnFromTheSecondServerAndBackWithEveryArticleOnce() throws Exception {
        Posts posts = Posts.feed(WITH_ANCHOR, 0, 6, new Random(44));
        try (NntpPool first = pool(InnPeer.FIRST);
                NntpPool second = pool(InnPeer.SECOND)) {
            ProviderSwitches store = new ProviderSwitches(ds);
            AtomicLong clock = new AtomicLong();
            FailoverHeaderSource source = new FailoverHeaderSource(
                    candidates(first, second),
                    store::of,
                    store::record,
                    new GroupStore(ds)::highestPlanned,
                    anchors(),
                    Duration.ofHours(1),
                    clock::get);
            Run run = new Run(WITH_ANCHOR, source);
            boolean[] stopped = {false};
            run.indexAll(cursor -> {
                if (!stopped[0] && cursor > posts.firstNumbers.size() / 2) {
                    stopped[0] = true;
                    return true;
                }
                return false;
            });
            assertThat(stopped[0]).as("the first server was stopped mid-run").isTrue();
            assertEveryPostOnce(WITH_ANCHOR, posts.ids);

            List<Switch> switches = store.of(WITH_ANCHOR);
            Switch over = switches.get(1);
            assertThat(over.provider()).isEqualTo(1);
            assertThat(over.mappedBy()).isEqualTo("message-id");
            // The second server holds fewer articles after the anchor than the first (no chatter), so
            // its next post goes after the highest article planned from the first server's marks.
            assertThat(switches).hasSize(3);
            assertThat(switches.get(2).provider()).isEqualTo(1);
            assertThat(switches.get(2).mappedBy()).isEqualTo("high-water");
            assertThat(over.shift())
                    .as("the second server's number of the anchor less the first's")
                    .isEqualTo(posts.secondNumbers.get(over.anchor()) - posts.firstNumbers.get(over.anchor()));
            assertThat(TestDatabase.queryString(
                            ds,
                            "select mapped_by || ' ' || anchor from group_provider_switches where group_name = '"
                                    + WITH_ANCHOR + "' and provider = 1"))
                    .isEqualTo("message-id " + over.anchor());

            // The first server returns; posts made since reach both; the group goes back to it at its
            // next fetch once failBackAfter has passed, from the cursor, by the anchor's message-id.
            InnPeer.FIRST.run("start", WITH_ANCHOR);
            clock.addAndGet(Duration.ofHours(2).toNanos());
            Posts more = Posts.feedMore(WITH_ANCHOR, posts, 3, new Random(45));
            run.indexAll(cursor -> false);
            List<String> all = new ArrayList<>(posts.ids);
            all.addAll(more.ids);
            assertEveryPostOnce(WITH_ANCHOR, all);
            switches = store.of(WITH_ANCHOR);
            Switch back = switches.stream()
                    .filter(x -> x.provider() == 0 && x.fromArticle() > over.fromArticle())
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no switch back to the first server"));
            assertThat(back.mappedBy()).isEqualTo("message-id");
            assertThat(back.shift())
                    .as("the first server's number of the anchor less the catalog's")
                    .isEqualTo(more.firstNumbers.get(back.anchor()) - catalogNumber(back.anchor(), more, switches));
        }
    }

    @Test
    void aWorkerWithoutAnAnchorMapsByTheCatalogsNewestBinaryDate() throws Exception {
        Posts posts = Posts.feed(NO_ANCHOR, 0, 6, new Random(46));
        try (NntpPool first = pool(InnPeer.FIRST);
                NntpPool second = pool(InnPeer.SECOND)) {
            ProviderSwitches store = new ProviderSwitches(ds);
            GroupStore groups = new GroupStore(ds);
            Run run = new Run(NO_ANCHOR, new FailoverHeaderSource(candidates(first, second), store, groups, anchors()));
            long half = posts.firstNumbers.size() / 2;
            run.indexWhile(r -> r.start() <= half);
            InnPeer.FIRST.run("stop");
            // Another worker takes the group over: it has read no header of it.
            run.source = new FailoverHeaderSource(candidates(first, second), store, groups, anchors());
            // Its planner cannot read the first server's marks: it reads the ranges planned already,
            // the first fetch switches, and then it plans from the second server's marks.
            run.indexWhile(r -> true);
            run.indexAll(cursor -> false);
            assertEveryPostOnce(NO_ANCHOR, posts.ids);
            List<Switch> switches = store.of(NO_ANCHOR);
            assertThat(switches.get(1).provider()).isEqualTo(1);
            assertThat(switches.get(1).mappedBy()).isEqualTo("date");
        } finally {
            InnPeer.FIRST.run("start");
        }
    }

    /** The catalog number of a post the second server served: its number there less the shift it was read with. */
    private static long catalogNumber(String id, Posts posts, List<Switch> switches) {
        long onSecond = posts.secondNumbers.get(id);
        for (Switch s : switches) {
            if (s.provider() == 1
                    && ProviderSwitches.covering(switches, onSecond - s.shift()).equals(s)) {
                return onSecond - s.shift();
            }
        }
        throw new AssertionError(id + " was not read from the second server");
    }

    private static FailoverHeaderSource.AnchorLookup anchors() {
        NewestBinary newest = new NewestBinary(ds);
        return (group, article) -> newest.before(group, article)
                .map(f -> new FailoverHeaderSource.Dated(f.lastArticle(), f.posted()))
                .orElse(null);
    }

    private static List<FailoverHeaderSource.Candidate> candidates(NntpPool first, NntpPool second) {
        return List.of(
                new FailoverHeaderSource.Candidate(0, "0 first INN", new NntpHeaderSource(first)),
                new FailoverHeaderSource.Candidate(1, "1 second INN", new NntpHeaderSource(second)));
    }

    private static NntpPool pool(InnPeer.Instance inn) {
        return new NntpPool(NntpPool.Config.defaults(NntpServer.plain("127.0.0.1", inn.readerPort()))
                .withMaxConnections(2)
                .withBorrowTimeout(Duration.ofSeconds(1)));
    }

    /** Every posted segment is in exactly one binary of the group, and nothing else is. */
    private static void assertEveryPostOnce(String group, List<String> posted) {
        List<String> stored = Jdbc.inTransaction(
                ds,
                "reading the group's message-ids",
                c -> Jdbc.list(
                        c,
                        "select m from binaries b, unnest(message_id_array(b.message_ids)) as m where b.group_name = ?",
                        rs -> rs.getString(1),
                        group));
        Map<String, Long> counts = stored.stream().collect(Collectors.groupingBy(m -> m, Collectors.counting()));
        assertThat(counts.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey))
                .as("segments stored twice")
                .isEmpty();
        assertThat(counts.keySet())
                .as("every posted segment, no other")
                .containsExactlyInAnyOrderElementsOf(posted.stream()
                        .map(id -> id.substring(1, id.length() - 1))
                        .toList());
    }

    /** Plans the group and indexes its ranges, one lease, one window, as a worker would. */
    private static final class Run {
        final String group;
        final GroupStore groups = new GroupStore(ds);
        final LeaseStore leases = new LeaseStore(ds, 0);
        final RangeStore ranges = new RangeStore(ds, 0);
        final Holdings holdings = new Holdings(1);
        HeaderSource source;
        Holder holder;

        Run(String group, HeaderSource source) throws Exception {
            this.group = group;
            this.source = source;
            groups.add(group, 0);
            holder = leases.lease(group, "node-failover", Duration.ofMinutes(2)).holder();
            holdings.put(holder, new Window(group, 1000), RuleSet.defaults(0), -1, Duration.ofMinutes(2));
        }

        /** Indexes every range, planning again until no article is left; {@code stopFirstAt(cursor)} true stops the first server. */
        void indexAll(LongPredicate stopFirstAt) throws Exception {
            for (int round = 0; round < 3; round++) {
                new Planner(groups, source, new Planner.Settings(60, 1_000_000, Long.MAX_VALUE)).plan(group);
                if (!indexWhile(r -> true, stopFirstAt)) {
                    return;
                }
            }
        }

        boolean indexWhile(Predicate<RangeRow> which) throws Exception {
            if (ranges.nextRange(holder, 0).isEmpty()) {
                new Planner(groups, source, new Planner.Settings(60, 1_000_000, Long.MAX_VALUE)).plan(group);
            }
            return indexWhile(which, c -> false);
        }

        private boolean indexWhile(Predicate<RangeRow> which, LongPredicate stopFirstAt) throws Exception {
            Holdings.Held held = holdings.get(group, holder.epoch()).orElseThrow();
            RangeIndexer indexer = new RangeIndexer(
                    source, leases.fence(), ranges, new CatalogStore(), 16, IndexMetrics.discard(holdings));
            boolean any = false;
            for (Optional<RangeRow> r = ranges.nextRange(holder, 0);
                    r.isPresent() && which.test(r.get());
                    r = ranges.nextRange(holder, 0)) {
                any = true;
                indexer.index(held, r.get(), r.get().next(), 0, 0, 0, (cursor, h, m, x) -> {
                    if (stopFirstAt.test(cursor)) {
                        try {
                            InnPeer.FIRST.run("stop");
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }
                });
            }
            return any;
        }
    }

    /** What was fed: the binary segments' message-ids, and each post's article number on either server. */
    private record Posts(List<String> ids, Map<String, Long> firstNumbers, Map<String, Long> secondNumbers) {

        /** Releases {@code from+1..from+releases}; the second server gets its own posts first. */
        static Posts feed(String group, int from, int releases, Random random) throws Exception {
            Posts p = new Posts(new ArrayList<>(), new HashMap<>(), new HashMap<>());
            Instant base = Instant.now().minus(3, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
            List<InnPeer.Wire> second = new ArrayList<>();
            for (int i = 0; i < SECOND_ONLY; i++) {
                second.add(chatter(group, "second-" + i, base.minusSeconds(600 - i)));
            }
            p.feed(group, from, releases, base, second, random);
            return p;
        }

        /** More releases fed to both servers after those of {@code before}, numbered on from them. */
        static Posts feedMore(String group, Posts before, int releases, Random random) throws Exception {
            Posts p = new Posts(
                    new ArrayList<>(), new HashMap<>(before.firstNumbers), new HashMap<>(before.secondNumbers));
            Instant base = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
            p.feed(group, 1000, releases, base, new ArrayList<>(), random);
            return p;
        }

        private void feed(String group, int from, int releases, Instant base, List<InnPeer.Wire> second, Random random)
                throws Exception {
            List<InnPeer.Wire> first = new ArrayList<>();
            int n = 0;
            for (int r = from + 1; r <= from + releases; r++) {
                for (int f = 1; f <= FILES; f++) {
                    for (int part = 1; part <= PARTS; part++) {
                        Instant at = base.plusSeconds(2L * n);
                        InnPeer.Wire w = segment(group, r, f, part, at, random);
                        ids.add(w.messageId());
                        first.add(w);
                        second.add(w);
                        if (++n % CHATTER_EVERY == 0) {
                            first.add(chatter(group, "first-" + r + "-" + n, at.plusSeconds(1)));
                        }
                    }
                }
            }
            number(first, firstNumbers);
            number(second, secondNumbers);
            InnPeer.FIRST.ihave(first);
            InnPeer.SECOND.ihave(second);
        }

        /** INN numbers a group's articles in the order it accepts them, after its high-water mark. */
        private static void number(List<InnPeer.Wire> fed, Map<String, Long> numbers) {
            long high =
                    numbers.values().stream().mapToLong(Long::longValue).max().orElse(0);
            for (InnPeer.Wire w : fed) {
                numbers.put(w.messageId(), ++high);
            }
        }

        private static InnPeer.Wire chatter(String group, String tag, Instant at) {
            String id = "<chatter." + tag + "." + group + "@headway.test>";
            return wire(group, id, "chatter " + tag, at, "just talk\r\n");
        }

        private static InnPeer.Wire segment(String group, int release, int file, int part, Instant at, Random random) {
            String name = "Headway.Failover.Release." + release;
            String fileName = "failover.r" + release + ".part" + String.format("%02d", file) + ".rar";
            String subject = name + " - [" + String.format("%02d", file) + "/" + String.format("%02d", FILES) + "] - \""
                    + fileName + "\" yEnc (" + part + "/" + PARTS + ")";
            String id = "<r" + release + ".f" + file + ".p" + part + "." + group + "@headway.test>";
            byte[] data = new byte[192];
            random.nextBytes(data);
            String body = InnPeer.yencPart(fileName, part, PARTS, data);
            return wire(group, id, subject, at, body);
        }

        private static InnPeer.Wire wire(String group, String id, String subject, Instant at, String body) {
            String text = "Path: headway-test!not-for-mail\r\n"
                    + "From: poster <poster@headway.test>\r\n"
                    + "Newsgroups: " + group + "\r\n"
                    + "Subject: " + subject + "\r\n"
                    + "Message-ID: " + id + "\r\n"
                    + "Date: " + DATE.format(at) + "\r\n"
                    + "\r\n" + body;
            return new InnPeer.Wire(id, text.replace("\r\n.", "\r\n..").getBytes(StandardCharsets.ISO_8859_1));
        }
    }
}
