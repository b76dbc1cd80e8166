package headway.coordination;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 and byte counting over a stream, shared by the snapshot stores. */
final class SnapshotDigest {

    private SnapshotDigest() {}

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }

    /** An output stream that digests and counts what passes, and ignores close. */
    static final class Out extends FilterOutputStream {
        final MessageDigest digest = sha256();
        long count;

        Out(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            digest.update((byte) b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            digest.update(b, off, len);
            count += len;
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }

    /** An input stream that digests what is read through it; {@link #drain} reads the rest so the digest covers all. */
    static final class In extends FilterInputStream {
        final MessageDigest digest = sha256();

        In(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                digest.update((byte) b);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                digest.update(b, off, n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            byte[] buf = new byte[8192];
            long skipped = 0;
            while (skipped < n) {
                int r = read(buf, 0, (int) Math.min(buf.length, n - skipped));
                if (r < 0) {
                    break;
                }
                skipped += r;
            }
            return skipped;
        }

        @Override
        public void close() {}

        void drain() throws IOException {
            byte[] buf = new byte[65536];
            while (read(buf, 0, buf.length) >= 0) {
                // the digest must cover every byte
            }
        }
    }
}
