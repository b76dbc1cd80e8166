package headway.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Eight bytes of text at a time: the window's per-header scans (the rule memo's key, looking for
 * control characters) read a subject's ISO-8859-1 bytes as longs, because {@code charAt} loops
 * over every subject were a large part of its CPU. The tests are the usual bit tricks: a result
 * is nonzero exactly when some byte of the word is what is asked for, given that no byte is
 * 0x80 or more; with such bytes it may be nonzero falsely, never zero falsely.
 */
final class Words {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101_0101_0101_0101L;
    private static final long HIGHS = 0x8080_8080_8080_8080L;

    private Words() {}

    /** The eight bytes of {@code b} from {@code i}, the first the lowest. */
    static long at(byte[] b, int i) {
        return (long) LONGS.get(b, i);
    }

    /** Nonzero when a byte of {@code w} is {@code c}. */
    static long hasByte(long w, int c) {
        long x = w ^ (ONES * c);
        return (x - ONES) & ~x & HIGHS;
    }

    /** Nonzero when a byte of {@code w} is below {@code n} (at most 0x80). */
    static long hasByteBelow(long w, int n) {
        return (w - ONES * n) & ~w & HIGHS;
    }
}
