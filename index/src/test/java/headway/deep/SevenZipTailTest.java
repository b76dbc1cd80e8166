package headway.deep;

import static org.assertj.core.api.Assertions.assertThat;

import headway.poster.ReleaseTools;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 7z whose last volume spans several articles, made by p7zip, posted in articles cut so that
 * the header crosses the boundary between the last volume's last two articles: the reader fetches
 * the first volume's head, the last article, then the one before it, and names the release (or
 * flags its encrypted headers) within the default budget of 3. Truncated, shifted and lying tails
 * give a note with the reason and no name, never an exception, and never more articles than the
 * budget.
 */
class SevenZipTailTest {

    private static final String NAME = "Harbour.Lights.2022.1080p.WEB-DL.x264-TAIL";
    private static final int VOLUME = 120_000;

    @TempDir
    Path dir;

    /** A posted 7z set: its volumes' bytes, the article size, and where the header starts in the archive. */
    private record Posted(List<byte[]> volumes, int partBytes, long headerStart, long archiveSize) {

        List<PostedFile> files() {
            List<PostedFile> files = new ArrayList<>();
            for (int v = 0; v < volumes.size(); v++) {
                files.add(PostedFile.of("a" + Integer.toHexString(0x5f3e1 * (v + 7)), volumes.get(v).length, parts(v)));
            }
            return files;
        }

        int parts(int v) {
            return (volumes.get(v).length + partBytes - 1) / partBytes;
        }

        List<List<String>> ids() {
            List<List<String>> ids = new ArrayList<>();
            for (int v = 0; v < volumes.size(); v++) {
                List<String> mine = new ArrayList<>();
                for (int p = 1; p <= parts(v); p++) {
                    mine.add("<" + v + "." + p + "@tail.test>");
                }
                ids.add(mine);
            }
            return ids;
        }

        /** Article {@code id}'s decoded bytes, as a yEnc part gives them. */
        ReleaseReader.Body body(String id) {
            String[] at = id.substring(1, id.indexOf('@')).split("\\.");
            byte[] v = volumes.get(Integer.parseInt(at[0]));
            int from = (Integer.parseInt(at[1]) - 1) * partBytes;
            return ReleaseReader.Body.of(
                    Arrays.copyOfRange(v, from, Math.min(v.length, from + partBytes)), v.length, from);
        }
    }

    /**
     * Makes the set with {@code 7z a -v120000b} and cuts articles so that the last volume is three
     * articles and the boundary between its last two falls in the middle of the header.
     */
    private Posted post(boolean encryptedHeaders) throws Exception {
        byte[] payload = new byte[300_000];
        new Random(41).nextBytes(payload);
        Files.write(dir.resolve(NAME + ".mkv"), payload);
        List<String> cmd = new ArrayList<>(
                List.of(ReleaseTools.find().sevenZip().toString(), "a", "-t7z", "-mx=0", "-bd", "-v" + VOLUME + "b"));
        if (encryptedHeaders) {
            cmd.addAll(List.of("-psecret", "-mhe=on"));
        }
        cmd.addAll(List.of(NAME + ".7z", NAME + ".mkv"));
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(out).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        List<byte[]> volumes = new ArrayList<>();
        for (int v = 1; Files.exists(dir.resolve(String.format("%s.7z.%03d", NAME, v))); v++) {
            volumes.add(Files.readAllBytes(dir.resolve(String.format("%s.7z.%03d", NAME, v))));
        }
        assertThat(volumes).as("7z's volumes").hasSize(3);
        ByteBuffer sig = ByteBuffer.wrap(volumes.get(0), 12, 16).order(ByteOrder.LITTLE_ENDIAN);
        long headerStart = 32 + sig.getLong();
        long archiveSize = headerStart + sig.getLong();
        long lastStart = archiveSize - volumes.get(2).length;
        long inLast = headerStart - lastStart;
        assertThat(inLast).as("the header lies in the last volume").isPositive();
        int partBytes = (int) ((inLast + (archiveSize - headerStart) / 2) / 2);
        Posted posted = new Posted(volumes, partBytes, headerStart, archiveSize);
        long lastArticle = lastStart + 2L * partBytes;
        assertThat(posted.parts(2)).as("the last volume's articles").isEqualTo(3);
        assertThat(lastArticle).as("the last article starts inside the header").isGreaterThan(headerStart);
        assertThat(lastArticle).isLessThan(archiveSize);
        return posted;
    }

    private static ReleaseReader.Result read(
            Posted posted, List<String> asked, UnaryOperator<ReleaseReader.Body> bend) {
        List<PostedFile> files = posted.files();
        return ReleaseReader.read(files.get(0).name(), true, files, posted.ids(), FetchPlan.DEFAULT_BUDGET, id -> {
            asked.add(id);
            return id.startsWith("<2.") ? bend.apply(posted.body(id)) : posted.body(id);
        });
    }

    @Test
    void aHeaderAcrossTheLastVolumesArticlesIsReadFromTheLastTwo() throws Exception {
        Posted posted = post(false);
        List<String> asked = new ArrayList<>();
        ReleaseReader.Result result = read(posted, asked, b -> b);
        assertThat(asked).containsExactly("<0.1@tail.test>", "<2.3@tail.test>", "<2.2@tail.test>");
        assertThat(result.naming().name()).as("%s", result).contains(NAME);
        assertThat(result.naming().password()).isZero();
    }

    @Test
    void encryptedHeadersAcrossTheBoundaryAreFlagged() throws Exception {
        Posted posted = post(true);
        List<String> asked = new ArrayList<>();
        ReleaseReader.Result result = read(posted, asked, b -> b);
        assertThat(asked).hasSizeLessThanOrEqualTo(FetchPlan.DEFAULT_BUDGET).contains("<2.3@tail.test>");
        assertThat(result.naming().password()).as("%s", result).isEqualTo(1);
        assertThat(result.naming().name()).isEmpty();
    }

    @Test
    void truncatedShiftedAndLyingTailsAreNotedNeverThrown() throws Exception {
        Posted posted = post(false);
        List<UnaryOperator<ReleaseReader.Body>> bends = List.of(
                b -> ReleaseReader.Body.of(Arrays.copyOf(b.data(), b.data().length / 2), b.fileSize(), b.offset()),
                b -> ReleaseReader.Body.of(b.data(), b.fileSize(), b.offset() + 1),
                b -> ReleaseReader.Body.of(b.data(), b.fileSize() + 7, b.offset()),
                b -> ReleaseReader.Body.of(b.data(), -1, b.offset()),
                b -> ReleaseReader.Body.of(new byte[0], b.fileSize(), b.offset()),
                b -> ReleaseReader.Body.failed("damaged: crc32 mismatch"),
                b -> {
                    byte[] d = b.data().clone();
                    Arrays.fill(d, Math.max(0, d.length - 40), d.length, (byte) 0x17);
                    return ReleaseReader.Body.of(d, b.fileSize(), b.offset());
                });
        for (int i = 0; i < bends.size(); i++) {
            List<String> asked = new ArrayList<>();
            ReleaseReader.Result result = read(posted, asked, bends.get(i));
            assertThat(asked)
                    .as("bend %d", i)
                    .hasSizeLessThanOrEqualTo(FetchPlan.DEFAULT_BUDGET)
                    .doesNotHaveDuplicates();
            assertThat(result.naming().name()).as("bend %d: %s", i, result).isEmpty();
            assertThat(result.notes().stream().anyMatch(n -> n.startsWith("7z: "))
                            || !result.failures().isEmpty())
                    .as("bend %d records why: %s", i, result)
                    .isTrue();
        }
    }

    @Test
    void aHeadThatLiesAboutWhereTheHeaderIsNamesNothing() throws Exception {
        Posted posted = post(false);
        long seed = Long.getLong("headway.seed", new SecureRandom().nextLong());
        Random r = new Random(seed);
        for (int round = 0; round < 200; round++) {
            byte[] head = posted.volumes().get(0).clone();
            ByteBuffer sig = ByteBuffer.wrap(head, 12, 16).order(ByteOrder.LITTLE_ENDIAN);
            long offset = posted.headerStart() - 32 + r.nextInt(2 * posted.partBytes()) - posted.partBytes();
            long size = posted.archiveSize() - 32 - offset + (r.nextBoolean() ? 0 : r.nextInt(64) - 32);
            if (offset == posted.headerStart() - 32 && size == posted.archiveSize() - posted.headerStart()) {
                size++;
            }
            sig.putLong(offset).putLong(size);
            CRC32 crc = new CRC32();
            crc.update(head, 12, 20);
            ByteBuffer.wrap(head, 8, 4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue());
            List<byte[]> volumes = new ArrayList<>(posted.volumes());
            volumes.set(0, head);
            Posted lying = new Posted(volumes, posted.partBytes(), 32 + offset, 32 + offset + size);
            List<String> asked = new ArrayList<>();
            String what = "round " + round + " (replay with -Dheadway.seed=" + seed + ")";
            ReleaseReader.Result result = read(lying, asked, b -> b);
            assertThat(asked)
                    .as(what)
                    .hasSizeLessThanOrEqualTo(FetchPlan.DEFAULT_BUDGET)
                    .doesNotHaveDuplicates();
            assertThat(result.naming().name())
                    .as("%s: a self-consistent start header that points off the header names nothing: %s", what, result)
                    .isEmpty();
        }
    }
}
