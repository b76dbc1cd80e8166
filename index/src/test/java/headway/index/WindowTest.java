package headway.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import headway.overview.OverviewLine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowTest {

    private static final RuleSet RULES = RuleSet.defaults(3);
    private static final String GROUP = "alt.binaries.test";
    private static final String POSTER = "poster <p@example.com>";

    @Test
    void binarySpanningThreeRangesIsAssembledOnce() {
        Window w = new Window(GROUP, 10_000);
        List<CompletedBinary> out = new ArrayList<>();
        long[][] ranges = {{100, 199}, {200, 299}, {300, 399}};
        int part = 1;
        for (long[] range : ranges) {
            for (long a = range[0]; a <= range[1]; a += 50) {
                w.accept(
                        Headers.line(a, "Rel - [1/1] - \"rel.mkv\" yEnc (" + part + "/6)", POSTER, "m" + part + "@x"),
                        RULES);
                w.accept(Headers.line(a + 1, "chatter about nothing", POSTER, "c" + a + "@x"), RULES);
                part++;
            }
            out.addAll(w.drain());
        }

        assertThat(out).hasSize(1);
        CompletedBinary b = out.get(0);
        assertThat(b.complete()).isTrue();
        assertThat(b.partsPresent()).isEqualTo(6);
        assertThat(b.firstArticle()).isEqualTo(100);
        assertThat(b.lastArticle()).isEqualTo(350);
        assertThat(b.releaseName()).isEqualTo("Rel");
        assertThat(b.fileTotal()).isEqualTo(1);
        assertThat(b.ruleVersion()).isEqualTo(3);
        assertThat(b.posted()).isEqualTo(Instant.parse("2026-12-02T17:17:02Z"));
        assertThat(b.segments()).extracting(Segment::part).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(b.segments().get(0).messageId()).isEqualTo("m1@x");
        assertThat(w.stats().binaries()).isZero();
        assertThat(w.stats().unmatched()).isEqualTo(6);
    }

    @Test
    void aHeaderThatFailsWhileItIsReadGoesToTheLedgerAndLeavesTheWindowAsItWas() throws IOException {
        String failing = "Fri, 04 Dec 2026 10:00:00 +0000"; // the date this window's date reader fails on
        Window w = new Window(GROUP, 1_000, date -> {
            if (date.equals(failing)) {
                return Instant.ofEpochSecond(date.substring(40).length()); // a real StringIndexOutOfBoundsException
            }
            return HeaderDates.parse(date);
        });
        String longPoster = "p".repeat(Poison.KEY_BYTES + 10) + " <p@x>"; // keyed by a bounded form, a long name
        String subject = "Rel - [1/1] - \"rel.rar\" yEnc (%d/3)";
        w.accept(Headers.line(10, String.format(subject, 1), longPoster, "m1@x"), RULES);
        w.accept(Headers.line(11, String.format(subject, 2), longPoster, "m2@x"), RULES);
        w.accept(Headers.line(12, "chatter", POSTER, "c@x"), RULES);
        w.drainLongNames();
        w.drainMisses();
        Window.Stats before = w.stats();
        byte[] snapshotBefore = snapshot(w);

        // part 3 would complete the binary; a new binary would open; both fail on their date
        OverviewLine third =
                new OverviewLine(13, String.format(subject, 3), longPoster, failing, "<m3@x>", "", 700_000, 5400, "");
        OverviewLine other = new OverviewLine(
                14, "Other - [1/1] - \"other.rar\" yEnc (1/2)", "x".repeat(2000), failing, "<o@x>", "", 1, 1, "");
        w.accept(third, RULES);
        w.accept(other, RULES);

        assertThat(w.drainRejected())
                .extracting(RejectedArticle::article, RejectedArticle::messageId)
                .containsExactly(tuple(13L, "m3@x"), tuple(14L, "o@x"));
        assertThat(w.stats()).isEqualTo(before);
        assertThat(w.newestArticle()).isEqualTo(12);
        assertThat(w.drain()).isEmpty();
        assertThat(w.drainLongNames()).isEmpty();
        assertThat(w.drainMisses().size()).isZero();
        assertThat(snapshot(w)).isEqualTo(snapshotBefore);

        w.accept(Headers.line(15, String.format(subject, 3), longPoster, "m3-again@x"), RULES);
        List<CompletedBinary> out = w.drain();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).segments())
                .extracting(Segment::messageId, Segment::article)
                .containsExactly(tuple("m1@x", 10L), tuple("m2@x", 11L), tuple("m3-again@x", 15L));
    }

    @Test
    void theLedgerNamesTheFailureAndTheJvmsOwnFailuresAreNotSwallowed() {
        Window w = new Window(GROUP, 1_000, date -> {
            switch (date) {
                case "overflow" -> throw new StackOverflowError();
                case "memory" -> throw new OutOfMemoryError("test: no memory was exhausted");
                default -> {
                    return Instant.ofEpochSecond(Integer.parseInt(date));
                }
            }
        });
        String subject = "Rel - [1/1] - \"rel.rar\" yEnc (1/3)";
        w.accept(new OverviewLine(1, subject, POSTER, "12x", "<a@x>", "", 1, 1, ""), RULES);
        w.accept(new OverviewLine(2, subject, POSTER, "overflow", "<b@x>", "", 1, 1, ""), RULES);
        assertThat(w.drainRejected())
                .extracting(RejectedArticle::reason)
                .satisfiesExactly(
                        r -> assertThat(r)
                                .startsWith("reading the header failed: NumberFormatException at headway.index.")
                                .endsWith("For input string: \"12x\""),
                        r -> assertThat(r).startsWith("reading the header failed: StackOverflowError at "));
        assertThatThrownBy(() -> w.accept(new OverviewLine(3, subject, POSTER, "memory", "<c@x>", "", 1, 1, ""), RULES))
                .isInstanceOf(OutOfMemoryError.class);
        assertThat(w.drainRejected()).isEmpty();
    }

    @Test
    void aFileCounterOfNoFilesCountsNone() {
        // the catalog divides by a release's file count: measured, [01/0] failed its batch with division by zero
        Window w = new Window(GROUP, 1_000);
        w.accept(Headers.line(1, "Rel [01/0] - \"rel.rar\" yEnc (1/1)", POSTER, "z@x"), RULES);
        w.accept(Headers.line(2, "Rel [01/3] - \"rel.nfo\" yEnc (1/1)", POSTER, "t@x"), RULES);
        assertThat(w.drain()).extracting(CompletedBinary::fileTotal).containsExactly(-1, 3);
    }

    @Test
    void anEmojiBeforeTheCounterIsAssembledLikeAnyPart() {
        // measured before: the rule memo threw on it, and the group parked
        Window w = new Window(GROUP, 1_000);
        for (int part = 1; part <= 3; part++) {
            w.accept(
                    Headers.line(
                            part,
                            "\uD83D\uDE00 Release.Name [1/1] - \"f.bin\" yEnc (" + part + "/3)",
                            POSTER,
                            "e" + part + "@x"),
                    RULES);
        }
        assertThat(w.drainRejected()).isEmpty();
        List<CompletedBinary> out = w.drain();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).releaseName()).isEqualTo("\uD83D\uDE00 Release.Name");
        assertThat(out.get(0).complete()).isTrue();
    }

    private static byte[] snapshot(Window w) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        w.writeTo(out);
        return out.toByteArray();
    }

    @Test
    void oneFileNameUnderManyPostersMakesABinaryForEachPoster() {
        // the keys share a hash bucket (the poster is left out of the hash); each poster's parts stay its own
        Window w = new Window(GROUP, 1_000_000);
        int posters = 500;
        long article = 1;
        for (int part = 1; part <= 3; part++) {
            for (int p = 0; p < posters; p++) {
                w.accept(
                        Headers.line(
                                article++,
                                "\"same.rar\" yEnc (" + part + "/3)",
                                "p" + p + " <p@x>",
                                p + "." + part + "@x"),
                        RULES);
            }
        }
        List<CompletedBinary> out = w.drain();
        assertThat(out).hasSize(posters);
        assertThat(out).allSatisfy(b -> {
            assertThat(b.complete()).isTrue();
            String p = b.poster().substring(1, b.poster().indexOf(' '));
            assertThat(b.segments()).extracting(Segment::messageId).containsExactly(p + ".1@x", p + ".2@x", p + ".3@x");
        });
    }

    @Test
    void keysOrderConsistentlyWithEquals() {
        Window.Key a = new Window.Key("p1", "f.rar", 3, 24_323);
        assertThat(a)
                .isEqualTo(new Window.Key("p1", new String("f.rar"), 3, 24_323))
                .hasSameHashCodeAs(new Window.Key("p1", "f.rar", 3, 24_323));
        assertThat(a.compareTo(new Window.Key("p1", "f.rar", 3, 24_323))).isZero();
        for (Window.Key other : List.of(
                new Window.Key("p2", "f.rar", 3, 24_323),
                new Window.Key("p1", "g.rar", 3, 24_323),
                new Window.Key("p1", "f.rar", 4, 24_323),
                new Window.Key("p1", "f.rar", 3, 24_324),
                new Window.Key("p1", "f.rar", 3, PostingMonth.UNDATED))) {
            assertThat(a).isNotEqualTo(other);
            assertThat(Integer.signum(a.compareTo(other)))
                    .isEqualTo(-Integer.signum(other.compareTo(a)))
                    .isNotZero();
        }
    }

    @Test
    void repeatedPartIsNotCountedTwice() {
        Window w = new Window(GROUP, 10_000);
        w.accept(Headers.line(1, "\"a.rar\" yEnc (1/3)", POSTER, "1@x"), RULES);
        w.accept(Headers.line(2, "\"a.rar\" yEnc (1/3)", POSTER, "1b@x"), RULES);
        w.accept(Headers.line(3, "\"a.rar\" yEnc (2/3)", POSTER, "2@x"), RULES);

        assertThat(w.drain()).isEmpty();
        assertThat(w.stats()).isEqualTo(new Window.Stats(1, 2, 3, 0, 0, 1));
        w.accept(Headers.line(4, "\"a.rar\" yEnc (3/3)", POSTER, "3@x"), RULES);
        List<CompletedBinary> out = w.drain();
        assertThat(out).singleElement().satisfies(b -> {
            assertThat(b.segments()).extracting(Segment::messageId).containsExactly("1@x", "2@x", "3@x");
            assertThat(b.completionPercent()).isEqualTo(100.0);
        });
    }

    @Test
    void aPostWithoutAnArticleCounterIsHeldAsOnePartOfOne() {
        Window w = new Window(GROUP, 10_000);
        w.accept(Headers.line(5, "\"lone.nfo\" yEnc", POSTER, "lone@x"), RULES);
        assertThat(w.drain()).singleElement().satisfies(b -> {
            assertThat(b.totalParts()).isEqualTo(1);
            assertThat(b.complete()).isTrue();
            assertThat(b.segments()).extracting(Segment::part).containsExactly(1);
            assertThat(b.releaseName()).isEqualTo("lone");
        });
    }

    @Test
    void filesOfOnePostNamedInDifferentCaseLandInOneReleaseSpelledAsTheFirst() throws IOException {
        Window w = new Window(GROUP, 10_000);
        w.accept(Headers.line(1, "\"Show.S01E01.720p.HDTV.x264-GRP.nfo\" yEnc (1/1)", POSTER, "n@x"), RULES);
        w.accept(Headers.line(2, "\"show.s01e01.720p.hdtv.x264-grp.r00\" yEnc (1/2)", POSTER, "r1@x"), RULES);
        w.accept(
                Headers.line(3, "\"Show S01E01 720p HDTV x264 GRP.par2\" yEnc (1/1)", "someone else <e@x>", "o@x"),
                RULES);

        ByteArrayOutputStream snapshot = new ByteArrayOutputStream();
        w.drain();
        w.writeTo(snapshot);
        Window taken = Window.readFrom(new ByteArrayInputStream(snapshot.toByteArray()));
        taken.accept(Headers.line(4, "\"show.s01e01.720p.hdtv.x264-grp.r00\" yEnc (2/2)", POSTER, "r2@x"), RULES);
        taken.accept(
                Headers.line(5, "\"SHOW.S01E01.720P.HDTV.X264-GRP.vol00+01.par2\" yEnc (1/1)", POSTER, "v@x"), RULES);

        assertThat(taken.drain())
                .extracting(CompletedBinary::releaseName)
                .containsExactly("Show.S01E01.720p.HDTV.x264-GRP", "Show.S01E01.720p.HDTV.x264-GRP");
    }

    @Test
    void zeroBasedPartsCompleteAtTheirCount() {
        Window w = new Window(GROUP, 10_000);
        for (int p = 0; p < 3; p++) {
            w.accept(Headers.line(10 + p, "\"z.r00\" yEnc (" + p + "/3)", POSTER, p + "@x"), RULES);
        }
        assertThat(w.drain())
                .singleElement()
                .satisfies(b -> assertThat(b.complete()).isTrue());
    }

    @Test
    void oldIncompleteBinaryAgesOutWithItsCompletion() {
        Window w = new Window(GROUP, 100);
        w.accept(Headers.line(1000, "\"old.rar\" yEnc (1/4)", POSTER, "o1@x"), RULES);
        w.accept(Headers.line(1050, "\"new.rar\" yEnc (1/4)", POSTER, "n1@x"), RULES);
        w.accept(Headers.line(1100, "chatter", POSTER, "c@x"), RULES);
        assertThat(w.drain()).isEmpty();

        w.accept(Headers.line(1101, "chatter", POSTER, "c2@x"), RULES);
        List<CompletedBinary> out = w.drain();
        assertThat(out).singleElement().satisfies(b -> {
            assertThat(b.fileName()).isEqualTo("old.rar");
            assertThat(b.complete()).isFalse();
            assertThat(b.completionPercent()).isEqualTo(25.0);
        });
        w.ageTo(1200);
        assertThat(w.drain()).extracting(CompletedBinary::fileName).containsExactly("new.rar");
        assertThat(w.stats().binaries()).isZero();
        assertThat(w.stats().segments()).isZero();
    }

    @Test
    void partsArrivingOutOfOrderAreHeldSortedAndOnce() {
        Window w = new Window(GROUP, 10_000);
        int[] order = {12, 3, 1, 20, 7, 3, 2, 19, 4, 5, 6, 8, 9, 10, 11, 13, 14, 15, 16, 17, 12, 18};
        long article = 1;
        for (int part : order) {
            w.accept(
                    Headers.line(article++, "\"big.rar\" yEnc (" + part + "/20)", POSTER, part + "." + article + "@x"),
                    RULES);
        }

        List<CompletedBinary> out = w.drain();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).segments())
                .extracting(Segment::part)
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20);
        assertThat(out.get(0).segments().get(2).messageId()).isEqualTo("3.3@x");
        assertThat(w.stats().duplicates()).isEqualTo(2);
    }

    @Test
    void agingFollowsTheOldestOpenBinaryWhenTheOldestCompletes() {
        Window w = new Window(GROUP, 100);
        w.accept(Headers.line(1, "\"a.rar\" yEnc (1/2)", POSTER, "a1@x"), RULES);
        w.accept(Headers.line(2, "\"b.rar\" yEnc (1/2)", POSTER, "b1@x"), RULES);
        w.accept(Headers.line(50, "\"c.rar\" yEnc (1/2)", POSTER, "c1@x"), RULES);
        w.accept(Headers.line(60, "\"a.rar\" yEnc (2/2)", POSTER, "a2@x"), RULES);
        assertThat(w.drain()).extracting(CompletedBinary::fileName).containsExactly("a.rar");

        w.ageTo(102);
        assertThat(w.drain()).isEmpty();
        w.ageTo(103);
        assertThat(w.drain()).extracting(CompletedBinary::fileName).containsExactly("b.rar");
        w.ageTo(150);
        assertThat(w.drain()).isEmpty();
        w.ageTo(151);
        List<CompletedBinary> aged = w.drain();
        assertThat(aged).extracting(CompletedBinary::fileName).containsExactly("c.rar");
        assertThat(aged.get(0).complete()).isFalse();
        assertThat(w.stats().binaries()).isZero();
    }

    @Test
    void samePosterSameFileDifferentTotalsAreDifferentBinaries() {
        Window w = new Window(GROUP, 10_000);
        w.accept(Headers.line(1, "\"a.rar\" yEnc (1/3)", POSTER, "1@x"), RULES);
        w.accept(Headers.line(2, "\"a.rar\" yEnc (1/4)", POSTER, "2@x"), RULES);
        w.accept(Headers.line(3, "\"a.rar\" yEnc (1/3)", "other <o@x>", "3@x"), RULES);
        assertThat(w.stats().binaries()).isEqualTo(3);
    }

    @Test
    void snapshotRefusesUndrainedBinaries() {
        Window w = new Window(GROUP, 10_000);
        w.accept(Headers.line(1, "\"a.rar\" yEnc (1/1)", POSTER, "1@x"), RULES);
        assertThatThrownBy(() -> w.writeTo(new ByteArrayOutputStream()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("drain()");
    }

    @Test
    void onlyBinariesOpenedPastTheCatalogAndNeverHandedOverLeaveFresh() throws IOException {
        Window untold = new Window(GROUP, 10_000);
        untold.accept(Headers.line(1, "\"u.rar\" yEnc (1/1)", POSTER, "u@x"), RULES);
        assertThat(untold.drain())
                .singleElement()
                .satisfies(b -> assertThat(b.fresh()).isFalse());

        Window w = new Window(GROUP, 10_000);
        w.catalogHoldsUpTo(100);
        w.accept(Headers.line(100, "\"held.rar\" yEnc (1/2)", POSTER, "h1@x"), RULES);
        w.accept(Headers.line(101, "\"new.rar\" yEnc (1/2)", POSTER, "n1@x"), RULES);
        w.accept(Headers.line(102, "\"snap.rar\" yEnc (1/2)", POSTER, "s1@x"), RULES);
        assertThat(w.changedOpen())
                .extracting(CompletedBinary::fileName, CompletedBinary::fresh)
                .containsExactly(tuple("held.rar", false), tuple("new.rar", true), tuple("snap.rar", true));
        w.markOpenWritten(); // the snapshot's copies are in the catalog now
        w.accept(Headers.line(103, "\"late.rar\" yEnc (1/1)", POSTER, "l1@x"), RULES);
        w.accept(Headers.line(104, "\"held.rar\" yEnc (2/2)", POSTER, "h2@x"), RULES);
        w.accept(Headers.line(105, "\"snap.rar\" yEnc (2/2)", POSTER, "s2@x"), RULES);
        // a replay (a redo, a rebuilt window) goes back below the newest article fed
        w.accept(Headers.line(50, "\"replayed.rar\" yEnc (1/1)", POSTER, "r1@x"), RULES);
        assertThat(w.drain())
                .extracting(CompletedBinary::fileName, CompletedBinary::fresh)
                .containsExactly(
                        tuple("late.rar", true),
                        tuple("held.rar", false),
                        tuple("snap.rar", false),
                        tuple("replayed.rar", false));

        w.accept(Headers.line(106, "\"open.rar\" yEnc (1/2)", POSTER, "o1@x"), RULES);
        ByteArrayOutputStream snapshot = new ByteArrayOutputStream();
        w.writeTo(snapshot);
        Window taken = Window.readFrom(new ByteArrayInputStream(snapshot.toByteArray()));
        taken.catalogHoldsUpTo(99);
        taken.accept(Headers.line(107, "\"open.rar\" yEnc (2/2)", POSTER, "o2@x"), RULES);
        assertThat(taken.drain())
                .singleElement()
                .satisfies(b -> assertThat(b.fresh()).isFalse());
    }

    @Test
    void theSnapshotCopyOfABinaryIsTheBinaryThatLeaves() {
        Window w = new Window(GROUP, 10_000);
        w.catalogHoldsUpTo(5);
        w.accept(Headers.line(7, "Show [03/20] - \"show.r01\" yEnc (1/2)", POSTER, "1@x"), RULES);
        List<CompletedBinary> copies = w.changedOpen();
        w.closeAll();
        assertThat(copies).singleElement().satisfies(copy -> {
            assertThat(copy.fileTotal()).isEqualTo(20);
            assertThat(copy.fresh()).isTrue();
        });
        assertThat(w.drain()).containsExactlyElementsOf(copies);
    }
}
