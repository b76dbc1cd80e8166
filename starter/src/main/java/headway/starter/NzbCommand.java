package headway.starter;

import headway.catalog.Release;
import headway.catalog.ReleaseQueries;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code headway nzb RELEASE}: writes the release's NZB 1.1 file, whole or not at all, and only
 * over a regular file unless {@code --force} (see {@link Releases#write}).
 */
@Command(name = "nzb", mixinStandardHelpOptions = true, description = "Write the NZB file of a release.")
final class NzbCommand implements Runnable {
    @Mixin
    Connections connections;

    @Spec
    CommandSpec spec;

    @Option(names = "--group", description = "the release's group, when the name is in several")
    String group;

    @Option(names = "--poster", description = "the release's poster, when the name is in a group several times")
    String poster;

    @Option(
            names = {"-o", "--output"},
            description = "the file to write (default <release>.nzb in the current directory)")
    Path output;

    @Option(
            names = "--force",
            description = "replace what -o names even when it is a symbolic link, a device or another non-regular file")
    boolean force;

    @Parameters(paramLabel = "RELEASE", description = "the release name, as `headway search` shows it")
    String name;

    @Override
    public void run() {
        if (output != null) {
            Releases.checkTarget(output, force);
        }
        try (Connections open = connections) {
            ReleaseQueries catalog = connections.database().releases();
            Release release = Releases.find(catalog, name, group, poster);
            Path file = Releases.writeNzb(
                    catalog, release, output != null ? output : Path.of(Releases.fileName(release)), force);
            spec.commandLine()
                    .getOut()
                    .println("wrote " + file.toAbsolutePath() + " (" + release.filesPresent() + " files)");
        }
    }
}
