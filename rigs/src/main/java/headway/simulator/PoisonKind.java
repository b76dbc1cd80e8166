package headway.simulator;

/**
 * How a poison article of a hostile group is served (see {@link NewsSimulator.GroupSpec#poisonFraction}).
 * The first three have a clean form the catalog takes (the article is cataloged, as its own binary
 * when its poster changed); the others have none, and an indexer must record them as rejected.
 */
public enum PoisonKind {
    /** A NUL byte at the start of the subject: cleaned, the segment joins its file. */
    NUL_SUBJECT(false),
    /** NUL and other control bytes in the poster: cleaned into another poster. */
    CONTROL_POSTER(false),
    /** A poster of 3,000 characters: keyed by a bounded form. */
    LONG_POSTER(false),
    /** A Date field that is no date. */
    BAD_DATE(true),
    /** An empty Message-ID field. */
    NO_MESSAGE_ID(true),
    /** A message-id of 300 characters, past RFC 5536's 250. */
    LONG_MESSAGE_ID(true),
    /** A subject of 4,000 characters. */
    LONG_SUBJECT(true);

    private final boolean rejected;

    PoisonKind(boolean rejected) {
        this.rejected = rejected;
    }

    /** True when the article has no clean form and belongs in the rejected-articles ledger. */
    public boolean rejected() {
        return rejected;
    }
}
