package headway.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import headway.inspect.yenc.YencDecoder;
import headway.inspect.yenc.YencPart;
import headway.rig.TestCertificates;
import headway.rig.TlsTerminator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ARTICLE, HEAD, BODY and STAT as RFC 3977 has them, over generated and posted groups, plain and compressed. */
class ArticleCommandsTest {
    static final String GROUP = "alt.binaries.bodies";
    static final String HOSTILE = "alt.binaries.hostile";
    static final String POSTED = "alt.binaries.posted";
    static final String EMPTY = "alt.binaries.empty";
    static final String CLEAN = "alt.binaries.clean";
    static final int CAP = 1 << 20;

    static NewsSimulator sim;

    @BeforeAll
    static void start() throws Exception {
        sim = NewsSimulator.start(
                NewsSimulator.Options.defaults().withCompression(),
                List.of(
                        new NewsSimulator.GroupSpec(GROUP, 3, 400, 2, 6, 3, 0.05, 0.02, 0.02, 0.05),
                        NewsSimulator.GroupSpec.of(HOSTILE, 4, 400).withHostileBodies(0.5),
                        NewsSimulator.GroupSpec.posted(POSTED),
                        NewsSimulator.GroupSpec.posted(EMPTY),
                        new NewsSimulator.GroupSpec(CLEAN, 5, 60, 3, 5, 2, 0, 0, 0)));
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @Test
    void bodyByNumberIsTheYencPartOfTheFileTheSubjectNames() throws Exception {
        try (TestClient c = client()) {
            assertThat(c.command("GROUP " + GROUP)).startsWith("211 ");
            int checked = 0;
            for (long n = 1; n <= sim.high(GROUP); n++) {
                if (sim.kind(GROUP, n) == ArticleKind.GAP) {
                    assertThat(c.command("BODY " + n)).startsWith("423 ");
                    continue;
                }
                String id = "<" + sim.messageId(GROUP, n) + ">";
                assertThat(c.command("BODY " + n)).isEqualTo("222 " + n + " " + id);
                YencPart p = YencDecoder.decode(c.data(), CAP);
                assertThat(p.ok()).as("article %d: %s", n, p.reason()).isTrue();
                assertThat(p.crc()).isEqualTo(YencPart.Crc.MATCHED);
                assertThat(p.decoded()).isEqualTo(p.end() - p.begin() + 1);
                assertThat(p.size()).isEqualTo((long) p.total() * ArticleGenerator.PART_BYTES);
                assertThat(subject(c, n)).contains("\"" + p.name() + "\" yEnc (" + p.part() + "/" + p.total() + ")");
                checked++;
            }
            assertThat(checked).isGreaterThan(300);
        }
    }

    @Test
    void aFileReassembledFromItsPartsMatchesTheLastPartsCrc32() throws Exception {
        try (TestClient c = client()) {
            c.command("GROUP " + CLEAN);
            assertThat(c.command("BODY 1")).startsWith("222 1 ");
            YencPart first = YencDecoder.decode(c.data(), CAP);
            byte[] file = new byte[(int) first.size()];
            String trailer = "";
            for (int n = 1; n <= first.total(); n++) {
                assertThat(c.command("BODY " + n)).startsWith("222 " + n + " ");
                byte[] body = c.data();
                YencPart p = YencDecoder.decode(body, CAP);
                assertThat(p.ok()).isTrue();
                assertThat(p.name()).isEqualTo(first.name());
                assertThat(p.part()).isEqualTo(n);
                System.arraycopy(p.data(), 0, file, (int) p.begin() - 1, p.data().length);
                trailer = new String(body, StandardCharsets.US_ASCII);
            }
            CRC32 crc = new CRC32();
            crc.update(file);
            assertThat(trailer).contains(String.format(Locale.ROOT, " crc32=%08x\r\n", crc.getValue()));
        }
    }

    @Test
    void articleIsHeadThenAnEmptyLineThenBodyAndHeadAgreesWithOver() throws Exception {
        try (TestClient c = client()) {
            c.command("GROUP " + GROUP);
            for (long n = 1; n <= 120; n++) {
                ArticleKind k = sim.kind(GROUP, n);
                if (k == ArticleKind.GAP) {
                    continue;
                }
                String id = sim.messageId(GROUP, n).isEmpty() ? "<>" : "<" + sim.messageId(GROUP, n) + ">";
                assertThat(c.command("ARTICLE " + n)).isEqualTo("220 " + n + " " + id);
                byte[] article = c.data();
                assertThat(c.command("HEAD " + n)).isEqualTo("221 " + n + " " + id);
                byte[] head = c.data();
                assertThat(c.command("BODY " + n)).isEqualTo("222 " + n + " " + id);
                byte[] body = c.data();
                byte[] joined = new byte[head.length + 2 + body.length];
                System.arraycopy(head, 0, joined, 0, head.length);
                joined[head.length] = '\r';
                joined[head.length + 1] = '\n';
                System.arraycopy(body, 0, joined, head.length + 2, body.length);
                assertThat(article).as("article %d", n).isEqualTo(joined);
                String headText = new String(head, StandardCharsets.UTF_8);
                assertThat(headText).contains("Newsgroups: " + GROUP + "\r\n", "Xref: sim.test " + GROUP + ":" + n);
                if (k == ArticleKind.VALID) {
                    assertThat(headText).contains("Message-ID: " + id + "\r\n", "Subject: " + subject(c, n) + "\r\n");
                }
                assertThat(c.command("STAT " + n)).isEqualTo("223 " + n + " " + id);
            }
        }
    }

    @Test
    void byMessageIdTheNumberIsZeroOutsideTheSelectedGroup() throws Exception {
        long n = firstValid(GROUP);
        String id = "<" + sim.messageId(GROUP, n) + ">";
        try (TestClient c = client()) {
            assertThat(c.command("BODY " + id)).isEqualTo("222 0 " + id);
            YencPart outside = YencDecoder.decode(c.data(), CAP);
            c.command("GROUP " + GROUP);
            assertThat(c.command("BODY " + id)).isEqualTo("222 " + n + " " + id);
            assertThat(YencDecoder.decode(c.data(), CAP).data()).isEqualTo(outside.data());
            c.command("GROUP " + POSTED);
            assertThat(c.command("HEAD " + id)).isEqualTo("221 0 " + id);
            c.data();
        }
    }

    @Test
    void errorsAreTheRfcsCodes() throws Exception {
        try (TestClient c = client()) {
            assertThat(c.command("BODY 1")).startsWith("412 ");
            assertThat(c.command("ARTICLE")).startsWith("412 ");
            assertThat(c.command("HEAD <nobody@sim.test>")).startsWith("430 ");
            assertThat(c.command("BODY <1.0@sim.test>")).startsWith("430 ");
            assertThat(c.command("BODY <" + sim.high(GROUP) + "1"
                            + sim.messageId(GROUP, 1).substring(1) + ">"))
                    .startsWith("430 ");
            assertThat(c.command("GROUP " + GROUP)).startsWith("211 ");
            assertThat(c.command("BODY " + (sim.high(GROUP) + 1))).startsWith("423 ");
            assertThat(c.command("BODY 0")).startsWith("423 ");
            assertThat(c.command("BODY -3")).startsWith("423 ");
            assertThat(c.command("STAT x12")).startsWith("501 ");
            long gap = 1;
            while (sim.kind(GROUP, gap) != ArticleKind.GAP) {
                gap++;
            }
            assertThat(c.command("ARTICLE " + gap)).startsWith("423 ");
            assertThat(c.command("GROUP " + EMPTY)).isEqualTo("211 0 1 0 " + EMPTY);
            assertThat(c.command("BODY")).startsWith("420 ");
            assertThat(c.command("GROUP " + GROUP)).startsWith("211 ");
            long first = firstValid(GROUP);
            if (first == 1) {
                assertThat(c.command("HEAD")).startsWith("221 1 ");
                c.data();
            }
            assertThat(c.command("STAT " + first)).startsWith("223 " + first + " ");
            assertThat(c.command("BODY")).startsWith("222 " + first + " ");
            c.data();
            assertThat(c.command("QUIT")).startsWith("205 ");
        }
    }

    @Test
    void postedBodiesAreDotStuffedOnTheWireAndServedAsPosted() throws Exception {
        byte[] body = ".\r\n..\r\n.x\r\nplain\r\n.\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        String id = "<dots." + System.nanoTime() + "@rig.test>";
        long n = sim.postArticle(POSTED, Article.of(id, "p <p@rig.test>", POSTED, "dots", date(), body));
        try (TestClient c = client()) {
            assertThat(c.command("BODY " + id)).isEqualTo("222 0 " + id);
            assertThat(c.data()).isEqualTo(body);
            assertThat(new String(c.raw, StandardCharsets.US_ASCII))
                    .isEqualTo("..\r\n...\r\n..x\r\nplain\r\n..\r\n\r\n.\r\n");
            c.command("GROUP " + POSTED);
            assertThat(c.command("ARTICLE " + n)).isEqualTo("220 " + n + " " + id);
            String article = new String(c.data(), StandardCharsets.US_ASCII);
            assertThat(article)
                    .contains("Message-ID: " + id + "\r\n", "Xref: sim.test " + POSTED + ":" + n + "\r\n\r\n");
            assertThat(article).endsWith(new String(body, StandardCharsets.US_ASCII));
            assertThat(c.command("OVER " + n)).startsWith("224 ");
            String[] over = new String(c.data(), StandardCharsets.UTF_8).strip().split("\t");
            assertThat(over[1]).isEqualTo("dots");
            assertThat(over[4]).isEqualTo(id);
            assertThat(Long.parseLong(over[6])).isEqualTo(article.length());
            assertThat(Long.parseLong(over[7])).isEqualTo(6);
        }
    }

    @Test
    void compressedRepliesCarryTheSameBytes() throws Exception {
        long n = firstValid(GROUP);
        byte[] plain;
        try (TestClient c = client()) {
            c.command("GROUP " + GROUP);
            c.command("ARTICLE " + n);
            plain = c.data();
        }
        try (TestClient c = client()) {
            c.compress();
            assertThat(c.command("GROUP " + GROUP)).startsWith("211 ");
            for (int i = 0; i < 3; i++) {
                assertThat(c.command("ARTICLE " + n)).startsWith("220 " + n + " ");
                assertThat(c.data()).isEqualTo(plain);
            }
            assertThat(c.command("BODY <nobody@sim.test>")).startsWith("430 ");
        }
    }

    @Test
    void overTlsAndCompressedTheArticleIsTheSame(@TempDir Path certs) throws Exception {
        long n = firstValid(GROUP);
        byte[] plain;
        try (TestClient c = client()) {
            c.command("GROUP " + GROUP);
            c.command("ARTICLE " + n);
            plain = c.data();
        }
        TestCertificates tc = TestCertificates.make(certs, "news.test");
        try (TlsTerminator tls = TlsTerminator.start(tc.serverCert(), tc.serverKey(), null, sim.host(), sim.port());
                TestClient c = TestClient.tls("127.0.0.1", tls.port(), tc.ca())) {
            c.compress();
            assertThat(c.command("GROUP " + GROUP)).startsWith("211 ");
            assertThat(c.command("ARTICLE " + n)).startsWith("220 " + n + " ");
            assertThat(c.data()).isEqualTo(plain);
            assertThat(c.command("BODY " + (sim.high(GROUP) + 1))).startsWith("423 ");
        }
    }

    @Test
    void hostileBodiesAreSpoiledTheWayTheSimulatorSays() throws Exception {
        Map<HostileBody, Integer> seen = new EnumMap<>(HostileBody.class);
        int whole = 0;
        try (TestClient c = client()) {
            c.command("GROUP " + HOSTILE);
            for (long n = 1; n <= 200; n++) {
                HostileBody h = sim.hostileBody(HOSTILE, n);
                if (sim.kind(HOSTILE, n) == ArticleKind.GAP || h == HostileBody.ENDLESS) {
                    continue;
                }
                assertThat(c.command("BODY " + n)).startsWith("222 " + n + " ");
                YencPart p = YencDecoder.decode(c.data(), CAP);
                if (h == null) {
                    assertThat(p.ok()).as("article %d: %s", n, p.reason()).isTrue();
                    whole++;
                    continue;
                }
                seen.merge(h, 1, Integer::sum);
                switch (h) {
                    case TRUNCATED -> assertThat(p.reason()).startsWith("truncated");
                    case WRONG_CRC -> assertThat(p.crc()).isEqualTo(YencPart.Crc.MISMATCHED);
                    case HUGE_SIZE -> assertThat(p.reason()).startsWith("lying: size=1152921504606846976");
                    default -> throw new AssertionError(h);
                }
            }
        }
        assertThat(whole).isGreaterThan(50);
        assertThat(seen).containsOnlyKeys(HostileBody.TRUNCATED, HostileBody.WRONG_CRC, HostileBody.HUGE_SIZE);
    }

    @Test
    void anEndlessBodyRunsUntilTheClientHangsUpAndTheServerCarriesOn() throws Exception {
        long n = 1;
        while (sim.hostileBody(HOSTILE, n) != HostileBody.ENDLESS) {
            n++;
        }
        try (TestClient c = client()) {
            c.command("GROUP " + HOSTILE);
            assertThat(c.command("BODY " + n)).startsWith("222 " + n + " ");
            assertThat(c.drain(8L << 20)).isGreaterThanOrEqualTo(8L << 20);
        }
        try (TestClient c = client()) {
            c.command("GROUP " + HOSTILE);
            assertThat(c.command("HEAD " + n)).startsWith("221 " + n + " ");
            assertThat(new String(c.data(), StandardCharsets.UTF_8)).contains("Subject: ");
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (sim.openConnections() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(sim.openConnections()).isZero();
    }

    @Test
    void anyBytesPostedComeBackThroughBodyAndTheDecoder() throws Exception {
        long seed = Long.getLong("headway.seed", new SecureRandom().nextLong());
        Random random = new Random(seed);
        try (TestClient c = client()) {
            for (int i = 0; i < 40; i++) {
                byte[] file = new byte[2 + random.nextInt(i < 5 ? 3 : 200_000)];
                for (int b = 0; b < file.length; b++) {
                    file[b] = (byte)
                            (random.nextInt(8) == 0 ? "\0\n\r=\t .".charAt(random.nextInt(7)) - 42 : random.nextInt());
                }
                int cut = file.length / 2;
                String name = "f" + i + " " + (char) (0x4e00 + random.nextInt(100)) + ".bin";
                byte[][] parts = {
                    YencWriter.part(file, name, 1, 2, 0, cut), YencWriter.part(file, name, 2, 2, cut, file.length)
                };
                byte[] back = new byte[file.length];
                for (byte[] part : parts) {
                    String id =
                            "<" + i + "." + Arrays.hashCode(part) + "." + seed + "." + System.nanoTime() + "@rig.test>";
                    sim.postArticle(POSTED, Article.of(id, "p <p@rig.test>", POSTED, name, date(), part));
                    assertThat(c.command("BODY " + id)).startsWith("222 ");
                    YencPart p = YencDecoder.decode(c.data(), CAP);
                    assertThat(p.ok())
                            .as("seed %d file %d: %s", seed, i, p.reason())
                            .isTrue();
                    assertThat(p.crc()).isEqualTo(YencPart.Crc.MATCHED);
                    assertThat(p.name()).isEqualTo(name);
                    System.arraycopy(p.data(), 0, back, (int) p.begin() - 1, (int) p.decoded());
                }
                assertThat(back)
                        .as("seed %d (replay with -Dheadway.seed=%d) file %d", seed, seed, i)
                        .isEqualTo(file);
            }
        }
    }

    static TestClient client() throws Exception {
        return new TestClient(sim.host(), sim.port());
    }

    static long firstValid(String group) {
        long n = 1;
        while (sim.kind(group, n) != ArticleKind.VALID || sim.hostileBody(group, n) != null) {
            n++;
        }
        return n;
    }

    /** The subject OVER serves for article {@code n} of the selected group. */
    static String subject(TestClient c, long n) throws Exception {
        assertThat(c.command("OVER " + n)).startsWith("224 ");
        String line = new String(c.data(), StandardCharsets.UTF_8);
        return line.split("\t")[1];
    }

    static String date() {
        return "Mon, 07 Dec 2026 12:00:00 +0000";
    }
}
