package headway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class AvailabilityBenchTest {

    @Test
    void everyReleaseIsClassedAsWhatWasTakenDownWithinTwentyStatsAtTheMedian() throws Exception {
        StringWriter text = new StringWriter();
        AvailabilityBench.Outcome o = new AvailabilityBench(1000, new PrintWriter(text)).run();
        assertThat(text.toString())
                .isEqualTo("availability: releases=9 checked=9 stat_per_release_median=20 agree=9\n");
        assertThat(o.agree()).isEqualTo(o.checked());
        assertThat(o.statPerReleaseMedian()).isLessThanOrEqualTo(20);
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertThat(AvailabilityBench.median(new int[] {20, 1020, 20, 1020})).isEqualTo(520);
        assertThat(AvailabilityBench.median(new int[] {1020, 20, 20})).isEqualTo(20);
    }
}
