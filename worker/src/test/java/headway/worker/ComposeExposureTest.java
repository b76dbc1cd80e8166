package headway.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docker/compose.yaml exposes nothing by default: ports on 127.0.0.1, no sample password, no anonymous Grafana. */
class ComposeExposureTest {

    private static final Path COMPOSE = Path.of(System.getProperty("user.dir"))
            .getParent()
            .resolve("docker")
            .resolve("compose.yaml");

    @Test
    void everyPublishedPortListensOnThePublishAddressWhichDefaultsToLoopback() throws IOException {
        String compose = Files.readString(COMPOSE);
        Matcher ports = Pattern.compile("(?m)^\\s+ports:\\n((?:\\s+- .*\\n)+)").matcher(compose);
        List<String> published = new ArrayList<>();
        while (ports.find()) {
            for (String line : ports.group(1).split("\n")) {
                published.add(line.strip().substring(2).replace("\"", ""));
            }
        }
        assertThat(published)
                .hasSizeGreaterThanOrEqualTo(4)
                .allMatch(
                        p -> p.startsWith("${HEADWAY_PUBLISH_ADDR:-127.0.0.1}:"), "published on 127.0.0.1 by default");
    }

    @Test
    void headwayAndTemporalLogInAsRolesOfTheirOwnWithPasswordsOfTheirOwn() throws IOException {
        String compose = Files.readString(COMPOSE);
        assertThat(compose)
                .contains("HEADWAY_DB_USER: headway\n")
                .contains("HEADWAY_DB_PASSWORD: ${HEADWAY_DB_PASSWORD:?")
                .contains("POSTGRES_USER: temporal\n")
                .contains("POSTGRES_PWD: ${TEMPORAL_DB_PASSWORD:?")
                .contains("SKIP_DB_CREATE: \"true\"")
                .contains("- ./postgres-init:/docker-entrypoint-initdb.d:ro");
        Matcher superuser = Pattern.compile("(?m)^\\s+POSTGRES_USER: (\\S+)$").matcher(compose);
        List<String> users = new ArrayList<>();
        while (superuser.find()) {
            users.add(superuser.group(1));
        }
        assertThat(users).as("the superuser, then Temporal's role").containsExactly("postgres", "temporal");
        assertThat(compose)
                .as("no service logs in with the superuser's password")
                .doesNotContainPattern("(?m)^\\s+(HEADWAY_DB_PASSWORD|POSTGRES_PWD): \\$\\{POSTGRES_PASSWORD");
        String init = Files.readString(COMPOSE.resolveSibling("postgres-init").resolve("10-roles.sh"));
        assertThat(init)
                .contains("create role headway login nosuperuser")
                .contains("create role temporal login nosuperuser")
                .contains("create database headway owner headway")
                .contains("create database temporal owner temporal");
        String env = Files.readString(COMPOSE.resolveSibling("env.example"));
        assertThat(env).contains("\nHEADWAY_DB_PASSWORD=\n", "\nTEMPORAL_DB_PASSWORD=\n", "\nPOSTGRES_PASSWORD=\n");
    }

    @Test
    void passwordsHaveNoSampleValueAndGrafanaNoAnonymousAccess() throws IOException {
        String compose = Files.readString(COMPOSE);
        Matcher passwords =
                Pattern.compile("(?m)^\\s+[A-Z_]*(PASSWORD|PWD): (.*)$").matcher(compose);
        int n = 0;
        while (passwords.find()) {
            n++;
            String value = passwords.group(2);
            if (passwords.group(0).contains("NNTP_PASSWORD")) {
                continue;
            }
            assertThat(value).as(passwords.group(0)).matches("\\$\\{[A-Z_]+:\\?.+}");
        }
        assertThat(n).isGreaterThanOrEqualTo(4);
        assertThat(compose).doesNotContain("GF_AUTH_ANONYMOUS_ENABLED: \"true\"");
        assertThat(compose).contains("GF_AUTH_ANONYMOUS_ENABLED: \"false\"");
    }
}
