package headway.inspect.archive;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What an archive's headers say it holds, read from the part of it the caller has.
 *
 * @param format the format the bytes are in
 * @param entries the entries read, in archive order, at most {@link Archives#MAX_ENTRIES}
 * @param headersEncrypted whether the headers (and so the names) are encrypted: the listing is then
 *     empty but the archive is known to be passworded
 * @param volume what the archive says about being a volume of a set
 * @param volumeNumber the volume's number counted from 0, when the format states it
 * @param reason why reading stopped before the format's end of the listing (the bytes given end
 *     inside a file's data, a header fails its CRC, a bound was reached), or null when the listing
 *     is complete; at most {@link #MAX_REASON_CHARS} chars
 */
public record Listing(
        ArchiveFormat format,
        List<Entry> entries,
        boolean headersEncrypted,
        VolumeRole volume,
        OptionalInt volumeNumber,
        String reason) {

    /** Reasons are built by the readers from numbers and fixed words; this cuts any that run on. */
    public static final int MAX_REASON_CHARS = 300;

    public Listing {
        Objects.requireNonNull(format, "format");
        entries = List.copyOf(entries);
        Objects.requireNonNull(volume, "volume");
        Objects.requireNonNull(volumeNumber, "volumeNumber");
        if (reason != null && reason.length() > MAX_REASON_CHARS) {
            reason = reason.substring(0, MAX_REASON_CHARS);
        }
    }

    /** Whether the reader reached the format's end of the listing. */
    public boolean complete() {
        return reason == null;
    }

    /** Whether a password is needed: the headers or at least one entry are encrypted. */
    public boolean passworded() {
        return headersEncrypted || entries.stream().anyMatch(Entry::encrypted);
    }

    /** Whether an entry is itself an archive, newznab's "possibly passworded". */
    public boolean innerArchive() {
        return entries.stream().anyMatch(Entry::archive);
    }

    /**
     * One entry of the listing.
     *
     * @param name the path inside the archive, '/' between parts, no trailing '/', cleaned of
     *     control characters and cut to {@link Archives#MAX_NAME_CHARS}
     * @param size the unpacked size, when the header states it
     * @param packedSize the packed size of the entry's data, in this volume for RAR, when the
     *     format states it per entry (7z states it per folder: known for a folder of one entry)
     * @param directory whether the entry is a directory
     * @param encrypted whether the entry's data is encrypted
     * @param archive whether the entry is itself an archive, by its name or its first bytes
     * @param splitBefore whether the entry's data began in an earlier volume (RAR)
     * @param splitAfter whether the entry's data goes on in a later volume (RAR)
     */
    public record Entry(
            String name,
            OptionalLong size,
            OptionalLong packedSize,
            boolean directory,
            boolean encrypted,
            boolean archive,
            boolean splitBefore,
            boolean splitAfter) {

        public Entry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(size, "size");
            Objects.requireNonNull(packedSize, "packedSize");
        }
    }
}
