package headway.poster;

import headway.simulator.Article;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Feeds articles to a real news server, one connection per call: {@link #ihave} to a feed port
 * (innd), {@link #post} to a reader port (nnrpd). Each article must be taken; any other answer
 * throws with the server's words, because a rig that loses articles silently scores nothing.
 */
public final class NntpFeeder {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int MAX_LINE = 4096;

    private NntpFeeder() {}

    /** Offers each article with IHAVE (RFC 3977 6.3.2): 335, the article, 235. */
    public static void ihave(String host, int port, Iterable<Article> articles) throws IOException {
        try (Conn c = new Conn(host, port)) {
            c.expect("greeting", "200");
            for (Article a : articles) {
                c.send("IHAVE " + a.messageId());
                c.expect("IHAVE " + a.messageId(), "335");
                c.article(a);
                c.expect("article " + a.messageId(), "235");
            }
            c.send("QUIT");
        }
    }

    /** Posts each article with POST (RFC 3977 6.3.1): 340, the article, 240. */
    public static void post(String host, int port, Iterable<Article> articles) throws IOException {
        try (Conn c = new Conn(host, port)) {
            c.expect("greeting (posting allowed)", "200");
            for (Article a : articles) {
                c.send("POST");
                c.expect("POST", "340");
                c.article(a);
                c.expect("article " + a.messageId(), "240");
            }
            c.send("QUIT");
        }
    }

    /** One connection: commands out, status lines in. */
    private static final class Conn implements AutoCloseable {
        private final Socket socket = new Socket();
        private final InputStream in;
        private final OutputStream out;

        Conn(String host, int port) throws IOException {
            socket.connect(new InetSocketAddress(host, port), (int) TIMEOUT.toMillis());
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            in = new BufferedInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        }

        void send(String command) throws IOException {
            out.write((command + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        void article(Article a) throws IOException {
            out.write(a.wire());
            out.write(".\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }

        void expect(String what, String code) throws IOException {
            String line = line();
            if (!line.startsWith(code)) {
                throw new IOException("server answered " + what + " with '" + line + "', expected " + code);
            }
        }

        private String line() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (int c = in.read(); c >= 0 && c != '\n' && b.size() < MAX_LINE; c = in.read()) {
                b.write(c);
            }
            return b.toString(StandardCharsets.UTF_8).strip();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
