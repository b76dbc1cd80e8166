package headway.nntp;

import java.io.IOException;

/**
 * A failed NNTP exchange: an unexpected reply (then {@link #code()} is its status code) or a protocol
 * violation (code -1). Messages never contain credentials.
 */
public class NntpException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int code;

    public NntpException(int code, String message) {
        super(message);
        this.code = code;
    }

    public NntpException(int code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /** The server's status code, or -1 when the failure was not a reply. */
    public int code() {
        return code;
    }
}
