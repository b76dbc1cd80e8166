package headway.deep;

/** What was read inside a release's files and named it; the order is the order of {@link Naming#label()}. */
public enum Source {
    /** A scene release name in the release's NFO. */
    NFO,
    /** A file description packet of the release's PAR2 set. */
    PAR2,
    /** An entry of the release's archive listing. */
    ARCHIVE
}
