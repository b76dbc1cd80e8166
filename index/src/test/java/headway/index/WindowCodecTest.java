package headway.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import headway.overview.OverviewLine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class WindowCodecTest {

    private static final RuleSet RULES = RuleSet.defaults(3);
    private static final String GROUP = "alt.binaries.test";
    private static final String POSTER = "poster <p@example.com>";

    @Test
    void snapshotMidStreamGivesTheSameBinariesAsAnUninterruptedRun() throws IOException {
        List<OverviewLine> lines = Headers.stream(42, 120, 4, 12, 5_000_000L);
        int half = lines.size() / 2;

        Window straight = new Window(GROUP, 400);
        List<CompletedBinary> expected = new ArrayList<>();
        for (OverviewLine l : lines) {
            straight.accept(l, RULES);
            expected.addAll(straight.drain());
        }
        straight.closeAll();
        expected.addAll(straight.drain());

        Window first = new Window(GROUP, 400);
        List<CompletedBinary> actual = new ArrayList<>();
        for (OverviewLine l : lines.subList(0, half)) {
            first.accept(l, RULES);
            actual.addAll(first.drain());
        }
        assertThat(first.stats().binaries()).as("binaries open at the cut").isPositive();
        ByteArrayOutputStream snapshot = new ByteArrayOutputStream();
        WindowCodec.write(first, snapshot);

        Window second = WindowCodec.read(new ByteArrayInputStream(snapshot.toByteArray()));
        assertThat(second.stats()).isEqualTo(first.stats());
        assertThat(second.newestArticle()).isEqualTo(first.newestArticle());
        for (OverviewLine l : lines.subList(half, lines.size())) {
            second.accept(l, RULES);
            actual.addAll(second.drain());
        }
        second.closeAll();
        actual.addAll(second.drain());

        assertThat(expected).hasSizeGreaterThan(400);
        assertThat(expected.stream().filter(b -> !b.complete())).isNotEmpty();
        assertThat(actual).containsExactlyElementsOf(expected);
        assertThat(second.stats()).isEqualTo(straight.stats());
    }

    @Test
    void segmentsKeepTheirArticlesAndAnOlderBuildsSnapshotIsRefused() throws IOException {
        Window w = new Window(GROUP, 10_000);
        w.accept(Headers.line(7, "\"a.rar\" yEnc (2/3)", POSTER, "a2@x"), RULES);
        w.accept(Headers.line(9, "\"a.rar\" yEnc (1/3)", POSTER, "a1@x"), RULES);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WindowCodec.write(w, out);
        Window read = WindowCodec.read(new ByteArrayInputStream(out.toByteArray()));
        assertThat(read.changedOpen().get(0).segments())
                .extracting(Segment::part, Segment::article)
                .containsExactly(tuple(1, 9L), tuple(2, 7L));

        // builds before the monthly catalog wrote versions 1 to 3, whose binaries may mix two months
        String current = """
                {"format": "headway.window", "formatVersion": 4, "group": "alt.binaries.test", "maxAgeArticles": 100,
                 "newestArticle": 9, "accepted": 2, "unmatched": 0, "rejected": 0, "duplicates": 0,
                 "binaries": [{"poster": "p", "file": "a.rar", "total": 3, "release": "a", "fileTotal": -1,
                               "subject": "s", "first": 7, "last": 9, "rule": 3,
                               "segments": [[1, 10, "a1@x"], [2, 20, "a2@x", 1]]}]}
                """;
        assertThat(WindowCodec.read(new ByteArrayInputStream(gzip(current)))
                        .changedOpen()
                        .get(0)
                        .segments())
                .extracting(Segment::messageId, Segment::article)
                .containsExactly(tuple("a1@x", -1L), tuple("a2@x", 8L));
        for (int older = 1; older <= 3; older++) {
            String json = current.replace("\"formatVersion\": 4", "\"formatVersion\": " + older);
            assertThatThrownBy(() -> WindowCodec.read(new ByteArrayInputStream(gzip(json))))
                    .isInstanceOf(BadSnapshotException.class)
                    .hasMessageContaining("v4");
        }
    }

    @Test
    void aFilePostedAcrossAMonthBoundaryIsTwoBinariesOfOneRelease() throws IOException {
        Window w = new Window(GROUP, 10_000);
        w.catalogHoldsUpTo(0);
        w.accept(
                Headers.line(
                        1,
                        "Show.S01E01 - [1/1] - \"a.rar\" yEnc (1/3)",
                        POSTER,
                        "a1@x",
                        "Tue, 30 Nov 2027 23:59:58 +0000"),
                RULES);
        w.accept(
                Headers.line(
                        2,
                        "Show.S01E01 - [1/1] - \"a.rar\" yEnc (2/3)",
                        POSTER,
                        "a2@x",
                        "Wed, 01 Dec 2027 00:00:01 +0000"),
                RULES);
        w.accept(
                Headers.line(
                        3,
                        "Show.S01E01 - [1/1] - \"a.rar\" yEnc (3/3)",
                        POSTER,
                        "a3@x",
                        "Wed, 01 Dec 2027 00:00:02 +0000"),
                RULES);
        List<CompletedBinary> halves = w.changedOpen();
        assertThat(halves)
                .extracting(
                        b -> PostingMonth.firstDay(b.posted()).toString(),
                        CompletedBinary::releaseName,
                        b -> b.segments().stream().map(Segment::messageId).toList(),
                        CompletedBinary::fresh)
                .containsExactly(
                        tuple("2027-11-01", halves.get(0).releaseName(), List.of("a1@x"), false),
                        tuple("2027-12-01", halves.get(0).releaseName(), List.of("a2@x", "a3@x"), false));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WindowCodec.write(w, out);
        Window read = WindowCodec.read(new ByteArrayInputStream(out.toByteArray()));
        read.accept(
                Headers.line(
                        4,
                        "Show.S01E01 - [1/1] - \"a.rar\" yEnc (1/3)",
                        POSTER,
                        "a1@x",
                        "Tue, 30 Nov 2027 23:59:58 +0000"),
                RULES);
        assertThat(read.stats().duplicates())
                .as("the snapshot keeps each half under its month")
                .isEqualTo(1);
    }

    @Test
    void garbageAndTruncatedSnapshotsThrowClearly() throws IOException {
        Window w = new Window(GROUP, 10_000);
        for (int i = 1; i <= 300; i++) {
            w.accept(Headers.line(i, "\"f" + i + ".rar\" yEnc (1/2)", POSTER, i + "@x"), RULES);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WindowCodec.write(w, out);
        byte[] good = out.toByteArray();

        assertThat(WindowCodec.read(new ByteArrayInputStream(good)).stats().binaries())
                .isEqualTo(300);
        assertThatThrownBy(() ->
                        WindowCodec.read(new ByteArrayInputStream("not a snapshot".getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(BadSnapshotException.class)
                .hasMessageContaining("not gzip");
        for (int cut : new int[] {good.length / 2, good.length - 4, 12}) {
            byte[] truncated = Arrays.copyOf(good, cut);
            assertThatThrownBy(() -> WindowCodec.read(new ByteArrayInputStream(truncated)))
                    .as("cut at " + cut)
                    .isInstanceOf(BadSnapshotException.class)
                    .hasMessageContaining("discard the snapshot");
        }
        assertThatThrownBy(() -> WindowCodec.read(new ByteArrayInputStream(gzip("{\"format\": \"other\"}"))))
                .isInstanceOf(BadSnapshotException.class);
        assertThatThrownBy(() -> WindowCodec.read(new ByteArrayInputStream(gzip("[1, 2"))))
                .isInstanceOf(BadSnapshotException.class);
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (var gz = new GZIPOutputStream(out)) {
            gz.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }
}
