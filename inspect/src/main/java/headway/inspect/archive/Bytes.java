package headway.inspect.archive;

import java.util.zip.CRC32;

/** Little-endian reads at an index the caller has checked, and CRC-32 over a range. */
final class Bytes {

    private Bytes() {}

    static int u16(byte[] b, int i) {
        return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8;
    }

    static long u32(byte[] b, int i) {
        return (u16(b, i) | (long) u16(b, i + 2) << 16) & 0xFFFFFFFFL;
    }

    static long u64(byte[] b, int i) {
        return u32(b, i) | u32(b, i + 4) << 32;
    }

    static long crc32(byte[] b, int from, int to) {
        CRC32 crc = new CRC32();
        crc.update(b, from, to - from);
        return crc.getValue();
    }

    /** Whether {@code b} holds {@code magic} at {@code at}, false when it is too short. */
    static boolean startsWith(byte[] b, int at, int limit, byte[] magic) {
        if (at < 0 || limit - at < magic.length) {
            return false;
        }
        for (int i = 0; i < magic.length; i++) {
            if (b[at + i] != magic[i]) {
                return false;
            }
        }
        return true;
    }

    static byte[] of(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }
}
