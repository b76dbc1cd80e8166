package headway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import headway.catalog.Stores;
import headway.guard.InnLock;
import headway.poster.NntpFeeder;
import headway.poster.PostedRelease;
import headway.poster.ReleasePoster;
import headway.poster.ReleaseSpec;
import headway.poster.ReleaseTools;
import headway.settings.Setting;
import headway.simulator.Article;
import headway.store.Database;
import headway.web.FrontDoor;
import headway.web.ServeConfig;
import headway.worker.HeadwayWorker;
import headway.worker.Schedules;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Issue 41 as a new user meets it, end to end against a real INN 2.7 ({@code tools/nntp-peer.sh}):
 * obfuscated releases made with Debian's par2 and 7z (named only by their PAR2 set, only by their
 * NFO, only by their 7z listing, a 7z with encrypted headers, and a readable control) are fed to
 * INN; a worker on the Temporal dev server with the default schedules indexes the group from INN
 * and inspects what it finds; then each release is searched for by its real name through the
 * newznab API of {@code headway serve}'s web app, over HTTP as a client does, and its NZB must
 * list every file that was posted for it. Fails, never skips, when INN cannot be started.
 */
@ExtendWith(InnLock.class)
class InnDeepIndexTest {

    private static final String GROUP = "alt.binaries.headway.deep.inn";
    private static final Path SCRIPT = Path.of(System.getProperty("headway.nntpPeer", "../tools/nntp-peer.sh"));
    private static final Duration LIMIT = Duration.ofMinutes(4);
    private static final String NEWZNAB_NS = "http://www.newznab.com/DTD/2010/feeds/attributes/";

    @TempDir
    static Path work;

    @Test
    void obfuscatedReleasesFedToInnAreFoundByTheirRealNamesThroughTheApi() throws Exception {
        InnFeed.peer(SCRIPT, "start", GROUP);
        InnFeed.peer(SCRIPT, "reset", GROUP);
        long seed = Long.getLong("headway.seed", System.nanoTime());
        System.out.println("InnDeepIndexTest: -Dheadway.seed=" + seed);
        ReleasePoster poster = new ReleasePoster(ReleaseTools.find(), work, ReleasePoster.DEFAULT_PART_BYTES);
        List<ReleaseSpec> specs = List.of(
                new ReleaseSpec(
                        "Amber.Harbour.2021.1080p.WEB-DL.x264-INNP",
                        true,
                        ReleaseSpec.Container.NONE,
                        ReleaseSpec.Password.NONE,
                        true,
                        false,
                        null,
                        220_000),
                new ReleaseSpec(
                        "Quiet.Lantern.S02E05.720p.HDTV.x264-INNN",
                        true,
                        ReleaseSpec.Container.NONE,
                        ReleaseSpec.Password.NONE,
                        false,
                        true,
                        "tt4512377",
                        180_000),
                new ReleaseSpec(
                        "Silver.Meadow.2019.2160p.BluRay.x265-INNA",
                        true,
                        ReleaseSpec.Container.SEVEN_ZIP,
                        ReleaseSpec.Password.NONE,
                        false,
                        false,
                        null,
                        260_000),
                new ReleaseSpec(
                        "Iron.Orchard.2023.1080p.BluRay.DTS-INNH",
                        true,
                        ReleaseSpec.Container.SEVEN_ZIP,
                        ReleaseSpec.Password.HEADERS,
                        true,
                        false,
                        null,
                        240_000),
                new ReleaseSpec(
                        "Copper.Valley.S01E03.1080p.WEB-DL.x264-INNC",
                        false,
                        ReleaseSpec.Container.SEVEN_ZIP,
                        ReleaseSpec.Password.NONE,
                        true,
                        true,
                        null,
                        200_000));
        Instant postedAt = Instant.now().minusSeconds(600);
        List<PostedRelease> posted = new ArrayList<>();
        List<Article> articles = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            PostedRelease r = poster.build(specs.get(i), seed + i, GROUP, postedAt.plusSeconds(60L * i));
            posted.add(r);
            articles.addAll(r.articles());
        }
        NntpFeeder.ihave("127.0.0.1", InnFeed.FEED_PORT, articles);

        try (Rig rig = Rig.builder()
                .database("inn_deep")
                .temporal(TemporalServer.Kind.DEV_SERVER_OR_IN_PROCESS)
                .say(System.out::println)
                .start()) {
            rig.workerEnv(Setting.NNTP_HOST.key(), "127.0.0.1")
                    .workerEnv(Setting.NNTP_PORT.key(), Integer.toString(InnFeed.READER_PORT))
                    .workerEnv(Setting.NNTP_STARTTLS.key(), "off");
            rig.startWorker(Map.of());
            assertThat(rig.addAndPlan(GROUP, Setting.RANGE_SIZE.longDefault()).high())
                    .as("INN's high-water mark: every article fed")
                    .isEqualTo(articles.size());
            rig.startGroup(rig.groupConfig(
                    GROUP, Setting.LEASE_TTL.durationDefault(), 2, Setting.IDLE_WAIT.durationDefault()));
            rig.installSchedules(Schedules.Intervals.fromEnv(rig.env()));

            try (Stores stores = Stores.open(
                            new Database.Settings(rig.dbUrl(), "postgres", null, 4, Duration.ofSeconds(10)),
                            "inn-deep-serve");
                    FrontDoor door = FrontDoor.start(
                            stores, new ServeConfig("127.0.0.1", 0, false, "headway"), HeadwayWorker.newRegistry())) {
                Api api = new Api(
                        "http://127.0.0.1:" + door.port(), stores.apiKeys().add("inn-deep", null, null));
                Map<String, Element> found = new LinkedHashMap<>();
                long deadline = System.nanoTime() + LIMIT.toNanos();
                while (found.size() < posted.size() && System.nanoTime() < deadline) {
                    for (PostedRelease r : posted) {
                        if (!found.containsKey(r.name())) {
                            api.byTitle("t=search&q=" + enc(r.name()), r.name())
                                    .ifPresent(item -> found.put(r.name(), item));
                        }
                    }
                    Thread.sleep(1000);
                }
                assertThat(found.keySet())
                        .as("releases found by their real names within %s", LIMIT)
                        .containsExactlyInAnyOrderElementsOf(
                                posted.stream().map(PostedRelease::name).toList());
                for (PostedRelease r : posted) {
                    Element item = found.get(r.name());
                    assertThat(attrs(item))
                            .as("%s: newznab password", r.name())
                            .containsEntry("password", Integer.toString(r.newznabPassword()));
                    if (r.obfuscated()) {
                        assertThat(text(item, "description"))
                                .as("%s: named from inside its files, not by its subjects", r.name())
                                .startsWith(r.name() + " (posted as ");
                    }
                    Document nzb = api.nzb(text(item, "guid"));
                    List<String> subjects = new ArrayList<>();
                    NodeList files = nzb.getElementsByTagName("file");
                    for (int i = 0; i < files.getLength(); i++) {
                        subjects.add(((Element) files.item(i)).getAttribute("subject"));
                    }
                    assertThat(subjects)
                            .as("%s: the NZB's files, one per posted file", r.name())
                            .hasSize(r.files().size());
                    for (PostedRelease.PostedFile f : r.files()) {
                        assertThat(subjects)
                                .as("%s: the NZB lists %s (%s)", r.name(), f.postedName(), f.realName())
                                .anyMatch(s -> s.contains("\"" + f.postedName() + "\"")
                                        || s.contains(" " + f.postedName() + " "));
                        assertThat(segments(nzb, f.postedName()))
                                .as("%s: %s's articles in the NZB", r.name(), f.postedName())
                                .containsExactlyInAnyOrderElementsOf(f.messageIds().stream()
                                        .map(id -> id.substring(1, id.length() - 1))
                                        .toList());
                    }
                }
            }
        }
    }

    /** The message-ids of the NZB's file whose subject names {@code postedName}. */
    private static List<String> segments(Document nzb, String postedName) {
        NodeList files = nzb.getElementsByTagName("file");
        for (int i = 0; i < files.getLength(); i++) {
            Element file = (Element) files.item(i);
            if (file.getAttribute("subject").contains(postedName)) {
                List<String> ids = new ArrayList<>();
                NodeList segs = file.getElementsByTagName("segment");
                for (int j = 0; j < segs.getLength(); j++) {
                    ids.add(segs.item(j).getTextContent().strip());
                }
                return ids;
            }
        }
        return List.of();
    }

    /** The newznab API as a client reaches it: HTTP with an API key. */
    private record Api(String base, String key) {
        private static final HttpClient HTTP =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

        HttpResponse<String> get(String query) throws Exception {
            return HTTP.send(
                    HttpRequest.newBuilder(URI.create(base + "/api?" + query + "&apikey=" + key))
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        }

        Document xmlOf(String query) throws Exception {
            HttpResponse<String> r = get(query);
            assertThat(r.statusCode()).as("%s: %s", query, r.body()).isEqualTo(200);
            return xml(r.body());
        }

        Optional<Element> byTitle(String query, String title) throws Exception {
            return items(xmlOf(query)).stream()
                    .filter(i -> text(i, "title").equals(title))
                    .findFirst();
        }

        Document nzb(String guid) throws Exception {
            return xmlOf("t=get&id=" + enc(guid));
        }
    }

    private static Document xml(String body) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> items(Document d) {
        NodeList nodes = d.getElementsByTagName("item");
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add((Element) nodes.item(i));
        }
        return out;
    }

    private static String text(Element e, String child) {
        return e.getElementsByTagName(child).item(0).getTextContent();
    }

    private static Map<String, String> attrs(Element item) {
        Map<String, String> out = new LinkedHashMap<>();
        NodeList nodes = item.getElementsByTagNameNS(NEWZNAB_NS, "attr");
        for (int i = 0; i < nodes.getLength(); i++) {
            Element a = (Element) nodes.item(i);
            out.merge(a.getAttribute("name"), a.getAttribute("value"), (x, y) -> x + "," + y);
        }
        return out;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
