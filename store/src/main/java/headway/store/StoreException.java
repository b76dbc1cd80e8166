package headway.store;

import java.sql.SQLException;

/** A database error, unchecked, with what the store was doing when it happened. */
public final class StoreException extends RuntimeException {

    public StoreException(String doing, SQLException cause) {
        super(doing + ": " + cause.getMessage(), cause);
    }

    /** The same failure, said with more context. */
    public StoreException(String doing, StoreException cause) {
        super(doing + ": " + cause.getMessage(), cause);
    }
}
