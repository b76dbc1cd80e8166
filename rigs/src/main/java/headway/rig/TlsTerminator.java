package headway.rig;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * A TLS terminator in front of a plain-text TCP server, as a load balancer or stunnel stands in
 * front of a Temporal frontend: it accepts TLS on loopback with the server certificate, requires a
 * client certificate signed by {@code clientCa} (when given), offers ALPN {@code h2} (gRPC clients
 * insist on it, which is why stunnel, without ALPN, cannot carry gRPC) and copies bytes both ways
 * to the backend. Threads are daemons; {@link #close()} drops every connection.
 */
public final class TlsTerminator implements AutoCloseable {
    private final SSLServerSocket server;
    private final InetSocketAddress backend;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;

    private TlsTerminator(SSLServerSocket server, InetSocketAddress backend) {
        this.server = server;
        this.backend = backend;
        this.acceptor = new Thread(this::acceptLoop, "tls-terminator-" + server.getLocalPort());
        acceptor.setDaemon(true);
    }

    /** Listens on a free loopback port; {@code clientCa} null accepts clients without a certificate. */
    public static TlsTerminator start(Path serverCert, Path serverKey, Path clientCa, String backendHost, int port) {
        try {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("server", privateKey(serverKey), new char[0], certificates(serverCert));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, new char[0]);
            TrustManagerFactory tmf = null;
            if (clientCa != null) {
                KeyStore trusted = KeyStore.getInstance("PKCS12");
                trusted.load(null, null);
                Certificate[] cas = certificates(clientCa);
                for (int i = 0; i < cas.length; i++) {
                    trusted.setCertificateEntry("ca" + i, cas[i]);
                }
                tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(trusted);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
            SSLServerSocket socket = (SSLServerSocket)
                    context.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
            SSLParameters params = socket.getSSLParameters();
            params.setApplicationProtocols(new String[] {"h2"});
            params.setNeedClientAuth(clientCa != null);
            socket.setSSLParameters(params);
            TlsTerminator t = new TlsTerminator(socket, new InetSocketAddress(backendHost, port));
            t.acceptor.start();
            return t;
        } catch (IOException e) {
            throw new UncheckedIOException("starting the TLS terminator", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("starting the TLS terminator: " + e.getMessage(), e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** {@code 127.0.0.1:<port>}. */
    public String target() {
        return "127.0.0.1:" + port();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                SSLSocket client = (SSLSocket) server.accept();
                open.add(client);
                Thread t = new Thread(() -> serve(client), "tls-terminator-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                if (server.isClosed()) {
                    return;
                }
            }
        }
    }

    private void serve(SSLSocket client) {
        try (client;
                Socket upstream = new Socket()) {
            client.startHandshake();
            upstream.connect(backend, 5000);
            open.add(upstream);
            Thread back = new Thread(() -> copy(upstream, client), "tls-terminator-back");
            back.setDaemon(true);
            back.start();
            copy(client, upstream);
            back.join();
        } catch (IOException e) {
            // a refused handshake (no or an untrusted client certificate) ends here: the client saw the alert
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            open.remove(client);
        }
    }

    private void copy(Socket from, Socket to) {
        byte[] buffer = new byte[16384];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // either side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(to);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    private static Certificate[] certificates(Path pem) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(pem)) {
            return CertificateFactory.getInstance("X.509")
                    .generateCertificates(in)
                    .toArray(Certificate[]::new);
        }
    }

    private static PrivateKey privateKey(Path pem) throws IOException, GeneralSecurityException {
        List<String> lines = Files.readAllLines(pem);
        String base64 = String.join(
                "", lines.stream().filter(l -> !l.startsWith("-----")).toList());
        return KeyFactory.getInstance("EC")
                .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
    }

    @Override
    public void close() {
        closeQuietly(server);
        for (Socket s : open) {
            closeQuietly(s);
        }
    }

    private static void closeQuietly(java.net.ServerSocket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
