package headway.starter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import headway.catalog.CatalogStore;
import headway.catalog.InspectionLedger;
import headway.catalog.ReleaseEvidence;
import headway.category.CategoryRules;
import headway.index.CompletedBinary;
import headway.index.Segment;
import headway.store.TestDatabase;
import java.io.IOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code headway inspect RELEASE} shows the evidence that named a release and its inspection's
 * state, found by its token or its real name; {@code --gave-up} lists the releases given up on,
 * and {@code status} counts them and says how to list them.
 */
class InspectCommandTest {

    private static final String G = "alt.binaries.cli.inspect";
    private static final String POSTER = "p <p@example.com>";
    private static final String TOKEN = "4be44ff48d9cda8a02758cbf231d397e";
    private static final String STUCK = "0f25c1d2a3b4c5d6e7f8091a2b3c4d5e";

    @Test
    void showsTheEvidenceThatNamedAReleaseAndCountsTheOnesGivenUp() throws Exception {
        String url = TestDatabase.emptyDatabase("cli_inspect");
        Cli cli = Cli.of(url, "127.0.0.1:" + closedPort());
        assertThat(cli.run("groups", "add", G).code()).isZero();
        try (HikariDataSource ds = TestDatabase.pool(url, 2)) {
            try (Connection c = ds.getConnection()) {
                new CatalogStore().writeBinaries(c, List.of(binary(TOKEN, 1), binary(STUCK, 2)));
                ReleaseEvidence.record(
                        c,
                        G,
                        POSTER,
                        TOKEN,
                        new ReleaseEvidence.Evidence(
                                "Blue.Planet.2019.1080p.WEB-DL.x264-GRP", "NFO+PAR2", 1, "tt0058935"),
                        CategoryRules.defaults(),
                        0);
                InspectionLedger.attempted(c, G, POSTER, TOKEN, InspectionLedger.State.NAMED, null, null);
                InspectionLedger.attempted(
                        c, G, POSTER, STUCK, InspectionLedger.State.GAVE_UP, "NO_SUCH_ARTICLE: gone", null);
            }
        }
        Cli.Result byToken = cli.run("inspect", TOKEN);
        assertThat(byToken.code()).as(byToken.toString()).isZero();
        assertThat(byToken.out())
                .contains("real name  Blue.Planet.2019.1080p.WEB-DL.x264-GRP\n")
                .contains("named by   NFO+PAR2\n")
                .contains("password   1 (passworded)\n")
                .contains("imdb       tt0058935\n")
                .contains("inspection named\n")
                .contains("attempts   1\n");
        assertThat(cli.run("inspect", "Blue.Planet.2019.1080p.WEB-DL.x264-GRP").out())
                .isEqualTo(byToken.out());

        Cli.Result gaveUp = cli.run("inspect", "--gave-up");
        assertThat(gaveUp.out()).contains("release    " + STUCK + "\n").contains("last error NO_SUCH_ARTICLE: gone\n");
        JsonNode doc = new ObjectMapper()
                .readTree(cli.run("inspect", "--gave-up", "--json").out());
        assertThat(doc.size()).isEqualTo(1);

        Cli.Result status = cli.run("status");
        assertThat(status.out())
                .contains("\ndeep index: 1 release given up on (list them with `headway inspect --gave-up`)\n");

        Cli.Result none = cli.run("inspect", "No.Such.Release");
        assertThat(none.code()).isEqualTo(Exit.BAD_INPUT);
        assertThat(none.err()).contains("no release named 'No.Such.Release'");
        assertThat(cli.run("inspect").code()).isEqualTo(Exit.BAD_INPUT);
        assertThat(cli.run("inspect", TOKEN, "--gave-up").code()).isEqualTo(Exit.BAD_INPUT);
    }

    private static CompletedBinary binary(String token, int article) {
        return new CompletedBinary(
                G,
                POSTER,
                token,
                1,
                token,
                1,
                "[1/1] - \"" + token + "\" yEnc (1/1)",
                Instant.parse("2026-12-01T10:00:00Z").plus(Duration.ofMinutes(article)),
                article,
                article,
                0,
                List.of(new Segment(1, 5000, token + "@example.com")),
                false);
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
