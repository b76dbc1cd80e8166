package headway.rig;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A hostile HTTP/1.1 client for tests and benchmarks of the front door: one request per connection
 * ({@code Connection: close}), its bytes exactly as given (a NUL, a bad percent-encoding, a
 * 100 kB header, any {@code Host}), from a chosen local address (127.0.0.x on Linux needs no
 * setup, so one machine can play many clients). What an ordinary client refuses to send is the
 * point.
 */
public final class RawHttp {

    /** The most bytes of a response read; the front door's answers are far smaller. */
    private static final int MAX_RESPONSE = 16 * 1024 * 1024;

    private RawHttp() {}

    /** A response: status, headers by lower-case name, the body (de-chunked). */
    public record Response(int status, Map<String, List<String>> headers, byte[] body) {
        /** The first value of header {@code name}, or null. */
        public String header(String name) {
            List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
            return v == null || v.isEmpty() ? null : v.get(0);
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** {@code GET target} with {@code Host: 127.0.0.1}, {@code Connection: close} and the extra header lines given. */
    public static byte[] get(String target, String... headerLines) {
        StringBuilder head = new StringBuilder("GET ").append(target).append(" HTTP/1.1\r\n");
        boolean host = false;
        for (String h : headerLines) {
            host |= h.regionMatches(true, 0, "Host:", 0, 5);
            head.append(h).append("\r\n");
        }
        if (!host) {
            head.append("Host: 127.0.0.1\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        return head.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * Sends {@code request} from {@code from} (null: any) to {@code to} and reads the response until
     * the server closes. A server that answers and closes before the request is written whole (a
     * 431 for a huge header) is still read.
     */
    public static Response send(InetAddress from, InetSocketAddress to, byte[] request, Duration timeout)
            throws IOException {
        try (Socket s = new Socket()) {
            s.setSoTimeout((int) Math.max(1, timeout.toMillis()));
            s.setTcpNoDelay(true);
            if (from != null) {
                s.bind(new InetSocketAddress(from, 0));
            }
            s.connect(to, (int) Math.max(1, timeout.toMillis()));
            OutputStream out = s.getOutputStream();
            IOException writeFailure = null;
            try {
                out.write(request);
                out.flush();
            } catch (IOException e) {
                writeFailure = e;
            }
            byte[] raw;
            try {
                raw = readAll(s.getInputStream());
            } catch (IOException e) {
                if (writeFailure != null) {
                    e.addSuppressed(writeFailure);
                }
                throw e;
            }
            if (raw.length == 0 && writeFailure != null) {
                throw writeFailure;
            }
            return parse(raw);
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream(4096);
        byte[] buf = new byte[16 * 1024];
        for (int n; (n = in.read(buf)) > 0; ) {
            all.write(buf, 0, n);
            if (all.size() > MAX_RESPONSE) {
                throw new IOException("response longer than " + MAX_RESPONSE + " bytes");
            }
        }
        return all.toByteArray();
    }

    /** Parses a whole response as read until the connection closed. */
    static Response parse(byte[] raw) throws IOException {
        int end = indexOf(raw, new byte[] {'\r', '\n', '\r', '\n'}, 0);
        if (end < 0) {
            throw new IOException("no complete response head in " + raw.length + " bytes");
        }
        String head = new String(raw, 0, end, StandardCharsets.ISO_8859_1);
        String[] lines = head.split("\r\n");
        String[] status = lines[0].split(" ", 3);
        if (status.length < 2 || !status[0].startsWith("HTTP/") || !status[1].matches("\\d{3}")) {
            throw new IOException("not a status line: " + lines[0]);
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.computeIfAbsent(
                                lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(lines[i].substring(colon + 1).strip());
            }
        }
        byte[] body = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        List<String> te = headers.get("transfer-encoding");
        if (te != null && te.stream().anyMatch(v -> v.equalsIgnoreCase("chunked"))) {
            body = dechunk(body);
        }
        return new Response(Integer.parseInt(status[1]), headers, body);
    }

    private static byte[] dechunk(byte[] body) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length);
        int at = 0;
        while (true) {
            int eol = indexOf(body, new byte[] {'\r', '\n'}, at);
            if (eol < 0) {
                throw new IOException("a chunk without its size line");
            }
            String size = new String(body, at, eol - at, StandardCharsets.ISO_8859_1).split(";")[0].strip();
            int n = Integer.parseInt(size, 16);
            if (n == 0) {
                return out.toByteArray();
            }
            if (eol + 2 + n > body.length) {
                throw new IOException("a chunk longer than the body");
            }
            out.write(body, eol + 2, n);
            at = eol + 2 + n + 2;
        }
    }

    private static int indexOf(byte[] hay, byte[] needle, int from) {
        outer:
        for (int i = from; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
