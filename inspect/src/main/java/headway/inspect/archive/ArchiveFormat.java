package headway.inspect.archive;

/** The archive formats whose listings this package reads. */
public enum ArchiveFormat {
    /** RAR 1.5 to 4.x: marker {@code Rar!\x1A\x07\x00}. */
    RAR4,
    /** RAR 5.0 and later: marker {@code Rar!\x1A\x07\x01\x00}. */
    RAR5,
    /** 7z: signature {@code 7z\xBC\xAF\x27\x1C}, its header at the end of the archive. */
    SEVEN_ZIP,
    /** ZIP: local headers from the start, the central directory at the end. */
    ZIP
}
