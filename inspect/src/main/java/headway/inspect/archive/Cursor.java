package headway.inspect.archive;

/**
 * A read position in a window {@code [start, limit)} of a byte array, little-endian, whose every
 * read checks the window first and throws {@link Malformed} past it, so a parser written in
 * straight lines cannot read outside the bytes it was given nor allocate from a length field.
 */
final class Cursor {

    private final byte[] bytes;
    private final int limit;
    private int pos;

    Cursor(byte[] bytes, int start, int limit) {
        this.bytes = bytes;
        this.pos = start;
        this.limit = limit;
    }

    int pos() {
        return pos;
    }

    int limit() {
        return limit;
    }

    byte[] bytes() {
        return bytes;
    }

    int remaining() {
        return limit - pos;
    }

    /** Checks that {@code n} more bytes are there; {@code what} names the field for the reason. */
    void need(long n, String what) {
        if (n < 0 || n > limit - pos) {
            throw new Malformed(what + " runs past the end of its header");
        }
    }

    int u8() {
        need(1, "a byte");
        return bytes[pos++] & 0xFF;
    }

    int u16() {
        need(2, "a 16-bit field");
        int v = Bytes.u16(bytes, pos);
        pos += 2;
        return v;
    }

    long u32() {
        need(4, "a 32-bit field");
        long v = Bytes.u32(bytes, pos);
        pos += 4;
        return v;
    }

    /** A 64-bit field; a value of 2^63 or more is a lie for any size or offset, so it is refused. */
    long u64(String what) {
        need(8, what);
        long v = Bytes.u64(bytes, pos);
        pos += 8;
        if (v < 0) {
            throw new Malformed(what + " is 2^63 or more");
        }
        return v;
    }

    void skip(long n, String what) {
        need(n, what);
        pos += (int) n;
    }

    /**
     * RAR 5's vint: 7 bits a byte, low bits first, the high bit says another byte follows; at most
     * 10 bytes, and a value of 2^63 or more is refused (no RAR 5 field holds one).
     */
    long vint(String what) {
        long v = 0;
        for (int i = 0; i < 10; i++) {
            int b = u8();
            if (i == 9 && b > 0) {
                throw new Malformed(what + " is 2^63 or more");
            }
            v |= (long) (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new Malformed(what + " is a vint longer than 10 bytes");
    }

    /**
     * 7z's NUMBER: the count of leading 1 bits of the first byte is the count of bytes that
     * follow (low byte first), and the rest of the first byte is the high part; 2^63 or more is
     * refused.
     */
    long number(String what) {
        int first = u8();
        int mask = 0x80;
        long v = 0;
        for (int i = 0; i < 8; i++) {
            if ((first & mask) == 0) {
                long high = first & (mask - 1);
                return v | (high << (8 * i));
            }
            v |= (long) u8() << (8 * i);
            mask >>>= 1;
        }
        if (v < 0) {
            throw new Malformed(what + " is 2^63 or more");
        }
        return v;
    }

    /** A count read as a NUMBER that must be at most {@code max}, the caller's bound. */
    int count(String what, long max) {
        long n = number(what);
        if (n > max) {
            throw new Malformed(what + " is " + n + ", more than " + max);
        }
        return (int) n;
    }
}
