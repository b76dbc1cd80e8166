package headway.nntp;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

/**
 * The socket's input, each read bounded by the read timeout and by what is left of the current
 * command's deadline; the socket timeout is changed only when that bound changes, so a reply
 * far from its deadline costs one clock read per read.
 */
final class DeadlineInput extends InputStream {

    /** A read that would end past the current command's deadline. */
    static final class DeadlineExceededException extends IOException {
        private static final long serialVersionUID = 1L;

        DeadlineExceededException() {
            super("deadline passed", null);
        }
    }

    private Socket socket;
    private InputStream raw;
    private final int readMs;
    private int timeoutMs = -1;
    long deadline;

    DeadlineInput(Socket socket, int readMs) throws IOException {
        this.socket = socket;
        this.raw = socket.getInputStream();
        this.readMs = readMs;
        this.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(readMs);
    }

    /** Reads from here on from {@code raw} over {@code socket} (after STARTTLS or COMPRESS). */
    void switchTo(Socket socket, InputStream raw) {
        this.socket = socket;
        this.raw = raw;
        this.timeoutMs = -1;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new DeadlineExceededException();
        }
        int wait = left < TimeUnit.MILLISECONDS.toNanos(readMs)
                ? (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left + 999_999))
                : readMs;
        if (wait != timeoutMs) {
            socket.setSoTimeout(wait);
            timeoutMs = wait;
        }
        try {
            return raw.read(b, off, len);
        } catch (SocketTimeoutException e) {
            if (wait < readMs) {
                throw new DeadlineExceededException();
            }
            throw e;
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }
}
