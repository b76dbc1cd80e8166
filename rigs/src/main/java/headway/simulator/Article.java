package headway.simulator;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A posted article, stored whole: what {@link NewsSimulator#postArticle} keeps and a real server
 * is fed with. The body is its lines with CR LF ends, not dot-stuffed; {@link #wire()} stuffs.
 *
 * @param messageId the message-id with its angle brackets
 * @param headers the headers in order, Message-ID among them
 * @param body the body's bytes, CR LF line ends
 */
@SuppressWarnings("ArrayRecordComponent")
public record Article(String messageId, List<Header> headers, byte[] body) {

    /** One header field: a name without its colon and a value of one line. */
    public record Header(String name, String value) {
        public Header {
            if (name == null || !name.matches("[!-9;-~]+")) {
                throw new IllegalArgumentException(
                        "header name must be printable ASCII without ':', was '" + name + "'");
            }
            if (value == null || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("header " + name + " must be one line without CR or LF");
            }
        }
    }

    public Article {
        if (messageId == null || !messageId.matches("<[^<>\\s]+@[^<>\\s]+>")) {
            throw new IllegalArgumentException("messageId must look like <local@domain>, was '" + messageId + "'");
        }
        headers = List.copyOf(headers);
        Objects.requireNonNull(body, "body");
        if (!messageId.equals(find(headers, "Message-ID"))) {
            throw new IllegalArgumentException("the Message-ID header must be " + messageId);
        }
        if (body.length > 0 && (body.length < 2 || body[body.length - 2] != '\r' || body[body.length - 1] != '\n')) {
            throw new IllegalArgumentException("the body must end with CR LF");
        }
    }

    /** An article of the usual headers (Path, From, Newsgroups, Subject, Message-ID, Date) and {@code body}. */
    public static Article of(String messageId, String from, String group, String subject, String date, byte[] body) {
        return new Article(
                messageId,
                List.of(
                        new Header("Path", "headway-rig!not-for-mail"),
                        new Header("From", from),
                        new Header("Newsgroups", group),
                        new Header("Subject", subject),
                        new Header("Message-ID", messageId),
                        new Header("Date", date)),
                body);
    }

    /** The first header of this name (letter case ignored), or null. */
    public String header(String name) {
        return find(headers, name);
    }

    private static String find(List<Header> headers, String name) {
        for (Header h : headers) {
            if (h.name().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                return h.value();
            }
        }
        return null;
    }

    /** The header block: one CR LF line per header, UTF-8. */
    public byte[] head() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        for (Header h : headers) {
            out.writeBytes((h.name() + ": " + h.value() + "\r\n").getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    /** The article's size as RFC 3977's {@code :bytes}: head, the empty line and the body, not stuffed. */
    public long bytes() {
        return head().length + 2L + body.length;
    }

    /** The body's line count, {@code :lines}. */
    public long lines() {
        long n = 0;
        for (byte b : body) {
            if (b == '\n') {
                n++;
            }
        }
        return n;
    }

    /** The article as POST or IHAVE sends it: head, empty line, body, dot-stuffed, without the terminating dot line. */
    public byte[] wire() {
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) bytes() + 64);
        stuff(out, head());
        out.writeBytes(new byte[] {'\r', '\n'});
        stuff(out, body);
        return out.toByteArray();
    }

    /** Writes {@code lines} (CR LF ends) with every line that starts with a dot given a second one. */
    static void stuff(ByteArrayOutputStream out, byte[] lines) {
        boolean lineStart = true;
        for (byte b : lines) {
            if (lineStart && b == '.') {
                out.write('.');
            }
            out.write(b);
            lineStart = b == '\n';
        }
    }
}
