package headway.inspect.archive;

import java.util.Arrays;

/**
 * The parts of an archive the caller has: its first bytes (the head) and its last bytes (the
 * tail, at {@code tailOffset} in the whole archive, whose size is {@code tailOffset + tail.length};
 * with no tail, the archive is as long as the head at least). Everything else is unknown; a read
 * is answered only when it lies wholly in one of the two.
 */
final class Window {

    final byte[] head;
    final byte[] tail;
    final long tailOffset;
    final long total;

    private Window(byte[] head, byte[] tail, long tailOffset) {
        this.head = head;
        this.tail = tail;
        this.tailOffset = tailOffset;
        this.total = tail.length == 0 ? Math.max(tailOffset, head.length) : tailOffset + tail.length;
    }

    /**
     * The window, or {@link Malformed} when the offset is negative or the sizes do not add up. A
     * head and tail that overlap or touch are joined into one array (no longer than the two), so
     * that a range across the seam, such as a long central directory, is at hand.
     */
    static Window of(byte[] head, byte[] tail, long tailOffset) {
        if (tailOffset < 0 || tailOffset > Long.MAX_VALUE - tail.length) {
            throw new Malformed("the tail's offset " + tailOffset + " is not a place in an archive");
        }
        Window w = new Window(head, tail, tailOffset);
        if (head.length > w.total) {
            throw new Malformed("the head (" + head.length + " bytes) is longer than the archive (" + w.total
                    + " bytes: the tail's offset plus its length)");
        }
        if (tail.length > 0 && tailOffset <= head.length && head.length < w.total) {
            byte[] whole = Arrays.copyOf(head, (int) w.total);
            System.arraycopy(tail, 0, whole, (int) tailOffset, tail.length);
            return new Window(whole, tail, tailOffset);
        }
        return w;
    }

    /** The bytes {@code [at, at + length)} of the archive, or null when they are not all at hand. */
    Slice slice(long at, long length) {
        if (at < 0 || length < 0 || at > total || length > total - at) {
            return null;
        }
        if (at + length <= head.length) {
            return new Slice(head, (int) at, (int) (at + length));
        }
        if (at >= tailOffset) {
            return new Slice(tail, (int) (at - tailOffset), (int) (at - tailOffset + length));
        }
        return null;
    }

    /** Up to {@code max} bytes from {@code at}, as many as one part holds, or null for none. */
    Slice upTo(long at, long max) {
        if (at < 0 || at >= total || max <= 0) {
            return null;
        }
        if (at < head.length) {
            return new Slice(head, (int) at, (int) Math.min(head.length, at + max));
        }
        if (at >= tailOffset) {
            long from = at - tailOffset;
            return new Slice(tail, (int) from, (int) Math.min(tail.length, from + max));
        }
        return null;
    }

    /** Says where the bytes given lie, for a reason. */
    String describe() {
        return "the bytes given are 0.." + head.length + " and " + tailOffset + ".." + total;
    }

    /** A range {@code [from, to)} of one of the two arrays. */
    record Slice(byte[] bytes, int from, int to) {

        int length() {
            return to - from;
        }
    }
}
