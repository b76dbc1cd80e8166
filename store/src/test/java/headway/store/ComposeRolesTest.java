package headway.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * docker/postgres-init/10-roles.sh, the statements compose's PostgreSQL runs on a new volume, run
 * here on the embedded server as its superuser: headway and Temporal get roles of their own,
 * neither a superuser, each owning its databases; headway's migrations run as the role headway,
 * and neither role can connect to the other's databases.
 */
class ComposeRolesTest {

    private static final Path SCRIPT =
            Path.of(System.getProperty("user.dir")).getParent().resolve("docker/postgres-init/10-roles.sh");

    /** The script's SQL, one statement or {@code \connect} per entry, its psql variables bound to values. */
    private static List<String> statements() throws IOException {
        String script = Files.readString(SCRIPT);
        int start = script.indexOf("<<'SQL'\n");
        int end = script.indexOf("\nSQL\n", start);
        assertThat(start).as("the script feeds psql a here-document").isPositive();
        String sql = script.substring(start + 8, end + 1)
                .replace(":'headway_password'", "'headway-pw'")
                .replace(":'temporal_password'", "'temporal-pw'");
        List<String> out = new ArrayList<>();
        for (String line : sql.split("\n")) {
            if (!line.isBlank()) {
                out.add(line.strip().replaceAll(";$", ""));
            }
        }
        return out;
    }

    private static Connection as(String role, String database) throws SQLException {
        return DriverManager.getConnection(TestDatabase.server().jdbcUrl(database), role, role + "-pw");
    }

    @Test
    void eachServiceHasItsOwnRoleNoneASuperuserAndHeadwayMigratesAsItsOwn() throws Exception {
        String database = "postgres";
        for (String statement : statements()) {
            if (statement.startsWith("\\connect ")) {
                database = statement.substring(9).strip();
                continue;
            }
            try (Connection c =
                            DriverManager.getConnection(TestDatabase.server().jdbcUrl(database), "postgres", null);
                    Statement s = c.createStatement()) {
                s.execute(statement);
            }
        }
        try (Connection c = as("postgres", "postgres");
                Statement s = c.createStatement();
                var rs = s.executeQuery(
                        "select rolname, rolsuper, rolcreatedb, rolcreaterole from pg_roles where rolname in"
                                + " ('headway', 'temporal') order by rolname")) {
            List<String> roles = new ArrayList<>();
            while (rs.next()) {
                roles.add(rs.getString(1) + " super=" + rs.getBoolean(2) + " createdb=" + rs.getBoolean(3)
                        + " createrole=" + rs.getBoolean(4));
            }
            assertThat(roles)
                    .containsExactly(
                            "headway super=false createdb=false createrole=false",
                            "temporal super=false createdb=false createrole=false");
        }
        try (HikariDataSource headway = Database.pool(
                new Database.Settings(
                        TestDatabase.server().jdbcUrl("headway"), "headway", "headway-pw", 2, Duration.ofSeconds(10)),
                "roles-test")) {
            Database.migrate(headway);
            assertThat(TestDatabase.queryLong(headway, "select count(*) from api_keys"))
                    .isZero();
            assertThat(TestDatabase.queryString(headway, "select current_user")).isEqualTo("headway");
        }
        assertThatThrownBy(() -> as("headway", "temporal").close())
                .as("headway cannot reach Temporal's databases")
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("permission denied");
        assertThatThrownBy(() -> as("temporal", "headway").close())
                .as("nor Temporal headway's")
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("permission denied");
        try (Connection c = as("temporal", "temporal_visibility")) {
            assertThat(c.isValid(2)).isTrue();
        }
    }

    @AfterAll
    static void dropRoles() throws SQLException {
        try (Connection c = DriverManager.getConnection(TestDatabase.server().jdbcUrl("postgres"), "postgres", null);
                Statement s = c.createStatement()) {
            for (String db : List.of("headway", "temporal", "temporal_visibility")) {
                s.execute("drop database if exists " + db + " with (force)");
            }
            s.execute("drop role if exists headway");
            s.execute("drop role if exists temporal");
        }
    }
}
