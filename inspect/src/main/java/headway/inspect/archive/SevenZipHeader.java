package headway.inspect.archive;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The property grammar of a 7z header (7-Zip's 7zFormat.txt), parsed into the few facts a
 * listing needs: the pack streams, the folders (their coders, bind pairs, unpack sizes and CRC),
 * how many files each folder holds and their sizes, and per file its name, whether it has data,
 * and whether it is a directory. Everything else (times, attributes but the directory bit, CRCs of
 * files) is skipped by its stated size.
 *
 * <p>Bounds, because every count in the header is the writer's word: a count must fit in the
 * bytes left in the header (each counted thing takes at least a byte) and under a cap;
 * {@link #MAX_FILES} files and folders, at most {@link #MAX_CODERS} coders and as many streams in a
 * folder (7-Zip's own limits), at most {@link #MAX_PROPS} bytes of a coder's properties kept. The
 * parser has no recursion and each loop consumes header bytes, so it ends within the header.
 */
final class SevenZipHeader {

    /**
     * Files (and folders) a header may declare: the tables sized by it stay under a few MiB, and a
     * release's archive holds far fewer files (the listing keeps {@link Archives#MAX_ENTRIES}).
     */
    static final int MAX_FILES = 65_536;

    /** 7-Zip's own limit on coders in a folder and on streams of those coders. */
    static final int MAX_CODERS = 64;

    /** Coder properties kept: LZMA's are 5 bytes, AES's at most 34; longer ones are skipped. */
    static final int MAX_PROPS = 64;

    static final int END = 0x00;
    static final int HEADER = 0x01;
    static final int ARCHIVE_PROPERTIES = 0x02;
    static final int ADDITIONAL_STREAMS = 0x03;
    static final int MAIN_STREAMS = 0x04;
    static final int FILES_INFO = 0x05;
    static final int PACK_INFO = 0x06;
    static final int UNPACK_INFO = 0x07;
    static final int SUBSTREAMS_INFO = 0x08;
    static final int SIZE = 0x09;
    static final int CRC = 0x0A;
    static final int FOLDER = 0x0B;
    static final int CODERS_UNPACK_SIZE = 0x0C;
    static final int NUM_UNPACK_STREAM = 0x0D;
    static final int EMPTY_STREAM = 0x0E;
    static final int EMPTY_FILE = 0x0F;
    static final int NAME = 0x11;
    static final int WIN_ATTRIBUTES = 0x15;
    static final int ENCODED_HEADER = 0x17;

    private static final long ATTRIBUTE_DIRECTORY = 0x10;

    private SevenZipHeader() {}

    /** A coder: its method id (big-endian bytes as a number), stream counts and properties. */
    record Coder(long id, int inStreams, int outStreams, byte[] props) {}

    /** A folder: coders bound into one output, fed by packed streams. */
    static final class Folder {
        Coder[] coders;
        long[] bindIn;
        long[] bindOut;
        long[] packedIn;
        long[] unpackSizes;
        boolean crcDefined;
        long crc;
        int files = 1;

        boolean has(long methodId) {
            return Arrays.stream(coders).anyMatch(c -> c.id() == methodId);
        }

        /** The out stream no bind pair consumes: the folder's output. */
        int mainOut() {
            outer:
            for (int out = 0; out < unpackSizes.length; out++) {
                for (long bound : bindOut) {
                    if (bound == out) {
                        continue outer;
                    }
                }
                return out;
            }
            throw new Malformed("a folder binds every output stream: it has no output");
        }

        long unpackSize() {
            return unpackSizes[mainOut()];
        }
    }

    /** Pack streams, folders and the files' sizes in stream order. */
    static final class Streams {
        long packPos;
        long[] packSizes = new long[0];
        Folder[] folders = new Folder[0];
        long[] fileSizes = new long[0];
    }

    /** The header's files. */
    static final class Files {
        int count;
        boolean[] emptyStream;
        boolean[] emptyFile;
        boolean[] directoryAttribute;
        String[] names;
    }

    /** The parsed header: the main streams (may be empty) and the files (may be empty). */
    record Header(Streams streams, Files files) {}

    /** Reads a plain header, positioned after its {@code kHeader} id. */
    static Header header(Cursor c) {
        int id = id(c);
        if (id == ARCHIVE_PROPERTIES) {
            for (long type = c.number("a property type"); type != END; type = c.number("a property type")) {
                c.skip(c.number("a property size"), "an archive property");
            }
            id = id(c);
        }
        if (id == ADDITIONAL_STREAMS) {
            streams(c);
            id = id(c);
        }
        Streams streams = new Streams();
        if (id == MAIN_STREAMS) {
            streams = streams(c);
            id = id(c);
        }
        Files files = new Files();
        files.names = new String[0];
        if (id == FILES_INFO) {
            files = files(c);
            id = id(c);
        }
        expect(id, END, "the header's end");
        return new Header(streams, files);
    }

    /** Reads a streams info (pack info, unpack info, substreams), positioned after its id. */
    static Streams streams(Cursor c) {
        Streams s = new Streams();
        int id = id(c);
        if (id == PACK_INFO) {
            packInfo(c, s);
            id = id(c);
        }
        if (id == UNPACK_INFO) {
            unpackInfo(c, s);
            id = id(c);
        }
        if (id == SUBSTREAMS_INFO) {
            subStreams(c, s);
            id = id(c);
        } else {
            s.fileSizes = new long[s.folders.length];
            for (int i = 0; i < s.folders.length; i++) {
                s.fileSizes[i] = s.folders[i].unpackSize();
            }
        }
        expect(id, END, "the streams info's end");
        return s;
    }

    private static void packInfo(Cursor c, Streams s) {
        s.packPos = c.number("the pack position");
        int n = c.count("the pack stream count", Math.min(MAX_FILES, c.remaining()));
        s.packSizes = new long[n];
        for (int id = id(c); id != END; id = id(c)) {
            if (id == SIZE) {
                for (int i = 0; i < n; i++) {
                    s.packSizes[i] = c.number("a pack size");
                }
            } else if (id == CRC) {
                digests(c, n);
            } else {
                c.skip(c.number("a property size"), "a pack info property");
            }
        }
    }

    private static void unpackInfo(Cursor c, Streams s) {
        expect(id(c), FOLDER, "the folder list");
        int n = c.count("the folder count", Math.min(MAX_FILES, c.remaining()));
        if (c.u8() != 0) {
            throw new Malformed("the folders are stored elsewhere (external), which 7-Zip never writes");
        }
        s.folders = new Folder[n];
        for (int i = 0; i < n; i++) {
            s.folders[i] = folder(c);
        }
        expect(id(c), CODERS_UNPACK_SIZE, "the unpack sizes");
        for (Folder f : s.folders) {
            for (int i = 0; i < f.unpackSizes.length; i++) {
                f.unpackSizes[i] = c.number("an unpack size");
            }
        }
        for (int id = id(c); id != END; id = id(c)) {
            if (id == CRC) {
                boolean[] defined = definedBits(c, n);
                for (int i = 0; i < n; i++) {
                    if (defined[i]) {
                        s.folders[i].crcDefined = true;
                        s.folders[i].crc = c.u32();
                    }
                }
            } else {
                c.skip(c.number("a property size"), "an unpack info property");
            }
        }
    }

    private static Folder folder(Cursor c) {
        int n = c.count("the coder count", MAX_CODERS);
        if (n == 0) {
            throw new Malformed("a folder has no coder");
        }
        Folder f = new Folder();
        f.coders = new Coder[n];
        int ins = 0;
        int outs = 0;
        for (int i = 0; i < n; i++) {
            int flags = c.u8();
            int idSize = flags & 0x0F;
            if ((flags & 0x80) != 0 || idSize > 8) {
                throw new Malformed("a coder uses alternative methods or an id of " + idSize + " bytes");
            }
            long id = 0;
            for (int k = 0; k < idSize; k++) {
                id = id << 8 | c.u8();
            }
            int in = 1;
            int out = 1;
            if ((flags & 0x10) != 0) {
                in = c.count("a coder's in streams", MAX_CODERS);
                out = c.count("a coder's out streams", MAX_CODERS);
            }
            byte[] props = new byte[0];
            if ((flags & 0x20) != 0) {
                long size = c.number("a coder's properties size");
                c.need(size, "a coder's properties");
                if (size <= MAX_PROPS) {
                    props = Arrays.copyOfRange(c.bytes(), c.pos(), c.pos() + (int) size);
                }
                c.skip(size, "a coder's properties");
            }
            f.coders[i] = new Coder(id, in, out, props);
            ins += in;
            outs += out;
            if (ins > MAX_CODERS || outs > MAX_CODERS) {
                throw new Malformed("a folder has more than " + MAX_CODERS + " streams");
            }
        }
        if (outs == 0) {
            throw new Malformed("a folder has no output stream");
        }
        int pairs = outs - 1;
        f.bindIn = new long[pairs];
        f.bindOut = new long[pairs];
        for (int i = 0; i < pairs; i++) {
            f.bindIn[i] = c.count("a bind pair's in index", ins - 1L);
            f.bindOut[i] = c.count("a bind pair's out index", outs - 1L);
        }
        int packed = ins - pairs;
        if (packed < 1) {
            throw new Malformed("a folder has more bind pairs than in streams");
        }
        f.packedIn = new long[packed];
        if (packed == 1) {
            f.packedIn[0] = unboundIn(f, ins);
        } else {
            for (int i = 0; i < packed; i++) {
                f.packedIn[i] = c.count("a packed stream's index", ins - 1L);
            }
        }
        f.unpackSizes = new long[outs];
        return f;
    }

    private static int unboundIn(Folder f, int ins) {
        outer:
        for (int in = 0; in < ins; in++) {
            for (long bound : f.bindIn) {
                if (bound == in) {
                    continue outer;
                }
            }
            return in;
        }
        throw new Malformed("a folder binds every in stream: nothing reads its packed stream");
    }

    private static void subStreams(Cursor c, Streams s) {
        Folder[] folders = s.folders;
        long total = folders.length;
        int id = id(c);
        while (id != SIZE && id != CRC && id != END) {
            if (id == NUM_UNPACK_STREAM) {
                total = 0;
                for (Folder f : folders) {
                    f.files = c.count("a folder's file count", MAX_FILES);
                    total += f.files;
                }
                if (total > MAX_FILES) {
                    throw new Malformed("the folders hold " + total + " files, more than " + MAX_FILES);
                }
            } else {
                c.skip(c.number("a property size"), "a substreams property");
            }
            id = id(c);
        }
        s.fileSizes = new long[(int) total];
        int k = 0;
        boolean sizes = id == SIZE;
        for (Folder f : folders) {
            if (f.files == 0) {
                continue;
            }
            long size = f.unpackSize();
            long sum = 0;
            for (int j = 1; j < f.files; j++) {
                if (!sizes) {
                    throw new Malformed("a folder holds " + f.files + " files but their sizes are missing");
                }
                long v = c.number("a file's size");
                if (v > size - sum) {
                    throw new Malformed("a folder's files add up to more than its " + size + " bytes");
                }
                s.fileSizes[k++] = v;
                sum += v;
            }
            s.fileSizes[k++] = size - sum;
        }
        if (sizes) {
            id = id(c);
        }
        int digests = 0;
        for (Folder f : folders) {
            if (f.files != 1 || !f.crcDefined) {
                digests += f.files;
            }
        }
        for (; id != END; id = id(c)) {
            if (id == CRC) {
                digests(c, digests);
            } else {
                c.skip(c.number("a property size"), "a substreams property");
            }
        }
    }

    private static Files files(Cursor c) {
        Files f = new Files();
        f.count = c.count("the file count", Math.min(MAX_FILES, c.remaining()));
        f.names = new String[0];
        int empty = 0;
        for (long type = c.number("a file property type"); type != END; type = c.number("a file property type")) {
            long size = c.number("a file property size");
            c.need(size, "a file property");
            Cursor p = new Cursor(c.bytes(), c.pos(), c.pos() + (int) size);
            c.skip(size, "a file property");
            if (type == EMPTY_STREAM) {
                f.emptyStream = bits(p, f.count);
                empty = cardinality(f.emptyStream);
            } else if (type == EMPTY_FILE) {
                f.emptyFile = bits(p, empty);
            } else if (type == NAME) {
                f.names = names(p, f.count);
            } else if (type == WIN_ATTRIBUTES) {
                f.directoryAttribute = directories(p, f.count);
            }
        }
        return f;
    }

    /** The names: external flag 0, then UTF-16LE strings each ended by a NUL char. */
    private static String[] names(Cursor p, int count) {
        if (p.u8() != 0) {
            throw new Malformed("the names are stored elsewhere (external), which 7-Zip never writes");
        }
        String[] names = new String[Math.min(count, Archives.MAX_ENTRIES)];
        byte[] b = p.bytes();
        for (int i = 0; i < count; i++) {
            int start = p.pos();
            while (true) {
                p.need(2, "a name");
                if (b[p.pos()] == 0 && b[p.pos() + 1] == 0) {
                    break;
                }
                p.skip(2, "a name");
            }
            if (i < names.length) {
                names[i] = Rar4Reader.stripSlashes(Names.decode(b, start, p.pos() - start, StandardCharsets.UTF_16LE));
            }
            p.skip(2, "a name's end");
        }
        return names;
    }

    /** Which files carry the directory attribute (0x10): all-defined flag or bits, external 0, UINT32s. */
    private static boolean[] directories(Cursor p, int count) {
        boolean[] defined = definedBits(p, count);
        if (p.u8() != 0) {
            throw new Malformed("the attributes are stored elsewhere (external), which 7-Zip never writes");
        }
        boolean[] dirs = new boolean[count];
        for (int i = 0; i < count; i++) {
            if (defined[i]) {
                dirs[i] = (p.u32() & ATTRIBUTE_DIRECTORY) != 0;
            }
        }
        return dirs;
    }

    /** Skips a digests record: all-defined flag or bits, then a CRC-32 per defined stream. */
    private static void digests(Cursor c, int count) {
        boolean[] defined = definedBits(c, count);
        c.skip(4L * cardinality(defined), "the CRCs");
    }

    private static boolean[] definedBits(Cursor c, int count) {
        if (c.u8() != 0) {
            boolean[] all = new boolean[count];
            Arrays.fill(all, true);
            return all;
        }
        return bits(c, count);
    }

    /** A bit vector of {@code count} bits, high bit first; its bytes are checked before allocation. */
    static boolean[] bits(Cursor c, int count) {
        c.need((count + 7L) / 8, "a bit vector");
        boolean[] bits = new boolean[count];
        int cache = 0;
        for (int i = 0; i < count; i++) {
            if (i % 8 == 0) {
                cache = c.u8();
            }
            bits[i] = (cache & (0x80 >> (i % 8))) != 0;
        }
        return bits;
    }

    private static int cardinality(boolean[] bits) {
        int n = 0;
        for (boolean b : bits) {
            if (b) {
                n++;
            }
        }
        return n;
    }

    private static int id(Cursor c) {
        long id = c.number("a property id");
        return id > 0xFF ? -1 : (int) id;
    }

    private static void expect(int id, int wanted, String what) {
        if (id != wanted) {
            throw new Malformed("expected " + what + " (id 0x" + Integer.toHexString(wanted) + "), found id "
                    + (id < 0 ? "above 0xff" : "0x" + Integer.toHexString(id)));
        }
    }
}
