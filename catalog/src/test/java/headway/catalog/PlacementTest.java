package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import headway.index.CompletedBinary;
import headway.index.Segment;
import headway.index.Window;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** An article is in a group's catalog at most once, whatever rule set keyed the writes. */
class PlacementTest {

    private static final String POSTER = "Joe <joe@example.com>";
    private static final Instant POSTED = Instant.parse("2026-12-01T10:00:00Z");

    private static CatalogTestDatabase db;
    private final CatalogStore store = new CatalogStore();

    @BeforeAll
    static void start() throws Exception {
        db = CatalogTestDatabase.start(
                "alt.binaries.v1v2",
                "alt.binaries.older",
                "alt.binaries.dup",
                "alt.binaries.same",
                "alt.binaries.upgrade",
                "alt.binaries.wide");
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    /** A binary whose part k is article {@code idBase + k}. */
    private static CompletedBinary binary(
            String group, String release, String file, int total, int ruleVersion, int idBase, int... parts) {
        List<Segment> segments = new ArrayList<>();
        for (int p : parts) {
            segments.add(new Segment(p, 1000 + p, (idBase + p) + "@sim.test"));
        }
        return new CompletedBinary(
                group,
                POSTER,
                file,
                total,
                release,
                -1,
                "subject of " + file,
                POSTED,
                idBase + parts[0],
                idBase + parts[parts.length - 1],
                ruleVersion,
                segments);
    }

    @Test
    void aNewerRuleSetMovesEachArticleAndDeletesWhatItEmptied() throws Exception {
        String g = "alt.binaries.v1v2";
        // v1 names the post's files one way, into two releases
        db.inTransaction(c -> store.writeBinaries(
                c,
                List.of(
                        binary(g, "Old.Name", "old.part1.rar", 3, 1, 100, 1, 2, 3),
                        binary(g, "Old.Name", "old.part2.rar", 2, 1, 200, 1, 2),
                        binary(g, "Other", "other.nfo", 1, 1, 300, 1))));
        // v2 keys the same articles differently: another file name, another release
        db.inTransaction(c -> store.writeBinaries(
                c,
                List.of(
                        binary(g, "New.Name", "new.part1.rar", 3, 2, 100, 1, 2, 3),
                        binary(g, "New.Name", "new.part2.rar", 2, 2, 200, 1, 2))));

        Map<String, Integer> ids = messageIds(g);
        assertThat(ids).hasSize(6).allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1));
        assertThat(db.rows("select file_name from binaries where group_name = '" + g + "' order by 1"))
                .containsExactly("new.part1.rar", "new.part2.rar", "other.nfo");
        assertThat(db.rows(
                        "select name || ':' || rule_version || ':' || files_present from releases where group_name = '"
                                + g + "' order by 1"))
                .containsExactly("New.Name:2:2", "Other:1:1");
        assertThat(db.rows("select rule_version || ':' || first_article || '-' || last_article || ':' || widest"
                        + " from rule_spans where group_name = '" + g + "' order by 1"))
                .containsExactly("1:101-301:2", "2:101-202:2");

        // the same v2 write again changes nothing
        String once = db.dump();
        db.inTransaction(
                c -> store.writeBinaries(c, List.of(binary(g, "New.Name", "new.part1.rar", 3, 2, 100, 1, 2, 3))));
        assertThat(db.dump()).isEqualTo(once);
    }

    @Test
    void anOlderRuleSetNeverMovesAnArticleANewerOnePlaced() throws Exception {
        String g = "alt.binaries.older";
        db.inTransaction(c -> store.writeBinaries(c, List.of(binary(g, "New", "new.rar", 2, 2, 100, 1, 2))));
        db.inTransaction(c -> store.writeBinaries(c, List.of(binary(g, "Old", "old.rar", 2, 1, 100, 1, 2))));

        assertThat(messageIds(g)).hasSize(2).allSatisfy((id, n) -> assertThat(n).isEqualTo(1));
        assertThat(db.rows("select file_name from binaries where group_name = '" + g + "'"))
                .containsExactly("new.rar");
        assertThat(db.rows("select name from releases where group_name = '" + g + "'"))
                .containsExactly("New");
    }

    @Test
    void aWideBinaryOfAnOlderRuleSetGivesUpTheArticleANewerOneKeysAtItsFarEnd() throws Exception {
        String g = "alt.binaries.wide";
        // v1: one binary whose parts are articles 101, 500 and 900, and one at 5,001
        db.inTransaction(c -> store.writeBinaries(
                c,
                List.of(
                        binary(g, "Wide", "wide.rar", 3, 1, 100, 1, 400, 800),
                        binary(g, "Far", "far.nfo", 1, 1, 5000, 1))));
        // v2 keys article 900 alone, and article 7,001 (beyond every v1 span) anew
        db.inTransaction(c -> store.writeBinaries(
                c, List.of(binary(g, "New", "new.rar", 1, 2, 899, 1), binary(g, "Later", "later.nfo", 1, 2, 7000, 1))));

        assertThat(messageIds(g))
                .hasSize(5)
                .allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1));
        assertThat(db.rows(
                        "select file_name || ':' || array_to_string(message_id_array(message_ids), ',') || ':' || bytes from binaries"
                                + " where group_name = '" + g + "' order by 1"))
                .as("the bytes of the segments left")
                .containsExactly(
                        "far.nfo:5001@sim.test:1001",
                        "later.nfo:7001@sim.test:1001",
                        "new.rar:900@sim.test:1001",
                        "wide.rar:101@sim.test,500@sim.test:2401");
        assertThat(db.rows("select name || ':' || bytes from releases where group_name = '" + g + "' order by 1"))
                .containsExactly("Far:1001", "Later:1001", "New:1001", "Wide:2401");
        assertThat(db.rows("select rule_version || ':' || first_article || '-' || last_article || ':' || widest"
                        + " from rule_spans where group_name = '" + g + "' order by 1"))
                .containsExactly("1:101-5001:799", "2:900-7001:0");
    }

    @Test
    void aBuildThatKeysHeadersAnewMovesTheArticlesOfItsRuleVersionToTheirNewKeys() throws Exception {
        String g = "alt.binaries.upgrade";
        db.inTransaction(c -> store.writeBinaries(
                c,
                List.of(
                        binary(g, "Show", "show.rar", 3, 1, 100, 1, 2, 3),
                        binary(g, "Show", "show.nfo", 1, 1, 200, 1))));
        // an upgraded build (keying + 1) re-indexes the span under the same rule set and keys the rar otherwise
        CatalogStore upgraded = new CatalogStore(Window.KEYING + 1);
        db.inTransaction(
                c -> upgraded.writeBinaries(c, List.of(binary(g, "Show", "show.part1.rar", 3, 1, 100, 1, 2, 3))));

        assertThat(messageIds(g))
                .hasSize(4)
                .allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1));
        assertThat(db.rows("select file_name from binaries where group_name = '" + g + "' order by 1"))
                .containsExactly("show.nfo", "show.part1.rar");
        assertThat(db.rows("select rule_version || ':' || keying || ':' || first_article || '-' || last_article"
                        + " from rule_spans where group_name = '" + g + "' order by 1"))
                .containsExactly("1:" + Window.KEYING + ":101-201", "1:" + (Window.KEYING + 1) + ":101-103");

        // the build before the upgrade, still running somewhere, writes the same again: the write wins a tie
        db.inTransaction(c -> store.writeBinaries(c, List.of(binary(g, "Show", "show.rar", 3, 1, 100, 1, 2, 3))));
        assertThat(messageIds(g))
                .hasSize(4)
                .allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1));
        assertThat(db.rows("select file_name from binaries where group_name = '" + g + "' order by 1"))
                .containsExactly("show.nfo", "show.rar");
    }

    @Test
    void oneWriteThatPlacesAnArticleTwiceKeepsTheFirst() throws Exception {
        String g = "alt.binaries.dup";
        db.inTransaction(c -> store.writeBinaries(
                c, List.of(binary(g, "A", "a.rar", 2, 1, 100, 1, 2), binary(g, "B", "b.rar", 2, 1, 100, 1, 2))));

        assertThat(messageIds(g)).hasSize(2).allSatisfy((id, n) -> assertThat(n).isEqualTo(1));
        assertThat(db.rows("select file_name from binaries where group_name = '" + g + "'"))
                .containsExactly("a.rar");
    }

    @Test
    void aNewerRuleSetThatKeysABinaryAlikeRenamesItsReleaseAndRecordsItsVersion() throws Exception {
        String g = "alt.binaries.same";
        db.inTransaction(c -> store.writeBinaries(
                c,
                List.of(
                        binary(g, "first.name", "x.rar", 2, 1, 100, 1, 2),
                        binary(g, "first.name", "x.nfo", 1, 1, 300, 1))));
        db.inTransaction(c -> store.writeBinaries(c, List.of(binary(g, "Better.Name", "x.rar", 2, 3, 100, 1, 2))));

        assertThat(db.rows(
                        "select name || ':' || rule_version || ':' || files_present from releases where group_name = '"
                                + g + "' order by 1"))
                .containsExactly("Better.Name:3:1", "first.name:1:1");
        db.inTransaction(c -> store.writeBinaries(c, List.of(binary(g, "Better.Name", "x.nfo", 1, 3, 300, 1))));
        assertThat(db.rows(
                        "select name || ':' || rule_version || ':' || files_present from releases where group_name = '"
                                + g + "' order by 1"))
                .as("the release left empty is deleted")
                .containsExactly("Better.Name:3:2");
    }

    private static Map<String, Integer> messageIds(String group) throws SQLException {
        Map<String, Integer> ids = new TreeMap<>();
        for (String id :
                db.rows("select m from binaries, unnest(message_id_array(message_ids)) as m where group_name = '"
                        + group + "'")) {
            ids.merge(id, 1, Integer::sum);
        }
        return ids;
    }
}
