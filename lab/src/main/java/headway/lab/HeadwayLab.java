package headway.lab;

import headway.starter.Headway;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import picocli.CommandLine;

/**
 * The lab jar's {@code headway}: every command of the deployment's CLI plus {@code demo},
 * {@code bench} and {@code chaos}, which run on embedded servers (PostgreSQL, the news simulator,
 * Temporal) that nothing a deployment runs carries. {@code bin/headway demo|bench|chaos} runs it.
 */
public final class HeadwayLab {

    private HeadwayLab() {}

    public static void main(String[] args) {
        System.exit(run(
                args,
                System.getenv(),
                new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true),
                new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true)));
    }

    /** Runs the lab CLI with {@code environment} and the given streams; returns its exit code (tests call this). */
    public static int run(String[] args, Map<String, String> environment, PrintWriter out, PrintWriter err) {
        CommandLine cli =
                Headway.commandLine(environment, out, err, new DemoCommand(), new BenchCommand(), new ChaosCommand());
        cli.getCommandSpec().usageMessage().footerHeading("").footer(new String[0]);
        return cli.execute(args);
    }
}
