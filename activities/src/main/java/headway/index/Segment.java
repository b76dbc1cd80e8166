package headway.index;

/** One article of a binary: its part number, its size in bytes, and its message-id without angle brackets. */
public record Segment(int part, int bytes, String messageId) {}
