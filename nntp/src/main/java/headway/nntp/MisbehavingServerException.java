package headway.nntp;

/**
 * A news server broke one of the bounds a reply must keep (see {@link NntpClient.Limits}): too many
 * lines or bytes for what was asked, a line or status line too long, an article number outside the
 * range asked for or out of order, or a reply that did not end by its deadline. The connection it
 * happened on is broken and never reused; nothing the reply carried after the breach reached the
 * sink, so a caller that moves its cursor only over delivered articles has moved nothing past it.
 */
public final class MisbehavingServerException extends NntpException {
    private static final long serialVersionUID = 1L;

    /** The bound a server broke. */
    public enum Bound {
        /** A status line longer than the limit, or not a three-digit code. */
        STATUS_LINE("status line"),
        /** A line of a multi-line reply longer than the limit. */
        LINE_BYTES("line length"),
        /** More lines than asked for (OVER lo-hi: hi-lo+1), or than a list may have. */
        REPLY_LINES("line count"),
        /** More bytes than a reply of that size may have. */
        REPLY_BYTES("reply size"),
        /** An article number outside the range asked for. */
        ARTICLE_RANGE("article range"),
        /** An article number not above the one before it. */
        ARTICLE_ORDER("article order"),
        /** The whole reply did not arrive within the command's deadline. */
        DEADLINE("deadline"),
        /** No byte arrived within the read timeout. */
        READ_TIMEOUT("read timeout");

        private final String shown;

        Bound(String shown) {
            this.shown = shown;
        }

        @Override
        public String toString() {
            return shown;
        }
    }

    private final String server;
    private final String command;
    private final Bound bound;

    public MisbehavingServerException(String server, String command, Bound bound, String detail) {
        super(
                -1,
                server + " broke the " + bound + " bound on " + command + ": " + detail
                        + (command.startsWith("BODY")
                                ? "; the connection is dropped and the article left unread"
                                : "; the connection is dropped and the range retried later"));
        this.server = server;
        this.command = command;
        this.bound = bound;
    }

    /** The server, as {@link NntpServer#toString()} shows it (never with credentials). */
    public String server() {
        return server;
    }

    /** The command whose reply broke the bound, e.g. {@code OVER 1-10}. */
    public String command() {
        return command;
    }

    public Bound bound() {
        return bound;
    }
}
