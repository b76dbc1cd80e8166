package headway.nntp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AvailabilityTest {

    @Test
    void theSampleAsksOneSegmentPerStratumWithinTheBudget() {
        List<String> ids = ids(1000, "a");
        List<Integer> picks = Availability.sample(ids, 20);
        assertThat(picks).hasSize(20).doesNotHaveDuplicates();
        for (int i = 0; i < 20; i++) {
            assertThat(picks.get(i)).isBetween(i * 50, i * 50 + 49);
        }
        assertThat(Availability.sample(ids, 20))
                .as("the same segments each time")
                .isEqualTo(picks);
        assertThat(Availability.sample(ids(7, "b"), 20)).containsExactly(0, 1, 2, 3, 4, 5, 6);
        assertThat(Availability.sample(List.of(), 20)).isEmpty();
        assertThatThrownBy(() -> Availability.sample(ids, 0)).hasMessageContaining("budget must be at least 1");
    }

    /** The stated error: a contiguous hole of at least ceil(n/k) segments is always found, whatever n, k and place. */
    @Test
    void aContiguousHoleOfAStratumOrMoreIsAlwaysFound() {
        Random random = new Random(4_404);
        for (int round = 0; round < 20_000; round++) {
            int n = 1 + random.nextInt(5_000);
            int k = 1 + random.nextInt(60);
            int stratum = (n + Math.min(k, n) - 1) / Math.min(k, n);
            int length = Math.min(n, stratum + random.nextInt(Math.max(1, n - stratum + 1)));
            int at = random.nextInt(n - length + 1);
            List<Integer> picks = Availability.sample(ids(n, "r" + round), k);
            assertThat(picks.stream().anyMatch(p -> p >= at && p < at + length))
                    .as("n=%d k=%d hole %d+%d", n, k, at, length)
                    .isTrue();
        }
    }

    @Test
    void classesFollowTheMissingCountAndTheRecovery() {
        assertThat(Availability.classify(0, -1)).isEqualTo(Availability.Verdict.COMPLETE);
        assertThat(Availability.classify(5, 5)).isEqualTo(Availability.Verdict.REPAIRABLE);
        assertThat(Availability.classify(6, 5)).isEqualTo(Availability.Verdict.BROKEN);
        assertThat(Availability.classify(1, -1)).as("recovery not known").isEqualTo(Availability.Verdict.BROKEN);
    }

    /** Message-ids of any printable form hash to places inside their strata, one stratum apart at most. */
    @Test
    void anyMessageIdPicksInsideItsStratum() {
        Random random = new Random(44);
        for (int round = 0; round < 2_000; round++) {
            int n = 1 + random.nextInt(300);
            List<String> ids = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            while (ids.size() < n) {
                StringBuilder s = new StringBuilder("<");
                for (int i = random.nextInt(40); i >= 0; i--) {
                    s.append((char) ('!' + random.nextInt(94)));
                }
                String id = s.append('>').toString();
                if (seen.add(id)) {
                    ids.add(id);
                }
            }
            int k = 1 + random.nextInt(40);
            List<Integer> picks = Availability.sample(ids, k);
            int kk = Math.min(k, n);
            for (int i = 0; i < kk; i++) {
                assertThat(picks.get(i)).isBetween((int) ((long) i * n / kk), (int) ((long) (i + 1) * n / kk) - 1);
                if (i > 0) {
                    assertThat(picks.get(i) - picks.get(i - 1)).isLessThanOrEqualTo((n + kk - 1) / kk);
                }
            }
        }
    }

    private static List<String> ids(int n, String prefix) {
        List<String> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ids.add("<" + prefix + i + "@x.test>");
        }
        return ids;
    }
}
