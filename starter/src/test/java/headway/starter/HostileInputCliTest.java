package headway.starter;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import headway.rig.TemporalDevServer;
import headway.store.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input and unreachable services as a hostile or careless user gives them: each ends in one
 * line on stderr that names the setting or argument and the fix, with exit 2 (usage) or 3
 * (unreachable), never a stack trace, and never echoes a password.
 */
class HostileInputCliTest {

    private static TemporalDevServer temporal;

    @TempDir
    Path tmp;

    @BeforeAll
    static void servers() {
        temporal = DevServer.shared();
    }

    private static Cli cli() {
        return Cli.of(TestDatabase.emptyDatabase("hostile"), temporal.target());
    }

    /** Exit {@code code}, one line on stderr that contains each of {@code parts}, no stack trace. */
    private static void fails(Cli.Result r, int code, String... parts) {
        assertThat(r.code()).as(r.toString()).isEqualTo(code);
        assertThat(r.err()).as(r.toString()).startsWith("headway: ").doesNotContain("\tat ", "Exception");
        assertThat(r.err().strip().lines()).as(r.toString()).hasSize(1);
        assertThat(r.err()).as(r.toString()).contains(parts);
    }

    @Test
    void aNullGroupEntryInARuleFileIsBadInput() throws IOException {
        Path file = Files.writeString(tmp.resolve("rules.json"), "{\"groups\":[null]}");
        fails(cli().run("rules", "import", file.toString()), Exit.BAD_INPUT, "group entry #0 is null");
        Path rule =
                Files.writeString(tmp.resolve("rule.json"), "{\"groups\":[{\"pattern\":\"a.*\",\"rules\":[null]}]}");
        fails(cli().run("rules", "import", rule.toString()), Exit.BAD_INPUT, "rule #0 is null");
    }

    @Test
    void ruleSetsAreBoundedInSizeAndCount() throws IOException {
        StringBuilder big = new StringBuilder("{\"groups\":[{\"pattern\":\"alt.*\",\"rules\":[");
        for (int i = 0; i < 200_000; i++) {
            big.append(i == 0 ? "" : ",")
                    .append("{\"name\":\"r")
                    .append(i)
                    .append("\",\"regex\":\"(?<file>x")
                    .append(i)
                    .append(")\"}");
        }
        big.append("]}]}");
        Path huge = Files.writeString(tmp.resolve("huge.json"), big);
        fails(cli().run("rules", "import", huge.toString()), Exit.BAD_INPUT, "more than 1048576");

        StringBuilder many = new StringBuilder("{\"groups\":[{\"pattern\":\"alt.*\",\"subjectBlacklist\":[");
        for (int i = 0; i < 10_001; i++) {
            many.append(i == 0 ? "" : ",").append("\"x").append(i).append('"');
        }
        many.append("]}]}");
        Path count = Files.writeString(tmp.resolve("many.json"), many);
        fails(cli().run("rules", "import", count.toString()), Exit.BAD_INPUT, "more than 10000 rules");
    }

    @Test
    void anNntpUserWithoutAPasswordIsBadInput() {
        Cli cli = cli().env("HEADWAY_NNTP_USER", "me").env("HEADWAY_NNTP_HOST", "127.0.0.1");
        assertThat(cli.run("groups", "add", "alt.binaries.hostile").code()).isZero();
        fails(
                cli.run("plan", "alt.binaries.hostile"),
                Exit.BAD_INPUT,
                "HEADWAY_NNTP_USER is set but HEADWAY_NNTP_PASSWORD is not");
    }

    @Test
    void aNegativeConflictLimitIsBadInput() {
        fails(
                Cli.of("jdbc:postgresql://127.0.0.1:1/none", null).run("status", "--conflicts", "--limit", "-1"),
                Exit.BAD_INPUT,
                "--limit must be between 1 and 100000, was -1");
    }

    @Test
    void aDurationPastAnyBoundIsBadInput() {
        fails(
                cli().env("HEADWAY_LEASE_TTL", "9999999999999999h").run("status"),
                Exit.BAD_INPUT,
                "HEADWAY_LEASE_TTL=9999999999999999h is out of range");
        fails(
                cli().run("start", "--all", "--lease-ttl", "9999999999999999h"),
                Exit.BAD_INPUT,
                "--lease-ttl=9999999999999999h is out of range");
    }

    @Test
    void aBadDurationIsReportedBeforeTemporalOrTheDatabaseIsTried() {
        fails(
                Cli.of("jdbc:postgresql://127.0.0.1:1/none", "127.0.0.1:1").run("start", "--all", "--lease-ttl", "5x"),
                Exit.BAD_INPUT,
                "--lease-ttl=5x is not a duration");
    }

    @Test
    void aRefusedLoginNamesUserAndPasswordAndExitsThree() {
        fails(
                cli().env("HEADWAY_DB_USER", "nobody_here").run("groups", "list"),
                Exit.UNREACHABLE,
                "refused the login of user nobody_here",
                "HEADWAY_DB_USER and HEADWAY_DB_PASSWORD");
    }

    @Test
    void aPasswordInTheJdbcUrlIsNeverEchoed() {
        Cli.Result r = Cli.of("jdbc:postgresql://127.0.0.1:1/headway?user=me&password=sekret42", null)
                .run("groups", "list");
        fails(r, Exit.UNREACHABLE, "password=***");
        assertThat(r.err() + r.out()).doesNotContain("sekret42");
    }

    @Test
    void aPasswordBeforeTheHostIsRefusedAndNeverEchoed() {
        for (String command : new String[] {"groups", "serve"}) {
            Cli.Result r = Cli.of("jdbc:postgresql://headway:sekret42@127.0.0.1:1/headway", null)
                    .run(command.equals("groups") ? new String[] {"groups", "list"} : new String[] {"serve"});
            fails(r, Exit.BAD_INPUT, "HEADWAY_DB_USER", "HEADWAY_DB_PASSWORD");
            assertThat(r.err() + r.out()).as(command).doesNotContain("sekret42");
        }
    }

    @Test
    void serveNeverEchoesAPasswordOfTheUrl() {
        Cli.Result r = Cli.of("jdbc:postgresql://127.0.0.1:1/headway?user=me&password=sekret42", null)
                .run("serve", "--port", "0");
        fails(r, Exit.UNREACHABLE, "password=***");
        assertThat(r.err() + r.out()).doesNotContain("sekret42");
    }

    @Test
    void groupNamesAreBounded() {
        fails(cli().run("groups", "add", "a".repeat(5000)), Exit.BAD_INPUT, "too long", "at most 255");
        fails(cli().run("groups", "add", "alt.binaries.with space"), Exit.BAD_INPUT, "bad group name");
        fails(cli().run("groups", "add", "alt.binaries.\u0001ctl"), Exit.BAD_INPUT, "bad group name");
    }

    @Test
    void nzbRefusesADeviceBeforeConnecting() {
        fails(
                Cli.of("jdbc:postgresql://127.0.0.1:1/none", null).run("nzb", "Any.Release", "-o", "/dev/null"),
                Exit.BAD_INPUT,
                "/dev/null is not a regular file",
                "--force");
    }

    @Test
    void nzbFindsAReleaseByItsExactNameHoweverManyNewerNamesContainIt() throws Exception {
        String url = TestDatabase.emptyDatabase("hostile_nzb");
        Cli cli = Cli.of(url, temporal.target());
        assertThat(cli.run("groups", "add", "alt.binaries.nzb").code()).isZero();
        try (HikariDataSource ds = TestDatabase.pool(url, 1)) {
            TestDatabase.execute(ds, """
                    insert into releases (group_name, poster, name, files_present, files_complete, bytes, posted,
                                          completion_percent, complete, rule_version)
                    select 'alt.binaries.nzb', 'p', 'Old.Release' || case when i = 0 then '' else '.' || i end, 1, 1, 1,
                           now() - (interval '1 hour') * (case when i = 0 then 10000 else 0 end) + interval '1 second' * i,
                           100, true, 0
                    from generate_series(0, 1500) i;
                    insert into binaries (group_name, poster, file_name, total_parts, release_name, subject, posted,
                                          first_article, last_article, rule_version, part_numbers, segment_bytes,
                                          message_ids, bytes, posted_month)
                    values ('alt.binaries.nzb', 'p', 'old.rar', 1, 'Old.Release', 'Old.Release "old.rar" (1/1)', now(),
                            1, 1, 0, '{1}', '{100}', message_id_array_of_old, 100,
                            date_trunc('month', now() at time zone 'UTC')::date)
                    """.replace(
                            "message_id_array_of_old",
                            "'\\x"
                                    + java.util.HexFormat.of()
                                            .formatHex(headway.store.MessageIdPack.encode(
                                                    java.util.List.of("old.1@headway.test")))
                                    + "'::bytea"));
        }
        Path out = tmp.resolve("old.nzb");
        Cli.Result r = cli.run("nzb", "Old.Release", "-o", out.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(Files.readString(out)).contains("Old.Release");
    }
}
