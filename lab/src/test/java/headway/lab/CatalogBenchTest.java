package headway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import headway.index.CompletedBinary;
import headway.index.Segment;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code bench catalog} small: its last line's shape, and that every release's NZB the catalog
 * gives back is the NZB of the generated articles; the generator's releases add up to the headers
 * asked for, with message-ids of the posting tools' lengths. No figure is judged here.
 */
class CatalogBenchTest {

    @Test
    void aSmallCatalogGivesBackTheGeneratedNzbsAndPrintsTheLine() throws Exception {
        StringWriter printed = new StringWriter();
        CatalogBench.Result r = new CatalogBench(
                        new CatalogBench.Options(100_000, 40, 20_000, 20, "128MB", 7), new PrintWriter(printed, true))
                .run();
        String out = printed.toString();
        System.out.print(out);
        System.out.println(r.line());
        assertThat(r.headers()).as(out).isEqualTo(100_000);
        assertThat(r.checked()).as(out).isEqualTo(40);
        assertThat(r.purgedReleases()).as(out).isPositive();
        assertThat(r.line())
                .matches("catalog: headers=100000 releases=40 bytes_per_header=\\d+\\.\\d"
                        + " nzb_gz_bytes_per_header=\\d+\\.\\d ratio=\\d+\\.\\d\\d search_p50_ms=\\d+\\.\\d"
                        + " search_p95_ms=\\d+\\.\\d purge_month_s=\\d+\\.\\d\\d");
        assertThat(r.bytesPerHeader()).as(out).isGreaterThan(r.nzbGzBytesPerHeader());
    }

    @Test
    void releasesAddUpToTheHeadersWithTheToolsMessageIds() {
        for (long seed = 1; seed <= 3; seed++) {
            Random r = new Random(seed);
            int releases = 50 + r.nextInt(200);
            long headers = releases * (2L + r.nextInt(2_000));
            SyntheticReleases names = new SyntheticReleases(seed, releases, Instant.now());
            SyntheticPosts posts = new SyntheticPosts(seed);
            long remaining = headers;
            long idBytes = 0;
            int shortestId = Integer.MAX_VALUE;
            int longestId = 0;
            int smallest = Integer.MAX_VALUE;
            int largest = 0;
            Set<String> ids = new HashSet<>();
            for (int i = 0; i < releases; i++) {
                SyntheticReleases.Row row = names.next(i, releases);
                int n = CatalogBench.headers(row, remaining, releases - i, r);
                assertThat(n).isBetween(1, (int) Math.min(Integer.MAX_VALUE, remaining - (releases - i - 1)));
                remaining -= n;
                List<CompletedBinary> binaries = posts.release(row, n, 1_000);
                List<Segment> all = new ArrayList<>();
                for (CompletedBinary b : binaries) {
                    assertThat(b.totalParts()).isEqualTo(b.segments().size());
                    assertThat(b.fileTotal()).isEqualTo(binaries.size());
                    assertThat(b.subject()).contains("\"" + b.fileName() + "\" yEnc (1/" + b.totalParts() + ")");
                    assertThat(b.fresh()).isTrue();
                    all.addAll(b.segments());
                }
                assertThat(all).hasSize(n);
                assertThat(all.get(0).article()).isEqualTo(1_000);
                assertThat(all.get(n - 1).article()).isEqualTo(1_000 + n - 1);
                for (Segment s : all) {
                    shortestId = Math.min(shortestId, s.messageId().length());
                    longestId = Math.max(longestId, s.messageId().length());
                    smallest = Math.min(smallest, s.bytes());
                    largest = Math.max(largest, s.bytes());
                    idBytes += s.messageId().length();
                    ids.add(s.messageId());
                }
            }
            assertThat(shortestId).isEqualTo(36);
            assertThat(longestId).isEqualTo(64);
            assertThat(smallest).isPositive();
            assertThat(largest).isLessThan(800_000);
            assertThat(remaining).isZero();
            assertThat(ids).hasSize((int) headers);
            assertThat((double) idBytes / headers).isBetween(40.0, 60.0);
        }
    }
}
