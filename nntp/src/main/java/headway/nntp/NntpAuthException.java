package headway.nntp;

/**
 * The server refused or required authentication. The message names the server, never the credentials.
 */
public final class NntpAuthException extends NntpException {
    private static final long serialVersionUID = 1L;

    public NntpAuthException(int code, String message) {
        super(code, message);
    }
}
