package headway.poster;

import static org.assertj.core.api.Assertions.assertThat;

import headway.inspect.archive.Archives;
import headway.inspect.archive.Listing;
import headway.inspect.nfo.Nfo;
import headway.inspect.nfo.NfoReader;
import headway.inspect.par2.Par2File;
import headway.inspect.par2.Par2Reader;
import headway.inspect.par2.Par2Set;
import headway.inspect.yenc.YencDecoder;
import headway.inspect.yenc.YencPart;
import headway.simulator.NewsSimulator;
import headway.simulator.TestClient;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Obfuscated releases posted into the simulator come back whole through BODY, and module inspect's
 * readers, given only the decoded bytes, find in them what the truth says: the real name in the
 * PAR2 set and the NFO, the archive's listing and whether it is passworded.
 */
class ReleaseRoundTripTest {
    static final String GROUP = "alt.binaries.obfuscated";
    static final Instant POSTED_AT = Instant.parse("2026-12-01T10:00:00Z");

    static NewsSimulator sim;

    @TempDir
    static Path work;

    @BeforeAll
    static void start() throws Exception {
        sim = NewsSimulator.start(NewsSimulator.Options.defaults(), List.of(NewsSimulator.GroupSpec.posted(GROUP)));
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @Test
    void everyKindOfReleaseComesBackWholeAndItsFilesNameIt() throws Exception {
        long seed = Long.getLong("headway.seed", new SecureRandom().nextLong());
        String replay = "seed " + seed + " (replay with -Dheadway.seed=" + seed + ")";
        ReleasePoster poster = new ReleasePoster(ReleaseTools.find(), work, 40_000);
        List<ReleaseSpec> specs = ReleaseSpec.mixed(seed, 1);
        try (TestClient c = new TestClient(sim.host(), sim.port())) {
            for (int i = 0; i < specs.size(); i++) {
                PostedRelease r = poster.build(specs.get(i), seed + i, GROUP, POSTED_AT);
                ReleasePoster.post(sim, r);
                Map<String, byte[]> fetched = fetch(c, r, replay);
                checkObfuscation(r, replay);
                checkEvidence(r, fetched, replay);
            }
        }
    }

    @Test
    void theSameSeedPostsTheSameRelease() throws Exception {
        ReleasePoster poster = new ReleasePoster(ReleaseTools.find(), work, 40_000);
        ReleaseSpec spec = new ReleaseSpec(
                "Echo.Garden.2021.1080p.WEB-DL.x264-RIG",
                true,
                ReleaseSpec.Container.SEVEN_ZIP,
                ReleaseSpec.Password.NONE,
                true,
                true,
                "tt1234567",
                200_000);
        PostedRelease a = poster.build(spec, 99, GROUP, POSTED_AT);
        PostedRelease b = poster.build(spec, 99, GROUP, POSTED_AT);
        assertThat(b.messageIds()).isEqualTo(a.messageIds());
        assertThat(b.poster()).isEqualTo(a.poster());
        for (int i = 0; i < a.files().size(); i++) {
            assertThat(b.files().get(i).postedName()).isEqualTo(a.files().get(i).postedName());
            assertThat(b.files().get(i).subjects()).isEqualTo(a.files().get(i).subjects());
            assertThat(b.files().get(i).data())
                    .as(a.files().get(i).realName())
                    .isEqualTo(a.files().get(i).data());
        }
        assertThat(poster.build(spec, 100, GROUP, POSTED_AT).messageIds()).doesNotContainAnyElementsOf(a.messageIds());
    }

    /** Fetches every article by message-id, decodes it, and puts each file together by its =ybegin name. */
    static Map<String, byte[]> fetch(TestClient c, PostedRelease r, String replay) throws Exception {
        Map<String, byte[]> files = new HashMap<>();
        for (PostedRelease.PostedFile f : r.files()) {
            byte[] whole = null;
            for (String id : f.messageIds()) {
                assertThat(c.command("BODY " + id)).isEqualTo("222 0 " + id);
                YencPart p = YencDecoder.decode(c.data(), 8 << 20);
                assertThat(p.ok()).as("%s %s: %s", replay, id, p.reason()).isTrue();
                assertThat(p.crc()).isEqualTo(YencPart.Crc.MATCHED);
                assertThat(p.name()).isEqualTo(f.postedName());
                whole = whole == null ? new byte[(int) p.size()] : whole;
                System.arraycopy(p.data(), 0, whole, (int) p.begin() - 1, p.data().length);
            }
            assertThat(whole).as("%s %s", replay, f.realName()).isEqualTo(f.data());
            files.put(f.postedName(), whole);
        }
        return files;
    }

    static void checkObfuscation(PostedRelease r, String replay) {
        Set<String> posters = new LinkedHashSet<>();
        r.articles().forEach(a -> posters.add(a.header("From")));
        assertThat(posters).containsExactly(r.poster());
        int n = r.files().size();
        for (int k = 0; k < n; k++) {
            PostedRelease.PostedFile f = r.files().get(k);
            String counter = String.format("[%02d/%02d]", k + 1, n);
            for (int p = 0; p < f.subjects().size(); p++) {
                String subject = f.subjects().get(p);
                assertThat(subject).contains(counter, "\"" + f.postedName() + "\" yEnc (" + (p + 1) + "/");
                if (r.obfuscated()) {
                    assertThat(subject)
                            .as(replay)
                            .doesNotContain(r.name())
                            .doesNotContain(".par2", ".nfo", ".7z", ".rar");
                } else {
                    assertThat(subject).startsWith(r.name() + " ");
                }
            }
            if (r.obfuscated()) {
                assertThat(f.postedName()).matches("[0-9a-f]{32}(\\.[a-z0-9]{3})?");
            } else {
                assertThat(f.postedName()).isEqualTo(f.realName());
            }
        }
    }

    /** Reads the fetched files by content alone, as the deep index would, and compares with the truth. */
    static void checkEvidence(PostedRelease r, Map<String, byte[]> fetched, String replay) {
        Par2Set par2 = null;
        Nfo nfo = null;
        for (PostedRelease.PostedFile f : r.files()) {
            byte[] b = fetched.get(f.postedName());
            assertThat(Par2Reader.recognizes(b))
                    .as("%s %s", replay, f.realName())
                    .isEqualTo(f.role() == PostedRelease.Role.PAR2);
            if (f.role() == PostedRelease.Role.PAR2 && f.realName().equals(r.name() + ".par2")) {
                par2 = Par2Reader.read(b);
            }
            if (f.role() == PostedRelease.Role.NFO) {
                assertThat(NfoReader.looksLikeNfo(b)).isTrue();
                nfo = NfoReader.read(b);
            }
        }
        assertThat(par2 != null).isEqualTo(r.namedBy().contains(PostedRelease.Evidence.PAR2));
        if (par2 != null) {
            for (PostedRelease.PostedFile f : r.files()) {
                if (f.role() == PostedRelease.Role.ARCHIVE || f.role() == PostedRelease.Role.PAYLOAD) {
                    byte[] b = fetched.get(f.postedName());
                    Optional<Par2File> named = par2.fileFor(Arrays.copyOf(b, Math.min(b.length, 16384)), b.length);
                    assertThat(named)
                            .as("%s par-rename of %s", replay, f.postedName())
                            .isPresent();
                    assertThat(named.get().name()).isEqualTo(f.realName()).startsWith(r.name());
                }
            }
        }
        assertThat(nfo != null).isEqualTo(r.namedBy().contains(PostedRelease.Evidence.NFO));
        if (nfo != null) {
            assertThat(nfo.namesOneRelease())
                    .as("%s: %s", replay, nfo.releaseNames())
                    .isTrue();
            assertThat(nfo.releaseNames().get(0).name()).isEqualTo(r.name());
            assertThat(nfo.imdbIds()).isEqualTo(r.imdbId() == null ? List.of() : List.of(r.imdbId()));
        }
        List<PostedRelease.PostedFile> volumes = r.files(PostedRelease.Role.ARCHIVE).stream()
                .sorted(Comparator.comparing(PostedRelease.PostedFile::realName))
                .toList();
        if (volumes.isEmpty()) {
            assertThat(r.password()).isEqualTo(ReleaseSpec.Password.NONE);
            return;
        }
        Set<String> listed = new LinkedHashSet<>();
        boolean passworded = false;
        boolean headersEncrypted = false;
        if (volumes.get(0).realName().contains(".7z.")) {
            byte[] head = fetched.get(volumes.get(0).postedName());
            long before = 0;
            for (int v = 0; v < volumes.size() - 1; v++) {
                before += fetched.get(volumes.get(v).postedName()).length;
            }
            Listing l = Archives.sevenZip(
                    head, fetched.get(volumes.get(volumes.size() - 1).postedName()), before);
            l.entries().forEach(e -> listed.add(e.name()));
            passworded = l.passworded();
            headersEncrypted = l.headersEncrypted();
        } else {
            for (PostedRelease.PostedFile v : volumes) {
                Listing l = Archives.list(fetched.get(v.postedName()), new byte[0], 0)
                        .orElseThrow();
                l.entries().stream().filter(e -> !e.directory()).forEach(e -> listed.add(e.name()));
                passworded |= l.passworded();
                headersEncrypted |= l.headersEncrypted();
            }
        }
        assertThat(List.copyOf(listed)).as(replay).isEqualTo(r.innerNames());
        assertThat(passworded).as("%s %s", replay, r.name()).isEqualTo(r.newznabPassword() == 1);
        assertThat(headersEncrypted).isEqualTo(r.headersEncrypted());
        assertThat(listed.contains(r.name() + ".mkv")).isEqualTo(r.namedBy().contains(PostedRelease.Evidence.ARCHIVE));
    }
}
