package headway.nntp;

import static org.assertj.core.api.Assertions.assertThat;

import headway.guard.InnLock;
import headway.overview.OverviewLine;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Against a real INN 2.7 started by {@code nntp-peer.sh}: injects multipart yEnc articles with IHAVE on
 * the feed port and reads them back through the reader port. Fails, never skips, when INN cannot be
 * started, because a silently skipped interop test proves nothing.
 */
@ExtendWith(InnLock.class)
class InnIntegrationTest {
    static final String GROUP = "alt.binaries.test";
    static final int FILES = 10;
    static final int PARTS = 20;
    static final Duration T = Duration.ofSeconds(20);

    @BeforeAll
    static void startInn() throws Exception {
        InnPeer.run("start", GROUP);
        InnPeer.run("reset", GROUP);
    }

    @Test
    void readsBackWhatWasInjectedIntoInn() throws Exception {
        String nonce = Long.toHexString(System.nanoTime());
        Map<String, Article> sent = new LinkedHashMap<>();
        Random random = new Random(42);
        for (int f = 1; f <= FILES; f++) {
            for (int part = 1; part <= PARTS; part++) {
                Article a = article(nonce, f, part, random);
                sent.put(a.messageId, a);
            }
        }
        InnPeer.ihave(sent.values().stream()
                .map(a -> new InnPeer.Wire(a.messageId, a.wire))
                .toList());

        try (NntpClient c = NntpClient.connect(NntpServer.plain("127.0.0.1", InnPeer.READER_PORT), T, T)) {
            GroupInfo g = c.group(GROUP);
            assertThat(g.count()).isEqualTo(FILES * PARTS);
            assertThat(g.low()).isEqualTo(1);
            assertThat(g.high()).isEqualTo(FILES * PARTS);
            assertThat(c.overviewFormat()).contains("Xref:full");

            NntpClientTest.Recorder r = new NntpClientTest.Recorder();
            assertThat(c.over(1, g.high() + 5, r)).isEqualTo(FILES * PARTS);
            assertThat(r.malformed).isEmpty();
            assertThat(r.missing).containsExactly(new long[] {g.high() + 1, g.high() + 5});

            long expectedArticle = 1;
            for (OverviewLine l : r.headers) {
                Article a = sent.get(l.messageId());
                assertThat(a).as("message-id %s was injected", l.messageId()).isNotNull();
                assertThat(l.article()).isEqualTo(expectedArticle++);
                assertThat(l.subject()).isEqualTo(a.subject);
                assertThat(l.from()).isEqualTo(a.from);
                assertThat(l.bytes()).as("bytes of %s", l.messageId()).isEqualTo(a.storedBytes(l.article()));
                assertThat(l.lines()).isEqualTo(a.bodyLines);
                assertThat(l.xref()).endsWith(GROUP + ":" + l.article());
            }

            NntpClientTest.Recorder slice = new NntpClientTest.Recorder();
            c.over(50, 60, slice);
            assertThat(slice.headers)
                    .extracting(OverviewLine::article)
                    .containsExactly(50L, 51L, 52L, 53L, 54L, 55L, 56L, 57L, 58L, 59L, 60L);
        }
    }

    private static Article article(String nonce, int file, int part, Random random) {
        String name = "headway.test.release.part" + String.format("%02d", file) + ".rar";
        String subject = "[" + String.format("%02d", file) + "/" + String.format("%02d", FILES) + "] - \"" + name
                + "\" yEnc (" + part + "/" + PARTS + ")";
        String from = "poster" + (file % 3) + " <poster" + (file % 3) + "@headway.test>";
        String messageId = "<part" + part + "of" + PARTS + ".f" + file + "." + nonce + "@headway.test>";
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.now(ZoneOffset.UTC).minusMinutes(5));
        int lines = 3 + random.nextInt(20);
        byte[] data = new byte[lines * 96];
        random.nextBytes(data);
        String body = InnPeer.yencPart(name, part, PARTS, data);
        String headers = "Path: headway-test!not-for-mail\r\n"
                + "From: " + from + "\r\n"
                + "Newsgroups: " + GROUP + "\r\n"
                + "Subject: " + subject + "\r\n"
                + "Message-ID: " + messageId + "\r\n"
                + "Date: " + date + "\r\n"
                + "\r\n";
        String article = headers + body;
        String stuffed = article.replace("\r\n.", "\r\n..");
        return new Article(
                messageId,
                subject,
                from,
                article.getBytes(StandardCharsets.ISO_8859_1).length,
                lines + 3,
                stuffed.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** An injected article: what the overview must show, and its bytes on the wire (dot-stuffed). */
    private record Article(String messageId, String subject, String from, int sentBytes, int bodyLines, byte[] wire) {
        /** INN counts the stored article with CRLF: what was sent plus its "nntp.test!" Path prefix and the Xref line it adds. */
        long storedBytes(long article) {
            return (long) sentBytes
                    + "nntp.test!".length()
                    + ("Xref: nntp.test " + GROUP + ":" + article + "\r\n").length();
        }
    }
}
