package headway.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The catalogue is the one place a setting's default is written: docs/configuration.md's table, the Compose
 * file and the logging configuration are checked against it, and the reader applies its defaults
 * and ranges.
 */
class SettingTest {

    /** Variables docker/compose.yaml has of its own (not settings of a headway process), which may carry a default there. */
    private static final Set<String> COMPOSE_OWN =
            Set.of("HEADWAY_GROUPS", "HEADWAY_JAVA_OPTS", "HEADWAY_UI_PORT", "HEADWAY_API_PORT");

    /** A news server Compose users must name: a placeholder, not a second default. */
    private static final Set<String> COMPOSE_PLACEHOLDERS = Set.of("HEADWAY_NNTP_HOST");

    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

    @Test
    void configurationTableIsTheCatalogue() throws IOException {
        String page = Files.readString(ROOT.resolve("docs").resolve("configuration.md"));
        int start = page.indexOf("| variable | meaning | default |");
        assertThat(start).as("docs/configuration.md has a configuration table").isNotNegative();
        int end = page.indexOf("\n\n", start);
        assertThat(page.substring(start, end + 1))
                .as("docs/configuration.md's table; Setting.markdownTable() prints the one to paste")
                .isEqualTo(Setting.markdownTable());
    }

    @Test
    void composePassesSettingsThroughWithoutDefaultsOfItsOwn() throws IOException {
        String compose = Files.readString(ROOT.resolve("docker").resolve("compose.yaml"));
        Matcher line = Pattern.compile("(?m)^\\s+(HEADWAY_[A-Z_]+): (.*)$").matcher(compose);
        int settings = 0;
        while (line.find()) {
            String key = line.group(1);
            String value = line.group(2).strip();
            if (COMPOSE_OWN.contains(key)) {
                continue;
            }
            Setting setting = settingOf(key);
            assertThat(setting)
                    .as(key + " in compose.yaml is a setting of the catalogue")
                    .isNotNull();
            settings++;
            Matcher passThrough = Pattern.compile("\\$\\{" + key + ":-(.*)}").matcher(value);
            if (passThrough.matches()) {
                if (!COMPOSE_PLACEHOLDERS.contains(key)) {
                    assertThat(passThrough.group(1))
                            .as(key + " in compose.yaml: leave the default empty, the catalogue's applies")
                            .isEmpty();
                }
            } else {
                assertThat(value)
                        .as(key + " in compose.yaml repeats the catalogue's default: leave it out")
                        .isNotEqualTo(setting.defaultValue());
            }
        }
        assertThat(settings).isGreaterThan(5);
    }

    @Test
    void logbackReadsTheCatalogueDefaultLogLevel() throws IOException {
        String logback = Files.readString(ROOT.resolve("worker/src/main/resources/logback.xml"));
        assertThat(logback).contains("${HEADWAY_LOG_LEVEL:-" + Setting.LOG_LEVEL.defaultValue() + "}");
    }

    @Test
    void everyDefaultParsesAndLiesInItsRange() {
        for (Setting s : Setting.values()) {
            assertThat(s.key()).matches("HEADWAY_[A-Z_]+");
            if (s.defaultValue() == null) {
                continue;
            }
            switch (s.type()) {
                case INTEGER -> assertThat(s.check(s.intDefault())).isEqualTo(s.intDefault());
                case LONG -> assertThat(s.check(s.longDefault())).isEqualTo(s.longDefault());
                case DURATION -> assertThat(s.durationDefault()).isGreaterThanOrEqualTo(s.minDuration());
                case BOOLEAN -> assertThat(s.defaultValue()).isIn("true", "false");
                case TEXT -> assertThat(s.defaultValue()).isNotBlank();
            }
        }
    }

    @Test
    void readerAppliesTheCatalogueDefaultsAndRanges() {
        Settings unset = new Settings(Map.of(Setting.MAX_GROUPS.key(), " "));
        assertThat(unset.integer(Setting.MAX_GROUPS)).isEqualTo(8);
        assertThat(unset.duration(Setting.LEASE_TTL)).isEqualTo(Duration.ofSeconds(30));
        assertThat(unset.string(Setting.NODE_ID)).isNull();
        assertThatThrownBy(() -> new Settings(Map.of(Setting.MAX_GROUPS.key(), "0")).integer(Setting.MAX_GROUPS))
                .hasMessage("HEADWAY_MAX_GROUPS=0 is out of range: use 1..10000");
        assertThatThrownBy(() -> new Settings(Map.of(Setting.BATCH.key(), "many")).integer(Setting.BATCH))
                .hasMessage("HEADWAY_BATCH=many is not a whole number (between 1 and 1000000)");
    }

    @Test
    void bodiesLeaveHeaderIndexingAConnection() {
        assertThat(new Settings(Map.of()).inspectConnections()).isEqualTo(1);
        assertThat(new Settings(Map.of(Setting.NNTP_CONNECTIONS.key(), "1")).inspectConnections())
                .as("unset with one NNTP connection: no bodies rather than no start")
                .isZero();
        assertThat(new Settings(Map.of(Setting.NNTP_CONNECTIONS.key(), "8", Setting.INSPECT_CONNECTIONS.key(), "7"))
                        .inspectConnections())
                .isEqualTo(7);
        assertThat(new Settings(Map.of(Setting.NNTP_CONNECTIONS.key(), "1", Setting.INSPECT_CONNECTIONS.key(), "0"))
                        .inspectConnections())
                .isZero();
        assertThatThrownBy(() -> new Settings(
                                Map.of(Setting.NNTP_CONNECTIONS.key(), "2", Setting.INSPECT_CONNECTIONS.key(), "2"))
                        .inspectConnections())
                .hasMessage("HEADWAY_INSPECT_CONNECTIONS=2 leaves header indexing no connection of"
                        + " HEADWAY_NNTP_CONNECTIONS=2: set HEADWAY_INSPECT_CONNECTIONS to at most 1 (0 reads no"
                        + " bodies) or raise HEADWAY_NNTP_CONNECTIONS to at least 3");
        assertThatThrownBy(() -> new Settings(Map.of(Setting.INSPECT_CONNECTIONS.key(), "64")).inspectConnections())
                .hasMessage("HEADWAY_INSPECT_CONNECTIONS=64 is out of range: use 0..63");
        assertThat(new Settings(Map.of()).integer(Setting.INSPECT_ARTICLES)).isEqualTo(3);
        assertThatThrownBy(() ->
                        new Settings(Map.of(Setting.INSPECT_ARTICLES.key(), "0")).integer(Setting.INSPECT_ARTICLES))
                .hasMessage("HEADWAY_INSPECT_ARTICLES=0 is out of range: use 1..1000");
    }

    @Test
    void helpNamesTheVariableAndItsDefault() {
        assertThat(Setting.MAX_GROUPS.help())
                .isEqualTo("groups one worker holds at once (env HEADWAY_MAX_GROUPS, default 8)");
        assertThat(Setting.DB_URL.help())
                .isEqualTo("PostgreSQL JDBC URL (required except for `demo`) (env HEADWAY_DB_URL)");
        assertThat(List.of(Setting.values()))
                .allSatisfy(
                        s -> assertThat(Setting.helpBundle().getString(s.key())).isEqualTo(s.help()));
    }

    private static Setting settingOf(String key) {
        return Arrays.stream(Setting.values())
                .filter(s -> s.key().equals(key))
                .findFirst()
                .orElse(null);
    }
}
