package headway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The deep index in the default deployment, end to end: a worker on the Temporal dev server with
 * the default schedules names every release of the mixed set (real par2 and 7z) from inside its
 * files or its subject, none wrong, flags every passworded one and reads at most 3 articles for the
 * median release. How soon a release carries its real name (seconds_to_named, target p50 <= 60) is a
 * speed figure: the test prints it, and {@code bin/headway bench inspect} is where the target is
 * judged, never a timed assertion in a suite that shares the machine.
 */
class InspectBenchTest {

    @Test
    void theMixedSetIsNamedWithTheDefaultSchedules() throws Exception {
        StringWriter log = new StringWriter();
        InspectBench.Result r = new InspectBench(
                        Integer.getInteger("headway.inspect.each", 1),
                        41,
                        Duration.ofSeconds(1),
                        Duration.ofMinutes(6),
                        new PrintWriter(log, true))
                .run();
        System.out.println(r.line());
        assertThat(r.wrong()).as(r.line()).isZero();
        assertThat(r.named()).as(r.line()).isEqualTo(r.releases());
        assertThat(r.passwordedFound()).as(r.line()).isEqualTo(r.passworded());
        assertThat(r.articlesMedian()).as(r.line()).isLessThanOrEqualTo(3);
    }
}
