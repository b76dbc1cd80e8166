package headway.index;

import java.io.IOException;

/** A window snapshot that is not gzip, not JSON, truncated or of another format; treat it as absent. */
public final class BadSnapshotException extends IOException {

    public BadSnapshotException(String message, Throwable cause) {
        super(message + "; discard the snapshot and re-read from the last range committed to the catalog", cause);
    }
}
