package headway.web;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * A request's query string decoded strictly, once: {@code name=value} pairs split on {@code &},
 * {@code +} a space, {@code %XX} bytes that must make UTF-8. The first value of a name counts (as
 * Javalin's {@code queryParam} reads it). A value that is not percent-encoded UTF-8, holds a
 * control character or is longer than {@value #MAX_VALUE} characters is a problem of its
 * parameter, thrown as newznab error 201 naming it when the parameter is read, so a request can
 * never carry such text (a NUL made PostgreSQL fail the statement, a 500 before this) into a
 * search or a page. A pair whose name does not decode is dropped: no parameter read has such a
 * name. More than {@value #MAX_PARAMETERS} pairs is a problem of the whole query.
 */
final class QueryString {

    /** The most pairs read; clients send about ten. */
    static final int MAX_PARAMETERS = 100;

    /** The longest value read, in characters; {@code q} has a tighter bound of its own ({@link Params#MAX_QUERY}). */
    static final int MAX_VALUE = 2_000;

    private final Map<String, String> values = new HashMap<>();
    private final Map<String, String> problems = new HashMap<>();
    private final String whole;

    private QueryString(String whole) {
        this.whole = whole;
    }

    /** Decodes {@code raw} (the query string as sent, without {@code ?}; null is none). */
    static QueryString parse(String raw) {
        if (raw == null || raw.isEmpty()) {
            return new QueryString(null);
        }
        String[] pairs = raw.split("&", MAX_PARAMETERS + 2);
        if (pairs.length > MAX_PARAMETERS) {
            return new QueryString("at most " + MAX_PARAMETERS + " parameters");
        }
        QueryString q = new QueryString(null);
        for (String pair : pairs) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            if (name == null || q.values.containsKey(name) || q.problems.containsKey(name)) {
                continue;
            }
            String value = decode(eq < 0 ? "" : pair.substring(eq + 1));
            if (value == null) {
                q.problems.put(name, "not percent-encoded UTF-8");
            } else if (value.length() > MAX_VALUE) {
                q.problems.put(name, "at most " + MAX_VALUE + " characters");
            } else if (hasControl(value)) {
                q.problems.put(name, "no control characters");
            } else {
                q.values.put(name, value);
            }
        }
        return q;
    }

    /** The first value of {@code name} as sent, or null when absent; a bad one throws newznab error 201 naming it. */
    String get(String name) {
        if (whole != null) {
            throw NewznabException.bad("query string", whole);
        }
        String problem = problems.get(name);
        if (problem != null) {
            throw NewznabException.bad(name, problem);
        }
        return values.get(name);
    }

    /** As {@link #get}, null instead of the error: for what only labels a request (a metric's tag). */
    String quietly(String name) {
        return whole != null || problems.containsKey(name) ? null : values.get(name);
    }

    /** The first problem of the query (whole, else of a parameter), or null: what a page shows. */
    String problem() {
        if (whole != null) {
            return "the query string: " + whole;
        }
        return problems.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + ": " + e.getValue())
                .findFirst()
                .orElse(null);
    }

    /** Percent-decoding into bytes, then UTF-8 that must be valid; null when either fails. */
    private static String decode(String s) {
        if (s.indexOf('%') < 0 && s.indexOf('+') < 0 && s.chars().allMatch(c -> c < 0x80)) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '+') {
                bytes.write(' ');
            } else if (c == '%') {
                if (i + 2 >= s.length()) {
                    return null;
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                bytes.write(hi << 4 | lo);
                i += 2;
            } else if (c < 0x80) {
                bytes.write(c);
            } else {
                int cp = s.codePointAt(i);
                if (Character.isSurrogate(c) && Character.charCount(cp) == 1) {
                    return null;
                }
                byte[] b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
                bytes.write(b, 0, b.length);
                i += Character.charCount(cp) - 1;
            }
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** C0 and C1 control characters and DEL; tab and line breaks too: no parameter has a use for them. */
    private static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
                return true;
            }
        }
        return false;
    }
}
