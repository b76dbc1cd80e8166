package headway.index;

/**
 * One article of a binary: its part number, its size in bytes, its message-id without angle
 * brackets, and its article number in the group, or -1 where it is not known (a binary read back
 * from the catalog, which does not keep it, or from a snapshot of an older build). A message-id
 * holds no tab (an overview line's fields are split on tabs), which the catalog's write relies on
 * to send a binary's message-ids as one string. The article number is what the ledger is keyed
 * by when the catalog cannot take the binary (see {@code CatalogStore}).
 */
public record Segment(int part, int bytes, String messageId, long article) {

    public Segment {
        if (messageId.indexOf('\t') >= 0) {
            throw new IllegalArgumentException("a message-id cannot hold a tab: " + messageId.replace('\t', ' '));
        }
    }

    /** A segment whose article number is not known. */
    public Segment(int part, int bytes, String messageId) {
        this(part, bytes, messageId, -1);
    }
}
