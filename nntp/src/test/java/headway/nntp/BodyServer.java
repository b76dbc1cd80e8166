package headway.nntp;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A news server on loopback whose BODY replies a test scripts byte for byte: what {@link Reply}
 * says goes out as is (status line, data and terminating dot, or not), then it waits for the next
 * command or closes the connection. It greets 200, refuses CAPABILITIES (so the client sends MODE
 * READER, answered 200), answers GROUP for any name and QUIT with 205. Each connection runs on its
 * own daemon thread; the server counts connections and BODY commands. Test code only.
 */
final class BodyServer implements AutoCloseable {

    /**
     * One BODY reply: {@code bytes} written in chunks of {@code chunk} bytes with {@code pauseMillis}
     * between them, then the connection closed when {@code close}.
     */
    record Reply(byte[] bytes, boolean close, int chunk, long pauseMillis) {
        /** The reply written at once, the connection kept. */
        static Reply of(byte[] bytes) {
            return new Reply(bytes, false, Integer.MAX_VALUE, 0);
        }

        /** 222 for {@code id}, then {@code data} as the data block as is, then the terminating dot. */
        static Reply body(String id, byte[] data) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(data.length + 64);
            out.writeBytes(("222 0 " + id + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(data);
            out.writeBytes(".\r\n".getBytes(StandardCharsets.US_ASCII));
            return of(out.toByteArray());
        }
    }

    private final ServerSocket listener;
    private final Function<String, Reply> script;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    final AtomicInteger connections = new AtomicInteger();
    final AtomicInteger bodies = new AtomicInteger();
    private volatile boolean closed;

    private BodyServer(Function<String, Reply> script) throws IOException {
        this.script = script;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "body-server-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A server answering each {@code BODY <id>} with {@code script.apply(id)}. */
    static BodyServer start(Function<String, Reply> script) throws IOException {
        return new BodyServer(script);
    }

    NntpServer server() {
        return NntpServer.plain("127.0.0.1", listener.getLocalPort());
    }

    private void accept() {
        while (!closed) {
            try {
                Socket s = listener.accept();
                sockets.add(s);
                connections.incrementAndGet();
                Thread t = new Thread(() -> serve(s), "body-server-" + connections.get());
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            write(out, "200 body server ready");
            String cmd;
            while ((cmd = readLine(in)) != null) {
                if (cmd.startsWith("BODY ")) {
                    bodies.incrementAndGet();
                    Reply r = script.apply(cmd.substring(5));
                    for (int i = 0; i < r.bytes().length; i += r.chunk()) {
                        out.write(r.bytes(), i, Math.min(r.chunk(), r.bytes().length - i));
                        out.flush();
                        if (r.pauseMillis() > 0) {
                            Thread.sleep(r.pauseMillis());
                        }
                    }
                    if (r.close()) {
                        return;
                    }
                } else if (cmd.startsWith("MODE READER")) {
                    write(out, "200 reader");
                } else if (cmd.startsWith("GROUP ")) {
                    write(out, "211 0 0 0 " + cmd.substring(6));
                } else if (cmd.equals("QUIT")) {
                    write(out, "205 bye");
                    return;
                } else {
                    write(out, "500 what?");
                }
            }
        } catch (IOException e) {
            // the client went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void write(OutputStream out, String line) throws IOException {
        out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            if (b != '\r' && line.size() < 4096) {
                line.write(b);
            }
        }
        return b < 0 && line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
