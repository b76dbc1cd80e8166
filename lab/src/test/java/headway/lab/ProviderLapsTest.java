package headway.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.activity.HeaderSource;
import headway.nntp.GroupInfo;
import headway.nntp.OverviewSink;
import headway.overview.OverviewLine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The provider benchmark's laps: a group of articles 101..200 read as if it went on for ever. */
class ProviderLapsTest {

    @Test
    void rangesMapOntoTheGroupAndSplitWhereTheLapWraps() {
        ProviderBench.Laps laps = new ProviderBench.Laps(null, 101, 100);
        assertThat(laps.parts(101, 150)).containsExactly(new long[] {101, 150});
        assertThat(laps.parts(301, 400)).containsExactly(new long[] {101, 200});
        assertThat(laps.parts(181, 220)).containsExactly(new long[] {181, 200}, new long[] {101, 120});
        assertThatThrownBy(() -> laps.parts(101, 201)).hasMessageContaining("longer than the group's 100");
    }

    @Test
    void aPipelineAsksForBothPartsOfAWrappingRangeAndReceivesThemInOrder() throws Exception {
        List<String> asked = new ArrayList<>();
        HeaderSource real = new HeaderSource() {
            @Override
            public void fetch(String group, long from, long to, OverviewSink sink) {
                asked.add(from + "-" + to);
                for (long a = from; a <= to; a++) {
                    sink.header(new OverviewLine(a, "s", "f", "", "<" + a + "@x>", "", 1, 1, ""));
                }
            }

            @Override
            public GroupInfo group(String group) {
                return new GroupInfo(100, 101, 200, group);
            }
        };
        List<Long> seen = new ArrayList<>();
        OverviewSink sink = new OverviewSink() {
            @Override
            public void header(OverviewLine line) {
                seen.add(line.article());
            }

            @Override
            public void malformed(long article, String reason) {}

            @Override
            public void missing(long fromInclusive, long toInclusive) {}
        };
        try (HeaderSource.Pipeline pipe = new ProviderBench.Laps(real, 101, 100).pipeline("g")) {
            pipe.send(191, 210);
            pipe.receive(191, 210, sink);
        }
        assertThat(asked).containsExactly("191-200", "101-110");
        assertThat(seen).hasSize(20).startsWith(191L).endsWith(110L);
    }
}
