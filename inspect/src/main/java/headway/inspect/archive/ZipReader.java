package headway.inspect.archive;

import headway.inspect.archive.Window.Slice;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A ZIP archive's listing: from the central directory when the tail holds it, else from the local
 * file headers at the start of the head.
 *
 * <p>What the reader relies on (PKWARE's APPNOTE): the end of central directory record
 * ({@code PK\5\6}, in the last 22 + 65,535 bytes: its comment is at most that long) with this
 * disk's number, the central directory's disk, entry count, size and offset; when those overflow,
 * the ZIP64 locator ({@code PK\6\7}, 20 bytes before it) and the ZIP64 record ({@code PK\6\6})
 * before that. The central directory is taken to end where those records begin (so bytes
 * prepended to the archive, as in a self-extractor, do not matter). Each central entry
 * ({@code PK\1\2}) gives flags (bit 0 encrypted, bit 3 sizes after the data, bit 11 UTF-8 name),
 * method (0 stored, 99 AES), sizes, the name (CP437 by the spec unless bit 11; UTF-8 when valid,
 * because many archivers write it without the flag), and extra fields: ZIP64 sizes (0x0001),
 * Info-ZIP's Unicode path (0x7075, used when its CRC matches the name), WinZip AES (0x9901). A
 * local header ({@code PK\3\4}) has the same fields in fewer bytes; its data follows it, sized by
 * the header or, with bit 3, by a data descriptor after the data, which the reader finds by
 * scanning for a descriptor whose compressed size equals the distance scanned. A split archive's
 * first volume starts with {@code PK\7\8}; its last volume's end record gives the volume number.
 *
 * <p>Why by hand and not Commons Compress: {@code ZipFile} wants the whole archive to seek in
 * (it reads local headers for every entry) and {@code ZipArchiveInputStream} cannot skip the data
 * of an entry whose sizes follow it. Bounds: every loop moves forward through the bytes given (a
 * central entry takes at least 46 bytes, an extra field 4, a descriptor scan covers each byte once);
 * entries stop at {@link Archives#MAX_ENTRIES}; nothing is allocated from a size field.
 */
final class ZipReader {

    static final int LOCAL = 0x04034b50;
    static final int CENTRAL = 0x02014b50;
    static final int END = 0x06054b50;
    static final int ZIP64_END = 0x06064b50;
    static final int ZIP64_LOCATOR = 0x07064b50;
    static final int DESCRIPTOR = 0x08074b50;
    /** The split-archive marker of a first volume (PK\7\8) and its older temporary form (PK00). */
    static final int SPLIT = DESCRIPTOR;

    static final int SPANNED_TEMPORARY = 0x30304b50;
    private static final int DIGITAL_SIGNATURE = 0x05054b50;
    private static final int ARCHIVE_EXTRA = 0x08064b50;

    private static final int END_SIZE = 22;
    private static final int MAX_COMMENT = 65_535;
    private static final int LOCATOR_SIZE = 20;
    private static final int ZIP64_END_SIZE = 56;
    private static final int CENTRAL_SIZE = 46;
    private static final int LOCAL_SIZE = 30;

    private static final int FLAG_ENCRYPTED = 0x0001;
    private static final int FLAG_DESCRIPTOR = 0x0008;
    private static final int FLAG_UTF8 = 0x0800;
    private static final int METHOD_STORED = 0;
    private static final int METHOD_AES = 99;

    private static final int EXTRA_ZIP64 = 0x0001;
    private static final int EXTRA_UNICODE_PATH = 0x7075;
    private static final int EXTRA_AES = 0x9901;

    private static final long U32_MAX = 0xFFFFFFFFL;

    /** First bytes of an inner file checked for an archive's magic. */
    private static final int MAGIC_BYTES = 512;

    private ZipReader() {}

    static Listing read(byte[] head, byte[] tail, long tailOffset) {
        Window w;
        try {
            w = Window.of(head, tail, tailOffset);
        } catch (Malformed m) {
            return new ListingBuilder(ArchiveFormat.ZIP).build(m.getMessage());
        }
        ListingBuilder central = new ListingBuilder(ArchiveFormat.ZIP);
        String centralReason;
        try {
            Central found = central(w, central);
            if (found.read) {
                return central.build(found.reason);
            }
            centralReason = found.reason;
        } catch (Malformed m) {
            return central.build(m.getMessage());
        }
        ListingBuilder local = new ListingBuilder(ArchiveFormat.ZIP);
        String localReason;
        try {
            localReason = locals(head, local);
        } catch (Malformed m) {
            localReason = m.getMessage();
        }
        return local.build(localReason == null ? null : localReason + "; central directory: " + centralReason);
    }

    /** Whether the central directory was at hand (then its listing stands) and why it stopped. */
    private record Central(boolean read, String reason) {}

    private static Central central(Window w, ListingBuilder out) {
        byte[] t = w.tail;
        int end = findEnd(t);
        if (end < 0) {
            return new Central(false, "no end of central directory record in the last " + t.length + " bytes");
        }
        Cursor e = new Cursor(t, end + 4, t.length);
        long disk = e.u16();
        long cdDisk = e.u16();
        e.u16();
        long count = e.u16();
        long cdSize = e.u32();
        long cdOffset = e.u32();
        long disks = disk + 1;
        int cdEnd = end;
        int locator = end - LOCATOR_SIZE;
        if (locator >= 0 && Bytes.u32(t, locator) == ZIP64_LOCATOR) {
            disks = Bytes.u32(t, locator + 16);
            int record = locator - ZIP64_END_SIZE;
            if (record < 0 || Bytes.u32(t, record) != ZIP64_END) {
                return new Central(false, "the ZIP64 end record is not right before its locator");
            }
            Cursor z = new Cursor(t, record + 16, locator);
            disk = z.u32();
            cdDisk = z.u32();
            z.u64("the ZIP64 entry count on this disk");
            count = z.u64("the ZIP64 entry count");
            cdSize = z.u64("the ZIP64 central directory size");
            cdOffset = z.u64("the ZIP64 central directory offset");
            cdEnd = record;
        }
        boolean single = disk == 0 && cdDisk == 0 && disks <= 1;
        if (single) {
            out.volume(VolumeRole.SINGLE, OptionalInt.empty());
        } else {
            out.volume(
                    disk == 0 ? VolumeRole.FIRST : VolumeRole.LATER,
                    disk <= Integer.MAX_VALUE ? OptionalInt.of((int) disk) : OptionalInt.empty());
        }
        long cdEndAt = w.tailOffset + cdEnd;
        if (cdSize > cdEndAt) {
            throw new Malformed(
                    "the central directory claims " + cdSize + " bytes, more than the archive holds before it");
        }
        long cdAt = cdEndAt - cdSize;
        Slice cd = w.slice(cdAt, cdSize);
        if (cd == null) {
            return new Central(
                    false,
                    "the central directory at " + cdAt + " (" + cdSize + " bytes) is not in the bytes given ("
                            + w.describe() + ")");
        }
        long prefix = single ? cdAt - cdOffset : Long.MIN_VALUE;
        return new Central(true, entries(w, cd, count, prefix, out));
    }

    /** The end record nearest the end whose comment fits in the bytes after it, or -1. */
    private static int findEnd(byte[] t) {
        int stop = Math.max(0, t.length - END_SIZE - MAX_COMMENT);
        for (int p = t.length - END_SIZE; p >= stop; p--) {
            if (Bytes.u32(t, p) == END && p + END_SIZE + Bytes.u16(t, p + 20) <= t.length) {
                return p;
            }
        }
        return -1;
    }

    /** Reads {@code count} central entries; {@code prefix} maps offsets to the archive, or MIN_VALUE. */
    private static String entries(Window w, Slice cd, long count, long prefix, ListingBuilder out) {
        byte[] b = cd.bytes();
        int pos = cd.from();
        for (long i = 0; i < count; i++) {
            if (cd.to() - pos < CENTRAL_SIZE || Bytes.u32(b, pos) != CENTRAL) {
                return "the central directory ends after " + i + " of " + count + " entries";
            }
            int host = b[pos + 5] & 0xFF;
            int flags = Bytes.u16(b, pos + 8);
            int method = Bytes.u16(b, pos + 10);
            long packed = Bytes.u32(b, pos + 20);
            long size = Bytes.u32(b, pos + 24);
            int nameLength = Bytes.u16(b, pos + 28);
            int extraLength = Bytes.u16(b, pos + 30);
            int commentLength = Bytes.u16(b, pos + 32);
            long attributes = Bytes.u32(b, pos + 38);
            long localAt = Bytes.u32(b, pos + 42);
            int nameAt = pos + CENTRAL_SIZE;
            int next = nameAt + nameLength + extraLength + commentLength;
            if (next > cd.to()) {
                return "central entry " + i + " runs past the central directory";
            }
            Extras x = new Extras(b, nameAt, nameLength, nameAt + nameLength, nameAt + nameLength + extraLength);
            x.zip64(size == U32_MAX, packed == U32_MAX, localAt == U32_MAX);
            size = x.size >= 0 ? x.size : size;
            packed = x.packed >= 0 ? x.packed : packed;
            localAt = x.local >= 0 ? x.local : localAt;
            String name = x.name(flags);
            boolean encrypted = (flags & FLAG_ENCRYPTED) != 0 || method == METHOD_AES || x.aes;
            boolean directory = name.endsWith("/") || directoryAttribute(host, attributes);
            boolean magic = method == METHOD_STORED
                    && !encrypted
                    && prefix != Long.MIN_VALUE
                    && localMagic(w, prefix, localAt, packed);
            out.add(entry(name, size, packed, directory, encrypted, magic));
            pos = next;
        }
        return null;
    }

    /** DOS/NTFS/VFAT hosts set 0x10 for a directory; Unix hosts put S_IFDIR in the high 16 bits. */
    private static boolean directoryAttribute(int host, long attributes) {
        if (host == 3 || host == 19) {
            return (attributes >>> 16 & 0xF000) == 0x4000;
        }
        return (host == 0 || host == 10 || host == 14) && (attributes & 0x10) != 0;
    }

    private static boolean localMagic(Window w, long prefix, long localAt, long packed) {
        if (localAt > w.total || prefix > w.total || prefix < -w.total) {
            return false;
        }
        Slice h = w.slice(prefix + localAt, LOCAL_SIZE);
        if (h == null || Bytes.u32(h.bytes(), h.from()) != LOCAL) {
            return false;
        }
        long data = prefix
                + localAt
                + LOCAL_SIZE
                + Bytes.u16(h.bytes(), h.from() + 26)
                + Bytes.u16(h.bytes(), h.from() + 28);
        Slice s = w.upTo(data, Math.min(packed, MAGIC_BYTES));
        return s != null && InnerArchives.byMagic(s.bytes(), s.from(), s.to());
    }

    private static Listing.Entry entry(
            String name, long size, long packed, boolean directory, boolean encrypted, boolean magic) {
        String bare = Rar4Reader.stripSlashes(name);
        return new Listing.Entry(
                bare,
                size < 0 ? OptionalLong.empty() : OptionalLong.of(size),
                packed < 0 ? OptionalLong.empty() : OptionalLong.of(packed),
                directory,
                encrypted,
                !directory && (magic || InnerArchives.byName(bare)),
                false,
                false);
    }

    /** Reads local headers from the start of the head, until the central directory (null) or a reason. */
    private static String locals(byte[] h, ListingBuilder out) {
        int pos = 0;
        if (h.length >= 4 && (Bytes.u32(h, 0) == SPLIT || Bytes.u32(h, 0) == SPANNED_TEMPORARY)) {
            out.volume(VolumeRole.FIRST, OptionalInt.of(0));
            pos = 4;
        }
        for (int count = 0; ; count++) {
            if (pos == h.length) {
                return "the bytes given end after " + count + " local entries";
            }
            if (h.length - pos < 4) {
                return "the bytes given end inside the signature at offset " + pos;
            }
            int sig = (int) Bytes.u32(h, pos);
            if (sig == CENTRAL || sig == END || sig == ZIP64_END || sig == DIGITAL_SIGNATURE || sig == ARCHIVE_EXTRA) {
                return null;
            }
            if (sig != LOCAL) {
                return "no local header at offset " + pos;
            }
            if (h.length - pos < LOCAL_SIZE) {
                return "the bytes given end inside the local header at offset " + pos;
            }
            int flags = Bytes.u16(h, pos + 6);
            int method = Bytes.u16(h, pos + 8);
            long packed = Bytes.u32(h, pos + 18);
            long size = Bytes.u32(h, pos + 22);
            int nameLength = Bytes.u16(h, pos + 26);
            int extraLength = Bytes.u16(h, pos + 28);
            int nameAt = pos + LOCAL_SIZE;
            int dataAt = nameAt + nameLength + extraLength;
            if (dataAt > h.length) {
                return "the bytes given end inside the local header at offset " + pos;
            }
            Extras x = new Extras(h, nameAt, nameLength, nameAt + nameLength, dataAt);
            x.zip64(size == U32_MAX, packed == U32_MAX, false);
            size = x.size >= 0 ? x.size : size;
            packed = x.packed >= 0 ? x.packed : packed;
            boolean descriptor = (flags & FLAG_DESCRIPTOR) != 0 && packed == 0;
            Descriptor d = descriptor ? descriptor(h, dataAt) : null;
            if (descriptor) {
                packed = d == null ? -1 : d.packed();
                size = d == null ? -1 : d.size();
            }
            boolean encrypted = (flags & FLAG_ENCRYPTED) != 0 || method == METHOD_AES || x.aes;
            String name = x.name(flags);
            boolean directory = name.endsWith("/");
            int magicEnd = (int) Math.min(h.length, dataAt + Math.min(descriptor ? MAGIC_BYTES : packed, MAGIC_BYTES));
            boolean magic = method == METHOD_STORED && !encrypted && InnerArchives.byMagic(h, dataAt, magicEnd);
            out.add(entry(name, size, packed, directory, encrypted, magic));
            if (descriptor) {
                if (d == null) {
                    return "local entry " + count + " gives its sizes after its data, and no data descriptor "
                            + "follows in the bytes given";
                }
                pos = d.end();
            } else {
                if (packed > h.length - dataAt) {
                    return "the data of local entry " + count + " (" + packed + " bytes) runs past the " + h.length
                            + " bytes given";
                }
                pos = dataAt + (int) packed;
            }
        }
    }

    /** A data descriptor found after an entry's data: where it ends, and the sizes it states. */
    private record Descriptor(int end, long packed, long size) {}

    /**
     * The data descriptor after data starting at {@code dataAt}, or null: the first place whose
     * descriptor (signed or not, 32- or 64-bit sizes) states a compressed size equal to the
     * distance from {@code dataAt} and is followed by a header or the end of the bytes given.
     */
    private static Descriptor descriptor(byte[] h, int dataAt) {
        for (int q = dataAt; q + 12 <= h.length; q++) {
            long distance = (long) q - dataAt;
            boolean signed = Bytes.u32(h, q) == DESCRIPTOR;
            for (int at : signed ? new int[] {q + 4, q} : new int[] {q}) {
                if (at + 12 <= h.length && Bytes.u32(h, at + 4) == distance && followedByHeader(h, at + 12)) {
                    return new Descriptor(at + 12, distance, Bytes.u32(h, at + 8));
                }
                if (at + 20 <= h.length && Bytes.u64(h, at + 4) == distance && followedByHeader(h, at + 20)) {
                    return new Descriptor(at + 20, distance, Math.max(-1, Bytes.u64(h, at + 12)));
                }
            }
        }
        return null;
    }

    private static boolean followedByHeader(byte[] h, int at) {
        if (at == h.length) {
            return true;
        }
        if (h.length - at < 4) {
            return false;
        }
        long sig = Bytes.u32(h, at);
        return sig == LOCAL || sig == CENTRAL || sig == DIGITAL_SIGNATURE || sig == ARCHIVE_EXTRA;
    }

    /** The extra fields of one header: ZIP64 values, the Unicode path, the AES marker. */
    private static final class Extras {
        private final byte[] b;
        private final int nameAt;
        private final int nameLength;
        private final int from;
        private final int to;
        long size = -1;
        long packed = -1;
        long local = -1;
        boolean aes;

        Extras(byte[] b, int nameAt, int nameLength, int from, int to) {
            this.b = b;
            this.nameAt = nameAt;
            this.nameLength = nameLength;
            this.from = from;
            this.to = to;
            for (int p = from; to - p >= 4; p += 4 + Bytes.u16(b, p + 2)) {
                if (Bytes.u16(b, p) == EXTRA_AES) {
                    aes = true;
                }
            }
        }

        /**
         * Reads the ZIP64 field's values for the fields the header marked as overflowing, in order;
         * the disk number, last in the field, is not read because no listing uses it.
         */
        void zip64(boolean wantSize, boolean wantPacked, boolean wantLocal) {
            Cursor c = field(EXTRA_ZIP64);
            if (c == null) {
                return;
            }
            if (wantSize && c.remaining() >= 8) {
                size = c.u64("the ZIP64 size");
            }
            if (wantPacked && c.remaining() >= 8) {
                packed = c.u64("the ZIP64 compressed size");
            }
            if (wantLocal && c.remaining() >= 8) {
                local = c.u64("the ZIP64 local header offset");
            }
        }

        /** The name: Info-ZIP's Unicode path when its CRC matches, else the header's bytes. */
        String name(int flags) {
            Cursor u = field(EXTRA_UNICODE_PATH);
            if (u != null
                    && u.remaining() >= 5
                    && u.u8() == 1
                    && u.u32() == Bytes.crc32(b, nameAt, nameAt + nameLength)) {
                return Names.decode(b, u.pos(), u.remaining(), StandardCharsets.UTF_8);
            }
            if ((flags & FLAG_UTF8) != 0) {
                return Names.decode(b, nameAt, nameLength, StandardCharsets.UTF_8);
            }
            return Names.utf8OrCp437(b, nameAt, nameLength);
        }

        private Cursor field(int id) {
            for (int p = from; to - p >= 4; p += 4 + Bytes.u16(b, p + 2)) {
                int size = Bytes.u16(b, p + 2);
                if (Bytes.u16(b, p) == id && size <= to - p - 4) {
                    return new Cursor(b, p + 4, p + 4 + size);
                }
            }
            return null;
        }
    }
}
