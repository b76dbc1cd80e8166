package headway.starter;

import headway.store.Release;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import javax.sql.DataSource;

/**
 * What the demo did: headers indexed (the groups' lease counters), binaries and releases in the
 * catalog (binaries still being assembled stay in the windows, as they would for a live group),
 * and the NZB of its most complete release.
 */
record DemoSummary(long articles, long binaries, long releases, Path nzb) {

    private static final String COUNTS = """
            select (select coalesce(sum(headers), 0) from group_leases),
                   (select count(*) from binaries),
                   (select count(*) from releases)
            """;

    static DemoSummary write(DataSource ds, Path outDir) {
        long articles;
        long binaries;
        long releases;
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(COUNTS)) {
            rs.next();
            articles = rs.getLong(1);
            binaries = rs.getLong(2);
            releases = rs.getLong(3);
        } catch (SQLException e) {
            throw new CliException(Exit.FAILED, "reading the demo catalog: " + e.getMessage(), e);
        }
        Path nzb = null;
        try {
            List<Release> all = new headway.store.CatalogStore().search(ds, "", 10_000);
            Release best = all.stream()
                    .max(Comparator.comparing(Release::complete)
                            .thenComparing(Release::filesComplete)
                            .thenComparing(Release::name))
                    .orElse(null);
            if (best != null) {
                nzb = Releases.writeNzb(ds, best, DemoCommand.ensureDir(outDir).resolve(Releases.fileName(best)));
            }
        } catch (SQLException e) {
            throw new CliException(Exit.FAILED, "reading the demo catalog: " + e.getMessage(), e);
        }
        return new DemoSummary(articles, binaries, releases, nzb);
    }
}
