package headway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SlowLinkTest {

    /** An echo-like target that answers each connection with its own payload, then echoes what it reads. */
    @Test
    void passesBytesUnchangedBothWaysAndCountsThem() throws Exception {
        byte[] down = random(300_000, 1);
        byte[] up = random(70_001, 2);
        try (ServerSocket target = new ServerSocket()) {
            target.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> {
                try (Socket s = target.accept()) {
                    OutputStream out = s.getOutputStream();
                    out.write(down);
                    out.flush();
                    s.shutdownOutput();
                    return s.getInputStream().readAllBytes();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            // fast enough that 370 kB take well under a second, so the test is about bytes, not time
            try (SlowLink link = SlowLink.start("127.0.0.1", target.getLocalPort(), Duration.ofMillis(2), 400e6);
                    Socket client = new Socket("127.0.0.1", link.port())) {
                client.setSoTimeout(20_000);
                CompletableFuture<byte[]> got = CompletableFuture.supplyAsync(() -> {
                    try {
                        return readAll(client.getInputStream());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                OutputStream out = client.getOutputStream();
                for (int off = 0; off < up.length; off += 4093) {
                    out.write(up, off, Math.min(4093, up.length - off));
                }
                out.flush();
                client.shutdownOutput();

                assertThat(got.get(20, TimeUnit.SECONDS)).isEqualTo(down);
                assertThat(received.get(20, TimeUnit.SECONDS)).isEqualTo(up);
                assertThat(link.bytesFromTarget()).isEqualTo(down.length);
                assertThat(link.bytesToTarget()).isEqualTo(up.length);
            }
        }
    }

    @Test
    void countsEveryConnectionsBytes() throws Exception {
        try (ServerSocket target = new ServerSocket()) {
            target.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Thread server = new Thread(() -> {
                for (int i = 0; i < 3; i++) {
                    try (Socket s = target.accept()) {
                        byte[] got = s.getInputStream().readAllBytes();
                        s.getOutputStream().write(got);
                        s.getOutputStream().write(got);
                    } catch (Exception e) {
                        return;
                    }
                }
            });
            server.setDaemon(true);
            server.start();
            try (SlowLink link = SlowLink.start("127.0.0.1", target.getLocalPort(), Duration.ZERO, 400e6)) {
                for (int i = 1; i <= 3; i++) {
                    byte[] payload = random(1000 * i, 10 + i);
                    try (Socket c = new Socket("127.0.0.1", link.port())) {
                        c.setSoTimeout(20_000);
                        c.getOutputStream().write(payload);
                        c.shutdownOutput();
                        ByteArrayOutputStream want = new ByteArrayOutputStream();
                        want.write(payload);
                        want.write(payload);
                        assertThat(readAll(c.getInputStream())).isEqualTo(want.toByteArray());
                    }
                }
                assertThat(link.bytesToTarget()).isEqualTo(6000);
                assertThat(link.bytesFromTarget()).isEqualTo(12000);
            }
        }
    }

    private static byte[] readAll(InputStream in) throws Exception {
        return in.readAllBytes();
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }
}
