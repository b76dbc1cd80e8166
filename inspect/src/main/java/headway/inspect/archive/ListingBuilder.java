package headway.inspect.archive;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/** Collects a reader's findings; {@link #add} refuses entries past {@link Archives#MAX_ENTRIES}. */
final class ListingBuilder {

    private final ArchiveFormat format;
    private final List<Listing.Entry> entries = new ArrayList<>();
    private boolean headersEncrypted;
    private VolumeRole volume = VolumeRole.UNSTATED;
    private OptionalInt volumeNumber = OptionalInt.empty();

    ListingBuilder(ArchiveFormat format) {
        this.format = format;
    }

    /** Adds an entry; throws {@link Malformed} (the reason) when the listing is full. */
    void add(Listing.Entry entry) {
        if (entries.size() >= Archives.MAX_ENTRIES) {
            throw new Malformed(
                    "more than " + Archives.MAX_ENTRIES + " entries: listed the first " + Archives.MAX_ENTRIES);
        }
        entries.add(entry);
    }

    int size() {
        return entries.size();
    }

    void headersEncrypted() {
        headersEncrypted = true;
    }

    boolean isHeadersEncrypted() {
        return headersEncrypted;
    }

    void volume(VolumeRole role, OptionalInt number) {
        volume = role;
        volumeNumber = number;
    }

    Listing build(String reason) {
        return new Listing(format, entries, headersEncrypted, volume, volumeNumber, reason);
    }
}
