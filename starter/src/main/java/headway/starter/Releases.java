package headway.starter;

import headway.catalog.Release;
import headway.catalog.ReleaseQueries;
import headway.index.NzbWriter;
import headway.web.NzbFileNames;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Finding releases by name and writing their NZB files (the {@code nzb} command and the demo).
 * A file is written whole or not at all: into a temporary file beside it, renamed over it, and the
 * temporary file removed on any failure. Only a regular file (or a new one) is replaced, because
 * a rename over {@code /dev/null} or over a symlink replaces the node itself.
 */
public final class Releases {

    private Releases() {}

    /**
     * The one release named {@code name} (optionally in {@code group}, by {@code poster}); bad input when none or
     * several match. Exact names first, so that a release is found however many newer names contain it.
     */
    static Release find(ReleaseQueries catalog, String name, String group, String poster) {
        List<Release> exact = catalog.named(name).stream()
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

    /** Writes the release's NZB to {@code file} whole; see {@link #checkTarget} for what {@code force} allows. */
    public static Path writeNzb(ReleaseQueries catalog, Release release, Path file, boolean force) {
        return write(file, force, out -> NzbWriter.write(out, release.displayName(), catalog.binaries(release)));
    }

    /** What writes a file's bytes. */
    @FunctionalInterface
    interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Writes {@code file} whole from {@code body}: a temporary file beside it, renamed into place, removed on failure. */
    static Path write(Path file, boolean force, Body body) {
        checkTarget(file, force);
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            tmp = Files.createTempFile(dir, ".nzb-", ".tmp");
            try (OutputStream out = Files.newOutputStream(tmp)) {
                body.writeTo(out);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            tmp = null;
            return file;
        } catch (IOException e) {
            throw CliException.badInput("cannot write " + file + ": " + e.getMessage() + " (give -o a writable path)");
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException e) {
                    System.err.println("headway: could not remove the temporary file " + tmp + ": " + e.getMessage());
                }
            }
        }
    }

    /**
     * Refuses a target that is a directory, or a symlink, device or other non-regular file unless
     * {@code force}; a directory is refused even then, because the NZB needs a file name.
     */
    static void checkTarget(Path file, boolean force) {
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
            throw CliException.badInput(
                    file + " is a directory: give -o a file path such as " + file.resolve("release.nzb"));
        }
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS) || force) {
            return;
        }
        if (Files.isSymbolicLink(file)) {
            throw CliException.badInput(file + " is a symbolic link; the NZB would replace the link, not write"
                    + " through it: give -o another path, or --force to replace the link");
        }
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw CliException.badInput(file + " is not a regular file (a device, socket or pipe): give -o a file"
                    + " path, or --force to replace it");
        }
    }

    /** A file name for a release, from its real name when inspection found one: see {@link #fileName(String)}. */
    public static String fileName(Release release) {
        return fileName(release.displayName());
    }

    /** A file name for a release name: {@link NzbFileNames#of}, the rule the API's downloads follow too. */
    static String fileName(String releaseName) {
        return NzbFileNames.of(releaseName);
    }
}
