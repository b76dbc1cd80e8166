package headway.inspect.archive;

import java.util.Objects;
import java.util.Optional;

/**
 * Listings of RAR 4, RAR 5, 7z and ZIP archives from the parts of them a caller has: the first
 * bytes of a volume (RAR, ZIP's local headers, 7z's signature header) and, for 7z and ZIP, the last
 * bytes of the archive with their offset in it (7z's header and ZIP's central directory are at the
 * end). Every method is total: bytes that break the format give a listing with a reason, never an
 * exception, and no method allocates more than its bounds from what the bytes claim.
 */
public final class Archives {

    /**
     * Entries a listing holds at most: a release's archive rarely lists more than a few hundred
     * files (a season pack of episodes, a discography), and the listing is for names to search.
     */
    public static final int MAX_ENTRIES = 10_000;

    /** Longest entry name kept, in chars; see {@link Listing.Entry#name()}. */
    public static final int MAX_NAME_CHARS = Names.MAX_CHARS;

    private static final byte[] ZIP_LOCAL = Bytes.of(0x50, 0x4B, 0x03, 0x04);
    private static final byte[] ZIP_EMPTY = Bytes.of(0x50, 0x4B, 0x05, 0x06);
    private static final byte[] ZIP_SPLIT = Bytes.of(0x50, 0x4B, 0x07, 0x08);

    private Archives() {}

    /** The format the first bytes of a file are in, by its magic at offset 0, or empty. */
    public static Optional<ArchiveFormat> sniff(byte[] head) {
        Objects.requireNonNull(head, "head");
        if (Bytes.startsWith(head, 0, head.length, Rar4Reader.MARKER)) {
            return Optional.of(ArchiveFormat.RAR4);
        }
        if (Bytes.startsWith(head, 0, head.length, Rar5Reader.SIGNATURE)) {
            return Optional.of(ArchiveFormat.RAR5);
        }
        if (Bytes.startsWith(head, 0, head.length, SevenZipReader.SIGNATURE)) {
            return Optional.of(ArchiveFormat.SEVEN_ZIP);
        }
        if (Bytes.startsWith(head, 0, head.length, ZIP_LOCAL)
                || Bytes.startsWith(head, 0, head.length, ZIP_EMPTY)
                || Bytes.startsWith(head, 0, head.length, ZIP_SPLIT)) {
            return Optional.of(ArchiveFormat.ZIP);
        }
        return Optional.empty();
    }

    /**
     * The listing of a RAR 1.5-4.x volume from its first bytes: the headers up to the first whose
     * data runs past them (a volume's first article holds the main header and the headers of what
     * starts in it).
     */
    public static Listing rar4(byte[] head) {
        return Rar4Reader.read(Objects.requireNonNull(head, "head"));
    }

    /** The listing of a RAR 5 volume from its first bytes, as {@link #rar4} does for RAR 4. */
    public static Listing rar5(byte[] head) {
        return Rar5Reader.read(Objects.requireNonNull(head, "head"));
    }

    /**
     * The listing of a 7z archive from the head of its first volume (at least the 32-byte
     * signature header) and the tail of its last volume, which starts at {@code tailOffset} in the
     * whole archive (the sum of the sizes of the volumes before it, plus where in the last volume
     * the tail starts); the archive's size is {@code tailOffset + tail.length}.
     */
    public static Listing sevenZip(byte[] head, byte[] tail, long tailOffset) {
        return SevenZipReader.read(
                Objects.requireNonNull(head, "head"), Objects.requireNonNull(tail, "tail"), tailOffset);
    }

    /**
     * The listing of a 7z archive from the last bytes of its last volume alone, for when its first
     * volume is not at hand (a shuffled, obfuscated post): found by the encoded header that ends
     * the archive, so the reason says so when the bytes end in anything else. Encrypted headers
     * are flagged; a listing is given only when the decoded header passes its CRC-32.
     */
    public static Listing sevenZipEnd(byte[] tail) {
        return SevenZipReader.readEnd(Objects.requireNonNull(tail, "tail"));
    }

    /**
     * The listing of a ZIP archive: from the central directory when the tail (at
     * {@code tailOffset}, as for {@link #sevenZip}) holds it, else from the local headers at the
     * start of the head. Either may be empty (with no tail, {@code tailOffset} is at most the
     * archive's size, 0 when unknown).
     */
    public static Listing zip(byte[] head, byte[] tail, long tailOffset) {
        return ZipReader.read(Objects.requireNonNull(head, "head"), Objects.requireNonNull(tail, "tail"), tailOffset);
    }

    /**
     * The listing in whatever format {@link #sniff} finds in the head, or empty when the head is
     * none of them; RAR reads the head alone.
     */
    public static Optional<Listing> list(byte[] head, byte[] tail, long tailOffset) {
        return sniff(head).map(format -> switch (format) {
            case RAR4 -> rar4(head);
            case RAR5 -> rar5(head);
            case SEVEN_ZIP -> sevenZip(head, tail, tailOffset);
            case ZIP -> zip(head, tail, tailOffset);
        });
    }
}
