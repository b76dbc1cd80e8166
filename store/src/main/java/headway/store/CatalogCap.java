package headway.store;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The catalog size cap ({@code HEADWAY_CATALOG_CAP}): when the catalog's on-disk size, as the
 * database function {@code catalog_bytes()} defines it, has reached the cap, only tail ranges are
 * leased, so the newest articles keep flowing while history waits. Reading the size costs a few
 * catalog lookups per lease decision, and nothing at all when there is no cap.
 */
public final class CatalogCap {

    private static final String CATALOG_BYTES = "select catalog_bytes()";

    private final long capBytes;

    /** A cap of {@code capBytes}; 0 means no cap. */
    public CatalogCap(long capBytes) {
        if (capBytes < 0) {
            throw new IllegalArgumentException("catalog cap must be >= 0 bytes (0 = no cap), was " + capBytes);
        }
        this.capBytes = capBytes;
    }

    /** Whether the catalog has reached the cap. */
    public boolean reached(Connection c) throws SQLException {
        return capBytes > 0 && catalogBytes(c) >= capBytes;
    }

    /** The catalog's on-disk size in bytes. */
    public static long catalogBytes(Connection c) throws SQLException {
        return Jdbc.one(c, CATALOG_BYTES, rs -> rs.getLong(1));
    }
}
