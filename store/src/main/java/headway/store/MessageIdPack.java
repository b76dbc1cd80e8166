package headway.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A binary's message-ids in part order as one packed value: the column {@code binaries.message_ids}
 * (V34). Each id is its UTF-8 bytes cut into tokens, a maximal run of ASCII letters and digits or
 * one other byte, and is written after the previous id of the binary: when both have the same
 * shape (the same count of tokens, the same other bytes in the same places) only the runs that
 * changed are written, a run of digits of the same length as a difference of numbers, any other run
 * as its characters packed in the smallest of nine alphabets that holds them (digits, hex, letters
 * of one case, ...: 3.3 to 6 bits a character, by blocks of up to 18 characters in 64 bits).
 * Otherwise the id is written whole. The ids follow each other bit by bit; zeros fill the last
 * byte, and two zero bits where an id would start end the value.
 *
 * <p>A binary's ids as real posting tools make them (a random part beside a timestamp or counter
 * and a shared domain) cost 6 to 24 bytes each against 36 to 64 as text. The encoding is a
 * function of the ids and {@link #decode} inverts it, so equal id lists have equal values and the
 * other way round. What the catalog accepted as text it accepts here and gives back the same (a
 * lone surrogate was '?' in UTF-8 and stays so); an id holding a NUL, which PostgreSQL's text
 * refused, is refused here. Pure Java, no JDBC: the catalog's readers and writers and the V34
 * migration share it, and {@code message_id_array(bytea)} decodes it in SQL for people and tests.
 *
 * <p>The bit stream of an id, most significant bit first: 1 when it has the shape of the previous
 * id, 01 when it is written whole. Same shape: per run of the previous id, an op of 2 bits: 0 the
 * same run, 1 a difference of numbers (zigzag varint), 2 new characters of the run's length and
 * alphabet (packed), 3 new characters (alphabet, varint length, packed). Whole: a varint count of
 * tokens, then per token a bit (0: one other byte, its 8 bits; 1: a run: alphabet, varint length,
 * packed). Varints are groups of 3 bits
 * with a continuation bit before each, least significant group first; an alphabet is 4 bits.
 */
public final class MessageIdPack {

    /** The alphabets a run may be packed in, smallest first: a run takes the first that holds all its characters. */
    static final String[] ALPHABETS = {
        "0123456789",
        "0123456789abcdef",
        "0123456789ABCDEF",
        "abcdefghijklmnopqrstuvwxyz",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "0123456789abcdefghijklmnopqrstuvwxyz",
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    };

    /** Per alphabet, the characters packed in one block (its size to that power fits in 63 bits). */
    private static final int[] BLOCK = new int[ALPHABETS.length];
    /** Per alphabet and block length, the bits of the block. */
    private static final int[][] BLOCK_BITS = new int[ALPHABETS.length][];
    /** Per alphabet, each ASCII character's digit, or -1. */
    private static final int[][] DIGIT = new int[ALPHABETS.length][128];

    static {
        for (int a = 0; a < ALPHABETS.length; a++) {
            long size = ALPHABETS[a].length();
            int n = 0;
            long pow = 1;
            List<Integer> bits = new ArrayList<>();
            bits.add(0);
            while (pow <= (Long.MAX_VALUE) / size) {
                pow *= size;
                n++;
                bits.add(64 - Long.numberOfLeadingZeros(pow - 1));
            }
            BLOCK[a] = n;
            BLOCK_BITS[a] = bits.stream().mapToInt(Integer::intValue).toArray();
            Arrays.fill(DIGIT[a], -1);
            for (int i = 0; i < ALPHABETS[a].length(); i++) {
                DIGIT[a][ALPHABETS[a].charAt(i)] = i;
            }
        }
    }

    /** An id's first bit when it has the shape of the one before it. */
    private static final int SAME_SHAPE = 1;
    /** An id's first two bits when it is written whole; two zero bits (or one, last) end the value. */
    private static final int WHOLE = 1;

    private static final int SAME = 0;
    private static final int DELTA = 1;
    private static final int NEW_LIKE = 2;
    private static final int NEW = 3;
    /** The longest run of digits written as a difference: 10^18 fits in a long. */
    private static final int DELTA_DIGITS = 18;

    private MessageIdPack() {}

    /** The packed value of {@code ids}; refuses an id holding a NUL, as PostgreSQL's text did. */
    public static byte[] encode(List<String> ids) {
        Bits out = new Bits();
        byte[][] prev = null;
        for (String id : ids) {
            byte[][] tokens = tokens(id.getBytes(StandardCharsets.UTF_8));
            if (prev != null && sameShape(prev, tokens)) {
                out.write(SAME_SHAPE, 1);
                for (int t = 0; t < tokens.length; t++) {
                    if (isRun(tokens[t])) {
                        writeChange(out, prev[t], tokens[t]);
                    }
                }
            } else {
                out.write(WHOLE, 2);
                out.varint(tokens.length);
                for (byte[] token : tokens) {
                    if (isRun(token)) {
                        out.write(1, 1);
                        int a = alphabet(token);
                        out.write(a, 4);
                        out.varint(token.length);
                        pack(out, a, token);
                    } else {
                        out.write(0, 1);
                        out.write(token[0] & 0xff, 8);
                    }
                }
            }
            prev = tokens;
        }
        return out.toArray();
    }

    /**
     * The ids {@code packed} holds; throws {@link IllegalArgumentException} for a value that no
     * list of ids encodes to (truncated, lying), after reading at most its own bytes.
     */
    public static List<String> decode(byte[] packed) {
        Reader in = new Reader(packed);
        List<String> ids = new ArrayList<>();
        byte[][] prev = null;
        while (true) {
            byte[][] tokens;
            if (in.remaining() == 0 || (in.peek(1) != SAME_SHAPE && (in.remaining() < 2 || in.peek(2) != WHOLE))) {
                break; // the end: what is left fills the last byte (zeros, as encode checks again below)
            }
            if (in.read(1) == SAME_SHAPE) {
                if (prev == null) {
                    throw new IllegalArgumentException("the first message-id cannot repeat a previous one's shape");
                }
                tokens = new byte[prev.length][];
                for (int t = 0; t < prev.length; t++) {
                    tokens[t] = isRun(prev[t]) ? readChange(in, prev[t]) : prev[t];
                }
            } else {
                in.read(1);
                long count = in.varint();
                if (count > in.remaining()) {
                    throw new IllegalArgumentException(
                            "a message-id of " + count + " tokens in " + in.remaining() + " bits");
                }
                tokens = new byte[(int) count][];
                for (int t = 0; t < count; t++) {
                    if (in.read(1) == 1) {
                        int a = readAlphabet(in);
                        tokens[t] = unpack(in, a, readLength(in, a));
                    } else {
                        tokens[t] = new byte[] {(byte) in.read(8)};
                    }
                }
            }
            ids.add(new String(join(tokens), StandardCharsets.UTF_8));
            prev = tokens;
        }
        // a value is valid only as encode writes it: this refuses every other way of writing the
        // same ids (a run cut in two, a byte that is no UTF-8, a wider alphabet, a needless group)
        byte[] again;
        try {
            again = encode(ids);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a value that encode does not write: " + e.getMessage(), e);
        }
        if (!Arrays.equals(again, packed)) {
            throw new IllegalArgumentException("a value that encode does not write for the ids it holds");
        }
        return ids;
    }

    private static void writeChange(Bits out, byte[] before, byte[] now) {
        if (Arrays.equals(before, now)) {
            out.write(SAME, 2);
            return;
        }
        int a = alphabet(now);
        if (a == 0 && alphabet(before) == 0 && before.length == now.length && now.length <= DELTA_DIGITS) {
            long d = number(now) - number(before);
            out.write(DELTA, 2);
            out.varint((d << 1) ^ (d >> 63));
            return;
        }
        if (now.length == before.length && a == alphabet(before)) {
            out.write(NEW_LIKE, 2);
        } else {
            out.write(NEW, 2);
            out.write(a, 4);
            out.varint(now.length);
        }
        pack(out, a, now);
    }

    private static byte[] readChange(Reader in, byte[] before) {
        int op = (int) in.read(2);
        switch (op) {
            case SAME:
                return before;
            case DELTA: {
                if (before.length > DELTA_DIGITS || alphabet(before) != 0) {
                    throw new IllegalArgumentException("a difference of numbers after a run that is no number");
                }
                long z = in.varint();
                long d = (z >>> 1) ^ -(z & 1);
                long v = number(before) + d;
                long limit = pow10(before.length);
                if (v < 0 || v >= limit) {
                    throw new IllegalArgumentException("a difference of numbers out of its run's digits");
                }
                byte[] now = new byte[before.length];
                for (int i = now.length - 1; i >= 0; i--) {
                    now[i] = (byte) ('0' + v % 10);
                    v /= 10;
                }
                return now;
            }
            case NEW_LIKE:
                return unpack(in, alphabet(before), before.length);
            default: {
                int a = readAlphabet(in);
                return unpack(in, a, readLength(in, a));
            }
        }
    }

    private static int readAlphabet(Reader in) {
        int a = (int) in.read(4);
        if (a >= ALPHABETS.length) {
            throw new IllegalArgumentException("no alphabet " + a);
        }
        return a;
    }

    /** A run's length, at least 1 and no more than the bits left could pack (3 bits a character at least). */
    private static int readLength(Reader in, int a) {
        long n = in.varint();
        if (n < 1 || n > in.remaining() / 3 + BLOCK[a]) {
            throw new IllegalArgumentException("a run of " + n + " characters in " + in.remaining() + " bits");
        }
        return (int) n;
    }

    /** Writes a run's characters in alphabet {@code a}: blocks of {@code BLOCK[a]}, each a number in base of the alphabet. */
    private static void pack(Bits out, int a, byte[] run) {
        long base = ALPHABETS[a].length();
        for (int from = 0; from < run.length; from += BLOCK[a]) {
            int n = Math.min(BLOCK[a], run.length - from);
            long v = 0;
            for (int i = from; i < from + n; i++) {
                v = v * base + DIGIT[a][run[i]];
            }
            out.write(v, BLOCK_BITS[a][n]);
        }
    }

    private static byte[] unpack(Reader in, int a, int length) {
        long base = ALPHABETS[a].length();
        String alphabet = ALPHABETS[a];
        byte[] run = new byte[length];
        for (int from = 0; from < length; from += BLOCK[a]) {
            int n = Math.min(BLOCK[a], length - from);
            long v = in.read(BLOCK_BITS[a][n]);
            for (int i = from + n - 1; i >= from; i--) {
                run[i] = (byte) alphabet.charAt((int) (v % base));
                v /= base;
            }
            if (v != 0) {
                throw new IllegalArgumentException("a block beyond its alphabet's numbers");
            }
        }
        return run;
    }

    /** The first alphabet that holds every character of {@code run} (a run of ASCII letters and digits). */
    static int alphabet(byte[] run) {
        for (int a = 0; a < ALPHABETS.length; a++) {
            boolean all = true;
            for (byte b : run) {
                if (DIGIT[a][b] < 0) {
                    all = false;
                    break;
                }
            }
            if (all) {
                return a;
            }
        }
        throw new IllegalStateException("not a run of letters and digits");
    }

    private static long number(byte[] digits) {
        long v = 0;
        for (byte b : digits) {
            v = v * 10 + (b - '0');
        }
        return v;
    }

    private static long pow10(int n) {
        long p = 1;
        for (int i = 0; i < n; i++) {
            p *= 10;
        }
        return p;
    }

    static boolean isAlnum(int b) {
        return (b >= '0' && b <= '9') || (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z');
    }

    private static boolean isRun(byte[] token) {
        return isAlnum(token[0]);
    }

    /** {@code bytes} cut into runs of ASCII letters and digits and single other bytes; a NUL is refused. */
    private static byte[][] tokens(byte[] bytes) {
        List<byte[]> out = new ArrayList<>();
        int i = 0;
        while (i < bytes.length) {
            if (bytes[i] == 0) {
                throw new IllegalArgumentException("a message-id cannot hold a NUL");
            }
            int j = i;
            while (j < bytes.length && isAlnum(bytes[j])) {
                j++;
            }
            if (j == i) {
                j = i + 1;
            }
            out.add(Arrays.copyOfRange(bytes, i, j));
            i = j;
        }
        return out.toArray(new byte[0][]);
    }

    private static boolean sameShape(byte[][] a, byte[][] b) {
        if (a.length != b.length) {
            return false;
        }
        for (int t = 0; t < a.length; t++) {
            boolean run = isRun(a[t]);
            if (run != isRun(b[t]) || (!run && a[t][0] != b[t][0])) {
                return false;
            }
        }
        return true;
    }

    private static byte[] join(byte[][] tokens) {
        int n = 0;
        for (byte[] t : tokens) {
            n += t.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] t : tokens) {
            System.arraycopy(t, 0, out, at, t.length);
            at += t.length;
        }
        return out;
    }

    /** A growing bit stream, most significant bit first. */
    private static final class Bits {
        private byte[] buf = new byte[64];
        private long bits;

        void write(long v, int n) {
            for (int i = n - 1; i >= 0; i--) {
                int at = (int) (bits >>> 3);
                if (at >= buf.length) {
                    buf = Arrays.copyOf(buf, buf.length * 2);
                }
                if (((v >>> i) & 1) != 0) {
                    buf[at] |= (byte) (0x80 >>> (bits & 7));
                }
                bits++;
            }
        }

        void varint(long v) {
            long rest = v;
            do {
                long group = rest & 7;
                rest >>>= 3;
                write(rest != 0 ? 8 | group : group, 4);
            } while (rest != 0);
        }

        byte[] toArray() {
            return Arrays.copyOf(buf, (int) ((bits + 7) >>> 3));
        }
    }

    /** Reads a bit stream; every read past its end throws. */
    private static final class Reader {
        private final byte[] buf;
        private final long length;
        private long at;

        Reader(byte[] buf) {
            this.buf = buf;
            this.length = (long) buf.length * 8;
        }

        /** The next {@code n} bits without reading them. */
        long peek(int n) {
            long mark = at;
            long v = read(n);
            at = mark;
            return v;
        }

        long remaining() {
            return length - at;
        }

        long read(int n) {
            if (n > length - at) {
                throw new IllegalArgumentException("the value ends inside a message-id");
            }
            long v = 0;
            for (int i = 0; i < n; i++) {
                v = (v << 1) | ((buf[(int) (at >>> 3)] >>> (7 - (at & 7))) & 1);
                at++;
            }
            return v;
        }

        long varint() {
            long v = 0;
            for (int shift = 0; ; shift += 3) {
                long group = read(4);
                if (shift == 63 && group > 1) {
                    throw new IllegalArgumentException("a number longer than 64 bits");
                }
                v |= (group & 7) << shift;
                if ((group & 8) == 0) {
                    return v;
                }
            }
        }
    }
}
