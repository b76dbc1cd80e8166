package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.index.RuleSet;
import headway.index.RuleSetException;
import headway.index.SubjectMatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RuleSetStoreTest {

    private static CatalogTestDatabase db;
    private static RuleSetStore rules;

    @BeforeAll
    static void start() throws Exception {
        db = CatalogTestDatabase.start();
        rules = new RuleSetStore(db.ds);
    }

    @AfterAll
    static void stop() throws Exception {
        db.close();
    }

    @Test
    @Order(1)
    void emptyStoreHasNoLatest() throws Exception {
        assertThat(rules.latest()).isEmpty();
        assertThat(rules.list()).isEmpty();
    }

    @Test
    @Order(2)
    void importsGrowVersionsAndLatestIsTheNewest() throws Exception {
        int v1 = rules.importRuleSet("default", RuleSet.defaultJson());
        int again = rules.importRuleSet("default", RuleSet.defaultJson());
        String narrow = """
                {"name": "narrow", "groups": [{"pattern": "alt.binaries.*",
                  "rules": [{"name": "only", "regex": "^\\"(?<file>[^\\"]+)\\" yEnc \\\\((?<part>\\\\d+)/(?<total>\\\\d+)\\\\)$"}]}]}
                """;
        int v2 = rules.importRuleSet("narrow", narrow);

        assertThat(v1).isEqualTo(1);
        assertThat(again).as("same body as the newest").isEqualTo(1);
        assertThat(v2).isEqualTo(2);
        RuleSet latest = rules.latest().orElseThrow();
        assertThat(latest.version()).isEqualTo(2);
        assertThat(latest.name()).isEqualTo("narrow");
        assertThat(latest.match("alt.binaries.x", "p", "\"a.rar\" yEnc (1/2)"))
                .isInstanceOf(SubjectMatch.Matched.class);
        RuleSet first = rules.byVersion(1).orElseThrow();
        assertThat(first.match("alt.binaries.x", "p", "[01/20] - \"file\" yEnc (3/50)"))
                .isInstanceOf(SubjectMatch.Matched.class);
        assertThat(rules.byVersion(99)).isEmpty();
        assertThat(rules.list())
                .extracting(RuleSetInfo::version, RuleSetInfo::name)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1, "default"),
                        org.assertj.core.groups.Tuple.tuple(2, "narrow"));
    }

    @Test
    @Order(3)
    void importRejectsABadRegexNamingTheRule() throws Exception {
        long before = db.count("rule_sets");
        String bad = """
                {"name": "bad", "groups": [{"pattern": "alt.binaries.teevee",
                  "rules": [{"name": "fine", "regex": "^(?<file>.+)$"}, {"name": "broken", "regex": "^(?<file>.+)(?<part>\\\\d+"}]}]}
                """;
        assertThatThrownBy(() -> rules.importRuleSet("bad", bad))
                .isInstanceOf(RuleSetException.class)
                .hasMessageContaining("group 'alt.binaries.teevee' rule #1 ('broken')")
                .hasMessageContaining("missing closing )");
        assertThat(db.count("rule_sets")).isEqualTo(before);
    }
}
