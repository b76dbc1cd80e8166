package headway.simulator;

/**
 * How a hostile article's body is served (see {@link NewsSimulator.GroupSpec#hostileBodyFraction}):
 * the overview line stays as it is, the yEnc part in the body is spoiled. A client must bound
 * what it reads itself: the server never stops an {@link #ENDLESS} body.
 */
public enum HostileBody {
    /** The part stops halfway through its data: no {@code =yend}, then the reply's terminating dot. */
    TRUNCATED,
    /** The {@code =yend} trailer's {@code pcrc32} does not match the data. */
    WRONG_CRC,
    /** {@code =ybegin} and {@code =ypart}, then data lines forever, until the client closes the connection. */
    ENDLESS,
    /** {@code =ybegin} claims a file of 2^60 bytes. */
    HUGE_SIZE
}
