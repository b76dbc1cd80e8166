package headway.index;

/**
 * One article of a binary: its part number, its size in bytes, and its message-id without angle
 * brackets. A message-id holds no tab (an overview line's fields are split on tabs), which the
 * catalog's write relies on to send a binary's message-ids as one string.
 */
public record Segment(int part, int bytes, String messageId) {

    public Segment {
        if (messageId.indexOf('\t') >= 0) {
            throw new IllegalArgumentException("a message-id cannot hold a tab: " + messageId.replace('\t', ' '));
        }
    }
}
