package headway.nntp;

import java.io.IOException;
import java.util.List;

/**
 * STAT by message-id (RFC 3977 6.2.4), pipelined: up to {@code window} commands on the wire while
 * the replies before them arrive, so that checking a release's segments on a distant provider costs
 * about one round trip per window instead of one per article. Each reply is a status line only
 * (223 held, 430 or 423 not), so a window of commands and their replies fit in the socket buffers;
 * any other reply breaks the connection, because the replies after it cannot be trusted to match.
 */
public final class StatPipeline {
    /** The most commands a caller may keep on the wire: their replies stay well inside a socket buffer. */
    public static final int MAX_WINDOW = 100;

    private StatPipeline() {}

    /** Whether {@code client}'s server holds each of {@code messageIds}, in order. */
    public static boolean[] stat(NntpClient client, List<String> messageIds, int window) throws IOException {
        if (window < 1 || window > MAX_WINDOW) {
            throw new IllegalArgumentException("window must be between 1 and " + MAX_WINDOW + ", was " + window);
        }
        if (client.unreadReplies() != 0 || client.isBroken()) {
            throw new IllegalStateException("STAT on " + client + " with OVER replies unread or a broken connection");
        }
        for (String id : messageIds) {
            Replies.checkMessageId(id);
        }
        int n = messageIds.size();
        boolean[] held = new boolean[n];
        int sent = 0;
        for (int read = 0; read < n; read++) {
            while (sent < n && sent - read < window) {
                client.sendAhead("STAT " + messageIds.get(sent++));
            }
            held[read] = client.readStatus("STAT " + messageIds.get(read), 223, 430, 423) == 223;
        }
        return held;
    }
}
