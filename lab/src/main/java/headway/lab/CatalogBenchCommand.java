package headway.lab;

import headway.settings.Setting;
import headway.starter.CliException;
import headway.starter.Exit;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code headway bench catalog}: see {@link CatalogBench}. */
@Command(
        name = "catalog",
        mixinStandardHelpOptions = true,
        description = "Bytes per header of a catalog written through the worker's write path (realistic message-ids"
                + " and article sizes) against the gzip of the same releases' NZBs; search p50/p95 and the purge of"
                + " the oldest month on it.")
final class CatalogBenchCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = "--headers", defaultValue = "50000000", description = "headers written (default 50000000)")
    long headers;

    @Option(
            names = "--releases",
            description = "releases they are grouped into (default headers / 2500: about 1.8 GB a release)")
    Integer releases;

    @Option(names = "--batch", description = "headers per write transaction (default the indexer's batch)")
    Integer batch;

    @Option(names = "--queries", defaultValue = "500", description = "timed searches (default 500)")
    int queries;

    @Option(
            names = "--shared-buffers",
            defaultValue = "1GB",
            description = "PostgreSQL's shared_buffers for the run (default 1GB)")
    String sharedBuffers;

    @Option(names = "--seed", defaultValue = "43", description = "the generator's seed (default 43)")
    long seed;

    @Override
    public void run() {
        if (headers < 1_000 || headers > 2_000_000_000L) {
            throw CliException.badInput("--headers must be between 1000 and 2000000000, was " + headers);
        }
        int n = releases == null ? (int) Math.max(10, headers / 2_500) : releases;
        if (n < 10 || n > headers / 2 || n > 50_000_000) {
            throw CliException.badInput(
                    "--releases must be between 10 and the smaller of headers / 2 and 50000000, was " + n);
        }
        int b = batch == null ? Integer.parseInt(Setting.BATCH.defaultValue()) : batch;
        if (b < 100 || b > 1_000_000) {
            throw CliException.badInput("--batch must be between 100 and 1000000, was " + b);
        }
        if (queries < 10 || queries > 100_000) {
            throw CliException.badInput("--queries must be between 10 and 100000, was " + queries);
        }
        if (!sharedBuffers.matches("[0-9]{1,6}(kB|MB|GB)")) {
            throw CliException.badInput(
                    "--shared-buffers must be a size like 128MB or 1GB, was '" + sharedBuffers + "'");
        }
        PrintWriter out = spec.commandLine().getOut();
        CatalogBench.Result r;
        try {
            r = new CatalogBench(new CatalogBench.Options(headers, n, b, queries, sharedBuffers, seed), out).run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(Exit.FAILED, "benchmark interrupted", e);
        } catch (Exception e) {
            throw new CliException(Exit.FAILED, "benchmark failed: " + e, e);
        }
        out.println(r.line());
    }
}
