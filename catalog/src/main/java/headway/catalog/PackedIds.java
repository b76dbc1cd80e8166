package headway.catalog;

import headway.index.Segment;
import headway.store.MessageIdPack;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A binary's message-ids as its row keeps them ({@link MessageIdPack}, V34), with the catalog's
 * failures: an id the catalog cannot take is the data exception PostgreSQL's text gave for it, so
 * that the write leaves the binary out and records its articles as before.
 */
final class PackedIds {

    /** PostgreSQL's state for a byte its encoding refuses (a NUL in text). */
    static final String CHARACTER_NOT_IN_REPERTOIRE = "22021";

    private PackedIds() {}

    /** The packed ids of {@code segments}, in their order. */
    static byte[] pack(List<Segment> segments) throws SQLException {
        List<String> ids = new ArrayList<>(segments.size());
        for (Segment s : segments) {
            ids.add(s.messageId());
        }
        try {
            return MessageIdPack.encode(ids);
        } catch (IllegalArgumentException e) {
            throw new SQLException(
                    "invalid byte sequence for encoding \"UTF8\": 0x00 (" + e.getMessage() + ")",
                    CHARACTER_NOT_IN_REPERTOIRE,
                    e);
        }
    }

    /** The {@code count} ids of a row of {@code what}; a value that does not hold exactly them is refused. */
    static List<String> unpack(byte[] packed, int count, String what) {
        List<String> ids;
        try {
            ids = MessageIdPack.decode(packed);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(
                    what + " holds message-ids that do not decode (" + e.getMessage()
                            + "); the catalog was written outside headway: write the binary again or delete its row",
                    e);
        }
        if (ids.size() != count) {
            throw new IllegalStateException(what + " holds " + count + " parts but " + ids.size()
                    + " message-ids; the catalog was written outside headway: write the binary again or delete its"
                    + " row");
        }
        return ids;
    }
}
