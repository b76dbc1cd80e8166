package headway.web;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * A small XML document builder over the JDK's streaming writer: text and attributes are escaped by
 * the writer, and characters XML 1.0 forbids (release names from Usenet carry control characters)
 * are dropped, because one of them makes the whole feed unreadable to a client.
 */
final class Xml {

    private static final XMLOutputFactory FACTORY = XMLOutputFactory.newFactory();

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(8192);
    private final XMLStreamWriter w;

    Xml() {
        try {
            w = FACTORY.createXMLStreamWriter(bytes, StandardCharsets.UTF_8.name());
            w.writeStartDocument(StandardCharsets.UTF_8.name(), "1.0");
            w.writeCharacters("\n");
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
    }

    @FunctionalInterface
    interface Step {
        void run() throws XMLStreamException;
    }

    private static void run(Step s) {
        try {
            s.run();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("writing XML: " + e.getMessage(), e);
        }
    }

    Xml open(String name, String... attributes) {
        run(() -> {
            w.writeStartElement(name);
            attrs(attributes);
        });
        return this;
    }

    Xml empty(String name, String... attributes) {
        run(() -> {
            w.writeEmptyElement(name);
            attrs(attributes);
        });
        return this;
    }

    Xml element(String name, String text, String... attributes) {
        run(() -> {
            w.writeStartElement(name);
            attrs(attributes);
            w.writeCharacters(clean(text));
            w.writeEndElement();
        });
        return this;
    }

    Xml namespace(String prefix, String uri) {
        run(() -> w.writeNamespace(prefix, uri));
        return this;
    }

    Xml close() {
        run(w::writeEndElement);
        return this;
    }

    byte[] bytes() {
        run(() -> {
            w.writeEndDocument();
            w.flush();
            w.close();
        });
        return bytes.toByteArray();
    }

    private void attrs(String... attributes) throws XMLStreamException {
        for (int i = 0; i + 1 < attributes.length; i += 2) {
            if (attributes[i + 1] != null) {
                w.writeAttribute(attributes[i], clean(attributes[i + 1]));
            }
        }
    }

    /** {@code s} without the characters XML 1.0 cannot carry. */
    static String clean(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c == '\t'
                    || c == '\n'
                    || c == '\r'
                    || (c >= 0x20 && c <= 0xD7FF)
                    || (c >= 0xE000 && c <= 0xFFFD)
                    || (Character.isSurrogate(c) && validSurrogate(s, i));
            if (!ok && sb == null) {
                sb = new StringBuilder(s.length()).append(s, 0, i);
            } else if (ok && sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? s : sb.toString();
    }

    private static boolean validSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
