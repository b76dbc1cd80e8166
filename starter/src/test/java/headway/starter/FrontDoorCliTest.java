package headway.starter;

import static org.assertj.core.api.Assertions.assertThat;

import headway.store.TestDatabase;
import headway.web.ServeConfig;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code headway apikey add|list|revoke} and {@code headway serve}: keys work against a served API, then stop working. */
class FrontDoorCliTest {

    private static final Pattern ADDED = Pattern.compile("apikey: name=sonarr key=([0-9a-f]{40})\n");

    @Test
    void aKeyAddedOnTheCommandLineOpensTheApiUntilRevoked() throws Exception {
        Cli cli = Cli.of(TestDatabase.emptyDatabase("frontdoor"), null);
        Cli.Result added = cli.run("apikey", "add", "sonarr", "--api-per-day", "100");
        assertThat(added.code()).as(added.toString()).isZero();
        Matcher m = ADDED.matcher(added.out());
        assertThat(m.matches()).as(added.out()).isTrue();
        String key = m.group(1);

        Cli.Result again = cli.run("apikey", "add", "sonarr");
        assertThat(again.code()).isEqualTo(Exit.BAD_INPUT);
        assertThat(again.err()).contains("exists already");
        assertThat(cli.run("apikey", "add", "bad name").code()).isEqualTo(Exit.BAD_INPUT);

        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        int served = port;
        Thread serve = new Thread(() -> cli.run("serve", "--port", Integer.toString(served)), "serve-test");
        serve.start();
        HttpClient http = HttpClient.newHttpClient();
        String api = "http://127.0.0.1:" + port + "/api?t=search&apikey=" + key;
        HttpResponse<String> r = null;
        for (int i = 0; i < 100 && r == null; i++) {
            try {
                r = http.send(HttpRequest.newBuilder(URI.create(api)).build(), HttpResponse.BodyHandlers.ofString());
            } catch (java.io.IOException notYet) {
                Thread.sleep(100);
            }
        }
        assertThat(r).isNotNull();
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);

        Cli.Result list = cli.run("apikey", "list");
        assertThat(list.out())
                .contains("sonarr")
                .contains("active")
                .contains("1/100")
                .doesNotContain(key);

        assertThat(cli.run("apikey", "revoke", "sonarr").out()).isEqualTo("apikey: revoked sonarr\n");
        HttpResponse<String> refused = http.send(
                HttpRequest.newBuilder(URI.create(api))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("code=\"101\"");
        assertThat(cli.run("apikey", "revoke", "nobody").code()).isEqualTo(Exit.BAD_INPUT);

        serve.interrupt();
        serve.join(10_000);
        assertThat(serve.isAlive()).isFalse();
    }

    @Test
    void serveNamesThePageOnlyWhenItServesIt() {
        assertThat(ServeCommand.started(new ServeConfig("127.0.0.1", 0, true, "headway"), 8080))
                .isEqualTo("serve: api=http://127.0.0.1:8080/api web=http://127.0.0.1:8080/ (SIGTERM or Ctrl-C stops)");
        assertThat(ServeCommand.started(new ServeConfig("127.0.0.1", 0, false, "headway"), 8080))
                .isEqualTo("serve: api=http://127.0.0.1:8080/api (SIGTERM or Ctrl-C stops)")
                .doesNotContain("web=");
    }

    @Test
    void aTakenPortIsBadInputNamingTheSetting() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Cli.Result r = Cli.of(TestDatabase.emptyDatabase("frontdoor"), null)
                    .run("serve", "--port", Integer.toString(taken.getLocalPort()));
            assertThat(r.code()).as(r.toString()).isEqualTo(Exit.BAD_INPUT);
            assertThat(r.err()).contains("HEADWAY_HTTP_PORT");
        }
    }

    @Test
    void aBadReadSettingIsBadInputNamingItAndNeverThePassword() {
        String secret = "s3cret-read-pw";
        String[][] cases = {
            {"HEADWAY_DB_READ_URL", "jdbc:mysql://replica/headway?password=" + secret, "HEADWAY_DB_READ_URL"},
            {"HEADWAY_DB_READ_URL", "jdbc:postgresql://headway:" + secret + "@replica/headway", "HEADWAY_DB_READ_URL"},
            {"HEADWAY_DB_READ_MAX_LAG", "500ms", "HEADWAY_DB_READ_MAX_LAG"},
            {"HEADWAY_DB_READ_TIMEOUT", "100ms", "HEADWAY_DB_READ_TIMEOUT"},
            {"HEADWAY_DB_READ_TIMEOUT", "400ms", "HEADWAY_HTTP_SEARCH_TIMEOUT"},
            {"HEADWAY_DB_READ_TIMEOUT", "soon", "HEADWAY_DB_READ_TIMEOUT"}
        };
        for (String[] c : cases) {
            Cli cli = Cli.of(TestDatabase.emptyDatabase("frontdoor"), null)
                    .env("HEADWAY_DB_READ_URL", "jdbc:postgresql://127.0.0.1:1/headway?password=" + secret)
                    .env(c[0], c[1]);
            Cli.Result r = cli.run("serve", "--port", "0");
            assertThat(r.code()).as(r.toString()).isEqualTo(Exit.BAD_INPUT);
            assertThat(r.err()).as(r.toString()).contains(c[2]).doesNotContain(secret);
            assertThat(r.out()).doesNotContain(secret);
        }
    }
}
