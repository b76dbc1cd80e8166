package headway.inspect.archive;

/** What an archive's own bytes say about it being one volume of a multi-volume set. */
public enum VolumeRole {
    /** A whole archive, not a volume of a set. */
    SINGLE,
    /** The first volume of a set. */
    FIRST,
    /** A volume of a set after the first. */
    LATER,
    /** A volume of a set, and the format does not say which (RAR 2.x without a first-volume flag). */
    SOME,
    /**
     * The bytes do not say: 7z volumes are plain byte splits of one archive, a ZIP's head without
     * a split marker may be a whole archive or a first volume, and encrypted headers hide it.
     */
    UNSTATED
}
