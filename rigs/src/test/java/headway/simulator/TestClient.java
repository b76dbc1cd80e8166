package headway.simulator;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * A bare NNTP client for the rigs' tests, written from RFC 3977 apart from headway's client: it
 * sends a command, reads the status line and, for a multi-line reply, the data with the leading
 * dot of each line undone, and keeps the raw bytes so a test can see the stuffing itself.
 */
public final class TestClient implements AutoCloseable {
    private final Socket socket;
    private InputStream in;
    private OutputStream out;
    /** The last multi-line reply's data as it came over the wire, dot-stuffed, with its terminating line. */
    public byte[] raw = new byte[0];

    public TestClient(String host, int port) throws IOException {
        this(new Socket(host, port));
    }

    /** A client over TLS to {@code host:port}, trusting the CA certificate in {@code caPem}. */
    public static TestClient tls(String host, int port, Path caPem) throws Exception {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        try (InputStream pem = Files.newInputStream(caPem)) {
            trusted.setCertificateEntry(
                    "ca", CertificateFactory.getInstance("X.509").generateCertificate(pem));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trusted);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, tmf.getTrustManagers(), null);
        SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket(host, port);
        s.startHandshake();
        return new TestClient(s);
    }

    private TestClient(Socket s) throws IOException {
        socket = s;
        socket.setSoTimeout(20_000);
        in = new BufferedInputStream(socket.getInputStream(), 65536);
        out = socket.getOutputStream();
        line();
    }

    /** Sends {@code command} and returns the status line. */
    public String command(String command) throws IOException {
        out.write((command + "\r\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        return line();
    }

    /** Turns on RFC 8054 COMPRESS DEFLATE, failing unless the server answers 206. */
    public void compress() throws IOException {
        String status = command("COMPRESS DEFLATE");
        if (!status.startsWith("206")) {
            throw new IOException("COMPRESS DEFLATE answered " + status);
        }
        in = new BufferedInputStream(new InflaterInputStream(socket.getInputStream(), new Inflater(true)), 65536);
        out = new DeflaterOutputStream(
                socket.getOutputStream(), new Deflater(Deflater.DEFAULT_COMPRESSION, true), true);
    }

    /** Reads a multi-line reply's data up to its terminating line: the lines unstuffed, CR LF ends kept. */
    public byte[] data() throws IOException {
        ByteArrayOutputStream unstuffed = new ByteArrayOutputStream();
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        while (true) {
            byte[] line = rawLine();
            wire.writeBytes(line);
            if (line.length == 3 && line[0] == '.') {
                raw = wire.toByteArray();
                return unstuffed.toByteArray();
            }
            int from = line.length > 0 && line[0] == '.' ? 1 : 0;
            unstuffed.write(line, from, line.length - from);
        }
    }

    /** Reads up to {@code limit} bytes of a reply that may never end, then gives up: what a careful client does. */
    public long drain(long limit) throws IOException {
        byte[] b = new byte[65536];
        long n = 0;
        while (n < limit) {
            int r = in.read(b);
            if (r < 0) {
                break;
            }
            n += r;
        }
        return n;
    }

    private String line() throws IOException {
        byte[] line = rawLine();
        return new String(line, 0, Math.max(0, line.length - 2), StandardCharsets.UTF_8);
    }

    private byte[] rawLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        for (int b = in.read(); b >= 0; b = in.read()) {
            line.write(b);
            if (b == '\n') {
                return line.toByteArray();
            }
        }
        throw new IOException("connection closed after " + line.size() + " bytes of a line");
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
