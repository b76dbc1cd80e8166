package headway.catalog;

import static headway.catalog.CatalogStoreTest.binary;
import static org.assertj.core.api.Assertions.assertThat;

import headway.catalog.InspectionLedger.Entry;
import headway.catalog.InspectionLedger.State;
import headway.store.TestDatabase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Attempts at inspecting releases: counted, due again after their wait, kept when given up, gone with the release. */
class InspectionLedgerTest {

    private static final String G = "alt.binaries.test";
    private static final String POSTER = "Joe <joe@example.com>";
    private static CatalogTestDatabase db;

    @BeforeAll
    static void start() throws Exception {
        db = CatalogTestDatabase.start(G);
        db.inTransaction(c -> new CatalogStore()
                .writeBinaries(c, List.of(binary(G, "aa11", "x1", 1, 0, 1), binary(G, "bb22", "x2", 1, 0, 1))));
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    private static boolean attempted(String name, State state, String error, Duration retryIn) throws Exception {
        boolean[] done = {false};
        db.inTransaction(c -> done[0] = InspectionLedger.attempted(c, G, POSTER, name, state, error, retryIn));
        return done[0];
    }

    @Test
    void attemptsAreCountedDueAgainAndKeptWhenGivenUp() throws Exception {
        assertThat(attempted("no such release", State.FAILED, "x", Duration.ZERO))
                .isFalse();
        assertThat(db.count("release_inspections")).isZero();

        assertThat(attempted("aa11", State.FAILED, "truncated yEnc part\u0000", Duration.ZERO))
                .isTrue();
        assertThat(attempted("bb22", State.FAILED, "e".repeat(5000), Duration.ofHours(1)))
                .isTrue();
        assertThat(InspectionLedger.due(db.ds, 10)).extracting(Entry::name).containsExactly("aa11");
        Entry a = InspectionLedger.of(db.ds, G, POSTER, "aa11").orElseThrow();
        assertThat(a.attempts()).isEqualTo(1);
        assertThat(a.lastError()).isEqualTo("truncated yEnc part\ufffd");
        assertThat(a.state()).isEqualTo(State.FAILED);
        assertThat(InspectionLedger.of(db.ds, G, POSTER, "bb22").orElseThrow().lastError())
                .hasSize(1000);

        assertThat(attempted("aa11", State.FAILED, "again", Duration.ZERO)).isTrue();
        assertThat(attempted("aa11", State.GAVE_UP, "a PAR2 packet claiming 2^60 bytes", null))
                .isTrue();
        Entry gaveUp = InspectionLedger.of(db.ds, G, POSTER, "aa11").orElseThrow();
        assertThat(gaveUp.attempts()).isEqualTo(3);
        assertThat(gaveUp.state()).isEqualTo(State.GAVE_UP);
        assertThat(gaveUp.nextAttempt()).isNull();
        assertThat(InspectionLedger.due(db.ds, 10)).isEmpty();

        TestDatabase.setClockSkew(db.ds, Duration.ofHours(2));
        assertThat(InspectionLedger.due(db.ds, 10)).extracting(Entry::name).containsExactly("bb22");
        TestDatabase.setClockSkew(db.ds, Duration.ZERO);

        TestDatabase.execute(db.ds, "delete from releases where name = 'bb22'");
        assertThat(InspectionLedger.of(db.ds, G, POSTER, "bb22")).isEmpty();
    }
}
