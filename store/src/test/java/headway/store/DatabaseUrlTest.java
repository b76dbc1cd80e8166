package headway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A password in the database URL never reaches a message: a URL with {@code user:password@} is
 * refused before the driver sees it (the driver takes it for a host name and echoes it, and logs
 * it through java.util.logging), and {@link Database#redact} masks both forms wherever a message
 * repeats them.
 */
class DatabaseUrlTest {

    private static final String SECRET = "s3cret-pw";

    @Test
    void aUserAndPasswordBeforeTheHostAreRefusedNamingTheSettings() {
        for (String url : new String[] {
            "jdbc:postgresql://headway:" + SECRET + "@db:5432/headway",
            "jdbc:postgresql://headway:" + SECRET + "@db/headway?ssl=true",
            "jdbc:postgresql://:" + SECRET + "@db/headway",
            "jdbc:postgresql://headway@db/headway"
        }) {
            assertThatThrownBy(() -> new Database.Settings(url, null, null, 2, Duration.ofSeconds(1)))
                    .as(url)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("HEADWAY_DB_USER")
                    .hasMessageContaining("HEADWAY_DB_PASSWORD")
                    .hasMessageNotContaining(SECRET);
        }
        new Database.Settings("jdbc:postgresql://db:5432/headway?options=a@b", null, null, 2, Duration.ofSeconds(1));
    }

    @Test
    void whatTheDriverSaysOfSuchAUrlIsRedacted() {
        for (String url : new String[] {
            "jdbc:postgresql://headway:" + SECRET + "@127.0.0.1:1/headway",
            "jdbc:postgresql://headway:" + SECRET + "@db.invalid/headway",
            "jdbc:postgresql://127.0.0.1:1/headway?user=x&password=" + SECRET
        }) {
            StringBuilder said = new StringBuilder();
            try {
                DriverManager.getConnection(url).close();
            } catch (SQLException e) {
                for (Throwable t = e; t != null; t = t.getCause()) {
                    said.append(t).append('\n');
                }
            }
            assertThat(said).as(url).isNotEmpty();
            assertThat(Database.redact(said.toString())).as(said.toString()).doesNotContain(SECRET);
        }
    }

    @Test
    void redactMasksBothFormsAndLeavesTheRest() {
        assertThat(Database.redact("java.net.UnknownHostException: headway:" + SECRET + "@127.0.0.1"))
                .isEqualTo("java.net.UnknownHostException: headway:***@127.0.0.1");
        assertThat(Database.redact("Unable to parse URL jdbc:postgresql://h:" + SECRET + "@db/x"))
                .isEqualTo("Unable to parse URL jdbc:postgresql://h:***@db/x");
        assertThat(Database.redact("jdbc:postgresql://db/x?user=u&password=" + SECRET + "&ssl=true"))
                .isEqualTo("jdbc:postgresql://db/x?user=u&password=***&ssl=true");
        assertThat(Database.redact("Connection to 127.0.0.1:5432 refused"))
                .isEqualTo("Connection to 127.0.0.1:5432 refused");
    }
}
