package headway.deep;

import static org.assertj.core.api.Assertions.assertThat;

import headway.category.Obfuscation;
import headway.inspect.archive.ArchiveFormat;
import headway.inspect.archive.Listing;
import headway.inspect.archive.VolumeRole;
import headway.inspect.nfo.Nfo;
import headway.inspect.nfo.ReleaseName;
import headway.inspect.par2.Par2File;
import headway.inspect.par2.Par2Set;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random evidence over all of Unicode (controls, unpaired surrogates, noncharacters, the astral
 * planes) mixed with real scene names, hashes and their files: the namer never throws, never gives
 * a blank, hashed-looking or overlong name, and gives the same answer for the same evidence in any
 * order. Seeded: a failure names its seed, {@code -Dheadway.seed=N} replays it.
 */
class ReleaseNamerPropertyTest {

    static final int CASES = 3000;

    static final String[] SCENE = {
        "Blue.Planet.2019.1080p.WEB-DL.x264-GRP",
        "The.Expanse.S03E07.720p.HDTV.x264-AVS",
        "Artist-Album_Name-WEB-2021-FLAC",
        "Some.Game.Update.v1.2-CODEX",
        "İSTANBUL.Hatırası.2020.1080p-TR",
    };

    @Test
    void anyEvidenceGivesAValidNameTheSameInAnyOrder() {
        long seed = seed();
        String replay = "seed " + seed + " (replay with -Dheadway.seed=" + seed + ")";
        Random r = new Random(seed);
        int named = 0;
        for (int c = 0; c < CASES; c++) {
            Evidence e = evidence(r);
            List<PostedFile> files = files(r, e);
            boolean obfuscated = r.nextBoolean();
            String current = obfuscated ? "4be44ff48d9cda8a02758cbf231d397e" : name(r);
            Naming n = ReleaseNamer.decide(current, obfuscated, files, e);
            String what = replay + ", case " + c + ": " + e;
            named += n.name().isPresent() ? 1 : 0;
            n.name().ifPresent(name -> {
                assertThat(name).as(what).isNotBlank();
                assertThat(name.length()).as(what).isLessThanOrEqualTo(RealNames.MAX_CHARS);
                assertThat(Obfuscation.looksHashed(name))
                        .as(what + " gave " + name)
                        .isFalse();
                assertThat(name).as(what).doesNotContain("\uFFFD");
                assertThat(name.codePoints().noneMatch(Character::isISOControl))
                        .as(what)
                        .isTrue();
            });
            assertThat(n.namedBy().isEmpty()).as(what).isEqualTo(n.name().isEmpty());
            boolean passworded = e.listings().stream().anyMatch(Listing::passworded);
            assertThat(n.password() == Naming.PASSWORDED).as(what).isEqualTo(passworded);
            assertThat(ReleaseNamer.decide(current, obfuscated, files, e))
                    .as(what)
                    .isEqualTo(n);
            Evidence shuffled = shuffled(e, r);
            List<PostedFile> files2 = new ArrayList<>(files);
            Collections.shuffle(files2, r);
            assertThat(ReleaseNamer.decide(current, obfuscated, files2, shuffled))
                    .as("%s shuffled to %s", what, shuffled)
                    .isEqualTo(n);
            FetchPlan.plan(files, r.nextInt(6) - 1); // never throws either
        }
        assertThat(named)
                .as("%s: cases that named a release, so the checks above ran", replay)
                .isGreaterThan(CASES / 10);
    }

    static long seed() {
        Long replay = Long.getLong("headway.seed");
        return replay != null ? replay : new SecureRandom().nextLong();
    }

    static Evidence evidence(Random r) {
        List<Par2Set> sets = new ArrayList<>();
        List<Par2File> pool = new ArrayList<>();
        for (int i = r.nextInt(4); i > 0; i--) {
            pool.add(new Par2File(hex(r), fileName(r), length(r), hex(r), hex(r)));
        }
        for (int s = r.nextInt(3); s > 0; s--) {
            List<Par2File> files = new ArrayList<>();
            for (Par2File f : pool) {
                if (r.nextInt(3) > 0) {
                    files.add(f);
                }
            }
            sets.add(new Par2Set(hex(r), 4096, List.of(), List.of(), files, 0, List.of(), "", 1, 0, null));
        }
        List<Nfo> nfos = new ArrayList<>();
        for (int n = r.nextInt(3); n > 0; n--) {
            List<ReleaseName> names = new ArrayList<>();
            for (int k = r.nextInt(3); k > 0; k--) {
                names.add(new ReleaseName(name(r), k));
            }
            List<String> imdb = new ArrayList<>();
            for (int k = r.nextInt(3); k > 0; k--) {
                imdb.add(r.nextBoolean() ? String.format("tt%07d", r.nextInt(3)) : any(r, 12));
            }
            nfos.add(new Nfo(
                    any(r, 40),
                    "UTF-8",
                    r.nextBoolean(),
                    names,
                    names.size(),
                    imdb,
                    List.of(),
                    List.of(),
                    List.of(),
                    null));
        }
        List<Listing> listings = new ArrayList<>();
        for (int l = r.nextInt(3); l > 0; l--) {
            List<Listing.Entry> entries = new ArrayList<>();
            for (int k = r.nextInt(4); k > 0; k--) {
                OptionalLong size = r.nextInt(4) == 0 ? OptionalLong.empty() : OptionalLong.of(length(r));
                entries.add(new Listing.Entry(
                        fileName(r),
                        size,
                        OptionalLong.empty(),
                        r.nextInt(5) == 0,
                        r.nextInt(6) == 0,
                        r.nextInt(6) == 0,
                        false,
                        false));
            }
            listings.add(new Listing(
                    ArchiveFormat.values()[r.nextInt(4)],
                    entries,
                    r.nextInt(8) == 0,
                    VolumeRole.values()[r.nextInt(VolumeRole.values().length)],
                    OptionalInt.empty(),
                    null));
        }
        return new Evidence(sets, nfos, listings);
    }

    static List<PostedFile> files(Random r, Evidence e) {
        List<PostedFile> files = new ArrayList<>();
        for (Par2Set s : e.par2()) {
            for (Par2File f : s.files()) {
                if (r.nextInt(3) == 0) {
                    files.add(new PostedFile(hex(r), f.length(), 1 + r.nextInt(50), f.md5Of16k()));
                }
            }
        }
        for (int k = r.nextInt(3); k > 0; k--) {
            files.add(new PostedFile(any(r, 20), length(r), r.nextInt(100) - 2, r.nextBoolean() ? "" : hex(r)));
        }
        return files;
    }

    static Evidence shuffled(Evidence e, Random r) {
        List<Par2Set> sets = new ArrayList<>();
        for (Par2Set s : e.par2()) {
            List<Par2File> files = new ArrayList<>(s.files());
            Collections.shuffle(files, r);
            sets.add(new Par2Set(
                    s.setId(),
                    s.sliceSize(),
                    s.recoveryFileIds(),
                    s.otherFileIds(),
                    files,
                    s.recoveryBlocks(),
                    s.exponents(),
                    s.creator(),
                    s.packetsRead(),
                    s.packetsSkipped(),
                    s.reason()));
        }
        Collections.shuffle(sets, r);
        List<Nfo> nfos = new ArrayList<>();
        for (Nfo n : e.nfos()) {
            List<ReleaseName> names = new ArrayList<>(n.releaseNames());
            Collections.shuffle(names, r);
            List<String> ids = new ArrayList<>(n.imdbIds());
            Collections.shuffle(ids, r);
            nfos.add(new Nfo(
                    n.text(),
                    n.charset(),
                    n.cut(),
                    names,
                    n.distinctReleaseNames(),
                    ids,
                    n.tvdbIds(),
                    n.tvdbSlugs(),
                    n.tvmazeIds(),
                    n.reason()));
        }
        Collections.shuffle(nfos, r);
        List<Listing> listings = new ArrayList<>();
        for (Listing l : e.listings()) {
            List<Listing.Entry> entries = new ArrayList<>(l.entries());
            Collections.shuffle(entries, r);
            listings.add(
                    new Listing(l.format(), entries, l.headersEncrypted(), l.volume(), l.volumeNumber(), l.reason()));
        }
        Collections.shuffle(listings, r);
        return new Evidence(sets, nfos, listings);
    }

    /** A release name: a scene name, one changed in case or separators, a hash, or any text. */
    static String name(Random r) {
        String scene = SCENE[r.nextInt(SCENE.length)];
        return switch (r.nextInt(8)) {
            case 0, 6, 7 -> scene;
            case 1 -> scene.toLowerCase(java.util.Locale.ROOT).replace('.', ' ');
            case 2 -> hex(r);
            case 3 -> scene + any(r, 3);
            case 4 -> any(r, 1 + r.nextInt(300));
            default -> any(r, 1 + r.nextInt(8)) + "." + scene;
        };
    }

    static String fileName(Random r) {
        String[] ext = {".mkv", ".7z.001", ".part01.rar", ".r00", ".nfo", ".vol00+01.par2", "", ".w95"};
        String dir = r.nextInt(5) == 0 ? any(r, 4) + (r.nextBoolean() ? "/" : "\\") : "";
        return dir + name(r) + ext[r.nextInt(ext.length)];
    }

    static long length(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> -r.nextInt(10);
            case 1 -> Long.MAX_VALUE - r.nextInt(3);
            default -> 1000L + 1000L * r.nextInt(2); // equal sizes often: ties must not follow the order
        };
    }

    static String hex(Random r) {
        return String.format("%016x%016x", r.nextLong(), r.nextLong());
    }

    /** Any UTF-16 text: code points from every plane, and lone surrogates. */
    static String any(Random r, int n) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) {
            switch (r.nextInt(5)) {
                case 0 -> s.append((char) r.nextInt(0x10000));
                case 1 -> s.appendCodePoint(r.nextInt(Character.MAX_CODE_POINT + 1));
                case 2 -> s.append((char) r.nextInt(0x20));
                default -> s.append((char) (' ' + r.nextInt(95)));
            }
        }
        return s.toString();
    }
}
