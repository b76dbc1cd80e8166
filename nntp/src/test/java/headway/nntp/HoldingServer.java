package headway.nntp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A news server that finishes an OVER reply only once the client's next command has arrived, or
 * after {@code holdMillis} (never, at 0), and counts which of the two ended each reply; a reply
 * ending at the group's last article, and the first OVER of a connection (a client may send nothing
 * ahead before its first overview reply), end at once. A client that waits for each reply before it
 * sends the next command never gets its second reply, or gets it only after the hold. The group
 * {@link #GROUP} holds articles 1..{@code articles}, every one present.
 */
public final class HoldingServer implements AutoCloseable {
    public static final String GROUP = "alt.binaries.held";

    private final ServerSocket listener;
    private final long articles;
    private final long holdMillis;
    /** Replies ended by the client's next command, and by the end of the hold. */
    public final AtomicInteger endedByNextCommand = new AtomicInteger();

    public final AtomicInteger endedByHold = new AtomicInteger();
    /** Replies ended by the hold, per connection in the order they were accepted. */
    private final List<AtomicInteger> heldPerConnection = new CopyOnWriteArrayList<>();

    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    /** Every OVER range received, in arrival order, over all connections. */
    public final List<String> overs = new CopyOnWriteArrayList<>();

    private volatile boolean closed;
    /** Drops the connection, mid reply, when the next command arrives before the reply ended. */
    private volatile boolean refusePipelining;

    public HoldingServer(long articles, long holdMillis) throws IOException {
        this.articles = articles;
        this.holdMillis = holdMillis;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "holding-nntp-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** From now on a command that arrives while a reply is held drops the connection, as a server that cannot take pipelined commands might. */
    public HoldingServer refusePipelining() {
        refusePipelining = true;
        return this;
    }

    public NntpServer server() {
        return NntpServer.plain("127.0.0.1", listener.getLocalPort());
    }

    private void accept() {
        while (!closed) {
            try {
                Socket s = listener.accept();
                sockets.add(s);
                AtomicInteger held = new AtomicInteger();
                heldPerConnection.add(held);
                Thread t = new Thread(() -> serve(s, held), "holding-nntp");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s, AtomicInteger held) {
        try (s) {
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
            OutputStream out = s.getOutputStream();
            send(out, "200 holding server\r\n");
            boolean answeredOver = false;
            String line = in.readLine();
            while (line != null) {
                String next = null;
                if (line.startsWith("OVER ")) {
                    overs.add(line.substring(5));
                    String[] range = line.substring(5).split("-");
                    long lo = Long.parseLong(range[0]);
                    long hi = Long.parseLong(range[1]);
                    StringBuilder reply = new StringBuilder("224 overview follows\r\n");
                    for (long a = lo; a <= Math.min(hi, articles); a++) {
                        reply.append(HostileNntpServer.line(a)).append("\r\n");
                    }
                    send(out, reply.toString());
                    if (answeredOver && hi < articles) {
                        // held: the terminating dot only once the next command is here, or the hold is over
                        s.setSoTimeout((int) holdMillis);
                        try {
                            next = in.readLine();
                            endedByNextCommand.incrementAndGet();
                            if (refusePipelining) {
                                return;
                            }
                        } catch (SocketTimeoutException e) {
                            endedByHold.incrementAndGet();
                            held.incrementAndGet();
                        }
                        s.setSoTimeout(0);
                    }
                    answeredOver = true;
                    send(out, ".\r\n");
                } else if (line.startsWith("GROUP")) {
                    send(out, "211 " + articles + " 1 " + articles + " " + GROUP + "\r\n");
                } else if (line.startsWith("LIST OVERVIEW.FMT")) {
                    send(out, "503 no overview.fmt here\r\n");
                } else if (line.startsWith("QUIT")) {
                    send(out, "205 bye\r\n");
                    return;
                } else if (line.startsWith("CAPABILITIES")) {
                    send(out, "101 capabilities\r\nVERSION 2\r\nREADER\r\nOVER\r\n.\r\n");
                } else {
                    send(out, "500 what?\r\n");
                }
                line = next != null ? next : in.readLine();
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    /** Connections accepted so far. */
    public int connections() {
        return heldPerConnection.size();
    }

    /**
     * Replies ended by the hold on the connections accepted from the {@code first}-th on (0-based): a
     * connection from before cannot add to it, however late its own hold runs out.
     */
    public int heldOnConnectionsFrom(int first) {
        int sum = 0;
        for (int i = first; i < heldPerConnection.size(); i++) {
            sum += heldPerConnection.get(i).get();
        }
        return sum;
    }

    private static void send(OutputStream out, String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        for (Socket s : new ArrayList<>(sockets)) {
            s.close();
        }
    }
}
