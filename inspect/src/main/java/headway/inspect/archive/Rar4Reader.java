package headway.inspect.archive;

import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * RAR 1.5 to 4.x headers, read by hand from the first bytes of a volume (RARLAB's technote for
 * RAR 2.x-4.x and rarfile's reader were the guides; no unrar code).
 *
 * <p>What the reader relies on: the 7-byte marker {@code Rar!\x1A\x07\x00}; then blocks, each with
 * a 7-byte header start (CRC16 of the header, type, flags, header size) and, when flag 0x8000 is
 * set, a 32-bit size of data that follows the header. The main header (0x73) comes first: flag
 * 0x01 volume, 0x0100 first volume (RAR 3.0 and later), 0x0010 new volume naming (RAR 3.0 and
 * later), 0x0080 encrypted headers (everything after it is AES: the listing stops there). A file
 * header (0x74) holds packed and unpacked sizes (their high 32 bits after flag 0x0100), the
 * method (0x30 = stored), the name (flag 0x0200: RARLAB's packed Unicode after a NUL, or UTF-8
 * without one; otherwise the archiver's code page: UTF-8 when valid, else CP437), flags 0x01/0x02
 * (data goes on from the previous / in the next volume), 0x04 (encrypted) and 0xE0 all set
 * (directory). Its packed data follows; when the next header lies inside the bytes given it is
 * skipped, else reading stops there: that is where a volume's first article usually ends. The
 * end-of-archive block (0x7B) may state the volume number. A header's CRC is the low 16 bits of
 * the CRC-32 of the header after its CRC field (old archives cover only the fixed part of a main
 * header holding a comment, or the parsed part of a file header; RAR 2.x's subblocks cover their
 * data too, checked when it is at hand): a mismatch stops the listing with a reason.
 *
 * <p>Bounds: the loop moves forward at least 7 bytes a block, so it ends within the bytes given;
 * entries stop at {@link Archives#MAX_ENTRIES}; nothing is allocated from a size field (headers are
 * at most 65,535 bytes by their 16-bit size, names are cut to {@link Archives#MAX_NAME_CHARS}).
 */
final class Rar4Reader {

    static final byte[] MARKER = Bytes.of(0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x00);

    private static final int MAIN = 0x73;
    private static final int FILE = 0x74;
    private static final int SUB = 0x7A;
    private static final int END = 0x7B;
    /** Old authenticity-verification and sign blocks, whose header CRC unrar does not check. */
    private static final int OLD_AV = 0x76;

    private static final int OLD_SIGN = 0x79;

    /** RAR 2.x's subblock (Unix owner, Mac info): its CRC covers its data too. */
    private static final int OLD_SUB = 0x77;

    private static final int HEAD = 7;
    private static final int FILE_HEAD = 32;
    private static final int LONG_BLOCK = 0x8000;

    private static final int MAIN_VOLUME = 0x0001;
    private static final int MAIN_NEW_NUMBERING = 0x0010;
    private static final int MAIN_PASSWORD = 0x0080;
    private static final int MAIN_FIRST_VOLUME = 0x0100;
    private static final int MAIN_ENCRYPT_VERSION = 0x0200;

    private static final int FILE_SPLIT_BEFORE = 0x0001;
    private static final int FILE_SPLIT_AFTER = 0x0002;
    private static final int FILE_PASSWORD = 0x0004;
    private static final int FILE_DIRECTORY = 0x00E0;
    private static final int FILE_LARGE = 0x0100;
    private static final int FILE_UNICODE = 0x0200;
    private static final int FILE_SALT = 0x0400;
    private static final int FILE_EXT_TIME = 0x1000;

    private static final int END_VOLUME_NUMBER = 0x0008;
    private static final int END_DATA_CRC = 0x0002;

    private static final int METHOD_STORE = 0x30;

    private Rar4Reader() {}

    static Listing read(byte[] b) {
        ListingBuilder out = new ListingBuilder(ArchiveFormat.RAR4);
        if (!Bytes.startsWith(b, 0, b.length, MARKER)) {
            return out.build("no RAR 4 marker at offset 0");
        }
        String reason;
        try {
            reason = blocks(b, out);
        } catch (Malformed m) {
            reason = m.getMessage();
        }
        return out.build(reason);
    }

    /** Reads blocks until the end-of-archive block (null) or a reason to stop. */
    private static String blocks(byte[] b, ListingBuilder out) {
        int pos = MARKER.length;
        int mainFlags = -1;
        for (int count = 0; ; count++) {
            if (pos == b.length) {
                return "the bytes given end after " + count + " blocks, before the end-of-archive block";
            }
            if (b.length - pos < HEAD) {
                return "the bytes given end inside the block header at offset " + pos;
            }
            int type = b[pos + 2] & 0xFF;
            int flags = Bytes.u16(b, pos + 3);
            int size = Bytes.u16(b, pos + 5);
            if (size < HEAD) {
                return "the block at offset " + pos + " claims a " + size + "-byte header, less than 7";
            }
            if (size > b.length - pos) {
                return "the bytes given end inside the " + size + "-byte header at offset " + pos;
            }
            int end = pos + size;
            if (!crcMatches(b, pos, end, type, flags)) {
                return "the block at offset " + pos + " fails its header CRC";
            }
            if (mainFlags < 0 && type != MAIN) {
                return "the first block (offset " + pos + ") is type 0x" + Integer.toHexString(type)
                        + ", not the main header";
            }
            long data;
            if (type == MAIN) {
                mainFlags = flags;
                volume(out, flags, OptionalInt.empty(), false);
                if ((flags & MAIN_PASSWORD) != 0) {
                    out.headersEncrypted();
                    return "the headers are encrypted";
                }
                data = longBlockSize(b, pos, end, flags);
            } else if (type == FILE) {
                FileHeader f = FileHeader.parse(b, pos, end, flags);
                if (out.size() == 0 && (flags & FILE_SPLIT_BEFORE) != 0) {
                    volume(out, mainFlags, OptionalInt.empty(), true);
                }
                out.add(f.entry(b, end));
                data = f.packed;
            } else if (type == END) {
                endOfArchive(b, pos, end, flags, mainFlags, out);
                return null;
            } else if (type == SUB && size >= FILE_HEAD) {
                data = FileHeader.parse(b, pos, end, flags).packed;
            } else {
                data = longBlockSize(b, pos, end, flags);
            }
            if (data > b.length - end) {
                return "the data of the block at offset " + pos + " (" + data + " bytes) runs past the " + b.length
                        + " bytes given";
            }
            pos = end + (int) data;
        }
    }

    private static long longBlockSize(byte[] b, int pos, int end, int flags) {
        if ((flags & LONG_BLOCK) == 0) {
            return 0;
        }
        if (end - pos < HEAD + 4) {
            throw new Malformed("the block at offset " + pos + " has a data size but no room for it");
        }
        return Bytes.u32(b, pos + HEAD);
    }

    /** Sets the volume role from the main header's flags and, once known, the volume number. */
    private static void volume(ListingBuilder out, int mainFlags, OptionalInt number, boolean splitBefore) {
        if ((mainFlags & MAIN_VOLUME) == 0) {
            out.volume(VolumeRole.SINGLE, OptionalInt.empty());
        } else if ((mainFlags & MAIN_FIRST_VOLUME) != 0) {
            out.volume(VolumeRole.FIRST, OptionalInt.of(0));
        } else if (number.isPresent()) {
            out.volume(number.getAsInt() == 0 ? VolumeRole.FIRST : VolumeRole.LATER, number);
        } else if ((mainFlags & MAIN_NEW_NUMBERING) != 0 || splitBefore) {
            out.volume(VolumeRole.LATER, OptionalInt.empty());
        } else {
            out.volume(VolumeRole.SOME, OptionalInt.empty());
        }
    }

    private static void endOfArchive(byte[] b, int pos, int end, int flags, int mainFlags, ListingBuilder out) {
        int at = pos + HEAD + ((flags & END_DATA_CRC) != 0 ? 4 : 0);
        if ((flags & END_VOLUME_NUMBER) != 0 && (mainFlags & MAIN_VOLUME) != 0 && end - at >= 2) {
            volume(out, mainFlags & ~MAIN_FIRST_VOLUME, OptionalInt.of(Bytes.u16(b, at)), false);
        }
    }

    /**
     * Whether the stored CRC16 matches the whole header or, for the headers whose old forms carry
     * a comment after the fixed part, that part alone; AV and sign blocks are not checked.
     */
    private static boolean crcMatches(byte[] b, int pos, int end, int type, int flags) {
        if (type == OLD_AV || type == OLD_SIGN) {
            return true;
        }
        int stored = Bytes.u16(b, pos);
        if (crc16(b, pos, end) == stored) {
            return true;
        }
        if (type == OLD_SUB && (flags & LONG_BLOCK) != 0 && end - pos >= HEAD + 4) {
            long data = Bytes.u32(b, pos + HEAD);
            return data > b.length - end || crc16(b, pos, end + (int) data) == stored;
        }
        int fixed = -1;
        if (type == MAIN) {
            fixed = pos + 13 + ((flags & MAIN_ENCRYPT_VERSION) != 0 ? 1 : 0);
        } else if ((type == FILE || type == SUB) && end - pos >= FILE_HEAD) {
            try {
                fixed = FileHeader.parse(b, pos, end, flags).parsedEnd;
            } catch (Malformed m) {
                return false;
            }
        }
        return fixed > pos + 2 && fixed < end && crc16(b, pos, fixed) == stored;
    }

    private static int crc16(byte[] b, int pos, int end) {
        return (int) (Bytes.crc32(b, pos + 2, end) & 0xFFFF);
    }

    /** A file (or service) header's fields, parsed inside its header's bytes. */
    private static final class FileHeader {
        int flags;
        long packed;
        OptionalLong unpacked;
        int method;
        int nameAt;
        int nameLength;
        int parsedEnd;

        static FileHeader parse(byte[] b, int pos, int end, int flags) {
            Cursor c = new Cursor(b, pos + HEAD, end);
            FileHeader f = new FileHeader();
            f.flags = flags;
            c.need(FILE_HEAD - HEAD, "the file header at offset " + pos);
            long packLow = c.u32();
            long unpLow = c.u32();
            c.skip(1 + 4 + 4 + 1, "host OS, CRC, time and version");
            f.method = c.u8();
            f.nameLength = c.u16();
            c.skip(4, "attributes");
            long packHigh = 0;
            long unpHigh = 0;
            if ((flags & FILE_LARGE) != 0) {
                packHigh = c.u32();
                unpHigh = c.u32();
            }
            if (packHigh >= 0x80000000L) {
                throw new Malformed("the file header at offset " + pos + " claims a packed size of 2^63 or more");
            }
            f.packed = packHigh << 32 | packLow;
            if (unpHigh == 0xFFFFFFFFL && unpLow == 0xFFFFFFFFL) {
                f.unpacked = OptionalLong.empty();
            } else if (unpHigh >= 0x80000000L) {
                throw new Malformed("the file header at offset " + pos + " claims a size of 2^63 or more");
            } else {
                f.unpacked = OptionalLong.of(unpHigh << 32 | unpLow);
            }
            f.nameAt = c.pos();
            c.skip(f.nameLength, "the file name at offset " + pos);
            if ((flags & FILE_SALT) != 0) {
                c.skip(8, "the salt");
            }
            f.parsedEnd = (flags & FILE_EXT_TIME) != 0 ? extTimeEnd(c) : c.pos();
            return f;
        }

        /** Where the extended times end: 4 fields of 4 flag bits (mtime first), each with its bytes. */
        private static int extTimeEnd(Cursor c) {
            if (c.remaining() < 2) {
                return c.limit();
            }
            int flags = c.u16();
            int at = c.pos();
            for (int i = 0; i < 4; i++) {
                int f = flags >> (12 - 4 * i) & 0xF;
                if ((f & 8) != 0) {
                    at += (i == 0 ? 0 : 4) + (f & 3);
                }
            }
            return Math.min(at, c.limit());
        }

        Listing.Entry entry(byte[] b, int dataAt) {
            String name = name(b);
            boolean directory = (flags & FILE_DIRECTORY) == FILE_DIRECTORY;
            boolean encrypted = (flags & FILE_PASSWORD) != 0;
            boolean splitBefore = (flags & FILE_SPLIT_BEFORE) != 0;
            boolean magic = method == METHOD_STORE
                    && !encrypted
                    && !splitBefore
                    && !directory
                    && InnerArchives.byMagic(b, dataAt, dataAt + (int) Math.min(b.length - dataAt, packed));
            return new Listing.Entry(
                    name,
                    directory ? OptionalLong.of(0) : unpacked,
                    OptionalLong.of(packed),
                    directory,
                    encrypted,
                    !directory && (magic || InnerArchives.byName(name)),
                    splitBefore,
                    (flags & FILE_SPLIT_AFTER) != 0);
        }

        private String name(byte[] b) {
            String name;
            if ((flags & FILE_UNICODE) == 0) {
                name = Names.utf8OrCp437(b, nameAt, nameLength);
            } else {
                int nul = indexOfNul(b, nameAt, nameAt + nameLength);
                name = nul < 0
                        ? Names.decode(b, nameAt, nameLength, StandardCharsets.UTF_8)
                        : RarUnicodeName.decode(b, nameAt, nul, nameAt + nameLength);
            }
            return stripSlashes(name);
        }

        private static int indexOfNul(byte[] b, int from, int to) {
            for (int i = from; i < to; i++) {
                if (b[i] == 0) {
                    return i;
                }
            }
            return -1;
        }
    }

    static String stripSlashes(String name) {
        int end = name.length();
        while (end > 0 && name.charAt(end - 1) == '/') {
            end--;
        }
        return name.substring(0, end);
    }
}
