package headway.nntp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.guard.InnLock;
import headway.overview.OverviewLine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS and compression against a real INN 2.7 (nntp-peer.sh `tls`): TLS on connect and STARTTLS with
 * the certificate checked against a CA file, the untrusted and wrong-host cases with messages that
 * name the fix, a password never sent in plain text, and RFC 8054 COMPRESS DEFLATE on and off giving
 * the same headers. Fails, never skips, when INN or openssl cannot be started.
 */
@ExtendWith(InnLock.class)
class InnTlsTest {
    static final String GROUP = "alt.binaries.tls.test";
    static final int ARTICLES = 40;
    static final int TLS_PORT = InnPeer.READER_PORT + 444;
    static final int STARTTLS_PORT = TLS_PORT + 1;
    static final Duration T = Duration.ofSeconds(20);

    @TempDir
    static Path dir;

    static TestCertificates certs;
    static List<String> subjects = new ArrayList<>();
    static long first;
    static long last;

    @BeforeAll
    static void startInnWithTls() throws Exception {
        certs = TestCertificates.make(dir);
        InnPeer.run("tls", certs.serverCert().toString(), certs.serverKey().toString(), GROUP);
        try (NntpClient c = NntpClient.connect(NntpServer.plain("127.0.0.1", InnPeer.READER_PORT), T, T)) {
            first = c.group(GROUP).high() + 1;
        }
        String nonce = Long.toHexString(System.nanoTime());
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.now(ZoneOffset.UTC).minusMinutes(5));
        List<InnPeer.Wire> wire = new ArrayList<>();
        for (int i = 1; i <= ARTICLES; i++) {
            String subject = "tls.test.release - \"tls.test.part" + i + ".rar\" yEnc (1/1) é";
            String id = "<tls" + i + "." + nonce + "@headway.test>";
            String article = "Path: headway-test!not-for-mail\r\nFrom: poster <poster@headway.test>\r\nNewsgroups: "
                    + GROUP + "\r\nSubject: " + subject + "\r\nMessage-ID: " + id + "\r\nDate: " + date
                    + "\r\n\r\n" + "line of body text\r\n".repeat(20);
            subjects.add(subject);
            wire.add(new InnPeer.Wire(id, article.getBytes(StandardCharsets.ISO_8859_1)));
        }
        InnPeer.ihave(wire);
        last = first + ARTICLES - 1;
    }

    private static NntpServer server(String host, int port, boolean tls, NntpServer.Security security) {
        return new NntpServer(host, port, tls, null, security);
    }

    private static NntpServer.Security trusting(NntpServer.StartTls startTls, boolean compress) {
        return new NntpServer.Security(startTls, certs.ca(), false, compress);
    }

    private static List<String> subjectsOver(NntpClient c) throws Exception {
        assertThat(c.group(GROUP).high()).isGreaterThanOrEqualTo(last);
        NntpClientTest.Recorder r = new NntpClientTest.Recorder();
        c.over(first, last, r);
        assertThat(r.malformed).isEmpty();
        return r.headers.stream().map(OverviewLine::subject).toList();
    }

    @Test
    void readsOverTlsOnConnectWithTheCertificateCheckedAgainstTheCaFile() throws Exception {
        try (NntpClient c = NntpClient.connect(
                server("localhost", TLS_PORT, true, trusting(NntpServer.StartTls.AUTO, true)), T, T)) {
            assertThat(c.isEncrypted()).isTrue();
            assertThat(c.isCompressed())
                    .as("INN offers COMPRESS DEFLATE over TLS too")
                    .isTrue();
            assertThat(subjectsOver(c)).containsExactlyElementsOf(subjects);
        }
    }

    @Test
    void upgradesWithStartTlsWhereOffered() throws Exception {
        for (NntpServer.StartTls policy : List.of(NntpServer.StartTls.AUTO, NntpServer.StartTls.REQUIRE)) {
            try (NntpClient c =
                    NntpClient.connect(server("localhost", STARTTLS_PORT, false, trusting(policy, false)), T, T)) {
                assertThat(c.isEncrypted()).as(policy.name()).isTrue();
                assertThat(c.isCompressed()).isFalse();
                assertThat(subjectsOver(c)).containsExactlyElementsOf(subjects);
            }
        }
        try (NntpClient c = NntpClient.connect(
                server("localhost", STARTTLS_PORT, false, trusting(NntpServer.StartTls.OFF, false)), T, T)) {
            assertThat(c.isEncrypted()).as("STARTTLS off").isFalse();
        }
    }

    @Test
    void aServerThatDeclinesStartTlsStaysPlainUnlessTlsIsRequired() throws Exception {
        // the plain reader offers STARTTLS (INN is built with TLS) but has no certificate: 580
        try (NntpClient c = NntpClient.connect(
                server("localhost", InnPeer.READER_PORT, false, trusting(NntpServer.StartTls.AUTO, false)), T, T)) {
            assertThat(c.isEncrypted()).isFalse();
            assertThat(subjectsOver(c)).containsExactlyElementsOf(subjects);
        }
        assertThatThrownBy(() -> NntpClient.connect(
                                server(
                                        "localhost",
                                        InnPeer.READER_PORT,
                                        false,
                                        trusting(NntpServer.StartTls.REQUIRE, false)),
                                T,
                                T)
                        .close())
                .isInstanceOf(NntpException.class)
                .hasMessageContaining("refused STARTTLS")
                .hasMessageContaining("HEADWAY_NNTP_TLS=true");
    }

    @Test
    void anUntrustedCertificateIsRefusedNamingTheCaSetting() {
        NntpServer.Security jvmTrustStore = new NntpServer.Security(NntpServer.StartTls.AUTO, null, false, true);
        for (NntpServer s : List.of(
                server("localhost", TLS_PORT, true, jvmTrustStore),
                server("localhost", STARTTLS_PORT, false, jvmTrustStore))) {
            assertThatThrownBy(() -> NntpClient.connect(s, T, T).close())
                    .as(s.toString())
                    .isInstanceOf(NntpException.class)
                    .hasMessageContaining("is not trusted")
                    .hasMessageContaining("HEADWAY_NNTP_CA");
        }
    }

    @Test
    void aCertificateForAnotherNameIsRefusedNamingTheHostSetting() {
        assertThatThrownBy(() -> NntpClient.connect(
                                server("127.0.0.1", TLS_PORT, true, trusting(NntpServer.StartTls.AUTO, true)), T, T)
                        .close())
                .isInstanceOf(NntpException.class)
                .hasMessageContaining("is for other names")
                .hasMessageContaining("HEADWAY_NNTP_HOST");
    }

    @Test
    void aPasswordIsNeverSentInPlainTextUnlessAllowed() {
        NntpServer plain = server("localhost", InnPeer.READER_PORT, false, trusting(NntpServer.StartTls.AUTO, false))
                .withCredentials(new NntpServer.Credentials("reader", "secret"));
        assertThatThrownBy(() -> NntpClient.connect(plain, T, T).close())
                .isInstanceOf(NntpAuthException.class)
                .hasMessageContaining("plain text")
                .hasMessageContaining("HEADWAY_NNTP_PLAIN_AUTH=true")
                .hasMessageNotContaining("secret");
    }

    @Test
    void commandsSentAheadOverTlsAndCompressionAreAnsweredInOrder() throws Exception {
        try (NntpClient c = NntpClient.connect(
                server("localhost", TLS_PORT, true, trusting(NntpServer.StartTls.AUTO, true)), T, T)) {
            assertThat(c.isEncrypted()).isTrue();
            assertThat(c.isCompressed()).isTrue();
            assertThat(c.group(GROUP).high()).isGreaterThanOrEqualTo(last);
            NntpClientTest.Recorder r = new NntpClientTest.Recorder();
            c.over(first, first, r);
            long mid = first + (last - first) / 2;
            c.sendOver(first + 1, mid);
            c.sendOver(mid + 1, last);
            c.receiveOver(first + 1, mid, r);
            c.receiveOver(mid + 1, last, r);
            assertThat(r.headers.stream().map(OverviewLine::subject).toList()).containsExactlyElementsOf(subjects);
            assertThat(c.isBroken()).isFalse();
        }
    }

    @Test
    void compressionGivesTheSameHeaders() throws Exception {
        List<String> compressed;
        List<String> uncompressed;
        try (NntpClient c = NntpClient.connect(NntpServer.plain("127.0.0.1", InnPeer.READER_PORT), T, T)) {
            assertThat(c.isCompressed())
                    .as("COMPRESS DEFLATE is on by default where offered")
                    .isTrue();
            compressed = subjectsOver(c);
            assertThat(subjectsOver(c))
                    .as("a second command on the same stream")
                    .isEqualTo(compressed);
        }
        try (NntpClient c = NntpClient.connect(
                server("127.0.0.1", InnPeer.READER_PORT, false, trusting(NntpServer.StartTls.AUTO, false)), T, T)) {
            assertThat(c.isCompressed()).isFalse();
            uncompressed = subjectsOver(c);
        }
        assertThat(compressed).containsExactlyElementsOf(subjects).isEqualTo(uncompressed);
    }
}
