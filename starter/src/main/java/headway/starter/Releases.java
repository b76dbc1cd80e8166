package headway.starter;

import headway.index.NzbWriter;
import headway.store.Release;
import headway.store.ReleaseQueries;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.text.Normalizer;
import java.util.List;
import java.util.regex.Pattern;

/** Finding releases by name and writing their NZB files (the {@code nzb} command and the demo). */
public final class Releases {

    /** What a file name may not hold: anything but letters, marks and digits of any script, and {@code . _ -} and space. */
    private static final Pattern UNSAFE = Pattern.compile("[^\\p{L}\\p{M}\\p{N}._ -]");

    private Releases() {}

    /** The one release named {@code name} (optionally in {@code group}, by {@code poster}); bad input when none or several match. */
    static Release find(ReleaseQueries catalog, String name, String group, String poster) {
        List<Release> exact = catalog.search(name, 1000).stream()
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
            StringBuilder sb = new StringBuilder("release name '" + name + "' is ambiguous; give --group or --poster:");
            for (Release r : exact) {
                sb.append("\n  ").append(r.group()).append("  ").append(r.poster());
            }
            throw CliException.badInput(sb.toString());
        }
        return exact.get(0);
    }

    /** Writes the release's NZB to {@code file} whole (a temporary file renamed into place). */
    public static Path writeNzb(ReleaseQueries catalog, Release release, Path file) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, ".nzb-", ".tmp");
            try (OutputStream out = Files.newOutputStream(tmp)) {
                NzbWriter.write(out, release.name(), catalog.binaries(release));
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw CliException.badInput("cannot write " + file + ": " + e.getMessage() + " (give -o a writable path)");
        }
    }

    /**
     * A file name for a release: its name with anything unsafe replaced by {@code _}, plus .nzb.
     * Letters and digits of any script are kept (NFC), so {@code Über} stays {@code Über}.
     */
    public static String fileName(Release release) {
        return fileName(release.name());
    }

    static String fileName(String releaseName) {
        String name = Normalizer.normalize(releaseName, Normalizer.Form.NFC);
        return UNSAFE.matcher(name).replaceAll("_") + ".nzb";
    }
}
