package headway.simulator;

/**
 * How a poison article of a hostile group is served (see {@link NewsSimulator.GroupSpec#poisonFraction}).
 * Those whose {@link #rejected()} is false have a form the catalog takes (the article is cataloged,
 * as its own binary when its poster changed); the others have none, and an indexer must record
 * them as rejected. The Unicode kinds draw their text from {@link HostileText}, per article.
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
    LONG_SUBJECT(true),
    /**
     * Text from all of Unicode but ASCII before the subject (an emoji, U+1D538, bidi controls,
     * combining marks, noncharacters, in any normalization form): the segment joins its file.
     */
    UNICODE_SUBJECT(false),
    /** A poster of text from all of Unicode but ASCII before its address: cataloged as another poster's. */
    UNICODE_POSTER(false),
    /** Bytes that are not UTF-8 (a lone surrogate, an overlong form, ...) before the subject: read as Windows-1252. */
    INVALID_UTF8_SUBJECT(false),
    /** A message-id with text from all of Unicode but ASCII after the article number: cataloged as served. */
    UNICODE_MESSAGE_ID(false);

    private final boolean rejected;

    PoisonKind(boolean rejected) {
        this.rejected = rejected;
    }

    /** True when the article has no clean form and belongs in the rejected-articles ledger. */
    public boolean rejected() {
        return rejected;
    }
}
