package headway.activity;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.catalog.CatalogStore;
import headway.catalog.Release;
import headway.coordination.GroupStore;
import headway.coordination.LeaseOutcome;
import headway.coordination.LeaseStore;
import headway.coordination.RangeRow;
import headway.coordination.RangeStore;
import headway.guard.InnLock;
import headway.index.CompletedBinary;
import headway.index.NzbWriter;
import headway.index.RuleSet;
import headway.index.Segment;
import headway.index.Window;
import headway.nntp.InnPeer;
import headway.nntp.NntpPool;
import headway.nntp.NntpServer;
import headway.store.Holder;
import headway.store.TestDatabase;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The whole indexing pipeline against a real INN 2.7 started by {@code nntp-peer.sh}: multipart
 * releases are injected over IHAVE on the feed port, planned from INN's high-water mark, read
 * through the reader port by NntpPool and NntpHeaderSource, assembled by RangeIndexer into the
 * catalog, and written out as NZBs. Fails, never skips, when INN cannot be started. Uses its own
 * group and resets only that group.
 */
@ExtendWith(InnLock.class)
class InnIndexingTest {

    private static final String GROUP = "alt.binaries.headway.indexing";
    private static final int RELEASES = 3;
    private static final int FILES = 4;
    private static final int PARTS = 10;
    private static final Duration T = Duration.ofSeconds(20);

    private static HikariDataSource ds;

    @BeforeAll
    static void startInn() throws Exception {
        InnPeer.run("start", GROUP);
        InnPeer.run("reset", GROUP);
        ds = TestDatabase.migrated("inn_indexing");
    }

    @AfterAll
    static void close() {
        if (ds != null) {
            ds.close();
        }
    }

    @Test
    void catalogAndNzbsHoldExactlyWhatWasPostedToInn() throws Exception {
        String nonce = Long.toHexString(System.nanoTime());
        List<Article> articles = new ArrayList<>();
        Random random = new Random(7);
        for (int r = 1; r <= RELEASES; r++) {
            for (int f = 1; f <= FILES; f++) {
                for (int p = 1; p <= PARTS; p++) {
                    articles.add(article(nonce, r, f, p, random));
                }
            }
        }
        Collections.shuffle(articles, random);
        InnPeer.ihave(articles.stream()
                .map(a -> new InnPeer.Wire(a.messageId(), a.wire()))
                .toList());

        GroupStore groups = new GroupStore(ds);
        groups.add(GROUP, 0);
        LeaseStore leases = new LeaseStore(ds, 0);
        RangeStore ranges = new RangeStore(ds, 0);
        Holdings holdings = new Holdings(1);
        try (NntpPool pool = new NntpPool(NntpPool.Config.defaults(NntpServer.plain("127.0.0.1", InnPeer.READER_PORT))
                .withMaxConnections(2))) {
            HeaderSource source = new NntpHeaderSource(pool);
            Planner.Planned planned =
                    new Planner(groups, source, new Planner.Settings(50, 1_000_000, Long.MAX_VALUE)).plan(GROUP);
            assertThat(planned.high()).isEqualTo(articles.size());
            assertThat(planned.total()).isEqualTo(3);

            LeaseOutcome outcome = leases.lease(GROUP, "node-inn", T);
            Holder holder = outcome.holder();
            Window window = new Window(GROUP, 1000);
            holdings.put(holder, window, RuleSet.defaults(0), -1, java.time.Duration.ofSeconds(30));
            Holdings.Held held = holdings.get(GROUP, holder.epoch()).orElseThrow();
            RangeIndexer indexer = new RangeIndexer(
                    source, leases.fence(), ranges, new CatalogStore(), 16, IndexMetrics.discard(holdings));
            long headers = 0;
            for (Optional<RangeRow> r = ranges.nextRange(holder, 0); r.isPresent(); r = ranges.nextRange(holder, 0)) {
                headers += indexer.index(held, r.get(), r.get().next(), 0, 0, 0, (c, h, m, x) -> {})
                        .headers();
            }
            assertThat(headers).isEqualTo(articles.size());
            assertThat(window.stats().binaries())
                    .as("every binary complete and out of the window")
                    .isZero();
            assertThat(window.stats().unmatched())
                    .as("every subject parsed by the default rules")
                    .isZero();
        }

        CatalogStore catalog = new CatalogStore();
        assertThat(catalog.missing(ds, GROUP)).isEmpty();
        assertThat(TestDatabase.queryLong(ds, "select count(*) from binaries")).isEqualTo(RELEASES * FILES);
        assertThat(TestDatabase.queryLong(ds, "select count(*) from releases")).isEqualTo(RELEASES);
        for (int r = 1; r <= RELEASES; r++) {
            Release release = catalog.release(ds, GROUP, poster(r), releaseName(nonce, r))
                    .orElseThrow(() -> new AssertionError("release not in the catalog"));
            assertThat(release.complete()).isTrue();
            assertThat(release.filesPresent()).isEqualTo(FILES);
            assertThat(release.filesExpected()).isEqualTo(FILES);

            List<CompletedBinary> binaries = catalog.binaries(ds, release);
            Map<String, List<String>> postedFiles = postedIds(articles, r);
            assertThat(binaries).extracting(CompletedBinary::fileName).containsExactlyElementsOf(postedFiles.keySet());
            for (CompletedBinary b : binaries) {
                assertThat(b.totalParts()).isEqualTo(PARTS);
                assertThat(b.segments()).extracting(Segment::part).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
                assertThat(b.segments())
                        .extracting(Segment::messageId)
                        .containsExactlyElementsOf(postedFiles.get(b.fileName()));
                assertThat(b.segments()).allSatisfy(s -> assertThat(s.bytes()).isGreaterThan(0));
            }

            ByteArrayOutputStream nzb = new ByteArrayOutputStream();
            NzbWriter.write(nzb, release.name(), binaries);
            List<String> expected =
                    postedFiles.values().stream().flatMap(List::stream).toList();
            assertThat(nzbSegments(nzb.toByteArray())).containsExactlyElementsOf(expected);
        }
    }

    /** The message-ids posted for release {@code r}, by file name in name order, each in part order, without angle brackets. */
    private static Map<String, List<String>> postedIds(List<Article> articles, int r) {
        Map<String, List<String>> files = new LinkedHashMap<>();
        articles.stream()
                .filter(a -> a.release == r)
                .sorted((x, y) -> x.file != y.file ? Integer.compare(x.file, y.file) : Integer.compare(x.part, y.part))
                .forEach(a -> files.computeIfAbsent(a.fileName, k -> new ArrayList<>())
                        .add(a.messageId.substring(1, a.messageId.length() - 1)));
        return files;
    }

    /** The segment message-ids of an NZB, in document order. */
    private static List<String> nzbSegments(byte[] nzb) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        Document doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(nzb));
        NodeList segments = doc.getElementsByTagNameNS(NzbWriter.NAMESPACE, "segment");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < segments.getLength(); i++) {
            ids.add(((Element) segments.item(i)).getTextContent());
        }
        return ids;
    }

    private static String releaseName(String nonce, int r) {
        return "Headway.Inn.Release." + r + "." + nonce;
    }

    private static String poster(int r) {
        return "poster" + r + " <poster" + r + "@headway.test>";
    }

    private static Article article(String nonce, int release, int file, int part, Random random) {
        String fileName = "headway.inn.r" + release + ".part" + String.format("%02d", file) + ".rar";
        String subject = releaseName(nonce, release) + " - [" + String.format("%02d", file) + "/"
                + String.format("%02d", FILES) + "] - \"" + fileName + "\" yEnc (" + part + "/" + PARTS + ")";
        String messageId = "<r" + release + ".f" + file + ".p" + part + "." + nonce + "@headway.test>";
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.now(ZoneOffset.UTC).minusMinutes(5));
        byte[] data = new byte[384];
        random.nextBytes(data);
        String body = InnPeer.yencPart(fileName, part, PARTS, data);
        String text = "Path: headway-test!not-for-mail\r\n"
                + "From: " + poster(release) + "\r\n"
                + "Newsgroups: " + GROUP + "\r\n"
                + "Subject: " + subject + "\r\n"
                + "Message-ID: " + messageId + "\r\n"
                + "Date: " + date + "\r\n"
                + "\r\n" + body;
        return new Article(
                release,
                file,
                part,
                fileName,
                messageId,
                text.replace("\r\n.", "\r\n..").getBytes(StandardCharsets.ISO_8859_1));
    }

    private record Article(int release, int file, int part, String fileName, String messageId, byte[] wire) {}
}
