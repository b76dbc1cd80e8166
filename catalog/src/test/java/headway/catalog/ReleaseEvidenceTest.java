package headway.catalog;

import static headway.catalog.CatalogStoreTest.binary;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import headway.catalog.ReleaseEvidence.Evidence;
import headway.catalog.ReleaseEvidence.Outcome;
import headway.category.CategoryRules;
import headway.simulator.HostileText;
import java.time.Clock;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Evidence from a release's files names it: categories and attributes from the real name, the
 * guid and key kept, found by both names and by its IMDb id; the same evidence twice changes
 * nothing, other evidence replaces it, clearing restores the release, and neither a holder's
 * release writes nor a rule-set import undo it.
 */
class ReleaseEvidenceTest {

    private static final String G = "alt.binaries.test";
    private static final String POSTER = "Joe <joe@example.com>";
    private static final String TOKEN = "4be44ff48d9cda8a02758cbf231d397e";
    private static final String SHOW = "Cat.Show.S02E03.1080p.WEB.h264-GRP";
    private static final String MOVIE = "A.Quiet.Film.2019.720p.BluRay.x264-GRP";
    private static final CategoryRules DEFAULTS = CategoryRules.defaults();

    private static CatalogTestDatabase db;
    private final CatalogStore store = new CatalogStore();

    @BeforeAll
    static void start() throws Exception {
        db = CatalogTestDatabase.start(G);
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    private Release release(String name) throws Exception {
        return store.release(db.ds, G, POSTER, name).orElseThrow();
    }

    private static List<String> found(ReleaseSearch.Query q) {
        return new ReleaseSearch(db.ds, Clock.systemUTC())
                .search(q).releases().stream().map(Release::displayName).toList();
    }

    private static List<String> found(String text) {
        return found(ReleaseSearch.Query.text(text, 10));
    }

    private static Outcome record(String name, Evidence e, CategoryRules rules, int version) throws Exception {
        return ReleaseEvidence.record(db.ds, G, POSTER, name, e, rules, version);
    }

    @Test
    void evidenceNamesAReleaseIdempotentlyReplaceablyAndReversibly() throws Exception {
        db.inTransaction(c -> store.writeBinaries(c, List.of(binary(G, TOKEN, "a3f9c0e1", 2, 0, 1))));
        Release hashed = release(TOKEN);
        String guid = ReleaseGuids.of(hashed);
        assertThat(hashed.realName()).isNull();
        assertThat(hashed.password()).isZero();
        assertThat(hashed.displayName()).isEqualTo(TOKEN);

        Evidence show = new Evidence(SHOW, "nfo+par2", 1, "tt0058935");
        assertThat(record(TOKEN, show, DEFAULTS, 0)).isEqualTo(Outcome.CHANGED);
        Release named = release(TOKEN);
        assertThat(named.realName()).isEqualTo(SHOW);
        assertThat(named.displayName()).isEqualTo(SHOW);
        assertThat(named.namedBy()).isEqualTo("nfo+par2");
        assertThat(named.password()).isEqualTo(1);
        assertThat(named.imdb()).isEqualTo("tt0058935");
        assertThat(named.category()).isEqualTo(5040);
        assertThat(named.title()).isEqualTo("Cat Show");
        assertThat(named.season()).isEqualTo(2);
        assertThat(named.episode()).isEqualTo("3");
        assertThat(named.resolution()).isEqualTo("1080p");
        assertThat(ReleaseGuids.of(named)).isEqualTo(guid);
        assertThat(new ReleaseGuids(db.ds).find(guid)).contains(named);

        String before = db.dump();
        assertThat(record(TOKEN, show, DEFAULTS, 0)).isEqualTo(Outcome.UNCHANGED);
        assertThat(db.dump()).as("the same evidence twice changes nothing").isEqualTo(before);

        assertThat(found("cat show 1080p")).containsExactly(SHOW);
        assertThat(found(TOKEN)).as("the token still finds it").containsExactly(SHOW);
        assertThat(found(new ReleaseSearch.Query("", List.of(5000), 2, "3", null, null, 10, 0)))
                .containsExactly(SHOW);
        assertThat(found(new ReleaseSearch.Query("", List.of(2000), null, null, null, null, 10, 0, "tt0058935")))
                .as("an IMDb search is one more filter word: the category must match too")
                .isEmpty();
        assertThat(found(new ReleaseSearch.Query("", List.of(), null, null, null, null, 10, 0, "tt0058935")))
                .containsExactly(SHOW);
        assertThat(found(new ReleaseSearch.Query("", List.of(), null, null, null, null, 10, 0, "tt0058936")))
                .isEmpty();
        assertThat(store.named(db.ds, SHOW)).extracting(Release::name).containsExactly(TOKEN);

        // more files of the post arrive, written by a holder on the same and on a newer rule set
        db.inTransaction(c -> store.writeBinaries(c, List.of(binary(G, TOKEN, "a3f9c0e1", 2, 0, 2))));
        CategoryRules sport = CategoryRules.ofRuleSet("{\"categories\": [{\"name\": \"all\", \"category\": 5060}]}");
        db.inTransaction(c -> store.writeBinaries(c, List.of(binary(G, TOKEN, "77aa01", 1, 0, 1)), sport, 7));
        Release grown = release(TOKEN);
        assertThat(grown.filesPresent()).isEqualTo(2);
        assertThat(grown.realName()).isEqualTo(SHOW);
        assertThat(grown.category())
                .as("a holder's write categorizes by the subjects' name, so it leaves a named release alone")
                .isEqualTo(5040);

        // a rule-set import re-categorizes it from its real name
        assertThat(store.recategorize(db.ds, sport, 7, 10)).isEqualTo(1);
        Release imported = release(TOKEN);
        assertThat(imported.category()).isEqualTo(5060);
        assertThat(imported.title()).isEqualTo("Cat Show");
        assertThat(imported.season()).isEqualTo(2);

        String atSeven = db.dump();
        assertThat(record(TOKEN, new Evidence(MOVIE, "par2", 2, null), DEFAULTS, 0))
                .as("rules older than the release's are refused")
                .isEqualTo(Outcome.STALE_RULES);
        assertThat(db.dump()).isEqualTo(atSeven);

        assertThat(record(TOKEN, new Evidence(MOVIE, "par2", 2, null), DEFAULTS, 7))
                .isEqualTo(Outcome.CHANGED);
        Release movie = release(TOKEN);
        assertThat(movie.realName()).isEqualTo(MOVIE);
        assertThat(movie.namedBy()).isEqualTo("par2");
        assertThat(movie.password()).isEqualTo(2);
        assertThat(movie.imdb()).isNull();
        assertThat(movie.category()).isEqualTo(2040);
        assertThat(movie.year()).isEqualTo(2019);
        assertThat(movie.season()).isNull();
        assertThat(movie.episode()).isNull();
        assertThat(found("cat show")).as("the old real name's words are gone").isEmpty();
        assertThat(found("quiet film 2019")).containsExactly(MOVIE);
        assertThat(found(new ReleaseSearch.Query("", List.of(), null, null, null, null, 10, 0, "tt0058935")))
                .isEmpty();

        assertThat(record(TOKEN, Evidence.NONE, DEFAULTS, 7)).isEqualTo(Outcome.CHANGED);
        Release cleared = release(TOKEN);
        assertThat(cleared.realName()).isNull();
        assertThat(cleared.namedBy()).isNull();
        assertThat(cleared.password()).isZero();
        assertThat(cleared.category())
                .isEqualTo(DEFAULTS.classify(G, TOKEN).category().id());
        assertThat(cleared.year()).isNull();
        assertThat(found("quiet film")).isEmpty();
        assertThat(found(TOKEN)).containsExactly(TOKEN);
        assertThat(ReleaseGuids.of(cleared)).isEqualTo(guid);
        assertThat(record(TOKEN, Evidence.NONE, DEFAULTS, 7)).isEqualTo(Outcome.UNCHANGED);

        assertThat(record("no such release", show, DEFAULTS, 7)).isEqualTo(Outcome.NO_SUCH_RELEASE);
    }

    @Test
    void evidenceIsCheckedBeforeAnyWrite() {
        assertThatThrownBy(() -> new Evidence("", "par2", 0, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Evidence(" ", "par2", 0, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Evidence("x".repeat(1025), "par2", 0, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Evidence("a\u0000b", "par2", 0, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Evidence("a\ud800b", "par2", 0, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Evidence("Name", null, 0, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Evidence(null, "par2", 0, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Evidence("Name", "NFO PAR2", 0, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Evidence("Name", "n".repeat(65), 0, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new Evidence("Name", "NFO+PAR2", 0, null).namedBy()).isEqualTo("NFO+PAR2");
        assertThatThrownBy(() -> new Evidence("Name", "nfo", 3, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Evidence("Name", "nfo", -1, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Evidence("Name", "nfo", 0, "0058935"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new Evidence("x".repeat(1024), "nfo", 0, null).realName()).hasSize(1024);
        assertThat(new Evidence(null, null, 1, "tt12345678").imdb()).isEqualTo("tt12345678");
    }

    /** Real names from all of Unicode: each is refused by the record or stored and read back exactly, and found by its guid. */
    @Test
    void realNamesFromAllOfUnicodeAreRefusedOrStoredExactly() throws Exception {
        String name = "f00dfeedf00dfeedf00dfeedf00dfeed";
        db.inTransaction(c -> store.writeBinaries(c, List.of(binary(G, name, "f00dfeed", 1, 0, 1))));
        Random r = new Random(41_4);
        int stored = 0;
        for (int i = 0; i < 300; i++) {
            String text = HostileText.text(r, 1 + r.nextInt(40));
            Evidence e;
            try {
                e = new Evidence(text, "nfo", r.nextInt(3), null);
            } catch (IllegalArgumentException refused) {
                continue;
            }
            assertThat(record(name, e, DEFAULTS, 7))
                    .as("seed 414, case %d", i)
                    .isIn(Outcome.CHANGED, Outcome.UNCHANGED);
            Release back = release(name);
            assertThat(back.realName()).as("seed 414, case %d", i).isEqualTo(text);
            assertThat(back.password()).isEqualTo(e.password());
            stored++;
        }
        assertThat(stored).as("the text drawn is mostly storable").isGreaterThan(50);
    }
}
