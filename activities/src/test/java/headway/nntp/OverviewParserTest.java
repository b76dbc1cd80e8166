package headway.nntp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
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
}
