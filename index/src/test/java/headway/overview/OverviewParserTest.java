package headway.overview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class OverviewParserTest {
    private final OverviewParser rfc = OverviewParser.defaultFormat();

    @Test
    void parsesDefaultOrderAndStripsXrefName() {
        OverviewLine l = rfc.parse(
                "17\t[01/20] - \"a.part01.rar\" yEnc (1/30)\tposter <p@x.test>\t"
                        + "Wed, 02 Dec 2026 15:29:50 GMT\t<id17@x.test>\t<ref@x>\t612345\t4790\tXref: x.test alt.binaries.test:17");
        assertThat(l)
                .isEqualTo(new OverviewLine(
                        17,
                        "[01/20] - \"a.part01.rar\" yEnc (1/30)",
                        "poster <p@x.test>",
                        "Wed, 02 Dec 2026 15:29:50 GMT",
                        "<id17@x.test>",
                        "<ref@x>",
                        612345,
                        4790,
                        "x.test alt.binaries.test:17"));
    }

    @Test
    void aFailureWhileTheFieldsAreReadIsAMalformedLineOfItsArticle() {
        // the client's line buffer told the parser of more bytes than it holds: reading the fields fails
        byte[] b = "17\tsubject\tposter".getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> rfc.parse(b, 0, b.length + 10))
                .isInstanceOfSatisfying(MalformedOverviewException.class, e -> {
                    assertThat(e.article()).isEqualTo(17);
                    assertThat(e.getMessage())
                            .startsWith("reading the overview line failed: ArrayIndexOutOfBoundsException at"
                                    + " headway.overview.OverviewParser.");
                });
    }

    @Test
    void innFormatWithHeaderStyleNamesAndFullXref() {
        OverviewParser inn = OverviewParser.forFormat(
                List.of("Subject:", "From:", "Date:", "Message-ID:", "References:", "Bytes:", "Lines:", "Xref:full"));
        OverviewLine l = inn.parse("1\ts\tf\td\t<m>\t\t1207\t10\tXref: nntp.test alt.binaries.test:1");
        assertThat(l.bytes()).isEqualTo(1207);
        assertThat(l.lines()).isEqualTo(10);
        assertThat(l.xref()).isEqualTo("nntp.test alt.binaries.test:1");
        assertThat(l.references()).isEmpty();
    }

    @Test
    void honoursAnotherFieldOrderAndIgnoresUnknownFields() {
        OverviewParser p = OverviewParser.forFormat(List.of(
                "From:",
                "Subject:",
                "Message-ID:",
                "Date:",
                "References:",
                ":lines",
                ":bytes",
                "X-Extra:full",
                "Xref:full"));
        OverviewLine l = p.parse("5\tfrom\tsubj\t<m5>\tdate\t\t12\t3400\tX-Extra: junk\tXref: h g:5");
        assertThat(l.from()).isEqualTo("from");
        assertThat(l.subject()).isEqualTo("subj");
        assertThat(l.messageId()).isEqualTo("<m5>");
        assertThat(l.date()).isEqualTo("date");
        assertThat(l.lines()).isEqualTo(12);
        assertThat(l.bytes()).isEqualTo(3400);
        assertThat(l.xref()).isEqualTo("h g:5");
    }

    @Test
    void optionalFullFieldsMayBeAbsent() {
        OverviewLine l = rfc.parse("9\ts\tf\td\t<m>\t\t100\t2");
        assertThat(l.xref()).isEmpty();
        assertThat(l.article()).isEqualTo(9);
    }

    @Test
    void unparseableBytesAndLinesBecomeMinusOne() {
        OverviewLine l = rfc.parse("9\ts\tf\td\t<m>\t\tabc\t\t");
        assertThat(l.bytes()).isEqualTo(-1);
        assertThat(l.lines()).isEqualTo(-1);
        assertThat(rfc.parse("9\ts\tf\td\t<m>\t\t 77 \t99999999999").lines()).isEqualTo(-1);
        assertThat(rfc.parse("9\ts\tf\td\t<m>\t\t 77 \t5").bytes()).isEqualTo(77);
    }

    @Test
    void eightBitSubjectsSurviveByteForByte() {
        String subject = "Caf\u00e9 \u00dcber \u00ff [1/2] - \"x.rar\" yEnc (1/3)";
        assertThat(rfc.parse("3\t" + subject + "\tf\td\t<m>\t\t1\t1").subject()).isEqualTo(subject);
    }

    @Test
    void tooFewFieldsKeepsTheArticleNumber() {
        assertThatThrownBy(() -> rfc.parse("42\tsubject only"))
                .isInstanceOfSatisfying(MalformedOverviewException.class, e -> {
                    assertThat(e.article()).isEqualTo(42);
                    assertThat(e.getMessage()).contains("too few fields");
                });
        assertThatThrownBy(() -> rfc.parse("43"))
                .isInstanceOfSatisfying(
                        MalformedOverviewException.class,
                        e -> assertThat(e.article()).isEqualTo(43));
    }

    @Test
    void unreadableArticleNumberGivesMinusOne() {
        assertThatThrownBy(() -> rfc.parse("x12\ts\tf\td\t<m>\t\t1\t1"))
                .isInstanceOfSatisfying(MalformedOverviewException.class, e -> {
                    assertThat(e.article()).isEqualTo(-1);
                    assertThat(e.getMessage()).contains("not numeric");
                });
        assertThatThrownBy(() -> rfc.parse("no tabs at all"))
                .isInstanceOfSatisfying(MalformedOverviewException.class, e -> {
                    assertThat(e.article()).isEqualTo(-1);
                    assertThat(e.getMessage()).contains("no tab-separated article number");
                });
        assertThatThrownBy(() -> rfc.parse("")).isInstanceOf(MalformedOverviewException.class);
        assertThatThrownBy(() -> rfc.parse("\ts\tf\td\t<m>\t\t1\t1"))
                .isInstanceOfSatisfying(
                        MalformedOverviewException.class,
                        e -> assertThat(e.article()).isEqualTo(-1));
    }

    @Test
    void emptyFormatIsRejectedWithAFix() {
        assertThatThrownBy(() -> OverviewParser.forFormat(List.of(" "))).hasMessageContaining("DEFAULT_FORMAT");
    }

    /**
     * Random lines (up to 4 kB of random bytes: NUL, CR, LF, tabs, 8-bit), some behind a valid or an
     * overlong article number, through the default parser and parsers for random formats: each
     * line is an OverviewLine with its number and no null field, or a MalformedOverviewException;
     * nothing else escapes.
     */
    @Test
    void randomLinesGiveAnOverviewLineOrAMalformedLineOnly() {
        long seed = 1414L;
        Random random = new Random(seed);
        List<OverviewParser> parsers = new ArrayList<>(List.of(rfc));
        for (int i = 0; i < 20; i++) {
            parsers.add(OverviewParser.forFormat(randomFormat(random)));
        }
        int parsed = 0;
        int malformed = 0;
        for (int round = 0; round < 20_000; round++) {
            byte[] line = randomLine(random);
            OverviewParser p = parsers.get(random.nextInt(parsers.size()));
            try {
                OverviewLine l = random.nextBoolean()
                        ? p.parse(line, 0, line.length)
                        : p.parse(new String(line, StandardCharsets.ISO_8859_1));
                if (l.article() < 0
                        || Stream.of(l.subject(), l.from(), l.date(), l.messageId(), l.references(), l.xref())
                                .anyMatch(Objects::isNull)) {
                    fail("seed " + seed + " round " + round + ": " + l);
                }
                parsed++;
            } catch (MalformedOverviewException e) {
                if (e.article() < -1) {
                    fail("seed " + seed + " round " + round + ": article " + e.article());
                }
                malformed++;
            }
        }
        assertThat(parsed).isPositive();
        assertThat(malformed).isPositive();
    }

    private static byte[] randomLine(Random random) {
        byte[] junk = new byte[random.nextInt(4097)];
        random.nextBytes(junk);
        for (int k = 0; k < junk.length; k++) {
            if (random.nextInt(20) == 0) {
                junk[k] = '\t';
            }
        }
        String prefix = switch (random.nextInt(4)) {
            case 0 -> random.nextInt(1_000_000) + "\t";
            case 1 -> "99999999999999999999\t";
            case 2 -> random.nextInt(1_000_000) + "\ts\tf\td\t<m>\t\t";
            default -> "";
        };
        byte[] head = prefix.getBytes(StandardCharsets.ISO_8859_1);
        byte[] line = new byte[head.length + junk.length];
        System.arraycopy(head, 0, line, 0, head.length);
        System.arraycopy(junk, 0, line, head.length, junk.length);
        return line;
    }

    private static List<String> randomFormat(Random random) {
        List<String> known = List.of(
                "Subject:",
                "From:",
                "Date:",
                "Message-ID:",
                "References:",
                ":bytes",
                "Bytes:",
                ":lines",
                "Lines:",
                "Xref:full",
                "X-Other:full",
                ":full",
                "full",
                "Xref",
                ":",
                "\u00ff:full");
        List<String> format = new ArrayList<>();
        int n = 1 + random.nextInt(12);
        for (int i = 0; i < n; i++) {
            format.add(known.get(random.nextInt(known.size())));
        }
        return format;
    }
}
