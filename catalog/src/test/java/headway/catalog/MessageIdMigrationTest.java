package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.zaxxer.hikari.HikariDataSource;
import headway.index.CompletedBinary;
import headway.index.Segment;
import headway.store.Database;
import headway.store.TestDatabase;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** V15 turns a binary's message-ids from a text[] into one text value; a catalog written before keeps every id. */
class MessageIdMigrationTest {

    private static final String G = "alt.binaries.migrated";
    private static final String POSTER = "p <p@example.com>";

    @Test
    void binariesWrittenAsArraysReadAndMergeAlikeAfterTheMigration() throws Exception {
        try (HikariDataSource ds = TestDatabase.migratedTo("ids_v15", "14")) {
            TestDatabase.execute(ds, """
                    insert into groups (name) values ('alt.binaries.migrated');
                    insert into binaries (group_name, poster, file_name, total_parts, release_name, subject, posted,
                                          first_article, last_article, rule_version, part_numbers, segment_bytes,
                                          message_ids, bytes)
                    values ('alt.binaries.migrated', 'p <p@example.com>', 'a.rar', 3, 'Rel', 's', now(), 1, 3, 1,
                            '{1,2,3}', '{10,20,30}', '{a1@x,"a 2@x",a3@x}', 60),
                           ('alt.binaries.migrated', 'p <p@example.com>', 'b.rar', 4, 'Rel', 's', now(), 4, 5, 1,
                            '{1,2}', '{10,20}', '{b1@x,b2@x}', 30),
                           ('alt.binaries.migrated', 'p <p@example.com>', 'c.nfo', 1, 'Rel', 's', now(), 6, 6, 1,
                            '{1}', '{5}', '{""}', 5);
                    insert into releases (group_name, poster, name, files_present, files_complete, bytes,
                                          completion_percent, complete, rule_version)
                    values ('alt.binaries.migrated', 'p <p@example.com>', 'Rel', 3, 2, 95, 80, false, 1);
                    """);

            Database.migrate(ds);

            CatalogStore store = new CatalogStore();
            // b.rar gets its last two parts; its stored parts are a prefix, so the fast path keeps them
            // as they are; a.rar is written again with a part under another id, which the stored one wins
            try (var c = ds.getConnection()) {
                c.setAutoCommit(false);
                store.writeBinaries(
                        c,
                        List.of(
                                binary(
                                        "b.rar",
                                        4,
                                        4,
                                        7,
                                        List.of(
                                                seg(1, 10, "b1@x"),
                                                seg(2, 20, "b2@x"),
                                                seg(3, 30, "b3@x"),
                                                seg(4, 40, "b4@x"))),
                                binary("a.rar", 3, 1, 3, List.of(seg(2, 99, "other@x")))));
                c.commit();
            }
            Release r = store.release(ds, G, POSTER, "Rel").orElseThrow();
            assertThat(store.binaries(ds, r))
                    .extracting(
                            CompletedBinary::fileName,
                            b -> b.segments().stream().map(Segment::messageId).toList(),
                            b -> b.segments().stream().map(Segment::bytes).toList())
                    .containsExactlyInAnyOrder(
                            tuple("a.rar", List.of("a1@x", "a 2@x", "a3@x"), List.of(10, 20, 30)),
                            tuple("b.rar", List.of("b1@x", "b2@x", "b3@x", "b4@x"), List.of(10, 20, 30, 40)),
                            tuple("c.nfo", List.of(""), List.of(5)));
            assertThat(r.bytes()).isEqualTo(60 + 100 + 5);
            assertThat(TestDatabase.queryLong(
                            ds, "select count(*) from binaries, unnest(message_id_array(message_ids)) as m"))
                    .isEqualTo(8);
        }
    }

    private static Segment seg(int part, int bytes, String id) {
        return new Segment(part, bytes, id);
    }

    private static CompletedBinary binary(String file, int total, long first, long last, List<Segment> segments) {
        return new CompletedBinary(
                G,
                POSTER,
                file,
                total,
                "Rel",
                -1,
                "s",
                Instant.parse("2026-12-01T10:00:00Z"),
                first,
                last,
                1,
                segments,
                false);
    }
}
