package headway.lab;

import headway.catalog.Release;
import headway.catalog.ReleaseQueries;
import headway.coordination.ProgressQueries;
import headway.starter.CliException;
import headway.starter.Releases;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/**
 * What the demo did: headers indexed (the groups' lease counters), binaries and releases in the
 * catalog (binaries still being assembled stay in the windows, as they would for a live group),
 * and the NZB of its most complete release.
 */
record DemoSummary(long articles, long binaries, long releases, Path nzb) {

    static DemoSummary write(Rig rig, Path outDir) {
        ProgressQueries.Totals totals = rig.progress().totals();
        ReleaseQueries catalog = new ReleaseQueries(rig.dataSource());
        Release best = catalog.search("", 10_000).stream()
                .max(Comparator.comparing(Release::complete)
                        .thenComparing(Release::filesComplete)
                        .thenComparing(Release::name))
                .orElse(null);
        Path nzb = best == null
                ? null
                : Releases.writeNzb(catalog, best, ensureDir(outDir).resolve(Releases.fileName(best)), false);
        return new DemoSummary(totals.headers(), totals.binaries(), totals.releases(), nzb);
    }

    private static Path ensureDir(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw CliException.badInput(
                    "cannot create " + dir + ": " + e.getMessage() + " (give --out a writable directory)");
        }
    }
}
