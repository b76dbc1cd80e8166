package headway.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import headway.catalog.Stores;
import headway.guard.InnLock;
import headway.index.CompletedBinary;
import headway.index.Segment;
import headway.nntp.InnPeer;
import headway.store.Database;
import headway.store.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real downloader end to end: files are posted yEnc-encoded to a real INN, the catalog holds
 * their release (written as the indexer writes it; InnIndexingTest covers INN to catalog), and
 * Debian's nzbget, given only headway's RSS feed, fetches the NZB from {@code t=get}, downloads the
 * articles from INN and decodes them: every file's sha256 equals what was posted. Fails, never
 * skips, without nzbget or INN (bin/install-test-tools installs both); run under
 * {@code flock /tmp/headway-inn.lock} beside other INN tests.
 */
@ExtendWith(InnLock.class)
class NzbgetEndToEndTest {

    private static final String GROUP = "alt.binaries.headway.nzbget";
    private static final String POSTER = "poster <poster@headway.test>";
    private static final int PARTS = 3;
    private static final int PART_SIZE = 30_000;
    private static final int LINE = 128;

    @TempDir
    Path tmp;

    @Test
    void nzbgetFollowsTheFeedAndDownloadsExactlyWhatWasPosted() throws Exception {
        Path nzbget = Path.of("/usr/bin/nzbget");
        if (!Files.isExecutable(nzbget)) {
            fail("nzbget not found at /usr/bin/nzbget: run bin/install-test-tools nzbget (apt-get install -y nzbget)");
        }
        InnPeer.run("start", GROUP);
        InnPeer.run("reset", GROUP);

        String nonce = Long.toHexString(System.nanoTime());
        String release = "Headway.Nzbget.Test." + nonce + ".2026.1080p.WEB-DL.x264-GRP";
        Random random = new Random(11);
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("headway.e2e.part1.bin", randomBytes(random, PARTS * PART_SIZE));
        files.put("headway.e2e.part2.bin", randomBytes(random, PARTS * PART_SIZE - 777));
        List<InnPeer.Wire> wires = new ArrayList<>();
        List<CompletedBinary> binaries = new ArrayList<>();
        int f = 0;
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            f++;
            List<Segment> segments = new ArrayList<>();
            byte[] data = file.getValue();
            for (int p = 1; p <= PARTS; p++) {
                int begin = (p - 1) * PART_SIZE;
                int end = Math.min(data.length, p * PART_SIZE);
                String subject = release + " - [" + f + "/" + files.size() + "] - \"" + file.getKey() + "\" yEnc (" + p
                        + "/" + PARTS + ")";
                String id = "e2e." + nonce + ".f" + f + ".p" + p + "@headway.test";
                byte[] wire = article(subject, id, yenc(file.getKey(), data, begin, end, p));
                wires.add(new InnPeer.Wire("<" + id + ">", wire));
                segments.add(new Segment(p, wire.length, id));
            }
            binaries.add(new CompletedBinary(
                    GROUP,
                    POSTER,
                    file.getKey(),
                    PARTS,
                    release,
                    files.size(),
                    release + " - [" + f + "/" + files.size() + "] - \"" + file.getKey() + "\" yEnc (1/" + PARTS + ")",
                    Instant.now().minusSeconds(300),
                    f * 10L,
                    f * 10L + PARTS - 1,
                    1,
                    segments));
        }
        InnPeer.ihave(wires);

        String url = TestDatabase.emptyDatabase("nzbget");
        try (Stores stores =
                Stores.open(new Database.Settings(url, "postgres", null, 4, Duration.ofSeconds(10)), "e2e")) {
            TestDatabase.execute(stores.dataSource(), "insert into groups (name) values ('" + GROUP + "')");
            ServedCatalog.write(stores, binaries);
            String key = stores.apiKeys().add("nzbget", null, null);
            try (FrontDoor door = FrontDoor.start(
                    stores, new ServeConfig("127.0.0.1", 0, false, "headway"), new SimpleMeterRegistry())) {
                String feed = "http://127.0.0.1:" + door.port() + "/api?t=search&q=" + nonce + "&apikey=" + key;
                Path dest = runNzbget(nzbget, feed, release, files.keySet());
                for (Map.Entry<String, byte[]> file : files.entrySet()) {
                    Path got = dest.resolve(file.getKey());
                    assertThat(sha256(Files.readAllBytes(got)))
                            .as(file.getKey())
                            .isEqualTo(sha256(file.getValue()));
                }
                assertThat(stores.apiKeys().list())
                        .singleElement()
                        .satisfies(k -> assertThat(k.grabsToday()).isEqualTo(1));
            }
        }
    }

    /** Starts nzbget on a fresh config with only our feed; returns the release's download directory once every file is there. */
    private Path runNzbget(Path nzbget, String feed, String release, Iterable<String> names) throws Exception {
        int control;
        try (ServerSocket s = new ServerSocket(0)) {
            control = s.getLocalPort();
        }
        Path main = tmp.resolve("nzbget");
        Files.createDirectories(main);
        Path conf = main.resolve("nzbget.conf");
        Files.writeString(
                conf,
                String.join(
                                "\n",
                                "MainDir=" + main,
                                "DestDir=${MainDir}/dst",
                                "InterDir=${MainDir}/inter",
                                "NzbDir=${MainDir}/nzb",
                                "QueueDir=${MainDir}/queue",
                                "TempDir=${MainDir}/tmp",
                                "ScriptDir=${MainDir}/scripts",
                                "LockFile=${MainDir}/nzbget.lock",
                                "LogFile=${MainDir}/nzbget.log",
                                "WebDir=",
                                "ConfigTemplate=",
                                "ControlIP=127.0.0.1",
                                "ControlPort=" + control,
                                "ControlUsername=nzbget",
                                "ControlPassword=test",
                                "DaemonUsername=",
                                "OutputMode=log",
                                "WriteLog=append",
                                "Server1.Active=yes",
                                "Server1.Name=inn",
                                "Server1.Level=0",
                                "Server1.Host=127.0.0.1",
                                "Server1.Port=" + InnPeer.READER_PORT,
                                "Server1.Username=",
                                "Server1.Password=",
                                "Server1.Encryption=no",
                                "Server1.Connections=2",
                                "Feed1.Name=headway",
                                "Feed1.URL=" + feed,
                                "Feed1.Filter=",
                                "Feed1.Interval=1",
                                "Feed1.Backlog=no",
                                "AppendCategoryDir=no",
                                "CrcCheck=yes",
                                "ParCheck=manual",
                                "ParRename=no",
                                "Unpack=no",
                                "DirectRename=no",
                                "DirectUnpack=no",
                                "HealthCheck=none",
                                "ArticleTimeout=20",
                                "UrlTimeout=20",
                                "")
                        + "\n");
        Process p = new ProcessBuilder(nzbget.toString(), "-c", conf.toString(), "-s")
                .redirectErrorStream(true)
                .redirectOutput(main.resolve("stdout.log").toFile())
                .start();
        try {
            Path dest = main.resolve("dst").resolve(release);
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (System.nanoTime() < deadline) {
                boolean all = true;
                for (String name : names) {
                    all &= Files.isRegularFile(dest.resolve(name));
                }
                if (all && !Files.exists(main.resolve("inter").resolve(release))) {
                    Thread.sleep(1000);
                    return dest;
                }
                if (!p.isAlive()) {
                    break;
                }
                Thread.sleep(500);
            }
            fail("nzbget did not download " + release + " within 120 s; its log:\n" + log(main));
            return dest;
        } finally {
            p.destroy();
            if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    private static String log(Path main) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (String name : List.of("stdout.log", "nzbget.log")) {
            Path f = main.resolve(name);
            if (Files.exists(f)) {
                sb.append("--- ").append(name).append('\n').append(Files.readString(f, StandardCharsets.ISO_8859_1));
            }
        }
        return sb.toString();
    }

    private static byte[] randomBytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** One part of a yEnc multipart post: {@code data[begin, end)} with its header, trailer and CRCs. */
    static byte[] yenc(String name, byte[] data, int begin, int end, int part) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int parts = (data.length + PART_SIZE - 1) / PART_SIZE;
        write(
                out,
                "=ybegin part=" + part + " total=" + parts + " line=" + LINE + " size=" + data.length + " name=" + name
                        + "\r\n");
        write(out, "=ypart begin=" + (begin + 1) + " end=" + end + "\r\n");
        int col = 0;
        for (int i = begin; i < end; i++) {
            int o = (data[i] + 42) & 0xff;
            boolean edge = col == 0 || i == end - 1 || col >= LINE - 1;
            if (o == 0
                    || o == '\n'
                    || o == '\r'
                    || o == '='
                    || (edge && (o == ' ' || o == '\t'))
                    || (col == 0 && o == '.')) {
                out.write('=');
                out.write((o + 64) & 0xff);
                col += 2;
            } else {
                out.write(o);
                col++;
            }
            if (col >= LINE) {
                write(out, "\r\n");
                col = 0;
            }
        }
        if (col > 0) {
            write(out, "\r\n");
        }
        CRC32 partCrc = new CRC32();
        partCrc.update(data, begin, end - begin);
        CRC32 whole = new CRC32();
        whole.update(data);
        write(
                out,
                String.format(
                        "=yend size=%d part=%d pcrc32=%08x%s\r\n",
                        end - begin,
                        part,
                        partCrc.getValue(),
                        part == parts ? String.format(" crc32=%08x", whole.getValue()) : ""));
        return out.toByteArray();
    }

    private static byte[] article(String subject, String id, byte[] body) {
        String head = "Path: headway-test!not-for-mail\r\n"
                + "From: " + POSTER + "\r\n"
                + "Newsgroups: " + GROUP + "\r\n"
                + "Subject: " + subject + "\r\n"
                + "Message-ID: <" + id + ">\r\n"
                + "Date: "
                + DateTimeFormatter.RFC_1123_DATE_TIME.format(
                        Instant.now().atZone(ZoneOffset.UTC).minusMinutes(5))
                + "\r\n\r\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, head);
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String sha256(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    }
}
