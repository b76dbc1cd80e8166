package headway.simulator;

/** What an article number is in a simulated group. */
public enum ArticleKind {
    /** Served with a well-formed overview line. */
    VALID,
    /** A number whose article no longer exists: OVER leaves it out. */
    GAP,
    /** Served with a broken overview line. */
    MALFORMED,
    /** Served with a hostile overview line (see {@link PoisonKind}). */
    POISON,
    /** Above the high-water mark (or below 1). */
    ABSENT
}
