package headway.inspect.archive;

import headway.inspect.archive.SevenZipHeader.Folder;
import headway.inspect.archive.SevenZipHeader.Header;
import headway.inspect.archive.SevenZipHeader.Streams;
import headway.inspect.archive.Window.Slice;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.tukaani.xz.ARM64Options;
import org.tukaani.xz.ARMOptions;
import org.tukaani.xz.ARMThumbOptions;
import org.tukaani.xz.ArrayCache;
import org.tukaani.xz.DeltaOptions;
import org.tukaani.xz.IA64Options;
import org.tukaani.xz.LZMA2InputStream;
import org.tukaani.xz.LZMAInputStream;
import org.tukaani.xz.PowerPCOptions;
import org.tukaani.xz.RISCVOptions;
import org.tukaani.xz.SPARCOptions;
import org.tukaani.xz.X86Options;

/**
 * A 7z archive's listing from its first 32 bytes and the bytes at its end.
 *
 * <p>What the reader relies on: the signature header (signature, version 0.x, the CRC-32 of the
 * next 20 bytes, which are the next header's offset after these 32 bytes, its size and its
 * CRC-32). The next header usually sits at the end of the archive, so in the tail of the last
 * volume: 7z volumes are byte splits of one archive, the caller knows each volume's size and says
 * where its tail lies. That header is either the header itself ({@code kHeader}) or, as 7-Zip
 * writes by default, an encoded header ({@code kEncodedHeader}): a streams info whose first folder
 * decodes (LZMA, LZMA2, optionally behind a BCJ or Delta filter) to the header. An AES-256 coder
 * ({@code 06F10701}) in that folder means the header is encrypted ({@code -mhe=on}): no listing,
 * passworded. An entry is encrypted when the folder holding its data has an AES coder ({@code -p}
 * without {@code -mhe}). An entry's data is at hand for the inner-archive magic when its folder is
 * a single Copy coder ({@code -mx0}) and the bytes lie in the head or the tail.
 *
 * <p>Why by hand and not Apache Commons Compress's {@code SevenZFile}: in 1.28.0 it decodes the
 * encoded header into as many bytes as the header claims ({@code readEncodedHeader}: up to 2 GiB;
 * LZMA packs a run of zeros some 7,000 to 1, so a 64 KiB tail can claim and produce hundreds of
 * MiB), and its sanity check lets a 15-byte header declare 2^31-1 files whose all-defined times it
 * then walks bit by bit into a 256 MiB {@code BitSet} ({@code sanityCheckFilesInfo} calls
 * {@code readAllOrBits} before any memory check); its memory limit covers the coders' dictionaries
 * and the counted structures, checked after those walks. This reader decodes at most
 * {@link #MAX_HEADER_BYTES}, reads only the bytes given (the xz library's decoders work on the
 * slice it hands them) and bounds every count before it allocates (see {@link SevenZipHeader}).
 */
final class SevenZipReader {

    static final byte[] SIGNATURE = Bytes.of(0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C);

    static final int SIGNATURE_HEADER = 32;

    /**
     * Largest header read or decoded: 4 MiB holds some 40,000 entries with 50-char names, more
     * than any release packs, and bounds the decoder's output and dictionary.
     */
    static final int MAX_HEADER_BYTES = 4 << 20;

    static final long COPY = 0x00;
    static final long DELTA = 0x03;
    static final long LZMA = 0x030101;
    static final long LZMA2 = 0x21;
    static final long AES = 0x06F10701L;
    static final long X86 = 0x03030103;
    static final long PPC = 0x03030205;
    static final long IA64 = 0x03030401;
    static final long ARM = 0x03030501;
    static final long ARMT = 0x03030701;
    static final long SPARC = 0x03030805;
    static final long ARM64 = 0x0A;
    static final long RISCV = 0x0B;

    /** First bytes of an inner file checked for an archive's magic. */
    private static final int MAGIC_BYTES = 512;

    private SevenZipReader() {}

    static Listing read(byte[] head, byte[] tail, long tailOffset) {
        ListingBuilder out = new ListingBuilder(ArchiveFormat.SEVEN_ZIP);
        String reason;
        try {
            reason = read(Window.of(head, tail, tailOffset), out);
        } catch (Malformed m) {
            reason = m.getMessage();
        }
        return out.build(reason);
    }

    private static String read(Window w, ListingBuilder out) {
        byte[] h = w.head;
        if (!Bytes.startsWith(h, 0, h.length, SIGNATURE)) {
            return "no 7z signature at offset 0";
        }
        if (h.length < SIGNATURE_HEADER) {
            return "the head ends inside the 32-byte signature header";
        }
        if (h[6] != 0) {
            return "7z version " + (h[6] & 0xFF) + "." + (h[7] & 0xFF) + " (this reader knows 0.x)";
        }
        if (Bytes.crc32(h, 12, SIGNATURE_HEADER) != Bytes.u32(h, 8)) {
            return "the start header fails its CRC (an archive whose writing did not finish has zeros there)";
        }
        Cursor start = new Cursor(h, 12, SIGNATURE_HEADER);
        long offset = start.u64("the next header's offset");
        long size = start.u64("the next header's size");
        long crc = start.u32();
        if (size == 0) {
            return null;
        }
        if (offset > w.total - SIGNATURE_HEADER || size > w.total - SIGNATURE_HEADER - offset) {
            return "the header at " + (SIGNATURE_HEADER + offset) + " (" + size + " bytes) ends past the archive's "
                    + w.total + " bytes: the tail's offset or the volume sizes are wrong";
        }
        if (size > MAX_HEADER_BYTES) {
            return "the header is " + size + " bytes, more than the " + MAX_HEADER_BYTES + " read";
        }
        Slice next = w.slice(SIGNATURE_HEADER + offset, size);
        if (next == null) {
            return "the header at " + (SIGNATURE_HEADER + offset) + " (" + size + " bytes) is not in the bytes given ("
                    + w.describe() + ")";
        }
        if (Bytes.crc32(next.bytes(), next.from(), next.to()) != crc) {
            return "the header fails its CRC";
        }
        Cursor c = new Cursor(next.bytes(), next.from(), next.to());
        int id = c.u8();
        if (id == SevenZipHeader.ENCODED_HEADER) {
            Streams encoded = SevenZipHeader.streams(c);
            if (encoded.folders.length == 0 || encoded.packSizes.length == 0) {
                return "the encoded header has no folder or no packed stream";
            }
            Folder f = encoded.folders[0];
            if (f.has(AES)) {
                out.headersEncrypted();
                return "the headers are encrypted";
            }
            byte[] decoded = decode(w, encoded, f);
            c = new Cursor(decoded, 0, decoded.length);
            id = c.u8();
        }
        if (id != SevenZipHeader.HEADER) {
            return "the header starts with id 0x" + Integer.toHexString(id) + ", not a header";
        }
        Header header = SevenZipHeader.header(c);
        entries(w, header, out);
        return null;
    }

    /** Bytes before the end searched for the header's start: headers of release archives are a few hundred bytes. */
    static final int END_SCAN = 16 * 1024;

    /** Starts tried at most, so hostile bytes full of header ids cost a bounded number of parses. */
    static final int END_CANDIDATES = 64;

    /**
     * A 7z archive's listing from the last bytes of its last volume alone, without the signature
     * header that says where the header is. 7-Zip writes the header last, so it is found by
     * content: the start, within {@link #END_SCAN} bytes of the end, from which a header parses and
     * ends exactly where the bytes do. An encoded header ({@code kEncodedHeader}: the default, and
     * always with {@code -mhe=on}) with an AES coder means encrypted headers; else its packed stream
     * is taken to lie just before it (where 7-Zip writes it) and the decoded header must pass its
     * folder's CRC-32. A plain header ({@code kHeader}, which {@code -mx0} and {@code -mhc=off}
     * write) has no CRC here, so it counts only when it lists a file and its streams add up (a
     * random run of bytes parses that far essentially never). Where a plain header places the tail
     * comes from its pack position and sizes, since 7-Zip writes it right after the packed streams.
     */
    static Listing readEnd(byte[] tail) {
        String reason = "no 7z header ends the bytes given";
        int tried = 0;
        for (int k = tail.length - 2; k >= Math.max(0, tail.length - END_SCAN) && tried < END_CANDIDATES; k--) {
            int id = tail[k] & 0xFF;
            int next = tail[k + 1] & 0xFF;
            boolean encoded = id == SevenZipHeader.ENCODED_HEADER && next == SevenZipHeader.PACK_INFO;
            boolean plain = id == SevenZipHeader.HEADER
                    && next >= SevenZipHeader.ARCHIVE_PROPERTIES
                    && next <= SevenZipHeader.FILES_INFO;
            if (!encoded && !plain) {
                continue;
            }
            tried++;
            ListingBuilder out = new ListingBuilder(ArchiveFormat.SEVEN_ZIP);
            try {
                String miss = encoded ? readEncodedEnd(tail, k, out) : readPlainEnd(tail, k, out);
                if (miss == null) {
                    return out.build(out.isHeadersEncrypted() ? "the headers are encrypted" : null);
                }
                reason = "no 7z header ends the bytes given (the last start tried: " + miss + ")";
            } catch (Malformed m) {
                reason = "no 7z header ends the bytes given (the last start tried: " + m.getMessage() + ")";
            }
        }
        return new ListingBuilder(ArchiveFormat.SEVEN_ZIP).build(reason);
    }

    /** Reads an encoded header starting at {@code k} of the tail; null when it gave the listing, else why not. */
    private static String readEncodedEnd(byte[] tail, int k, ListingBuilder out) {
        Cursor c = new Cursor(tail, k + 1, tail.length);
        Streams encoded = SevenZipHeader.streams(c);
        if (c.remaining() != 0) {
            return "a streams info at " + k + " ends before the bytes do";
        }
        if (encoded.folders.length != 1 || encoded.packSizes.length != 1) {
            return "a streams info at " + k + " is not one folder over one packed stream";
        }
        Folder f = encoded.folders[0];
        if (f.has(AES)) {
            out.headersEncrypted();
            return null;
        }
        long packed = encoded.packSizes[0];
        if (!f.crcDefined || packed > k) {
            return "the encoded header at " + k + " has no CRC or its packed stream is not before it";
        }
        if (encoded.packPos < 0 || encoded.packPos > Long.MAX_VALUE / 2) {
            return "the encoded header at " + k + " states a pack position past any archive";
        }
        long tailOffset = SIGNATURE_HEADER + encoded.packPos - (k - packed);
        if (tailOffset < 0) {
            return "the encoded header at " + k + " places its packed stream before the archive";
        }
        Window w = Window.of(new byte[0], tail, tailOffset);
        byte[] decoded = decode(w, encoded, f);
        Cursor h = new Cursor(decoded, 0, decoded.length);
        int id = h.u8();
        if (id != SevenZipHeader.HEADER) {
            return "the encoded header at " + k + " decodes to id 0x" + Integer.toHexString(id) + ", not a header";
        }
        entries(w, SevenZipHeader.header(h), out);
        return null;
    }

    /** Reads a plain header starting at {@code k} of the tail; null when it gave the listing, else why not. */
    private static String readPlainEnd(byte[] tail, int k, ListingBuilder out) {
        Cursor c = new Cursor(tail, k + 1, tail.length);
        Header header = SevenZipHeader.header(c);
        if (c.remaining() != 0) {
            return "a header at " + k + " ends before the bytes do";
        }
        if (header.files().count < 1) {
            return "a header at " + k + " lists no file";
        }
        Streams s = header.streams();
        long end = s.packPos;
        for (long size : s.packSizes) {
            end = size < 0 || end < 0 || end > Long.MAX_VALUE / 2 ? -1 : end + size;
        }
        long tailOffset = end < 0 ? -1 : SIGNATURE_HEADER + end - k;
        Window w = tailOffset < 0 ? Window.of(new byte[0], new byte[0], 0) : Window.of(new byte[0], tail, tailOffset);
        entries(w, header, out);
        return null;
    }

    /** Decodes the encoded header's first folder from its packed stream, at most MAX_HEADER_BYTES. */
    private static byte[] decode(Window w, Streams s, Folder f) {
        long unpack = f.unpackSize();
        if (unpack > MAX_HEADER_BYTES) {
            throw new Malformed(
                    "the encoded header claims " + unpack + " bytes, more than the " + MAX_HEADER_BYTES + " decoded");
        }
        if (f.packedIn.length != 1) {
            throw new Malformed("the encoded header's folder has " + f.packedIn.length + " packed streams");
        }
        long at = SIGNATURE_HEADER + s.packPos;
        Slice packed = s.packPos > w.total ? null : w.slice(at, s.packSizes[0]);
        if (packed == null) {
            throw new Malformed("the encoded header's packed stream at " + at + " (" + s.packSizes[0]
                    + " bytes) is not in the bytes given (" + w.describe() + ")");
        }
        byte[] decoded;
        try (InputStream in = chain(f, new ByteArrayInputStream(packed.bytes(), packed.from(), packed.length()))) {
            decoded = in.readNBytes((int) unpack);
        } catch (IOException e) {
            throw new Malformed("the encoded header does not decode: " + e.getMessage());
        }
        if (decoded.length != unpack) {
            throw new Malformed(
                    "the encoded header decodes to " + decoded.length + " bytes, not the " + unpack + " it claims");
        }
        if (f.crcDefined && Bytes.crc32(decoded, 0, decoded.length) != f.crc) {
            throw new Malformed("the decoded header fails its CRC");
        }
        return decoded;
    }

    /**
     * The folder's decoders stacked over its packed stream: from the folder's output, each coder's
     * input is bound to the next coder's output, down to the coder that reads the packed stream.
     * Only one-in, one-out coders; the walk stops after as many steps as there are coders, so a
     * bind pair loop is a reason, not a hang.
     */
    private static InputStream chain(Folder f, InputStream packed) throws IOException {
        int[] inStart = new int[f.coders.length];
        int[] outStart = new int[f.coders.length];
        for (int i = 1; i < f.coders.length; i++) {
            inStart[i] = inStart[i - 1] + f.coders[i - 1].inStreams();
            outStart[i] = outStart[i - 1] + f.coders[i - 1].outStreams();
        }
        List<Integer> order = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        int out = f.mainOut();
        for (int step = 0; ; step++) {
            if (step >= f.coders.length) {
                throw new Malformed("the encoded header's coders bind in a loop");
            }
            int coder = ownerOf(f, outStart, out);
            if (f.coders[coder].inStreams() != 1 || f.coders[coder].outStreams() != 1) {
                throw new Malformed("the encoded header uses a coder with several streams");
            }
            long size = f.unpackSizes[out];
            if (size > MAX_HEADER_BYTES) {
                throw new Malformed("a coder of the encoded header claims " + size + " bytes");
            }
            order.add(coder);
            sizes.add(size);
            int bound = indexOf(f.bindIn, inStart[coder]);
            if (bound < 0) {
                if (f.packedIn[0] != inStart[coder]) {
                    throw new Malformed("the encoded header's coders do not reach its packed stream");
                }
                break;
            }
            out = (int) f.bindOut[bound];
        }
        InputStream s = packed;
        for (int i = order.size() - 1; i >= 0; i--) {
            s = decoder(f.coders[order.get(i)], s, sizes.get(i));
        }
        return s;
    }

    /** The coder whose out streams include {@code out}, given each coder's first out stream. */
    private static int ownerOf(Folder f, int[] outStart, int out) {
        for (int i = 0; i < outStart.length; i++) {
            if (out >= outStart[i] && out < outStart[i] + f.coders[i].outStreams()) {
                return i;
            }
        }
        throw new Malformed("no coder writes the encoded header's stream " + out);
    }

    private static int indexOf(long[] values, long v) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == v) {
                return i;
            }
        }
        return -1;
    }

    private static InputStream decoder(SevenZipHeader.Coder coder, InputStream in, long size) throws IOException {
        byte[] p = coder.props();
        ArrayCache cache = ArrayCache.getDummyCache();
        long id = coder.id();
        if (id == COPY) {
            return in;
        }
        if (id == LZMA) {
            if (p.length < 5) {
                throw new Malformed("the header's LZMA coder has " + p.length + " property bytes, not 5");
            }
            int props = p[0] & 0xFF;
            if (props >= 9 * 5 * 5 || props % 9 + props / 9 % 5 > 4) {
                throw new Malformed("the header's LZMA properties " + props + " are not lc+lp <= 4 (7-Zip writes 93)");
            }
            long dict = Bytes.u32(p, 1);
            return new LZMAInputStream(in, size, p[0], (int) Math.min(dict, MAX_HEADER_BYTES), null, cache);
        }
        if (id == LZMA2) {
            if (p.length < 1 || (p[0] & 0xFF) > 40) {
                throw new Malformed("the header's LZMA2 coder has no valid dictionary size");
            }
            int d = p[0] & 0xFF;
            long dict = d == 40 ? 0xFFFFFFFFL : (2L | (d & 1)) << (d / 2 + 11);
            return new LZMA2InputStream(in, (int) Math.min(dict, Math.max(size, 4096)));
        }
        if (id == DELTA) {
            return new DeltaOptions(p.length > 0 ? (p[0] & 0xFF) + 1 : 1).getInputStream(in, cache);
        }
        if (id == X86) {
            return new X86Options().getInputStream(in, cache);
        }
        if (id == PPC) {
            return new PowerPCOptions().getInputStream(in, cache);
        }
        if (id == IA64) {
            return new IA64Options().getInputStream(in, cache);
        }
        if (id == ARM) {
            return new ARMOptions().getInputStream(in, cache);
        }
        if (id == ARMT) {
            return new ARMThumbOptions().getInputStream(in, cache);
        }
        if (id == SPARC) {
            return new SPARCOptions().getInputStream(in, cache);
        }
        if (id == ARM64) {
            return new ARM64Options().getInputStream(in, cache);
        }
        if (id == RISCV) {
            return new RISCVOptions().getInputStream(in, cache);
        }
        throw new Malformed(
                "the header is packed with coder 0x" + Long.toHexString(id) + ", which this reader does not decode");
    }

    /** Walks the files, handing each with data the next file size of the next folder that holds files. */
    private static void entries(Window w, Header header, ListingBuilder out) {
        SevenZipHeader.Files files = header.files();
        Streams s = header.streams();
        long[] packOffsets = new long[s.packSizes.length + 1];
        for (int i = 0; i < s.packSizes.length; i++) {
            packOffsets[i + 1] = packOffsets[i] + s.packSizes[i];
            if (packOffsets[i + 1] < 0) {
                throw new Malformed("the pack sizes add up to 2^63 or more");
            }
        }
        int folder = -1;
        int inFolder = 0;
        int fileIndex = 0;
        int firstPack = 0;
        int nextFirstPack = 0;
        long offsetInFolder = 0;
        int emptyIndex = 0;
        for (int i = 0; i < files.count; i++) {
            boolean hasStream = files.emptyStream == null || !files.emptyStream[i];
            boolean dirAttribute = files.directoryAttribute != null && files.directoryAttribute[i];
            String name = i < files.names.length ? files.names[i] : "";
            if (!hasStream) {
                boolean emptyFile =
                        files.emptyFile != null && emptyIndex < files.emptyFile.length && files.emptyFile[emptyIndex];
                emptyIndex++;
                boolean directory = dirAttribute || !emptyFile;
                out.add(new Listing.Entry(
                        name,
                        OptionalLong.of(0),
                        OptionalLong.of(0),
                        directory,
                        false,
                        !directory && InnerArchives.byName(name),
                        false,
                        false));
                continue;
            }
            while (folder < 0 || inFolder >= s.folders[folder].files) {
                folder++;
                if (folder >= s.folders.length) {
                    throw new Malformed("the header lists more files with data than its folders hold");
                }
                inFolder = 0;
                offsetInFolder = 0;
                firstPack = nextFirstPack;
                nextFirstPack += s.folders[folder].packedIn.length;
                if (nextFirstPack > s.packSizes.length) {
                    throw new Malformed("the folders use more packed streams than the header lists");
                }
            }
            Folder f = s.folders[folder];
            long size = s.fileSizes[fileIndex++];
            boolean encrypted = f.has(AES);
            OptionalLong packed = f.files == 1
                    ? OptionalLong.of(packOffsets[nextFirstPack] - packOffsets[firstPack])
                    : OptionalLong.empty();
            boolean magic = f.coders.length == 1
                    && f.coders[0].id() == COPY
                    && magic(w, s.packPos, packOffsets[firstPack], offsetInFolder, size);
            out.add(new Listing.Entry(
                    name,
                    OptionalLong.of(size),
                    packed,
                    dirAttribute,
                    encrypted,
                    !dirAttribute && (magic || InnerArchives.byName(name)),
                    false,
                    false));
            inFolder++;
            offsetInFolder += size;
        }
        out.volume(VolumeRole.UNSTATED, OptionalInt.empty());
    }

    /** Whether a stored file's first bytes, if at hand, are an archive's magic. */
    private static boolean magic(Window w, long packPos, long packOffset, long offsetInFolder, long size) {
        if (packPos > w.total || packOffset > w.total || offsetInFolder > w.total) {
            return false;
        }
        Slice s = w.upTo(SIGNATURE_HEADER + packPos + packOffset + offsetInFolder, Math.min(size, MAGIC_BYTES));
        return s != null && InnerArchives.byMagic(s.bytes(), s.from(), s.to());
    }
}
