package headway.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import headway.category.CategoryRules;
import headway.index.CompletedBinary;
import headway.index.NzbWriter;
import headway.index.RejectedArticle;
import headway.index.Segment;
import headway.store.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

public class CatalogStoreTest {

    private static final String G = "alt.binaries.test";
    private static final String POSTER = "Joe <joe@example.com>";
    private static final Instant POSTED = Instant.parse("2026-12-01T10:00:00Z");
    private static final String REFUSED = "alt.binaries.refused";

    private static CatalogTestDatabase db;
    private final CatalogStore store = new CatalogStore();

    @BeforeAll
    static void start() throws Exception {
        db = CatalogTestDatabase.start(
                G, "alt.binaries.other", "alt.binaries.gaps", "alt.binaries.redone", REFUSED, "alt.binaries.cut");
    }

    @AfterAll
    static void stop() throws Exception {
        db.close();
    }

    public static CompletedBinary binary(
            String group, String release, String file, int total, int ruleVersion, int... parts) {
        List<Segment> segments = new ArrayList<>();
        for (int p : parts) {
            segments.add(new Segment(p, 700_000 + p, file + "." + p + "@news.example"));
        }
        return new CompletedBinary(
                group,
                POSTER,
                file,
                total,
                release,
                3,
                "subject of " + file,
                POSTED.plusSeconds(parts.length == 0 ? 0 : parts[0]),
                1000 + (parts.length == 0 ? 0 : parts[0]),
                2000 + (parts.length == 0 ? 0 : parts[parts.length - 1]),
                ruleVersion,
                segments);
    }

    @Test
    void writingTheSameBatchTwiceLeavesTheSameCatalog() throws Exception {
        List<CompletedBinary> batch = List.of(
                binary(G, "Idem", "idem.part1.rar", 3, 1, 1, 2, 3),
                binary(G, "Idem", "idem.part2.rar", 3, 1, 1, 3),
                binary(G, "Idem", "idem.par2", 1, 1, 0),
                binary("alt.binaries.other", "Idem", "idem.part1.rar", 3, 1, 2));

        db.inTransaction(c -> store.writeBinaries(c, batch));
        String once = db.dump();
        db.inTransaction(c -> store.writeBinaries(c, batch));
        db.inTransaction(c -> store.writeBinaries(c, List.of(batch.get(1), batch.get(1))));

        assertThat(db.dump()).isEqualTo(once);
        Release r = store.release(db.ds, G, POSTER, "Idem").orElseThrow();
        assertThat(r.filesPresent()).isEqualTo(3);
        assertThat(r.filesComplete()).isEqualTo(2);
        assertThat(r.filesExpected()).isEqualTo(3);
        assertThat(r.complete()).isFalse();
        assertThat(r.completionPercent()).isEqualByComparingTo(new BigDecimal("85.71"));
        assertThat(r.bytes())
                .isEqualTo(batch.subList(0, 3).stream()
                        .mapToLong(CompletedBinary::bytes)
                        .sum());
        assertThat(r.posted()).isEqualTo(POSTED);
    }

    @Test
    void writtenReleasesAreCategorizedAndAnImportRecategorizesOlderOnes() throws Exception {
        String tvName = "Cat.Show.S02E03.1080p.WEB.h264-GRP";
        String movieName = "Cat.Movie.2019.720p.BluRay.x264-GRP";
        db.inTransaction(c -> store.writeBinaries(
                c,
                List.of(
                        binary(G, tvName, "cat.show.mkv", 2, 0, 1, 2),
                        binary(G, movieName, "cat.movie.mkv", 2, 0, 1))));
        Release tv = store.release(db.ds, G, POSTER, tvName).orElseThrow();
        assertThat(tv.category()).isEqualTo(5040);
        assertThat(tv.title()).isEqualTo("Cat Show");
        assertThat(tv.season()).isEqualTo(2);
        assertThat(tv.episode()).isEqualTo("3");
        assertThat(tv.resolution()).isEqualTo("1080p");
        Release movie = store.release(db.ds, G, POSTER, movieName).orElseThrow();
        assertThat(movie.category()).isEqualTo(2040);
        assertThat(movie.year()).isEqualTo(2019);

        CategoryRules everythingIsSport =
                CategoryRules.ofRuleSet("{\"categories\": [{\"name\": \"all\", \"category\": 5060}]}");
        String before = db.dump();
        assertThat(store.recategorize(db.ds, everythingIsSport, 0, 1))
                .as("nothing is older than version 0")
                .isZero();
        assertThat(db.dump()).isEqualTo(before);
        assertThat(store.recategorize(db.ds, everythingIsSport, 7, 1)).isGreaterThanOrEqualTo(2);
        assertThat(store.release(db.ds, G, POSTER, tvName).orElseThrow().category())
                .isEqualTo(5060);
        assertThat(store.recategorize(db.ds, everythingIsSport, 7, 1))
                .as("a second pass finds nothing stale")
                .isZero();

        db.inTransaction(c -> store.writeBinaries(c, List.of(binary(G, tvName, "cat.show.mkv", 2, 0, 2))));
        assertThat(store.release(db.ds, G, POSTER, tvName).orElseThrow().category())
                .as("a holder still on version 0 does not undo version 7's category")
                .isEqualTo(5060);
        db.inTransaction(c -> store.writeBinaries(
                c, List.of(binary(G, tvName, "cat.show.mkv", 2, 0, 2)), CategoryRules.defaults(), 8));
        assertThat(store.release(db.ds, G, POSTER, tvName).orElseThrow().category())
                .isEqualTo(5040);
    }

    @Test
    void partialWritesOfOneBinaryMergeByPartNumber() throws Exception {
        CompletedBinary early = binary(G, "Merge", "merge.mkv", 5, 1, 1, 2);
        CompletedBinary late = binary(G, "Merge", "merge.mkv", 5, 2, 2, 4, 5);
        CompletedBinary last = binary(G, "Merge", "merge.mkv", 5, 2, 3);

        db.inTransaction(c -> store.writeBinaries(c, List.of(early)));
        Release partial = store.release(db.ds, G, POSTER, "Merge").orElseThrow();
        assertThat(partial.completionPercent()).as("2 of 5 parts, 1 of 3 files").isEqualByComparingTo("13.33");
        db.inTransaction(c -> store.writeBinaries(c, List.of(late)));
        db.inTransaction(c -> store.writeBinaries(c, List.of(last)));

        Release r = store.release(db.ds, G, POSTER, "Merge").orElseThrow();
        List<CompletedBinary> stored = store.binaries(db.ds, r);
        assertThat(stored).singleElement().satisfies(b -> {
            assertThat(b.segments()).extracting(Segment::part).containsExactly(1, 2, 3, 4, 5);
            assertThat(b.segments().get(1)).isEqualTo(early.segments().get(1));
            assertThat(b.complete()).isTrue();
            assertThat(b.firstArticle()).isEqualTo(1001);
            assertThat(b.lastArticle()).isEqualTo(2005);
            assertThat(b.ruleVersion())
                    .as("the newest rule set that wrote it, which named it alike")
                    .isEqualTo(2);
            assertThat(b.releaseName()).isEqualTo("Merge");
            assertThat(b.posted()).isEqualTo(POSTED.plusSeconds(1));
            assertThat(b.subject()).isEqualTo("subject of merge.mkv");
        });
        assertThat(r.filesComplete()).isEqualTo(1);
        assertThat(r.completionPercent()).isEqualByComparingTo("33.33");
        assertThat(r.bytes())
                .as("the bytes of the five parts, each counted once")
                .isEqualTo(stored.get(0).bytes())
                .isEqualTo(early.bytes()
                        + late.bytes()
                        + last.bytes()
                        - early.segments().get(1).bytes());

        String before = db.dump();
        db.inTransaction(c -> store.writeBinaries(c, List.of(early, late, last)));
        assertThat(db.dump()).isEqualTo(before);
    }

    @Test
    void aBinaryWrittenOpenThenWholeMergesAsEveryPartialWriteDoes() throws Exception {
        // the stored parts are the first of the new write's, part for part: the new arrays as they are
        CompletedBinary open = withIds(binary(G, "Whole", "whole.rar", 4, 1, 1, 2), "w");
        CompletedBinary whole = withIds(binary(G, "Whole", "whole.rar", 4, 1, 1, 2, 3, 4), "w");
        // the same part under another message-id (a repost): the stored segment stays, the rest merge in
        CompletedBinary first = withIds(binary(G, "Repost", "repost.rar", 4, 1, 1, 2), "x");
        CompletedBinary reposted = withIds(binary(G, "Repost", "repost.rar", 4, 1, 1, 2, 3, 4), "y");
        // stored parts that are not the first of the new write's: merged by part number
        CompletedBinary gapped = withIds(binary(G, "Gap", "gap.rar", 4, 1, 1, 3), "g");
        CompletedBinary filled = withIds(binary(G, "Gap", "gap.rar", 4, 1, 1, 2, 3), "g");
        // a new write with fewer parts than stored, its parts among them: nothing changes
        CompletedBinary more = withIds(binary(G, "Fewer", "fewer.rar", 4, 1, 1, 2, 3), "f");
        CompletedBinary fewer = withIds(binary(G, "Fewer", "fewer.rar", 4, 1, 1, 2), "f");

        db.inTransaction(c -> store.writeBinaries(c, List.of(open, first, gapped, more)));
        db.inTransaction(c -> store.writeBinaries(c, List.of(whole, reposted, filled, fewer)));

        assertThat(stored("Whole")).isEqualTo(whole.segments());
        assertThat(stored("Repost"))
                .containsExactly(
                        first.segments().get(0),
                        first.segments().get(1),
                        reposted.segments().get(2),
                        reposted.segments().get(3));
        assertThat(stored("Gap")).isEqualTo(filled.segments());
        assertThat(stored("Fewer")).isEqualTo(more.segments());
        for (String release : List.of("Whole", "Repost", "Gap", "Fewer")) {
            Release r = store.release(db.ds, G, POSTER, release).orElseThrow();
            assertThat(r.bytes())
                    .as("the bytes of %s's stored parts", release)
                    .isEqualTo(
                            stored(release).stream().mapToLong(Segment::bytes).sum());
        }
    }

    private List<Segment> stored(String release) throws SQLException {
        Release r = store.release(db.ds, G, POSTER, release).orElseThrow();
        return store.binaries(db.ds, r).get(0).segments();
    }

    /** {@code b} with message-ids of its own, {@code tag} in each: binaries of one test can then differ in them alone. */
    private static CompletedBinary withIds(CompletedBinary b, String tag) {
        List<Segment> segments = new ArrayList<>();
        for (Segment s : b.segments()) {
            segments.add(new Segment(
                    s.part(), s.bytes() + tag.charAt(0), tag + s.part() + "." + b.fileName() + "@ids.example"));
        }
        return Placements.withSegments(b, segments);
    }

    @Test
    void mergedBinaryWithinOneBatchIsWrittenOnce() throws Exception {
        db.inTransaction(c -> store.writeBinaries(
                c, List.of(binary(G, "Twice", "twice.rar", 2, 1, 1), binary(G, "Twice", "twice.rar", 2, 1, 2))));
        Release r = store.release(db.ds, G, POSTER, "Twice").orElseThrow();
        assertThat(store.binaries(db.ds, r))
                .singleElement()
                .satisfies(b -> assertThat(b.complete()).isTrue());
    }

    @Test
    void aLatePartOfAWrittenBinaryMergesIntoItsRowBesideNewBinaries() throws Exception {
        CompletedBinary written = binary(G, "Late", "late.rar", 3, 1, 1, 2); // articles 1001..2002
        db.inTransaction(c -> store.writeBinaries(c, List.of(written)));
        // part 3 comes long after, past the articles written so far, in a write with a new binary
        CompletedBinary late = new CompletedBinary(
                G,
                POSTER,
                "late.rar",
                3,
                "Late",
                3,
                "subject of late.rar",
                POSTED,
                9003,
                9003,
                1,
                List.of(new Segment(3, 700_003, "late.rar.3@news.example")),
                true); // as a window that never saw its first parts says
        CompletedBinary next = new CompletedBinary(
                G,
                POSTER,
                "next.rar",
                1,
                "Late",
                3,
                "subject of next.rar",
                POSTED,
                9004,
                9004,
                1,
                List.of(new Segment(1, 5, "next.rar.1@news.example")),
                true);
        db.inTransaction(c -> store.writeBinaries(c, List.of(late, next)));

        Release r = store.release(db.ds, G, POSTER, "Late").orElseThrow();
        assertThat(store.binaries(db.ds, r))
                .extracting(
                        CompletedBinary::fileName,
                        b -> b.segments().stream().map(Segment::part).toList(),
                        CompletedBinary::lastArticle)
                .containsExactly(tuple("late.rar", List.of(1, 2, 3), 9003L), tuple("next.rar", List.of(1), 9004L));
        assertThat(r.bytes()).isEqualTo(700_001 + 700_002 + 700_003 + 5);
    }

    @Test
    void messageIdsAreStoredAsServedWhateverTheirCharacters() throws Exception {
        List<String> ids = List.of("", "a\"b,c{d}e@x", "back\\slash NULL@x", "ünï cødé@x", " ");
        List<Segment> segments = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            segments.add(new Segment(i + 1, 100 + i, ids.get(i)));
        }
        for (boolean fresh : new boolean[] {true, false}) { // by binary COPY, and by the upsert
            String release = fresh ? "Odd" : "OddMerged";
            long at = fresh ? 1 : 11;
            CompletedBinary odd = new CompletedBinary(
                    G, POSTER, release + ".bin", 5, release, -1, "odd ids", POSTED, at, at + 4, 1, segments, fresh);
            CompletedBinary alone = new CompletedBinary(
                    G,
                    POSTER,
                    release + ".alone",
                    1,
                    release,
                    -1,
                    "no id",
                    POSTED,
                    at + 5,
                    at + 5,
                    1,
                    List.of(new Segment(1, 9, "")),
                    fresh);
            db.inTransaction(c -> store.writeBinaries(c, List.of(odd, alone)));

            Release r = store.release(db.ds, G, POSTER, release).orElseThrow();
            assertThat(store.binaries(db.ds, r))
                    .extracting(
                            CompletedBinary::fileName,
                            b -> b.segments().stream().map(Segment::messageId).toList())
                    .containsExactlyInAnyOrder(tuple(release + ".bin", ids), tuple(release + ".alone", List.of("")));
        }
        assertThatThrownBy(() -> new Segment(1, 1, "tab\there@x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot hold a tab");
    }

    @Test
    void aCopyOfManyBinariesStoresWhatTheUpsertStores() throws Exception {
        // 400 binaries of 40 segments: about 1 MB of COPY rows, so the encoder flushes and grows
        // its buffer many times; ASCII, Latin-1, wider characters and a surrogate pair in the text
        List<String> names = List.of("plain", "ünï cødé", "日本語", "emoji \uD83C\uDFAC", "quote\"tab");
        for (boolean fresh : new boolean[] {true, false}) { // by binary COPY, and by the upsert
            String group = fresh ? G : "alt.binaries.other";
            List<CompletedBinary> batch = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                String name = names.get(i % names.size()) + " " + i;
                List<Segment> segments = new ArrayList<>();
                for (int p = 1; p <= 40; p++) {
                    segments.add(new Segment(
                            p, 700_000 + i * 100 + p, "part" + p + "of40." + name.replace(' ', '_') + "@many.example"));
                }
                batch.add(new CompletedBinary(
                        group,
                        "poster " + name + " <p@example.com>",
                        "many " + name + ".rar",
                        i % 7 == 0 ? 60 : 40,
                        "Many " + (i / 50),
                        i % 3 == 0 ? -1 : 8,
                        "subject of " + name,
                        i % 11 == 0 ? null : POSTED.plusMillis(i * 1_234_567L),
                        100_000L + i * 50L,
                        100_000L + i * 50L + 39,
                        1,
                        segments,
                        fresh));
            }
            db.inTransaction(c -> store.writeBinaries(c, batch));
        }
        // every column but the group as one row value, whose text tells a null from an empty string
        String row = "(poster, file_name, total_parts, release_name, file_total, subject, posted, first_article,"
                + " last_article, rule_version, part_numbers, segment_bytes, message_ids, bytes)::text";
        assertThat(db.rows("select " + row + " from binaries where group_name = '" + G
                        + "' and file_name like 'many %' order by file_name"))
                .hasSize(400)
                .isEqualTo(db.rows("select " + row
                        + " from binaries where group_name = 'alt.binaries.other' and file_name like 'many %'"
                        + " order by file_name"));
    }

    @Test
    void aBinaryTheCatalogRefusesGoesToTheLedgerArticleByArticleAndTheRestOfTheBatchCommits() throws Exception {
        CompletedBinary good = withArticles(binary(REFUSED, "Good", "good.rar", 2, 1, 1, 2), 101, 102, false);
        // PostgreSQL takes no NUL in text, and no timestamp in the year 300000: by COPY and by the upsert
        CompletedBinary nul = withArticles(binary(REFUSED, "Nul", "nul\u0000.rar", 2, 1, 1, 2), 103, 104, true);
        CompletedBinary late = withPosted(
                withArticles(binary(REFUSED, "Late", "late.rar", 1, 1, 1), 105, 105, false),
                Instant.parse("+300000-01-01T00:00:00Z"));
        CompletedBinary alsoGood = withArticles(binary(REFUSED, "Good", "good.nfo", 1, 1, 1), 106, 106, true);
        List<List<RejectedArticle>> returned = new ArrayList<>();

        db.inTransaction(c ->
                returned.add(store.writeBinaries(c, List.of(good, nul, late, alsoGood), CategoryRules.defaults(), 1)));

        assertThat(returned.get(0)).extracting(RejectedArticle::article).containsExactly(103L, 104L, 105L);
        Release kept = store.release(db.ds, REFUSED, POSTER, "Good").orElseThrow();
        assertThat(kept.filesPresent()).isEqualTo(2);
        assertThat(store.release(db.ds, REFUSED, POSTER, "Late")).isEmpty();
        assertThat(TestDatabase.queryLong(db.ds, "select count(*) from binaries where group_name = '" + REFUSED + "'"))
                .isEqualTo(2);
        try (var c = db.ds.getConnection()) {
            assertThat(store.rejected(c, REFUSED))
                    .containsOnlyKeys(103L, 104L, 105L)
                    .allSatisfy(
                            (article, reason) -> assertThat(reason).startsWith("the catalog refused its binary: 22"));
        }
        assertThat(TestDatabase.queryString(
                        db.ds,
                        "select message_id from rejected_articles where group_name = '" + REFUSED
                                + "' and article = 104"))
                .isEqualTo("nul\u0000.rar.2@news.example".replace("\u0000", ""));
    }

    @Test
    void aFailureOfTheDatabaseItselfStillFailsTheWrite() throws Exception {
        CompletedBinary b = withArticles(binary("alt.binaries.cut", "Cut", "cut.rar", 1, 1, 1), 7, 7, false);
        try (var c = db.ds.getConnection();
                var other = db.ds.getConnection()) {
            c.setAutoCommit(false);
            long pid;
            try (var st = c.createStatement();
                    var rs = st.executeQuery("select pg_backend_pid()")) {
                rs.next();
                pid = rs.getLong(1);
            }
            try (var st = other.createStatement()) {
                st.execute("select pg_terminate_backend(" + pid + ")");
            }
            assertThatThrownBy(() -> store.writeBinaries(c, List.of(b), CategoryRules.defaults(), 1))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(CatalogStore.refusedContent((SQLException) e))
                            .isFalse());
        }
        try (var c = db.ds.getConnection()) {
            assertThat(store.rejected(c, "alt.binaries.cut")).isEmpty();
        }
    }

    /** {@code b} with its segments numbered as articles {@code first..last} (in order, the last repeated), fresh or not. */
    private static CompletedBinary withArticles(CompletedBinary b, long first, long last, boolean fresh) {
        List<Segment> numbered = new ArrayList<>();
        for (int i = 0; i < b.segments().size(); i++) {
            Segment s = b.segments().get(i);
            numbered.add(new Segment(s.part(), s.bytes(), s.messageId(), Math.min(last, first + i)));
        }
        return new CompletedBinary(
                b.group(),
                b.poster(),
                b.fileName(),
                b.totalParts(),
                b.releaseName(),
                b.fileTotal(),
                b.subject(),
                b.posted(),
                first,
                last,
                b.ruleVersion(),
                numbered,
                fresh);
    }

    private static CompletedBinary withPosted(CompletedBinary b, Instant posted) {
        return new CompletedBinary(
                b.group(),
                b.poster(),
                b.fileName(),
                b.totalParts(),
                b.releaseName(),
                b.fileTotal(),
                b.subject(),
                posted,
                b.firstArticle(),
                b.lastArticle(),
                b.ruleVersion(),
                b.segments(),
                b.fresh());
    }

    @Test
    void missingRunsAreRecordedOnce() throws Exception {
        db.inTransaction(c -> {
            store.recordMissing(c, "alt.binaries.other", 100, 199);
            store.recordMissing(c, "alt.binaries.other", 500, 500);
        });
        db.inTransaction(c -> store.recordMissing(c, "alt.binaries.other", 100, 199));

        assertThat(store.missing(db.ds, "alt.binaries.other"))
                .containsExactly(new MissingRun(100, 199), new MissingRun(500, 500));
    }

    @Test
    void aBatchsRunsAreOneRowThatABatchWrittenAgainOrALargerOneReplaces() throws Exception {
        String g = "alt.binaries.gaps";
        db.inTransaction(c -> {
            store.recordMissing(c, g, 1000, 1000); // one run, a span of its own
            store.recordMissing(c, g, 1, 100, List.of(new long[] {3, 4}, new long[] {50, 50}));
            store.recordMissing(c, g, 101, 200, List.of(new long[] {101, 120}));
        });
        db.inTransaction(c -> store.recordMissing(c, g, 1, 100, List.of(new long[] {3, 4}, new long[] {50, 50})));
        List<MissingRun> each = List.of(
                new MissingRun(3, 4), new MissingRun(50, 50), new MissingRun(101, 120), new MissingRun(1000, 1000));
        assertThat(store.missing(db.ds, g)).isEqualTo(each);
        assertThat(db.rows("select count(*)::text from missing_runs where group_name = '" + g + "'"))
                .containsExactly("3");

        // a larger batch over the same articles (HEADWAY_BATCH raised before a redo) replaces the smaller ones
        db.inTransaction(c -> store.recordMissing(
                c, g, 1, 1000, List.of(new long[] {3, 4}, new long[] {50, 50}, new long[] {101, 120}, new long[] {
                    1000, 1000
                })));
        assertThat(store.missing(db.ds, g)).isEqualTo(each);
        assertThat(db.rows("select count(*)::text from missing_runs where group_name = '" + g + "'"))
                .containsExactly("1");

        assertThatThrownBy(() -> db.inTransaction(c ->
                        store.recordMissing(c, g, 1, 10, List.of(new long[] {5, 6}, new long[] {6, 7}))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("out of order");
        assertThatThrownBy(() -> db.inTransaction(c -> store.recordMissing(c, g, 1, 10, List.of(new long[] {9, 11}))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outside articles 1..10");
    }

    @Test
    void aBatchWrittenAgainWithOtherBoundariesLeavesEachMissingArticleInOneRun() throws Exception {
        String g = "alt.binaries.redone";
        db.inTransaction(c -> store.recordMissing(
                c, g, 1, 20_000, List.of(new long[] {5, 7}, new long[] {9_990, 10_010}, new long[] {15_000, 15_000})));
        db.inTransaction(c -> store.recordMissing(c, g, 20_001, 40_000, List.of(new long[] {20_001, 20_003})));

        // a redo in batches of 5,000 (HEADWAY_BATCH lowered between the commit and its redo)
        db.inTransaction(c -> store.recordMissing(c, g, 5_001, 10_000, List.of(new long[] {9_990, 10_000})));
        db.inTransaction(c -> store.recordMissing(
                c, g, 10_001, 15_000, List.of(new long[] {10_001, 10_010}, new long[] {15_000, 15_000})));
        List<MissingRun> first = List.of(
                new MissingRun(5, 7),
                new MissingRun(9_990, 10_000),
                new MissingRun(10_001, 10_010),
                new MissingRun(15_000, 15_000));
        assertThat(store.missing(db.ds, g)).containsExactlyElementsOf(concat(first, new MissingRun(20_001, 20_003)));
        assertThat(spans(g))
                .as("the first pass's row keeps its runs outside the redone batches, as a row of their own")
                .containsExactly("1..5000", "5001..10000", "10001..15000", "20001..40000");

        // a batch straddling two rows clips both; one whose runs all lie within it leaves no row behind
        db.inTransaction(c -> store.recordMissing(c, g, 12_001, 25_000, List.of(new long[] {15_000, 15_000})));
        assertThat(store.missing(db.ds, g)).containsExactlyElementsOf(first);
        assertThat(spans(g)).containsExactly("1..5000", "5001..10000", "10001..12000", "12001..25000");
    }

    /** The spans of a group's rows of missing_runs, as "from..to", in article order. */
    private static List<String> spans(String group) throws Exception {
        return db.rows("select from_article || '..' || to_article from missing_runs where group_name = '" + group
                + "' order by from_article");
    }

    private static List<MissingRun> concat(List<MissingRun> runs, MissingRun more) {
        List<MissingRun> all = new ArrayList<>(runs);
        all.add(more);
        return all;
    }

    @Test
    void unknownGroupFailsNamingTheFix() throws Exception {
        assertThatThrownBy(() -> db.inTransaction(
                        c -> store.writeBinaries(c, List.of(binary("alt.binaries.nowhere", "X", "x.rar", 1, 1, 1)))))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("add the group");
        assertThatThrownBy(() -> db.inTransaction(c -> store.recordMissing(c, "alt.binaries.nowhere", 1, 2)))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("add the group");
        assertThatThrownBy(() -> db.inTransaction(c -> store.recordMissing(
                        c, "alt.binaries.nowhere", 1, 5, List.of(new long[] {1, 2}, new long[] {5, 5}))))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("headway groups add alt.binaries.nowhere");
        assertThatThrownBy(() -> db.inTransaction(c -> store.recordRejected(
                        c, List.of(new RejectedArticle("alt.binaries.nowhere", 3, "<id@x>", "no subject", "raw")))))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("add the group");
        assertThat(db.rows("select count(*)::text from missing_article_runs where group_name = 'alt.binaries.nowhere'"
                        + " union all select count(*)::text from rejected_articles"
                        + " where group_name = 'alt.binaries.nowhere'"))
                .as("nothing written for a group that is not there")
                .containsExactly("0", "0");
    }

    @Test
    void storedReleaseExportsAsNzb() throws Exception {
        db.inTransaction(c -> store.writeBinaries(c, List.of(binary(G, "Export", "export.rar", 3, 1, 3, 1, 2))));
        Release r = store.release(db.ds, G, POSTER, "Export").orElseThrow();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        NzbWriter.write(out, r.name(), store.binaries(db.ds, r));
        String xml = out.toString(StandardCharsets.UTF_8);
        assertThat(xml.indexOf("export.rar.1@news.example")).isLessThan(xml.indexOf("export.rar.2@news.example"));
        assertThat(xml.indexOf("export.rar.2@news.example")).isLessThan(xml.indexOf("export.rar.3@news.example"));
    }

    @Test
    void catalogSizeIsReported() throws Exception {
        assertThat(store.catalogBytes(db.ds)).isPositive();
    }
}
