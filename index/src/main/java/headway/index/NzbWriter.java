package headway.index;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Writes NZB 1.1 documents with a streaming XML writer: one {@code <file>} per binary, its
 * segments in part order. Text is XML-escaped by the writer; characters XML 1.0 forbids (control
 * characters do occur in subjects, and half a surrogate pair is no character) are dropped, because
 * one of them makes the whole file unreadable to a downloader.
 */
public final class NzbWriter {

    public static final String NAMESPACE = "http://www.newzbin.com/DTD/2003/nzb";
    public static final String PUBLIC_ID = "-//newzBin//DTD NZB 1.1//EN";
    public static final String SYSTEM_ID = "http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd";

    private static final XMLOutputFactory XML = XMLOutputFactory.newFactory();

    private NzbWriter() {}

    /** Writes the NZB of one release to {@code out} as UTF-8; {@code out} is flushed, not closed. */
    public static void write(OutputStream out, String releaseName, List<CompletedBinary> binaries) throws IOException {
        if (binaries.isEmpty()) {
            throw new IllegalArgumentException(
                    "release '" + releaseName + "' has no binaries; an NZB needs at least one file");
        }
        try {
            XMLStreamWriter w = XML.createXMLStreamWriter(out, StandardCharsets.UTF_8.name());
            w.writeStartDocument(StandardCharsets.UTF_8.name(), "1.0");
            w.writeCharacters("\n");
            w.writeDTD("<!DOCTYPE nzb PUBLIC \"" + PUBLIC_ID + "\" \"" + SYSTEM_ID + "\">");
            w.writeCharacters("\n");
            w.writeStartElement("nzb");
            w.writeDefaultNamespace(NAMESPACE);
            w.writeCharacters("\n ");
            w.writeStartElement("head");
            w.writeStartElement("meta");
            w.writeAttribute("type", "name");
            w.writeCharacters(clean(releaseName));
            w.writeEndElement();
            // "title" is the type the NZB spec names and downloaders and parsers (PyPI's nzb) read
            w.writeStartElement("meta");
            w.writeAttribute("type", "title");
            w.writeCharacters(clean(releaseName));
            w.writeEndElement();
            w.writeEndElement();
            for (CompletedBinary b : binaries) {
                writeFile(w, b);
            }
            w.writeCharacters("\n");
            w.writeEndElement();
            w.writeEndDocument();
            w.flush();
            w.close();
            out.flush();
        } catch (XMLStreamException e) {
            throw new IOException("could not write NZB for '" + releaseName + "': " + e.getMessage(), e);
        }
    }

    private static void writeFile(XMLStreamWriter w, CompletedBinary b) throws XMLStreamException {
        w.writeCharacters("\n ");
        w.writeStartElement("file");
        w.writeAttribute("poster", clean(b.poster()));
        w.writeAttribute(
                "date", Long.toString(b.posted() == null ? 0 : b.posted().getEpochSecond()));
        w.writeAttribute("subject", clean(b.subject()));
        w.writeCharacters("\n  ");
        w.writeStartElement("groups");
        w.writeStartElement("group");
        w.writeCharacters(clean(b.group()));
        w.writeEndElement();
        w.writeEndElement();
        w.writeCharacters("\n  ");
        w.writeStartElement("segments");
        List<Segment> ordered = b.segments().stream()
                .sorted(Comparator.comparingInt(Segment::part))
                .toList();
        for (Segment s : ordered) {
            w.writeCharacters("\n   ");
            w.writeStartElement("segment");
            w.writeAttribute("bytes", Integer.toString(s.bytes()));
            w.writeAttribute("number", Integer.toString(s.part()));
            w.writeCharacters(clean(s.messageId()));
            w.writeEndElement();
        }
        w.writeCharacters("\n  ");
        w.writeEndElement();
        w.writeCharacters("\n ");
        w.writeEndElement();
    }

    /**
     * {@code text} without what XML 1.0 forbids: control characters, U+FFFE and U+FFFF, and half a
     * surrogate pair (a pair, a character past U+FFFF such as an emoji, is kept whole).
     */
    private static String clean(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder sb = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean ok = c == '\t'
                    || c == '\n'
                    || c == '\r'
                    || (c >= 0x20 && c <= 0xD7FF)
                    || (c >= 0xE000 && c <= 0xFFFD)
                    || (Character.isHighSurrogate(c)
                            && i + 1 < text.length()
                            && Character.isLowSurrogate(text.charAt(i + 1)))
                    || (Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1)));
            if (!ok && sb == null) {
                sb = new StringBuilder(text.substring(0, i));
            } else if (ok && sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? text : sb.toString();
    }
}
