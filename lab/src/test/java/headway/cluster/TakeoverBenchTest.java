package headway.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

@Isolated("its assertions measure time: it runs alone, not beside another test class")
class TakeoverBenchTest {

    @Test
    void killDistancesCoverTheSnapshotCadenceEvenlyInAShuffledOrder() {
        List<Long> distances = TakeoverBench.distances(10, 400_000);
        List<Long> evenly = List.of(
                20_000L, 60_000L, 100_000L, 140_000L, 180_000L, 220_000L, 260_000L, 300_000L, 340_000L, 380_000L);

        assertThat(distances).containsExactlyInAnyOrderElementsOf(evenly).isNotEqualTo(evenly);
        assertThat(TakeoverBench.distances(10, 400_000)).isEqualTo(distances);
    }
}
