package headway.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import headway.activity.NntpHeaderSource;
import headway.index.RuleSet;
import headway.index.SubjectMatch;
import headway.nntp.NntpPool;
import headway.nntp.OverviewSink;
import headway.overview.OverviewLine;
import headway.worker.HeadwayWorker;
import headway.worker.WorkerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** The catalog of a caught-up group against what the simulator serves: every accepted header once, nothing else. */
final class ServedCatalog {
    private ServedCatalog() {}

    /** Fails unless the group's catalog holds exactly the message ids the default rules accept from the server, once each. */
    static void assertCatalogIsWhatWasServed(Cluster cluster, String group) {
        Map<String, Long> cataloged = new HashMap<>();
        for (Map<String, Object> row : cluster.rows(
                "select m from binaries, unnest(message_id_array(message_ids)) m where group_name = ?", group)) {
            cataloged.merge((String) row.get("m"), 1L, Long::sum);
        }
        RuleSet rules = RuleSet.defaults(0);
        Set<String> expected = new HashSet<>();
        try (NntpPool pool = new NntpPool(HeadwayWorker.nntpConfig(WorkerConfig.fromEnvNntp(cluster.env())))) {
            new NntpHeaderSource(pool).fetch(group, 1, cluster.simulator().high(group), new OverviewSink() {
                @Override
                public void header(OverviewLine line) {
                    if (rules.match(group, line.from(), line.subject()) instanceof SubjectMatch.Matched) {
                        expected.add(bare(line.messageId()));
                    }
                }

                @Override
                public void malformed(long article, String reason) {}

                @Override
                public void missing(long fromInclusive, long toInclusive) {}
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long twice = cataloged.values().stream().filter(n -> n > 1).count();
        Set<String> lost = new HashSet<>(expected);
        lost.removeAll(cataloged.keySet());
        Set<String> extra = new HashSet<>(cataloged.keySet());
        extra.removeAll(expected);
        System.out.printf(
                "catalog %s: segments=%d expected=%d twice=%d lost=%d extra=%d%n",
                group, cataloged.size(), expected.size(), twice, lost.size(), extra.size());
        assertThat(expected).as("the server served accepted headers").isNotEmpty();
        assertThat(twice).as(group + ": message ids cataloged more than once").isZero();
        assertThat(lost).as(group + ": accepted articles not in the catalog").isEmpty();
        assertThat(extra).as(group + ": cataloged ids the server never served").isEmpty();
    }

    private static String bare(String messageId) {
        String id = messageId.strip();
        return id.startsWith("<") && id.endsWith(">") ? id.substring(1, id.length() - 1) : id;
    }
}
