package headway.deep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The read loop on hostile bodies: random and truncated bytes, lying signatures, 7z headers that
 * state absurd sizes, articles the server lost. It never throws for what a body holds, never
 * fetches past the budget, and records every body that failed with its reason.
 */
class ReleaseReaderTest {

    static final byte[] SEVEN_ZIP = {'7', 'z', (byte) 0xBC, (byte) 0xAF, 0x27, 0x1C, 0, 4};

    static final byte[] PAR2 = "PAR2\0PKT".getBytes(StandardCharsets.ISO_8859_1);

    @Test
    void hostileBodiesAreNotedNeverThrownAndTheBudgetHolds() {
        long seed = Long.getLong("headway.seed", new SecureRandom().nextLong());
        Random r = new Random(seed);
        for (int round = 0; round < 300; round++) {
            int n = 1 + r.nextInt(8);
            List<PostedFile> files = new ArrayList<>();
            List<List<String>> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int segments = 1 + r.nextInt(4);
                files.add(PostedFile.of(Long.toHexString(r.nextLong()), r.nextInt(1 << 20) - 1000, segments));
                List<String> mine = new ArrayList<>();
                for (int s = 0; s < segments; s++) {
                    mine.add("<" + i + "." + s + "@r>");
                }
                ids.add(mine);
            }
            int budget = 1 + r.nextInt(5);
            List<String> asked = new ArrayList<>();
            ReleaseReader.Result result = ReleaseReader.read(files.get(0).name(), true, files, ids, budget, id -> {
                asked.add(id);
                return hostile(r);
            });
            String what = "seed " + seed + " round " + round + " (replay with -Dheadway.seed=" + seed + ")";
            assertThat(asked)
                    .as(what)
                    .hasSize(result.articles())
                    .hasSizeLessThanOrEqualTo(budget)
                    .doesNotHaveDuplicates();
            assertThat(result.naming().name()).as(what).isEmpty();
            assertThat(result.posted()).as(what).hasSize(n);
        }
    }

    @Test
    void aFailedArticleIsRecordedWithItsReasonAndCountsAgainstTheBudget() {
        List<PostedFile> files = List.of(PostedFile.of("a1b2", 5000, 1), PostedFile.of("c3d4", 900_000, 3));
        List<List<String>> ids = List.of(List.of("<a@x>"), List.of("<b@x>", "<c@x>", "<d@x>"));
        ReleaseReader.Result result = ReleaseReader.read(
                "a1b2", true, files, ids, 3, id -> ReleaseReader.Body.failed("no such article " + id));
        assertThat(result.articles()).isEqualTo(2);
        assertThat(result.failures())
                .containsExactly("a1b2 part 1: no such article <a@x>", "c3d4 part 1: no such article <b@x>");
        assertThat(result.naming().name()).isEmpty();
    }

    @Test
    void aConnectionThatFailsIsThrownForTheCallerToRetry() {
        List<PostedFile> files = List.of(PostedFile.of("a1b2", 5000, 1));
        assertThatThrownBy(() -> ReleaseReader.read("a1b2", true, files, List.of(List.of("<a@x>")), 3, id -> {
                    throw new UncheckedIOException(new IOException("connection reset"));
                }))
                .isInstanceOf(UncheckedIOException.class);
    }

    @Test
    void aSevenZipHeadThatLiesAboutItsSizeFetchesNoTail() {
        byte[] head = new byte[4000];
        System.arraycopy(SEVEN_ZIP, 0, head, 0, SEVEN_ZIP.length);
        ByteBuffer.wrap(head, 12, 16)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(Long.MAX_VALUE - 10)
                .putLong(1L << 62);
        List<PostedFile> files = List.of(PostedFile.of("v1", 1_000_000, 3), PostedFile.of("v2", 1_000_000, 3));
        List<String> asked = new ArrayList<>();
        ReleaseReader.Result result = ReleaseReader.read(
                "v1",
                true,
                files,
                List.of(List.of("<1@x>", "<2@x>", "<3@x>"), List.of("<4@x>", "<5@x>", "<6@x>")),
                3,
                id -> {
                    asked.add(id);
                    return ReleaseReader.Body.of(head, 1_000_000, 0);
                });
        assertThat(asked).containsExactly("<1@x>", "<4@x>");
        assertThat(result.notes()).anyMatch(n -> n.contains("states no size"));
        assertThat(result.naming().name()).isEmpty();
    }

    /** A body the way a hostile poster or a broken server would make it. */
    static ReleaseReader.Body hostile(Random r) {
        int kind = r.nextInt(6);
        if (kind == 0) {
            return ReleaseReader.Body.failed("damaged: " + r.nextInt());
        }
        byte[] b = new byte[r.nextInt(kind == 5 ? 70_000 : 600)];
        r.nextBytes(b);
        if (kind == 1 && b.length >= SEVEN_ZIP.length) {
            System.arraycopy(SEVEN_ZIP, 0, b, 0, SEVEN_ZIP.length);
        } else if (kind == 2 && b.length >= PAR2.length) {
            System.arraycopy(PAR2, 0, b, 0, PAR2.length);
        } else if (kind == 3 && b.length >= 4) {
            b[0] = 'R';
            b[1] = 'a';
            b[2] = 'r';
            b[3] = '!';
        } else if (kind == 4 && b.length >= 4) {
            b[0] = 'P';
            b[1] = 'K';
            b[2] = 3;
            b[3] = 4;
        }
        long size = r.nextBoolean() ? b.length : r.nextLong();
        long offset = r.nextInt(4) == 0 ? r.nextInt(1 << 20) : 0;
        return ReleaseReader.Body.of(b, size, offset);
    }
}
