package headway.nntp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reading replies that are not overview: short list replies and the text of status lines, each
 * bounded because a server may send anything. The connection's side of the reading (a bounded
 * line, a named breach that breaks the connection) is {@link Lines}, so these readers hold no
 * state of their own.
 */
final class Replies {

    private Replies() {}

    /** What a reply reader needs of its connection. */
    interface Lines {
        /** Reads one line of the current reply from {@code from}; any failure breaks the connection, a broken bound named. */
        int readLine(LineReader from, int maxLength, MisbehavingServerException.Bound tooLong) throws IOException;

        /** Breaks the connection, because the rest of the reply is unread or untrusted, and names the broken bound. */
        MisbehavingServerException violation(MisbehavingServerException.Bound bound, String detail);

        /** The reply was left unread part way (a sink threw, a read failed): the connection is broken. */
        void undrained();
    }

    /** A short list reply (CAPABILITIES, LIST OVERVIEW.FMT), within the list bounds, because it is kept whole. */
    static List<String> textBlock(Lines conn, LineReader in, NntpClient.Limits limits) throws IOException {
        List<String> lines = new ArrayList<>();
        long bytes = 0;
        while (true) {
            int len = conn.readLine(in, limits.listBytes(), MisbehavingServerException.Bound.LINE_BYTES);
            byte[] b = in.line();
            if (len == 1 && b[0] == '.') {
                return lines;
            }
            bytes += len + 2;
            if (lines.size() >= limits.listLines()) {
                throw conn.violation(
                        MisbehavingServerException.Bound.REPLY_LINES,
                        "more than " + limits.listLines() + " lines in a list reply");
            }
            if (bytes > limits.listBytes()) {
                throw conn.violation(
                        MisbehavingServerException.Bound.REPLY_BYTES,
                        "more than " + limits.listBytes() + " bytes in a list reply");
            }
            int off = len > 0 && b[0] == '.' ? 1 : 0;
            lines.add(new String(b, off, len - off, StandardCharsets.ISO_8859_1));
        }
    }

    /** A decimal number of 0 or more that fits a long, else -1. */
    static long parseMark(String s) {
        if (s.isEmpty() || s.length() > 19 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static String clip(String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        return printable(b, Math.min(b.length, 80));
    }

    static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    /** The bytes as text for a message, control bytes shown as '?', because a status line may be anything. */
    static String printable(byte[] b, int len) {
        StringBuilder sb = new StringBuilder(len);
        for (int i = 0; i < len; i++) {
            int c = b[i] & 0xff;
            sb.append(c < 0x20 || c == 0x7f ? '?' : (char) c);
        }
        return sb.toString();
    }

    /** A message-id a command may carry: {@code <...>}, printable ASCII without spaces, at most 250 bytes (RFC 3977 3.6). */
    static void checkMessageId(String id) {
        if (id == null
                || id.length() < 3
                || id.length() > 250
                || id.charAt(0) != '<'
                || id.charAt(id.length() - 1) != '>'
                || !id.chars().allMatch(ch -> ch > ' ' && ch < 127)) {
            throw new IllegalArgumentException(
                    "message-id must be <...> of printable ASCII without spaces, at most 250 bytes, was '"
                            + clip(String.valueOf(id)) + "'");
        }
    }

    static long saturatedMultiply(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return (hi == 0 && lo >= 0) ? lo : Long.MAX_VALUE;
    }
}
