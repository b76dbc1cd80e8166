package headway.inspect.archive;

import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * RAR 5 headers, read by hand from the first bytes of a volume after RARLAB's "RAR 5.0 archive
 * format" technote.
 *
 * <p>What the reader relies on: the 8-byte signature {@code Rar!\x1A\x07\x01\x00}; then headers,
 * each a CRC-32 (of what follows it up to the header's end), the header size as a vint (at most 3
 * bytes by the technote, so under 2 MiB), type, flags (0x01 extra area, 0x02 data area, 0x08 data
 * from the previous volume, 0x10 data going on in the next), the extra area's size and the data
 * size (vints), then the type's fields and the extra area at the header's end. Types: 1 main
 * (flags 0x01 volume, 0x02 a volume number follows: absent on the first volume, 1 on the second),
 * 2 file and 3 service (file flags 0x01 directory, 0x08 unknown size; unpacked size, attributes,
 * optional mtime and CRC, compression info whose bits 7-9 are the method, 0 = stored, host OS,
 * UTF-8 name; extra record 0x01 = encrypted data), 4 archive encryption (right after the
 * signature; every header after it is encrypted: the listing stops, passworded), 5 end of archive. Service headers (comment, quick open,
 * recovery record) are skipped. A file's data is skipped when the next header lies in the bytes
 * given, else the listing stops there.
 *
 * <p>Bounds: the loop moves forward at least 6 bytes a header, so it ends within the bytes given;
 * vints stop at 10 bytes and refuse 2^63; extra records move forward at least a byte each; entries
 * stop at {@link Archives#MAX_ENTRIES}; nothing is allocated from a size field.
 */
final class Rar5Reader {

    static final byte[] SIGNATURE = Bytes.of(0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x01, 0x00);

    /** The technote's limit: the header size vint is at most 3 bytes long. */
    private static final long MAX_HEADER = (1 << 21) - 1;

    private static final int MAIN = 1;
    private static final int FILE = 2;
    private static final int ENCRYPTION = 4;
    private static final int END = 5;

    private static final long HEAD_EXTRA = 0x01;
    private static final long HEAD_DATA = 0x02;
    private static final long HEAD_SPLIT_BEFORE = 0x08;
    private static final long HEAD_SPLIT_AFTER = 0x10;

    private static final long MAIN_VOLUME = 0x01;
    private static final long MAIN_VOLUME_NUMBER = 0x02;

    private static final long FILE_DIRECTORY = 0x01;
    private static final long FILE_TIME = 0x02;
    private static final long FILE_CRC = 0x04;
    private static final long FILE_UNKNOWN_SIZE = 0x08;

    private static final long EXTRA_ENCRYPTION = 0x01;

    private Rar5Reader() {}

    static Listing read(byte[] b) {
        ListingBuilder out = new ListingBuilder(ArchiveFormat.RAR5);
        if (!Bytes.startsWith(b, 0, b.length, SIGNATURE)) {
            return out.build("no RAR 5 signature at offset 0");
        }
        String reason;
        try {
            reason = headers(b, out);
        } catch (Malformed m) {
            reason = m.getMessage();
        }
        return out.build(reason);
    }

    /** Reads headers until the end of archive (null) or a reason to stop. */
    private static String headers(byte[] b, ListingBuilder out) {
        int pos = SIGNATURE.length;
        boolean mainSeen = false;
        for (int count = 0; ; count++) {
            if (pos == b.length) {
                return "the bytes given end after " + count + " headers, before the end of archive";
            }
            Cursor c = new Cursor(b, pos, b.length);
            if (c.remaining() < 4 + 3) {
                return "the bytes given end inside the header at offset " + pos;
            }
            long crc = c.u32();
            long size = c.vint("a header size");
            if (size < 2 || size > MAX_HEADER) {
                return "the header at offset " + pos + " claims " + size + " bytes (a header holds 2 to 2^21-1)";
            }
            if (size > c.remaining()) {
                return "the bytes given end inside the " + size + "-byte header at offset " + pos;
            }
            int end = c.pos() + (int) size;
            if (Bytes.crc32(b, pos + 4, end) != crc) {
                return "the header at offset " + pos + " fails its CRC";
            }
            Cursor h = new Cursor(b, c.pos(), end);
            long type = h.vint("the header type");
            long flags = h.vint("the header flags");
            long extra = (flags & HEAD_EXTRA) != 0 ? h.vint("the extra area size") : 0;
            long data = (flags & HEAD_DATA) != 0 ? h.vint("the data size") : 0;
            if (extra > h.remaining()) {
                return "the header at offset " + pos + " claims a " + extra + "-byte extra area in " + h.remaining()
                        + " bytes";
            }
            int extraAt = end - (int) extra;
            Cursor fields = new Cursor(b, h.pos(), extraAt);
            if (type == ENCRYPTION) {
                if (count > 0) {
                    return "an archive encryption header at offset " + pos + " follows other headers";
                }
                out.headersEncrypted();
                return "the headers are encrypted";
            }
            if (!mainSeen && type != MAIN) {
                return "the first header (offset " + pos + ") is type " + type + ", not the main header";
            }
            if (type == MAIN) {
                mainSeen = true;
                main(fields, out);
            } else if (type == FILE) {
                out.add(file(fields, new Cursor(b, extraAt, end), flags, data));
            } else if (type == END) {
                return null;
            }
            if (data > b.length - end) {
                return "the data of the header at offset " + pos + " (" + data + " bytes) runs past the " + b.length
                        + " bytes given";
            }
            pos = end + (int) data;
        }
    }

    private static void main(Cursor c, ListingBuilder out) {
        long flags = c.vint("the archive flags");
        if ((flags & MAIN_VOLUME) == 0) {
            out.volume(VolumeRole.SINGLE, OptionalInt.empty());
        } else if ((flags & MAIN_VOLUME_NUMBER) != 0) {
            long number = c.vint("the volume number");
            out.volume(
                    number == 0 ? VolumeRole.FIRST : VolumeRole.LATER,
                    number <= Integer.MAX_VALUE ? OptionalInt.of((int) number) : OptionalInt.empty());
        } else {
            out.volume(VolumeRole.FIRST, OptionalInt.of(0));
        }
    }

    private static Listing.Entry file(Cursor c, Cursor extra, long flags, long data) {
        long fileFlags = c.vint("the file flags");
        long unpacked = c.vint("the unpacked size");
        c.vint("the attributes");
        if ((fileFlags & FILE_TIME) != 0) {
            c.skip(4, "the modification time");
        }
        if ((fileFlags & FILE_CRC) != 0) {
            c.skip(4, "the data CRC");
        }
        long compression = c.vint("the compression information");
        c.vint("the host OS");
        long nameLength = c.vint("the name length");
        c.need(nameLength, "the name");
        String name =
                Rar4Reader.stripSlashes(Names.decode(c.bytes(), c.pos(), (int) nameLength, StandardCharsets.UTF_8));
        boolean encrypted = encrypted(extra);
        boolean directory = (fileFlags & FILE_DIRECTORY) != 0;
        boolean splitBefore = (flags & HEAD_SPLIT_BEFORE) != 0;
        boolean stored = (compression >> 7 & 7) == 0;
        int dataAt = extra.limit();
        byte[] b = c.bytes();
        boolean magic = stored
                && !encrypted
                && !splitBefore
                && !directory
                && InnerArchives.byMagic(b, dataAt, dataAt + (int) Math.min(b.length - dataAt, data));
        return new Listing.Entry(
                name,
                directory
                        ? OptionalLong.of(0)
                        : (fileFlags & FILE_UNKNOWN_SIZE) != 0 ? OptionalLong.empty() : OptionalLong.of(unpacked),
                OptionalLong.of(data),
                directory,
                encrypted,
                !directory && (magic || InnerArchives.byName(name)),
                splitBefore,
                (flags & HEAD_SPLIT_AFTER) != 0);
    }

    /**
     * Whether the extra area holds a file encryption record: size, type, then the type's data. A
     * last single byte is padding (a record takes at least two), as rarfile also allows.
     */
    private static boolean encrypted(Cursor c) {
        while (c.remaining() > 1) {
            long size = c.vint("an extra record size");
            if (size < 1 || size > c.remaining()) {
                throw new Malformed("an extra record claims " + size + " bytes in " + c.remaining());
            }
            int next = c.pos() + (int) size;
            if (c.vint("an extra record type") == EXTRA_ENCRYPTION) {
                return true;
            }
            c.skip(next - c.pos(), "an extra record");
        }
        return false;
    }
}
