package headway.deep;

import static org.assertj.core.api.Assertions.assertThat;

import headway.inspect.archive.ArchiveFormat;
import headway.inspect.archive.Archives;
import headway.inspect.archive.Listing;
import headway.inspect.nfo.Nfo;
import headway.inspect.nfo.NfoReader;
import headway.inspect.par2.Par2Reader;
import headway.inspect.par2.Par2Set;
import headway.inspect.yenc.YencDecoder;
import headway.inspect.yenc.YencPart;
import headway.poster.PostedRelease;
import headway.poster.ReleasePoster;
import headway.poster.ReleaseSpec;
import headway.poster.ReleaseTools;
import headway.simulator.Article;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Releases made by rigs' release poster (real PAR2 from {@code par2 create}, real 7z volumes, RAR
 * volumes from rarfile's test files, a CP437 NFO; obfuscated with random names in a random order),
 * their articles decoded in-process by inspect's yEnc decoder, each file read by content alone (no
 * name is looked at), and named by {@link ReleaseNamer}: every release whose PAR2, NFO or archive
 * listing carries its name is named right, none is named wrong, every passworded one is flagged,
 * and the IMDb id is the NFO's.
 */
class NamingEndToEndTest {

    static final String GROUP = "alt.binaries.obfuscated";
    static final Instant POSTED_AT = Instant.parse("2026-12-01T10:00:00Z");
    static final int PART_BYTES = 40_000;

    @TempDir
    static Path work;

    @Test
    void theMixedSetIsNamedRightAndFlagged() throws Exception {
        long seed = Long.getLong("headway.seed", new SecureRandom().nextLong());
        String replay = "seed " + seed + " (replay with -Dheadway.seed=" + seed + ")";
        ReleasePoster poster = new ReleasePoster(ReleaseTools.find(), work, PART_BYTES);
        List<ReleaseSpec> specs = ReleaseSpec.mixed(seed, 1);
        int named = 0;
        int nameable = 0;
        int passworded = 0;
        for (int i = 0; i < specs.size(); i++) {
            PostedRelease r = poster.build(specs.get(i), seed + i, GROUP, POSTED_AT);
            Map<String, byte[]> files = decode(r, replay);
            List<PostedFile> posted = new ArrayList<>();
            for (PostedRelease.PostedFile f : r.files()) {
                byte[] b = files.get(f.postedName());
                posted.add(
                        new PostedFile(f.postedName(), b.length, f.messageIds().size(), md5Of16k(b)));
            }
            String current = r.obfuscated() ? r.files().get(0).postedName() : r.name();
            Naming n = ReleaseNamer.decide(current, r.obfuscated(), posted, readByContent(files));
            String what = replay + ", " + r.name() + " " + specs.get(i) + ": " + n.reason();
            boolean carriesName = r.namedBy().stream().anyMatch(e -> e != PostedRelease.Evidence.SUBJECT);
            n.name()
                    .ifPresent(
                            name -> assertThat(name).as("wrong name, " + what).isEqualTo(r.name()));
            if (carriesName) {
                nameable++;
                assertThat(n.name()).as("unnamed, " + what).contains(r.name());
                named++;
            }
            assertThat(n.password()).as("password, " + what).isEqualTo(r.newznabPassword());
            passworded += n.password() == Naming.PASSWORDED ? 1 : 0;
            assertThat(n.imdbId()).as("imdb, " + what).isEqualTo(Optional.ofNullable(r.imdbId()));
            if (r.namedBy().contains(PostedRelease.Evidence.PAR2)) {
                assertThat(n.namedBy()).as(what).contains(Source.PAR2);
            }
        }
        assertThat(named).isEqualTo(nameable).isEqualTo(specs.size());
        assertThat(passworded).isEqualTo(4);
    }

    /**
     * Only the articles the default plan names, read as an inspection would (at most {@link
     * FetchPlan#DEFAULT_BUDGET}): every release whose PAR2, NFO or archive listing carries its name
     * named right, none wrong, and every passworded one flagged (each of the two sets holds four),
     * none wrongly. A shuffled 7z post is read from its last volume's end when its first volume is
     * not among the heads the plan fetches: these 7z volumes are cut so that the last holds little
     * more than the header, and is among the smallest files the plan fetches first.
     */
    @Test
    void theFetchPlanAloneNamesWhatItsArticlesCarry() throws Exception {
        long seed = Long.getLong("headway.seed", new SecureRandom().nextLong());
        String replay = "seed " + seed + " (replay with -Dheadway.seed=" + seed + ")";
        ReleasePoster poster = new ReleasePoster(ReleaseTools.find(), work, PART_BYTES);
        List<ReleaseSpec> specs = ReleaseSpec.mixed(seed, 2);
        int passworded = 0;
        for (int i = 0; i < specs.size(); i++) {
            PostedRelease r = poster.build(specs.get(i), seed + i, GROUP, POSTED_AT);
            Map<String, Article> byId = new TreeMap<>();
            r.articles().forEach(a -> byId.put(a.messageId(), a));
            List<PostedFile> posted = new ArrayList<>();
            List<List<String>> ids = new ArrayList<>();
            for (PostedRelease.PostedFile f : r.files()) {
                long encoded = f.messageIds().stream()
                        .mapToLong(id -> byId.get(id).bytes())
                        .sum();
                posted.add(PostedFile.of(
                        f.postedName(),
                        ReleaseReader.estimatedSize(encoded, f.messageIds().size()),
                        f.messageIds().size()));
                ids.add(f.messageIds());
            }
            List<Fetch> plan = FetchPlan.plan(posted);
            assertThat(plan).hasSizeLessThanOrEqualTo(FetchPlan.DEFAULT_BUDGET);
            List<String> asked = new ArrayList<>();
            String current = r.obfuscated() ? r.files().get(0).postedName() : r.name();
            ReleaseReader.Result read =
                    ReleaseReader.read(current, r.obfuscated(), posted, ids, FetchPlan.DEFAULT_BUDGET, id -> {
                        asked.add(id);
                        return body(byId.get(id));
                    });
            Naming n = read.naming();
            String what = replay + ", " + specs.get(i) + " plan " + plan + ": " + n.reason() + " " + read.notes();
            assertThat(asked).as(what).hasSize(read.articles()).hasSizeLessThanOrEqualTo(FetchPlan.DEFAULT_BUDGET);
            assertThat(read.failures()).as(what).isEmpty();
            n.name()
                    .ifPresent(
                            name -> assertThat(name).as("wrong name, " + what).isEqualTo(r.name()));
            assertThat(n.password()).as("password, " + what).isEqualTo(r.newznabPassword());
            if (r.namedBy().stream().anyMatch(e -> e != PostedRelease.Evidence.SUBJECT)) {
                assertThat(n.name()).as("unnamed, " + what).contains(r.name());
            }
            if (specs.get(i).par2() || specs.get(i).nfo()) {
                assertThat(n.name())
                        .as("a PAR2 file or an NFO is among the smallest two, " + what)
                        .isPresent();
            }
            passworded += n.password() == Naming.PASSWORDED ? 1 : 0;
        }
        assertThat(passworded).as(replay).isEqualTo(8);
    }

    /** An article's body decoded as the worker's fetcher decodes it, by inspect's yEnc decoder. */
    static ReleaseReader.Body body(Article a) {
        YencPart p = YencDecoder.decode(a.body(), 8 << 20);
        return p.ok()
                ? ReleaseReader.Body.of(p.data(), p.size(), Math.max(0, p.begin() - 1))
                : ReleaseReader.Body.failed(p.reason() == null ? "CRC32 mismatch" : p.reason());
    }

    /** A 7z archive's size from its signature header: 32 bytes, then the next header's offset and size. */
    static long sevenZipSize(byte[] head) {
        ByteBuffer sig = ByteBuffer.wrap(head, 12, 16).order(ByteOrder.LITTLE_ENDIAN);
        return 32 + sig.getLong() + sig.getLong();
    }

    /** Every file whole, from its articles' yEnc bodies, under its posted name. */
    static Map<String, byte[]> decode(PostedRelease r, String replay) {
        Map<String, byte[]> files = new TreeMap<>();
        Map<String, Article> byId = new TreeMap<>();
        r.articles().forEach(a -> byId.put(a.messageId(), a));
        for (PostedRelease.PostedFile f : r.files()) {
            byte[] whole = null;
            for (String id : f.messageIds()) {
                YencPart p = YencDecoder.decode(byId.get(id).body(), 8 << 20);
                assertThat(p.ok()).as("%s %s: %s", replay, id, p.reason()).isTrue();
                whole = whole == null ? new byte[(int) p.size()] : whole;
                System.arraycopy(p.data(), 0, whole, (int) p.begin() - 1, p.data().length);
            }
            files.put(f.postedName(), whole);
        }
        return files;
    }

    /**
     * The evidence in the files, recognised by content: PAR2 packets, an NFO's text, archive
     * signatures. A 7z set is put together from its first volume (the signature header states the
     * archive's size) and the tail of a volume it could end with: the shortest of the others that
     * are no PAR2 or NFO, or one of equal length, whichever gives a listing.
     */
    static Evidence readByContent(Map<String, byte[]> files) {
        List<Par2Set> par2 = new ArrayList<>();
        List<Nfo> nfos = new ArrayList<>();
        List<Listing> listings = new ArrayList<>();
        byte[] sevenZipHead = null;
        List<byte[]> unknown = new ArrayList<>();
        for (byte[] b : files.values()) {
            Optional<ArchiveFormat> format = Archives.sniff(b);
            if (Par2Reader.recognizes(b)) {
                par2.add(Par2Reader.read(b));
            } else if (format.isPresent() && format.get() == ArchiveFormat.SEVEN_ZIP) {
                sevenZipHead = b;
            } else if (format.isPresent()) {
                listings.add(Archives.list(b, new byte[0], 0).orElseThrow());
            } else if (NfoReader.looksLikeNfo(b)) {
                nfos.add(NfoReader.read(b));
            } else {
                unknown.add(b);
            }
        }
        if (sevenZipHead != null) {
            sevenZip(sevenZipHead, unknown).ifPresent(listings::add);
        }
        return new Evidence(par2, nfos, listings);
    }

    static Optional<Listing> sevenZip(byte[] head, List<byte[]> others) {
        long size = sevenZipSize(head);
        if (size <= head.length) {
            return Optional.of(Archives.sevenZip(head, head, 0));
        }
        List<byte[]> tails = new ArrayList<>(
                others.stream().filter(b -> b.length <= head.length).toList());
        tails.sort(Comparator.comparingInt((byte[] b) -> b.length).thenComparing(Arrays::compare));
        for (byte[] tail : tails) {
            Listing l = Archives.sevenZip(head, tail, size - tail.length);
            if (l.complete() || l.headersEncrypted()) {
                return Optional.of(l);
            }
        }
        return Optional.empty();
    }

    static String md5Of16k(byte[] b) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            md.update(b, 0, Math.min(b.length, 16384));
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
