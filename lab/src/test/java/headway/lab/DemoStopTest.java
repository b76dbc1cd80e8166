package headway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code headway demo --serve} stopped as a terminal stops it (Ctrl-C: SIGINT to its whole process
 * group) and as timeout, systemd and container runtimes do (SIGTERM to the JVM alone), on the real
 * Temporal dev server. Either way it stops in the reverse order it started: the worker drains and
 * leaves the registry while Temporal and PostgreSQL still run, then they stop; its log has no
 * WARN or ERROR line and no stack trace, and neither the dev server nor PostgreSQL outlives it.
 */
class DemoStopTest {

    private static final Pattern DATABASE = Pattern.compile("demo: database (jdbc:postgresql://\\S+)");
    private static final Duration READY = Duration.ofMinutes(4);
    private static final Duration STOPPED = Duration.ofMinutes(1);

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void ctrlCToTheProcessGroupStopsTheDemoInReverseOrderWithoutAWarning() throws Exception {
        Demo demo = Demo.start(tmp);
        List<ProcessHandle> children = demo.awaitServing();
        signal("INT", "-" + demo.process.pid()); // the group: the JVM and whatever child shares it
        assertStoppedCleanly(demo, "SIGINT", 130, children);
    }

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void sigtermToTheJvmAloneStopsTheDemoInReverseOrderWithoutAWarning() throws Exception {
        Demo demo = Demo.start(tmp);
        List<ProcessHandle> children = demo.awaitServing();
        signal("TERM", Long.toString(demo.process.pid()));
        assertStoppedCleanly(demo, "SIGTERM", 143, children);
    }

    private static void assertStoppedCleanly(Demo demo, String signal, int exit, List<ProcessHandle> children)
            throws Exception {
        boolean ended = demo.process.waitFor(STOPPED.toMillis(), TimeUnit.MILLISECONDS);
        String log = demo.log();
        if (!ended) {
            demo.process.destroyForcibly();
        }
        assertThat(ended).as("stopped within " + STOPPED + ":\n" + log).isTrue();
        assertThat(demo.process.exitValue()).as(log).isEqualTo(exit);
        List<String> lines = log.lines().toList();
        assertThat(lines)
                .as("no warning, error or stack trace on a normal stop")
                .noneMatch(l -> l.contains(" WARN ")
                        || l.contains(" ERROR ")
                        || l.startsWith("\tat ")
                        || l.contains("Exception")
                        || l.startsWith("headway: "));
        int stopping = indexOf(lines, "demo: stopping (" + signal + ")");
        int left = indexOf(lines, "node demo-worker left the registry");
        int stopped = indexOf(lines, "demo: stopped");
        assertThat(stopping).as(log).isNotNegative();
        assertThat(left).as("the worker deregistered after the signal\n" + log).isGreaterThan(stopping);
        assertThat(stopped).as("and before the rig stopped\n" + log).isGreaterThan(left);
        assertThat(children).as("the dev server was a child of the demo").isNotEmpty();
        for (ProcessHandle child : children) {
            assertThat(child.isAlive())
                    .as("child " + child.pid() + " outlived the demo")
                    .isFalse();
        }
        assertThat(reachable(demo.database)).as("PostgreSQL stopped").isFalse();
    }

    /** The demo as bin/headway runs it, in a process group of its own as a terminal's job, logging to a file. */
    private static final class Demo {
        final Process process;
        final Path logFile;
        String database;

        private Demo(Process process, Path logFile) {
            this.process = process;
            this.logFile = logFile;
        }

        static Demo start(Path dir) throws IOException {
            Path log = dir.resolve("demo.log");
            List<String> cmd = new ArrayList<>(List.of(
                    // a job of its own with SIGINT and SIGTERM at their defaults, as a shell starts one in a terminal
                    // (a child of a background job would inherit SIGINT ignored)
                    "perl",
                    "-e",
                    "$SIG{INT} = $SIG{TERM} = 'DEFAULT'; setpgrp(0, 0); exec @ARGV or die \"exec: $!\"",
                    Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx512m",
                    "-cp",
                    System.getProperty("java.class.path")));
            var logback = DemoStopTest.class.getClassLoader().getResource("logback.xml");
            assertThat(logback)
                    .as("the worker's logback.xml, as the lab jar has it")
                    .isNotNull();
            cmd.add("-Dlogback.configurationFile=" + logback);
            cmd.addAll(List.of(
                    HeadwayLab.class.getName(),
                    "demo",
                    "--serve",
                    "--groups",
                    "1",
                    "--articles",
                    "2000",
                    "--range-size",
                    "1000",
                    "--out",
                    dir.resolve("out").toString()));
            ProcessBuilder pb =
                    new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().keySet().removeIf(k -> k.startsWith("HEADWAY_"));
            return new Demo(pb.start(), log);
        }

        /** Waits until the demo serves and its worker's node row is in the registry; returns its child processes. */
        List<ProcessHandle> awaitServing() throws Exception {
            long deadline = System.nanoTime() + READY.toNanos();
            while (!log().contains("demo: api=") || database == null || !registered(database)) {
                Matcher m = DATABASE.matcher(log());
                if (database == null && m.find()) {
                    database = m.group(1);
                }
                assertThat(process.isAlive())
                        .as("the demo exited early:\n" + log())
                        .isTrue();
                assertThat(System.nanoTime())
                        .as("serving within " + READY + ":\n" + log())
                        .isLessThan(deadline);
                Thread.sleep(200);
            }
            return process.descendants().toList();
        }

        String log() {
            try {
                return Files.exists(logFile) ? Files.readString(logFile, StandardCharsets.UTF_8) : "";
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static boolean registered(String url) {
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement s = c.prepareStatement("select count(*) from nodes where id = 'demo-worker'");
                ResultSet rs = s.executeQuery()) {
            return rs.next() && rs.getLong(1) == 1;
        } catch (SQLException e) {
            return false;
        }
    }

    private static boolean reachable(String url) {
        try (Connection c = DriverManager.getConnection(url)) {
            return c.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    private static int indexOf(List<String> lines, String part) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(part)) {
                return i;
            }
        }
        return -1;
    }

    private static void signal(String signal, String target) throws Exception {
        Process kill = new ProcessBuilder("kill", "-s", signal, "--", target)
                .redirectErrorStream(true)
                .start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue())
                .as(new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .isZero();
    }
}
