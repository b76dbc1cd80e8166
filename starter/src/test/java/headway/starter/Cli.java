package headway.starter;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Runs the CLI in this JVM with an environment of the test's own and captures what it prints. */
final class Cli {
    private final Map<String, String> env = new HashMap<>();

    /** A CLI whose commands get {@code --db-url dbUrl} (when not null) and {@code --temporal target} (when not null). */
    static Cli of(String dbUrl, String temporalTarget) {
        Cli cli = new Cli();
        cli.env.put("HEADWAY_DB_USER", "postgres");
        cli.dbUrl = dbUrl;
        cli.temporal = temporalTarget;
        return cli;
    }

    private String dbUrl;
    private String temporal;

    Cli env(String name, String value) {
        env.put(name, value);
        return this;
    }

    /** What one run printed and returned. */
    record Result(int code, String out, String err) {
        List<String> lines() {
            return out.lines().toList();
        }

        String lastLine() {
            List<String> l = lines();
            return l.isEmpty() ? "" : l.get(l.size() - 1);
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    /** Runs {@code headway <args>} with the connection flags appended (picocli takes options after positionals). */
    Result run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        boolean connects = !(all.get(0).equals("rules")
                && (all.contains("defaults")
                        || all.contains("classify")
                        || all.contains("categories")
                        || all.contains("test")));
        if (connects && dbUrl != null && !all.contains("--db-url")) {
            all.addAll(List.of("--db-url", dbUrl));
        }
        if (connects && temporal != null && !all.contains("--temporal")) {
            all.addAll(List.of("--temporal", temporal));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Headway.run(all.toArray(String[]::new), env, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }
}
