package headway.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.settings.Providers.Provider;
import headway.settings.Providers.Role;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ProvidersTest {

    @Test
    void providerZeroIsTheUnnumberedServerAndAlwaysPrimary() {
        List<Provider> all = Providers.fromEnv(Map.of("HEADWAY_NNTP_HOST", "news.example", "HEADWAY_NNTP_PORT", "563"));
        assertThat(all).hasSize(1);
        assertThat(all.get(0).role()).isEqualTo(Role.PRIMARY);
        assertThat(all.get(0).label()).isEqualTo("0 primary nntp://news.example:563");
    }

    @Test
    void numberedProvidersFollowWithTheirOwnLimitsAndRoles() {
        List<Provider> all = Providers.fromEnv(Map.of(
                "HEADWAY_NNTP_1_HOST", "block.example",
                "HEADWAY_NNTP_1_TLS", "true",
                "HEADWAY_NNTP_1_CONNECTIONS", "2",
                "HEADWAY_NNTP_1_LIMIT", "10",
                "HEADWAY_NNTP_2_HOST", "fill.example",
                "HEADWAY_NNTP_2_ROLE", "FILL",
                "HEADWAY_NNTP_3_HOST", "other.example",
                "HEADWAY_NNTP_3_ROLE", "primary"));
        assertThat(all).extracting(Provider::role).containsExactly(Role.PRIMARY, Role.BACKUP, Role.FILL, Role.PRIMARY);
        assertThat(all.get(1).port()).as("TLS without a port is 563").isEqualTo(563);
        assertThat(all.get(1).connections()).isEqualTo(2);
        assertThat(all.get(1).fleetLimit()).isEqualTo(10);
        assertThat(Providers.headerOrder(all)).extracting(Provider::index).containsExactly(0, 3, 1);
        assertThat(Providers.checkOrder(all)).extracting(Provider::index).containsExactly(1, 2);
        assertThat(Providers.checkOrder(all.subList(0, 1)))
                .extracting(Provider::index)
                .containsExactly(0);
    }

    @Test
    void errorsNameTheVariableAndTheFix() {
        assertThatThrownBy(() -> Providers.fromEnv(Map.of("HEADWAY_NNTP_2_HOST", "b")))
                .hasMessage("HEADWAY_NNTP_2_* is set but HEADWAY_NNTP_1_HOST is not: number providers 1, 2, 3 ..."
                        + " without a gap");
        assertThatThrownBy(() -> Providers.fromEnv(Map.of("HEADWAY_NNTP_1_PORT", "119")))
                .hasMessageContaining("HEADWAY_NNTP_1_HOST is not: give the provider's host");
        assertThatThrownBy(() -> Providers.fromEnv(Map.of("HEADWAY_NNTP_1_HOST", "b", "HEADWAY_NNTP_1_PASS", "x")))
                .hasMessageContaining("HEADWAY_NNTP_1_PASS is not a provider setting: use HEADWAY_NNTP_1_ with one of");
        assertThatThrownBy(() -> Providers.fromEnv(Map.of("HEADWAY_NNTP_1_HOST", "b", "HEADWAY_NNTP_1_ROLE", "spare")))
                .hasMessage("HEADWAY_NNTP_1_ROLE=spare is not a role: use primary, backup or fill");
        assertThatThrownBy(() -> Providers.fromEnv(Map.of("HEADWAY_NNTP_0_HOST", "b")))
                .hasMessageContaining("provider 0 is HEADWAY_NNTP_HOST");
        assertThatThrownBy(
                        () -> Providers.fromEnv(Map.of("HEADWAY_NNTP_1_HOST", "b", "HEADWAY_NNTP_1_CONNECTIONS", "65")))
                .hasMessage("HEADWAY_NNTP_1_CONNECTIONS=65 is out of range: use 1..64");
        assertThatThrownBy(() -> Providers.fromEnv(Map.of("HEADWAY_NNTP_17_HOST", "b")))
                .hasMessageContaining("use at most 16 providers");
    }

    @Test
    void aPasswordIsNeverPrinted() {
        String secret = "s3cr3t-Pa55";
        List<Provider> all = Providers.fromEnv(Map.of(
                "HEADWAY_NNTP_USER", "u",
                "HEADWAY_NNTP_PASSWORD", secret,
                "HEADWAY_NNTP_1_HOST", "b",
                "HEADWAY_NNTP_1_USER", "u",
                "HEADWAY_NNTP_1_PASSWORD", secret));
        assertThat(all.toString()).doesNotContain(secret).contains("user=***");
        assertThatThrownBy(
                        () -> Providers.fromEnv(Map.of("HEADWAY_NNTP_1_HOST", "b", "HEADWAY_NNTP_1_PASSWORD", secret)))
                .hasMessage("HEADWAY_NNTP_1_PASSWORD is set but HEADWAY_NNTP_1_USER is not: set both for AUTHINFO,"
                        + " or neither")
                .message()
                .doesNotContain(secret);
    }

    /** Any Unicode in any provider variable is a provider or an IllegalArgumentException that never holds a password. */
    @Test
    void anyValueIsAProviderOrAnErrorWithoutThePassword() {
        Random random = new Random(44);
        List<String> suffixes = Providers.SUFFIXES;
        for (int round = 0; round < 5_000; round++) {
            Map<String, String> env = new HashMap<>();
            String password = "pw" + randomText(random) + "\u0001";
            env.put("HEADWAY_NNTP_1_PASSWORD", password);
            for (int i = 0; i < 1 + random.nextInt(6); i++) {
                String suffix = suffixes.get(random.nextInt(suffixes.size()));
                if (!suffix.equals("PASSWORD")) {
                    env.put(Providers.prefix(1 + random.nextInt(3)) + suffix, randomText(random));
                }
            }
            try {
                List<Provider> all = Providers.fromEnv(env);
                assertThat(all.toString()).doesNotContain(password);
            } catch (IllegalArgumentException e) {
                assertThat(e.getMessage()).as(env.toString()).isNotBlank().doesNotContain(password);
            }
        }
    }

    private static String randomText(Random random) {
        String[] usual = {"true", "1", "119", "563", "backup", "fill", "primary", "news.example", "", " "};
        if (random.nextBoolean()) {
            return usual[random.nextInt(usual.length)];
        }
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(12); i > 0; i--) {
            int cp = random.nextInt(Character.MAX_CODE_POINT + 1);
            if (Character.isValidCodePoint(cp) && !Character.isSurrogate((char) cp)) {
                s.appendCodePoint(cp);
            }
        }
        return s.toString();
    }
}
