package headway.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import headway.lab.HeadwayLab;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The short chaos run CI does: a few kills, a freeze past the TTL, a PostgreSQL restart and NNTP
 * drops while groups are indexed and new articles arrive; nothing lost, nothing twice, no stale
 * write landed while the frozen holder's were refused, every group caught up. The full run is `bin/headway chaos`.
 */
@Isolated("its assertions measure time: it runs alone, not beside another test class")
class ChaosTest {

    @Test
    void aShortChaosRunLosesNothingAndWritesNothingTwice() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = HeadwayLab.run(
                new String[] {
                    "chaos", "--kills", "4", "--groups", "4", "--articles", "12000", "--every", "3s", "--settle", "2m"
                },
                System.getenv(),
                new PrintWriter(out, true),
                new PrintWriter(err, true));
        List<String> lines = out.toString().lines().toList();
        System.out.println(out);
        assertThat(exit).as(err.toString()).isZero();
        String last = lines.get(lines.size() - 1);
        assertThat(last)
                .matches(
                        "chaos: kills=4 freezes=1 db_restarts=1 nntp_drops=\\d+ articles=\\d+ lost=0 duplicated=0 stale_writes=0"
                                + " refused=[1-9]\\d*");
        assertThat(out.toString())
                .as("the frozen holder woke after a takeover and its writes were refused")
                .containsPattern(
                        "froze w\\d+ mid-range in \\S+ for [\\d.]+s \\(lease TTL PT5S\\); [1-9]\\d* of its groups taken"
                                + " meanwhile, [1-9]\\d* of its writes refused after it woke");
        long articles = Long.parseLong(last.replaceAll(".* articles=(\\d+) .*", "$1"));
        assertThat(articles).isGreaterThan(4 * 12_000 / 2);
        assertThat(out.toString()).contains("caught_up=true stuck_open=0");
        assertThat(lines)
                .filteredOn(l -> l.contains(" served=") && l.contains(" catalog="))
                .hasSize(4)
                .allSatisfy(l -> assertThat(l).contains("lost=0 duplicated=0 extra=0 checksum equal"));
        assertThat(lines)
                .filteredOn(l -> l.contains(" missing articles served="))
                .hasSize(4)
                .allSatisfy(l -> assertThat(l).matches(".* served=([1-9][0-9]*) recorded=\\1 twice=0 equal"));
    }
}
