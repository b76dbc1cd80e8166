package headway.lab;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU seconds spent by this JVM (worker and news simulator), its child processes (the Temporal
 * dev server) and a local PostgreSQL server between two samples, so that a benchmark can show
 * where its machine went. Process accounting as the OS keeps it: a process that exits between
 * the samples is not counted, so sample before closing connection pools (PostgreSQL backends
 * live as long as their connections); but PostgreSQL's backends and workers that exit (autovacuum
 * workers come and go every few seconds under a heavy write) are counted through the time the
 * postmaster reaped from its children, because leaving them out, or subtracting a worker alive
 * at the first sample and gone at the second, moved PostgreSQL's figure by a third from run to run.
 *
 * <p>The JVM's JIT compiler threads are measured apart and not counted: a benchmark of a few
 * seconds compiles code a worker running for days has long compiled (they took 12 % of the JVM's
 * CPU in the throughput benchmark's end-to-end phase, after its warm-up, and varied most from run
 * to run). A compiler thread that exits between the samples takes its time into the counted CPU.
 */
final class CpuMeter {

    /** Cumulative CPU at one moment. */
    record Sample(long wallNanos, double jvm, double children, double postgres, Map<Integer, ThreadTicks> threads) {

        /** CPU seconds of everything measured (this JVM but its JIT compilers, its children, PostgreSQL) since {@code start}. */
        double cpuSince(Sample start) {
            return (jvm - start.jvm) - jitSince(start) + (children - start.children) + (postgres - start.postgres);
        }

        /** CPU seconds of the JVM's JIT compiler threads alive now since {@code start} (or since they started). */
        double jitSince(Sample start) {
            return byThread(start).getOrDefault(COMPILERS, 0.0);
        }

        /**
         * This JVM's CPU seconds since {@code start} by thread family (the thread's name less its
         * digits, as Linux keeps it: 15 characters at most), largest first, for the threads alive
         * now; a thread that exited between the samples is missing.
         */
        Map<String, Double> byThread(Sample start) {
            Map<String, Double> out = new HashMap<>();
            for (Map.Entry<Integer, ThreadTicks> e : threads.entrySet()) {
                ThreadTicks then = start.threads.get(e.getKey());
                long ticks = e.getValue().ticks() - (then == null ? 0 : then.ticks());
                out.merge(e.getValue().family(), ticks / (double) CLOCK_TICKS, Double::sum);
            }
            return out.entrySet().stream()
                    .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                    .collect(LinkedHashMap::new, (m, e) -> m.put(e.getKey(), e.getValue()), Map::putAll);
        }

        /** {@link #byThread} in words: the families of at least 0.1 s. */
        String byThreadSince(Sample start) {
            StringBuilder out = new StringBuilder();
            byThread(start).forEach((family, seconds) -> {
                if (seconds >= 0.1) {
                    out.append(out.length() == 0 ? "" : ", ")
                            .append(String.format(java.util.Locale.ROOT, "%s %.1f", family, seconds));
                }
            });
            return out.length() == 0 ? "none of 0.1 s or more" : out.toString();
        }

        /** PostgreSQL's CPU seconds since {@code start}. */
        double postgresSince(Sample start) {
            return postgres - start.postgres;
        }

        /** What happened since {@code start}, in words and seconds. */
        String since(Sample start) {
            double wall = (wallNanos - start.wallNanos) / 1e9;
            return String.format(
                    java.util.Locale.ROOT,
                    "%.1f s wall on %d cores; CPU s: this JVM %.1f (and its JIT compilers %.1f, not counted),"
                            + " postgres %.1f, temporal server %.1f",
                    wall,
                    Runtime.getRuntime().availableProcessors(),
                    jvm - start.jvm - jitSince(start),
                    jitSince(start),
                    postgres - start.postgres,
                    children - start.children);
        }
    }

    /** Linux's USER_HZ, the unit of a thread's times in {@code /proc}: 100 on every architecture Java runs on here. */
    private static final int CLOCK_TICKS = 100;

    private CpuMeter() {}

    /** Samples now; {@code postgresPort} names the PostgreSQL server by the port its postmaster listens on. */
    static Sample sample(int postgresPort) {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        double jvm = os.getProcessCpuTime() / 1e9;
        double children = seconds(ProcessHandle.current().descendants());
        String portArg = "-p " + postgresPort + " ";
        List<ProcessHandle> postmasters = ProcessHandle.allProcesses()
                .filter(p -> p.info()
                        .commandLine()
                        .map(c -> c.contains("postgres") && c.contains(portArg))
                        .orElse(false))
                .toList();
        double postgres = seconds(postmasters.stream().flatMap(p -> Stream.concat(Stream.of(p), p.descendants())))
                + reapedChildrenSeconds(postmasters);
        return new Sample(System.nanoTime(), jvm, children, postgres, threads());
    }

    /** CPU seconds of the exited children that {@code postmasters} have reaped (cutime + cstime of each). */
    private static double reapedChildrenSeconds(List<ProcessHandle> postmasters) {
        long ticks = 0;
        for (ProcessHandle p : postmasters) {
            String stat;
            try {
                stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
            } catch (IOException gone) {
                continue; // not Linux, or the server stopped
            }
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            ticks += Long.parseLong(fields[13]) + Long.parseLong(fields[14]); // fields 16 and 17 of proc(5)
        }
        return ticks / (double) CLOCK_TICKS;
    }

    /** One of this JVM's threads: its family (see {@link Sample#byThread}) and its user and system ticks. */
    record ThreadTicks(String family, long ticks) {}

    /** The family of the JIT compiler threads ("C1/C2 CompilerThreadN"). */
    private static final String COMPILERS = "JIT compilers";

    /** This JVM's threads, by thread id. */
    private static Map<Integer, ThreadTicks> threads() {
        Map<Integer, ThreadTicks> out = new HashMap<>();
        Path threads = Path.of("/proc/self/task");
        if (!Files.isDirectory(threads)) {
            return out; // not Linux: the compilers' time stays in the JVM's
        }
        try (Stream<Path> tasks = Files.list(threads)) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException exited) {
                    continue;
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                String family = name.matches("C[12] CompilerThre.*")
                        ? COMPILERS
                        : name.replaceAll("[0-9]+", "N")
                                .replaceAll("[-#]N$|N$", "")
                                .strip();
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                out.put(
                        Integer.parseInt(task.getFileName().toString()),
                        new ThreadTicks(family, Long.parseLong(fields[11]) + Long.parseLong(fields[12])));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read this JVM's threads from /proc/self/task", e);
        }
        return out;
    }

    private static double seconds(Stream<ProcessHandle> processes) {
        return processes
                .mapToDouble(
                        p -> p.info().totalCpuDuration().orElse(Duration.ZERO).toNanos() / 1e9)
                .sum();
    }
}
