package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.catalog.CatalogStore;
import headway.coordination.GroupStore;
import headway.coordination.LeaseStore;
import headway.coordination.RangeRow;
import headway.coordination.RangeStore;
import headway.coordination.StatusStore;
import headway.guard.InnLock;
import headway.index.RuleSet;
import headway.index.Window;
import headway.nntp.InnPeer;
import headway.nntp.NntpPool;
import headway.nntp.NntpServer;
import headway.store.Holder;
import headway.store.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Poison articles posted into a real INN 2.7 between good ones, read back through its overview:
 * what INN carries (control bytes in subject and poster, a 3,000-character poster, a file name
 * past a key's bound, a 4,000-character subject; INN itself refuses NUL, a garbage date and an
 * over-long message-id, which the simulator's test covers) never stops the group: every range
 * finishes, every good and every cleanable article is cataloged, the rest is in the ledger.
 */
@ExtendWith(InnLock.class)
class InnPoisonTest {

    private static final String GROUP = "alt.binaries.headway.poison";
    private static final Duration T = Duration.ofSeconds(20);

    private static HikariDataSource ds;

    @BeforeAll
    static void startInn() throws Exception {
        InnPeer.run("start", GROUP);
        InnPeer.run("reset", GROUP);
        ds = TestDatabase.migrated("inn_poison");
    }

    @AfterAll
    static void close() {
        if (ds != null) {
            ds.close();
        }
    }

    @Test
    void poisonPostedToInnIsCleanedOrLedgeredAndEveryGoodArticleCataloged() throws Exception {
        String nonce = Long.toHexString(System.nanoTime());
        List<InnPeer.Wire> wires = new ArrayList<>();
        Set<String> cataloged = new HashSet<>();
        for (int f = 1; f <= 2; f++) {
            for (int p = 1; p <= 3; p++) {
                String id = "good.f" + f + ".p" + p + "." + nonce + "@headway.test";
                wires.add(wire(
                        id,
                        "Good.Release." + nonce + " - [" + f + "/2] - \"good" + f + ".rar\" yEnc (" + p + "/3)",
                        "poster <poster@headway.test>"));
                cataloged.add(id);
            }
            String poison = "ctl-subject." + f + "." + nonce + "@headway.test";
            wires.add(wire(
                    poison,
                    "Ctl\u0001\u007f.Release." + nonce + " - [1/1] - \"ctl" + f + ".rar\" yEnc (1/1)",
                    "poster <poster@headway.test>"));
            cataloged.add(poison);
        }
        String ctlPoster = "ctl-poster." + nonce + "@headway.test";
        wires.add(wire(
                ctlPoster, "Cp." + nonce + " - [1/1] - \"cp.rar\" yEnc (1/1)", "po\u0001\u0002ster <p@headway.test>"));
        cataloged.add(ctlPoster);
        String longPoster = "long-poster." + nonce + "@headway.test";
        wires.add(wire(
                longPoster,
                "Lp." + nonce + " - [1/1] - \"lp.rar\" yEnc (1/1)",
                "poster (" + "y".repeat(3000) + ") <p@headway.test>"));
        cataloged.add(longPoster);
        String longFile = "long-file." + nonce + "@headway.test";
        wires.add(wire(
                longFile,
                // é is two bytes of UTF-8, decoded as such: 600 of them pass the 1,024-byte key bound
                "Lf." + nonce + " - [1/1] - \"" + "\u00e9".repeat(600) + ".rar\" yEnc (1/1)",
                "poster <poster@headway.test>"));
        cataloged.add(longFile);
        String longSubject = "long-subject." + nonce + "@headway.test";
        wires.add(wire(
                longSubject,
                "Ls." + nonce + " - [1/1] - \"ls.rar\" yEnc (1/1) " + "x".repeat(4000),
                "poster <poster@headway.test>"));
        InnPeer.ihave(wires);

        index(wires.size());

        assertThat(new HashSet<>(strings("select unnest(message_id_array(message_ids)) from binaries")))
                .isEqualTo(cataloged);
        assertThat(strings("select message_id || ' ' || reason from rejected_articles"))
                .containsExactly(longSubject + " subject longer than 1000 characters");
        assertThat(new StatusStore(ds).rejectedPerGroup()).isEqualTo(Map.of(GROUP, 1L));
        assertThat(strings("select poster from binaries"))
                .as("control bytes cleaned")
                .allMatch(p -> p.chars().noneMatch(c -> c < 0x20 || c == 0x7f));
        assertThat(TestDatabase.queryLong(
                        ds,
                        "select count(*) from long_names where bounded in (select poster from binaries)"
                                + " or bounded in (select file_name from binaries)"))
                .as("the long poster and the long file name are keyed by a bounded form kept beside the whole text")
                .isEqualTo(2);
        assertThat(TestDatabase.queryLong(ds, "select max(octet_length(file_name)) from binaries"))
                .isLessThanOrEqualTo(1024);
    }

    private static void index(int articles) throws Exception {
        GroupStore groups = new GroupStore(ds);
        groups.add(GROUP, 0);
        LeaseStore leases = new LeaseStore(ds, 0);
        RangeStore ranges = new RangeStore(ds, 0);
        Holdings holdings = new Holdings(1);
        try (NntpPool pool = new NntpPool(NntpPool.Config.defaults(NntpServer.plain("127.0.0.1", InnPeer.READER_PORT))
                .withMaxConnections(2))) {
            HeaderSource source = new NntpHeaderSource(pool);
            Planner.Planned planned =
                    new Planner(groups, source, new Planner.Settings(5, 1_000_000, Long.MAX_VALUE)).plan(GROUP);
            assertThat(planned.high()).isEqualTo(articles);
            Holder holder = leases.lease(GROUP, "node-inn-poison", T).holder();
            holdings.put(holder, new Window(GROUP, 1000), RuleSet.defaults(0), -1);
            Holdings.Held held = holdings.get(GROUP, holder.epoch()).orElseThrow();
            RangeIndexer indexer = new RangeIndexer(
                    source, leases.fence(), ranges, new CatalogStore(), 3, IndexMetrics.discard(holdings));
            for (Optional<RangeRow> r = ranges.nextRange(holder, 0); r.isPresent(); r = ranges.nextRange(holder, 0)) {
                assertThat(indexer.index(held, r.get(), r.get().next(), 0, 0, 0, (c, h, m, x) -> {})
                                .finished())
                        .isTrue();
            }
            assertThat(held.window().stats().binaries())
                    .as("every binary complete")
                    .isZero();
        }
        assertThat(TestDatabase.queryLong(ds, "select count(*) from ranges where status <> 'done'"))
                .isZero();
    }

    private static InnPeer.Wire wire(String id, String subject, String from) {
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.now(ZoneOffset.UTC).minusMinutes(5));
        String text = "Path: headway-test!not-for-mail\r\n"
                + "From: " + from + "\r\n"
                + "Newsgroups: " + GROUP + "\r\n"
                + "Subject: " + subject + "\r\n"
                + "Message-ID: <" + id + ">\r\n"
                + "Date: " + date + "\r\n"
                + "\r\n=ybegin part=1 total=1 line=128 size=3 name=x\r\nabc\r\n=yend size=3\r\n";
        return new InnPeer.Wire("<" + id + ">", text.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> strings(String sql) throws Exception {
        List<String> out = new ArrayList<>();
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
