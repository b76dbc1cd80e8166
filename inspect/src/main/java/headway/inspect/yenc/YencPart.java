package headway.inspect.yenc;

/**
 * One decoded yEnc part (an article body), as far as it could be read.
 *
 * @param name the file name of {@code =ybegin}, decoded totally and cleaned; empty when no header was found
 * @param part {@code part=} of {@code =ybegin}, 0 for a single-part post
 * @param total {@code total=} of {@code =ybegin}, 0 when absent
 * @param begin {@code begin=} of {@code =ypart} (1-based, inclusive), 0 when absent
 * @param end {@code end=} of {@code =ypart} (inclusive), 0 when absent
 * @param size {@code size=} of {@code =ybegin}: the whole file's size, as declared
 * @param data the first decoded bytes, at most the caller's cap; the caller owns the array (an array, not a
 *     copy-on-read view, because the cap is the deep index's memory budget and a copy would double it)
 * @param decoded how many bytes the part decoded to, counted past the cap
 * @param crc whether the part's CRC32 matched its decoded bytes
 * @param reason why the part cannot be trusted whole (truncated, inconsistent, lying), or null
 */
@SuppressWarnings("ArrayRecordComponent")
public record YencPart(
        String name,
        int part,
        int total,
        long begin,
        long end,
        long size,
        byte[] data,
        long decoded,
        Crc crc,
        String reason) {

    /** The part's CRC32 ({@code pcrc32=}, or {@code crc32=} when the part is the whole file) against its bytes. */
    public enum Crc {
        MATCHED,
        ABSENT,
        MISMATCHED
    }

    /** True when a {@code =ybegin} header was found. */
    public boolean found() {
        return !name.isEmpty() || size > 0;
    }

    /** True when the part decoded whole, consistent with its headers, and its CRC (if any) matched. */
    public boolean ok() {
        return reason == null && crc != Crc.MISMATCHED;
    }
}
