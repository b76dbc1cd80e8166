package headway.nntp;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * The data block of an overview reply after {@code XFEATURE COMPRESS GZIP} (the de-facto extension
 * of Giganews-style providers, marked {@code [COMPRESS=GZIP]} on the 224 status line): the
 * dot-stuffed lines as one zlib stream, then plain bytes. The terminating line is either the last
 * thing inside the stream ({@code XFEATURE COMPRESS GZIP TERMINATOR}) or a plain {@code .\r\n}
 * after it; this reads both, as pynntp does. Only the zlib format is read (what the providers and
 * the PHP indexers' {@code gzuncompress} use); a gzip header fails as corrupt. The bytes inflated
 * are bounded by the caller's per-reply byte budget, as a plain reply's are.
 */
final class GzipReply extends InputStream {

    private final Inflater inflater = new Inflater();
    private final InputStream raw;
    private final byte[] chunk = new byte[16 * 1024];
    /** The array last given to the inflater and its length, to find the plain bytes after the stream's end. */
    private byte[] lastInput;

    private int lastLength;
    private byte[] plain = new byte[0];
    private int plainPos;
    /** Bytes given out after the stream's end, plain or straight from the connection. */
    private long plainGiven;

    private boolean streamEnded;

    /** A block whose first bytes ({@code head}) were already read from the connection. */
    GzipReply(byte[] head, InputStream raw) {
        this.raw = raw;
        lastInput = head;
        lastLength = head.length;
        inflater.setInput(head, 0, head.length);
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!streamEnded) {
            int n = inflate(b, off, len);
            if (n > 0) {
                return n;
            }
        }
        if (plainPos < plain.length) {
            int n = Math.min(len, plain.length - plainPos);
            System.arraycopy(plain, plainPos, b, off, n);
            plainPos += n;
            plainGiven += n;
            return n;
        }
        int n = raw.read(b, off, len);
        if (n > 0) {
            plainGiven += n;
        }
        return n;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    /**
     * After the terminating line was read: reads the stream to its end (its checksum), and answers
     * whether no inflated text was left after that line, neither in the stream nor among the last
     * {@code unreadByCaller} bytes this gave out (what the caller's line reader holds past the line),
     * which must then all be plain bytes from after the stream.
     */
    boolean endsCleanly(int unreadByCaller) throws IOException {
        if (unreadByCaller > plainGiven) {
            return false;
        }
        byte[] scratch = new byte[512];
        while (!streamEnded) {
            if (inflate(scratch, 0, scratch.length) > 0) {
                return false;
            }
        }
        return true;
    }

    /** The plain bytes read past the stream's end and not read from here yet (the next reply's, if any). */
    byte[] plainLeft() {
        byte[] left = Arrays.copyOfRange(plain, plainPos, plain.length);
        plainPos = plain.length;
        return left;
    }

    /** Inflates into {@code b}; 0 once the stream has ended (its trailing plain bytes are then kept). */
    private int inflate(byte[] b, int off, int len) throws IOException {
        try {
            while (true) {
                int n = inflater.inflate(b, off, len);
                if (n > 0) {
                    return n;
                }
                if (inflater.finished()) {
                    int left = inflater.getRemaining();
                    plain = Arrays.copyOfRange(lastInput, lastLength - left, lastLength);
                    plainPos = 0;
                    streamEnded = true;
                    inflater.end();
                    return 0;
                }
                if (inflater.needsDictionary()) {
                    throw new ZipException("compressed overview needs a preset dictionary");
                }
                if (inflater.needsInput()) {
                    int r = raw.read(chunk, 0, chunk.length);
                    if (r < 0) {
                        throw new EOFException("connection closed inside a compressed overview reply");
                    }
                    lastInput = chunk;
                    lastLength = r;
                    inflater.setInput(chunk, 0, r);
                }
            }
        } catch (DataFormatException e) {
            throw new ZipException("compressed overview reply is corrupt (" + e.getMessage()
                    + "); set HEADWAY_NNTP_COMPRESS=false to read it uncompressed");
        }
    }

    @Override
    public void close() {
        inflater.end();
    }
}
