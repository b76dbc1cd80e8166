package headway.starter;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;

/**
 * {@code headway bench <name>}: benchmarks that print their figures, the last line
 * {@code <name>: key=value ...} for scripts. Everything runs embedded and on loopback.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Run a benchmark and print its figures.",
        subcommands = {BenchCommand.Throughput.class, BenchCommand.Overhead.class})
final class BenchCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "name a benchmark: throughput, overhead, scale or takeover");
    }

    @Command(name = "throughput", mixinStandardHelpOptions = true,
            description = "Headers/s end to end beside the raw fetch and raw catalog write rates, measured in one run.")
    static final class Throughput implements Runnable {
        @Spec
        CommandSpec spec;
        @Option(names = "--groups", defaultValue = "4", description = "groups indexed in parallel (default 4)")
        int groups;
        @Option(names = "--articles", defaultValue = "250000", description = "articles per group (default 250000)")
        long articles;
        @Option(names = "--in-process-temporal", description = "use the in-process Temporal test server")
        boolean inProcess;

        @Override
        public void run() {
            if (groups < 1 || groups > 64) {
                throw CliException.badInput("--groups must be between 1 and 64, was " + groups);
            }
            PrintWriter out = spec.commandLine().getOut();
            try {
                ThroughputBench.Result r = new ThroughputBench(groups, articles, inProcess, out).run();
                out.printf("throughput: end_to_end=%.0f raw_fetch=%.0f raw_write=%.0f ratio=%.2f%n",
                        r.endToEnd(), r.rawFetch(), r.rawWrite(), r.ratio());
            } catch (Exception e) {
                throw new CliException(Exit.FAILED, "benchmark failed: " + e, e);
            }
        }
    }

    @Command(name = "overhead", mixinStandardHelpOptions = true,
            description = "Temporal's overhead per range at the default range size, from the workflow history.")
    static final class Overhead implements Runnable {
        @Spec
        CommandSpec spec;
        @Option(names = "--range-size", defaultValue = "100000", description = "articles per range (default 100000, HEADWAY_RANGE_SIZE's default)")
        long rangeSize;
        @Option(names = "--ranges", defaultValue = "20", description = "ranges to index (default 20)")
        int ranges;
        @Option(names = "--in-process-temporal", description = "use the in-process Temporal test server")
        boolean inProcess;

        @Override
        public void run() {
            if (ranges < 2 || rangeSize < 100) {
                throw CliException.badInput("need --ranges >= 2 and --range-size >= 100");
            }
            PrintWriter out = spec.commandLine().getOut();
            try {
                OverheadBench.Result r = new OverheadBench(rangeSize, ranges, inProcess, out).run();
                out.printf("overhead: per range (median of %d): index %.1f ms, nextRange %.1f ms, dispatch %.1f ms%n",
                        r.ranges(), r.rangeMs(), r.nextRangeMs(), r.dispatchMs());
                out.printf("overhead: range_ms=%.1f temporal_ms=%.1f ratio=%.3f%n", r.rangeMs(), r.temporalMs(), r.ratio());
            } catch (Exception e) {
                throw new CliException(Exit.FAILED, "benchmark failed: " + e, e);
            }
        }
    }
}
