package headway.nntp;

import headway.overview.OverviewLine;

/**
 * Receives one OVER reply as it streams, in server order. Calls come from the reading thread. If a
 * method throws, the client stops calling the sink, drains the rest of the reply so the connection
 * stays usable, and then rethrows.
 */
public interface OverviewSink {

    /** One well-formed overview line. */
    void header(OverviewLine line);

    /** A line that could not be parsed; {@code article} is -1 when no article number could be read. */
    void malformed(long article, String reason);

    /**
     * A run of article numbers inside the requested range that the server did not list, because OVER
     * lists only articles that exist (expired, cancelled or never stored ones leave gaps).
     */
    void missing(long fromInclusive, long toInclusive);
}
