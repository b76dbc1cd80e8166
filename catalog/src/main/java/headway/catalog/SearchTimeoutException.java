package headway.catalog;

import java.sql.SQLException;
import java.time.Duration;

/** A search that PostgreSQL cancelled at its statement timeout: the server is busy or the search too broad, not broken. */
public final class SearchTimeoutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Duration timeout;

    public SearchTimeoutException(Duration timeout, SQLException cause) {
        super("the search took longer than " + timeout.toMillis() + " ms and was stopped", cause);
        this.timeout = timeout;
    }

    /** The statement timeout it ran under. */
    public Duration timeout() {
        return timeout;
    }
}
