package headway.starter;

import headway.index.CompletedBinary;
import headway.index.NzbWriter;
import headway.store.CatalogStore;
import headway.store.Release;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/** Finding releases by name and writing their NZB files. */
final class Releases {
    private static final CatalogStore catalog = new CatalogStore();

    private Releases() {}

    /** The one release named {@code name} (optionally in {@code group}, by {@code poster}); bad input when none or several match. */
    static Release find(DataSource ds, String name, String group, String poster) {
        try {
            List<Release> exact = catalog.search(ds, name, 1000).stream()
                    .filter(r -> r.name().equalsIgnoreCase(name))
                    .filter(r -> group == null || r.group().equals(group))
                    .filter(r -> poster == null || r.poster().equals(poster))
                    .toList();
            if (exact.isEmpty()) {
                throw CliException.badInput("no release named '" + name + "'" + (group == null ? "" : " in " + group)
                        + (poster == null ? "" : " by " + poster) + ": `headway search " + name
                        + "` lists similar ones");
            }
            if (exact.size() > 1) {
                StringBuilder sb =
                        new StringBuilder("release name '" + name + "' is ambiguous; give --group or --poster:");
                for (Release r : exact) {
                    sb.append("\n  ").append(r.group()).append("  ").append(r.poster());
                }
                throw CliException.badInput(sb.toString());
            }
            return exact.get(0);
        } catch (SQLException e) {
            throw new CliException(Exit.FAILED, "reading the catalog: " + e.getMessage(), e);
        }
    }

    /** Writes the release's NZB to {@code file} whole (a temporary file renamed into place). */
    static Path writeNzb(DataSource ds, Release release, Path file) {
        try {
            List<CompletedBinary> binaries = catalog.binaries(ds, release);
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, ".nzb-", ".tmp");
            try (OutputStream out = Files.newOutputStream(tmp)) {
                NzbWriter.write(out, release.name(), binaries);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw CliException.badInput("cannot write " + file + ": " + e.getMessage() + " (give -o a writable path)");
        } catch (SQLException e) {
            throw new CliException(Exit.FAILED, "reading the catalog: " + e.getMessage(), e);
        }
    }

    /** A file name for a release: its name with anything unsafe replaced, plus .nzb. */
    static String fileName(Release release) {
        return release.name().replaceAll("[^A-Za-z0-9._ -]", "_") + ".nzb";
    }
}
