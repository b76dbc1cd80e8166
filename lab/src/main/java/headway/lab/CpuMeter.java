package headway.lab;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * CPU seconds spent by this JVM (worker and news simulator), its child processes (the Temporal
 * dev server) and a local PostgreSQL server between two samples, so that a benchmark can show
 * where its machine went. Process accounting as the OS keeps it: a process that exits between
 * the samples is not counted, so sample before closing connection pools (PostgreSQL backends
 * live as long as their connections).
 */
final class CpuMeter {

    /** Cumulative CPU at one moment. */
    record Sample(long wallNanos, double jvm, double children, double postgres) {

        /** CPU seconds of everything measured (this JVM, its children, PostgreSQL) since {@code start}. */
        double cpuSince(Sample start) {
            return (jvm - start.jvm) + (children - start.children) + (postgres - start.postgres);
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
                    "%.1f s wall on %d cores; CPU s: this JVM %.1f, postgres %.1f, temporal server %.1f",
                    wall,
                    Runtime.getRuntime().availableProcessors(),
                    jvm - start.jvm,
                    postgres - start.postgres,
                    children - start.children);
        }
    }

    private CpuMeter() {}

    /** Samples now; {@code postgresPort} names the PostgreSQL server by the port its postmaster listens on. */
    static Sample sample(int postgresPort) {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        double jvm = os.getProcessCpuTime() / 1e9;
        double children = seconds(ProcessHandle.current().descendants());
        String portArg = "-p " + postgresPort + " ";
        double postgres = seconds(ProcessHandle.allProcesses()
                .filter(p -> p.info()
                        .commandLine()
                        .map(c -> c.contains("postgres") && c.contains(portArg))
                        .orElse(false))
                .flatMap(p -> Stream.concat(Stream.of(p), p.descendants())));
        return new Sample(System.nanoTime(), jvm, children, postgres);
    }

    private static double seconds(Stream<ProcessHandle> processes) {
        return processes
                .mapToDouble(
                        p -> p.info().totalCpuDuration().orElse(Duration.ZERO).toNanos() / 1e9)
                .sum();
    }
}
