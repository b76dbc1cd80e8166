package headway.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXParseException;

class NzbWriterTest {

    @Test
    void writesAValidNzb11WithSegmentsInPartOrder() throws Exception {
        List<Segment> shuffled =
                List.of(new Segment(3, 300, "c<3>&@x"), new Segment(1, 100, "a1@x"), new Segment(2, 200, "b2@x"));
        CompletedBinary one = new CompletedBinary(
                "alt.binaries.test",
                "Joe \"Poster\" <joe@example.com>",
                "rel.part1.rar",
                3,
                "Rel & Co <2024>",
                2,
                "Rel & Co - [1/2] - \"rel.part1.rar\" yEnc (1/3)\u0001",
                Instant.ofEpochSecond(1_700_000_000L),
                10,
                30,
                1,
                shuffled);
        CompletedBinary two = new CompletedBinary(
                "alt.binaries.test",
                "Joe <joe@example.com>",
                "rel.par2",
                1,
                "Rel & Co <2024>",
                2,
                "Rel & Co - [2/2] - \"rel.par2\" yEnc (0/1)",
                null,
                40,
                40,
                1,
                List.of(new Segment(0, 50, "p0@x")));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        NzbWriter.write(out, "Rel & Co <2024>", List.of(one, two));
        String xml = out.toString(StandardCharsets.UTF_8);

        assertThat(xml)
                .contains(
                        "<!DOCTYPE nzb PUBLIC \"-//newzBin//DTD NZB 1.1//EN\" \"http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd\">");
        Document doc = parseValidating(out.toByteArray());
        Element root = doc.getDocumentElement();
        assertThat(root.getNamespaceURI()).isEqualTo("http://www.newzbin.com/DTD/2003/nzb");
        Element meta = (Element) root.getElementsByTagNameNS("*", "meta").item(0);
        assertThat(meta.getAttribute("type")).isEqualTo("name");
        assertThat(meta.getTextContent()).isEqualTo("Rel & Co <2024>");

        NodeList files = root.getElementsByTagNameNS("*", "file");
        assertThat(files.getLength()).isEqualTo(2);
        Element first = (Element) files.item(0);
        assertThat(first.getAttribute("poster")).isEqualTo("Joe \"Poster\" <joe@example.com>");
        assertThat(first.getAttribute("date")).isEqualTo("1700000000");
        assertThat(first.getAttribute("subject")).isEqualTo("Rel & Co - [1/2] - \"rel.part1.rar\" yEnc (1/3)");
        assertThat(first.getElementsByTagNameNS("*", "group").item(0).getTextContent())
                .isEqualTo("alt.binaries.test");
        NodeList segments = first.getElementsByTagNameNS("*", "segment");
        List<String> numbers = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < segments.getLength(); i++) {
            Element s = (Element) segments.item(i);
            numbers.add(s.getAttribute("number"));
            ids.add(s.getTextContent());
        }
        assertThat(numbers).containsExactly("1", "2", "3");
        assertThat(ids).containsExactly("a1@x", "b2@x", "c<3>&@x");
        assertThat(((Element) segments.item(0)).getAttribute("bytes")).isEqualTo("100");
        assertThat(((Element) files.item(1)).getAttribute("date")).isEqualTo("0");
    }

    @Test
    void halfASurrogatePairIsDroppedAndAWholeOneKept() throws Exception {
        String name = "Rel \uD83D\uDE00 lone\uD800 end\uDC00 \uDBFF\uDFFF";
        CompletedBinary b = new CompletedBinary(
                "alt.binaries.test",
                "\uDC00Joe \uD835\uDD38 <joe@example.com>\uD800",
                "rel.rar",
                1,
                name,
                -1,
                name + " yEnc (1/1)",
                null,
                1,
                1,
                1,
                List.of(new Segment(1, 10, "a1@x")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        NzbWriter.write(out, name, List.of(b));

        Document doc = parseValidating(out.toByteArray());
        Element file = (Element)
                doc.getDocumentElement().getElementsByTagNameNS("*", "file").item(0);
        assertThat(file.getAttribute("poster")).isEqualTo("Joe \uD835\uDD38 <joe@example.com>");
        assertThat(file.getAttribute("subject")).isEqualTo("Rel \uD83D\uDE00 lone end \uDBFF\uDFFF yEnc (1/1)");
        Element meta = (Element)
                doc.getDocumentElement().getElementsByTagNameNS("*", "meta").item(0);
        assertThat(meta.getTextContent()).isEqualTo("Rel \uD83D\uDE00 lone end \uDBFF\uDFFF");
        String xml = out.toString(StandardCharsets.UTF_8);
        assertThat(xml.substring(xml.indexOf("?>") + 2)).doesNotContain("?"); // what an encoder writes for half a pair
    }

    @Test
    void validatorRejectsADocumentThatBreaksTheDtd() {
        byte[] invalid = ("<?xml version=\"1.0\"?>\n<!DOCTYPE nzb PUBLIC \"" + NzbWriter.PUBLIC_ID + "\" \""
                        + NzbWriter.SYSTEM_ID + "\">\n" + "<nzb xmlns=\"" + NzbWriter.NAMESPACE
                        + "\"><file poster=\"p\" subject=\"s\"><groups/></file></nzb>")
                .getBytes(StandardCharsets.UTF_8);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> parseValidating(invalid))
                .isInstanceOf(SAXParseException.class);
    }

    static Document parseValidating(byte[] xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setValidating(true);
        DocumentBuilder b = f.newDocumentBuilder();
        b.setEntityResolver((publicId, systemId) -> {
            if (NzbWriter.PUBLIC_ID.equals(publicId) || NzbWriter.SYSTEM_ID.equals(systemId)) {
                return new InputSource(NzbWriterTest.class.getResourceAsStream("/headway/index/nzb-1.1.dtd"));
            }
            throw new IllegalStateException("unexpected entity " + publicId + " " + systemId);
        });
        b.setErrorHandler(new ErrorHandler() {
            @Override
            public void warning(SAXParseException e) {}

            @Override
            public void error(SAXParseException e) throws SAXParseException {
                throw e;
            }

            @Override
            public void fatalError(SAXParseException e) throws SAXParseException {
                throw e;
            }
        });
        return b.parse(new ByteArrayInputStream(xml));
    }
}
