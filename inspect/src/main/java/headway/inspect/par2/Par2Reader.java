package headway.inspect.par2;

import headway.inspect.HostileText;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the packets of a PAR2 file (Parity Volume Set Specification 2.0), or of any part of one:
 * the first article of a volume, a whole small index file, or bytes that start mid-file.
 *
 * <p>A packet is a 64-byte header (magic {@code PAR2\0PKT}, length as 8 bytes little-endian
 * counting the header, a multiple of 4; the MD5 of everything from the set id to the packet's end;
 * the recovery set id; a 16-byte type) and a body. Bodies this reader uses: main (slice size, the
 * count of protected files, then the file ids of protected and of unprotected files), file
 * description (file id, MD5 of the file, MD5 of its first 16 KiB, length, then the name, not
 * necessarily NUL-terminated, NUL-padded to a multiple of 4), recovery slice (an exponent, then a
 * slice of data: counted and skipped by its length, never copied) and creator (text). Input file
 * slice checksums and unknown types are valid packets it does not need.
 *
 * <p>Every packet's MD5 is checked and a packet that fails is skipped; so is a length under 64,
 * not a multiple of 4, or past {@link #MAX_PACKET}; after a skipped packet the reader searches for
 * the next magic, as it does when the bytes start mid-packet. Each byte is looked at a bounded
 * number of times (the search and the hash only move forward), so the time is linear in the bytes
 * given and nothing is allocated from a length field. A packet that runs past the bytes given ends
 * the reading: it is the prefix's cut, and the packets before it count. Packets of a set other than
 * the first one read are skipped: one PAR2 file describes one set.
 */
public final class Par2Reader {

    /** The PAR2 packet magic. */
    static final byte[] MAGIC = "PAR2\0PKT".getBytes(StandardCharsets.ISO_8859_1);

    static final int HEADER = 64;

    /**
     * The longest packet believed: 1 GiB. A recovery slice packet is a slice plus 68 bytes, and
     * creators keep slices in memory (par2cmdline's default is a few MB); 2^60 is a lie.
     */
    public static final long MAX_PACKET = 1L << 30;

    /** The most files kept: par2cmdline allows at most 32768 source blocks, and each file takes at least one. */
    public static final int MAX_FILES = 32768;

    /** The most packets read from one buffer: three per file of the largest set plus main and creator, with room. */
    public static final int MAX_PACKETS = 4 * MAX_FILES;

    /** The most recovery exponents listed: PAR2's Reed-Solomon field has 65536 elements. */
    public static final int MAX_EXPONENTS = 65536;

    /** The largest file length believed: 1 TiB, far past any file posted; 2^60 is a lie. */
    public static final long MAX_FILE_LENGTH = 1L << 40;

    /** The longest file name kept, in chars: names are relative paths; Windows allows 32767, real ones are far shorter. */
    public static final int MAX_NAME = 1024;

    /** The longest creator text kept, in chars. */
    public static final int MAX_CREATOR = 256;

    /** The longest reason, in chars. */
    static final int MAX_REASON = 200;

    private static final String MAIN = "PAR 2.0\0Main\0\0\0\0";
    private static final String FILE_DESC = "PAR 2.0\0FileDesc";
    private static final String RECOVERY = "PAR 2.0\0RecvSlic";
    private static final String CREATOR = "PAR 2.0\0Creator\0";

    private Par2Reader() {}

    /** True when {@code head} starts with a PAR2 packet's magic: how a file with a random name or none is known. */
    public static boolean recognizes(byte[] head) {
        return head.length >= MAGIC.length && magicAt(head, 0, head.length);
    }

    /** Reads the packets of {@code b}. */
    public static Par2Set read(byte[] b) {
        return read(b, 0, b.length);
    }

    /** Reads the packets of {@code b[from..to)}. */
    public static Par2Set read(byte[] b, int from, int to) {
        return new Reading(b, from, Math.min(to, b.length)).run();
    }

    private static boolean magicAt(byte[] b, int at, int end) {
        if (at < 0 || end - at < MAGIC.length) {
            return false;
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (b[at + i] != MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    /** One pass over a buffer; holds what was read so far. */
    private static final class Reading {
        private final byte[] b;
        private final int end;
        private int pos;
        private final MessageDigest md5 = Par2Set.md5();
        private String setId = "";
        private long sliceSize;
        private boolean sawMain;
        private final List<String> recoveryIds = new ArrayList<>();
        private final List<String> otherIds = new ArrayList<>();
        private final List<Par2File> files = new ArrayList<>();
        private final Set<String> fileIds = new HashSet<>();
        private int recoveryBlocks;
        private final List<Integer> exponents = new ArrayList<>();
        private String creator = "";
        private int read;
        private int skipped;
        private String reason;

        Reading(byte[] b, int from, int end) {
            this.b = b;
            this.pos = Math.max(0, from);
            this.end = end;
        }

        Par2Set run() {
            while (pos < end) {
                if (read + skipped >= MAX_PACKETS) {
                    stop("more than " + MAX_PACKETS + " packets");
                    break;
                }
                if (!magicAt(b, pos, end)) {
                    int next = nextMagic(pos + 1);
                    if (next < 0) {
                        trailing();
                        break;
                    }
                    note("no packet at offset " + pos + ": resynchronised at " + next);
                    pos = next;
                    continue;
                }
                if (end - pos < HEADER) {
                    stop("truncated: packet header at offset " + pos + " has " + (end - pos) + " of 64 bytes");
                    break;
                }
                long length = le64(pos + 8);
                if (length < HEADER || length % 4 != 0 || length > MAX_PACKET) {
                    skip("packet at offset " + pos + " claims " + Long.toUnsignedString(length)
                            + " bytes (at least 64, a multiple of 4, at most 2^30)");
                    continue;
                }
                if (length > end - pos) {
                    stop("truncated: packet at offset " + pos + " claims " + length + " bytes, " + (end - pos)
                            + " remain");
                    break;
                }
                packet((int) length);
            }
            if (read == 0 && reason == null) {
                reason = "no PAR2 packet";
            }
            return new Par2Set(
                    setId,
                    sliceSize,
                    recoveryIds,
                    otherIds,
                    files,
                    recoveryBlocks,
                    exponents,
                    creator,
                    read,
                    skipped,
                    reason);
        }

        private void packet(int length) {
            md5.reset();
            md5.update(b, pos + 32, length - 32);
            byte[] digest = md5.digest();
            for (int i = 0; i < 16; i++) {
                if (digest[i] != b[pos + 16 + i]) {
                    skip("packet at offset " + pos + " fails its MD5");
                    return;
                }
            }
            String set = Par2Set.hex(b, pos + 32, 16);
            if (setId.isEmpty()) {
                setId = set;
            } else if (!setId.equals(set)) {
                skipped++;
                note("packet at offset " + pos + " belongs to another recovery set");
                pos += length;
                return;
            }
            int body = pos + HEADER;
            int bodyEnd = pos + length;
            String type = new String(b, pos + 48, 16, StandardCharsets.ISO_8859_1);
            String problem = switch (type) {
                case MAIN -> main(body, bodyEnd, set);
                case FILE_DESC -> fileDescription(body, bodyEnd);
                case RECOVERY -> recovery(body, bodyEnd);
                case CREATOR -> creator(body, bodyEnd);
                default -> null;
            };
            if (problem == null) {
                read++;
            } else {
                skipped++;
                note("packet at offset " + pos + ": " + problem);
            }
            pos += length;
        }

        private String main(int body, int bodyEnd, String set) {
            if (bodyEnd - body < 12) {
                return "main packet body of " + (bodyEnd - body) + " bytes";
            }
            if (sawMain) {
                return null;
            }
            md5.reset();
            md5.update(b, body, bodyEnd - body);
            if (!Par2Set.hex(md5.digest(), 0, 16).equals(set)) {
                return "main packet does not hash to its set id";
            }
            long slice = le64(body);
            long count = le32(body + 8);
            long ids = (bodyEnd - body - 12L) / 16;
            if (slice <= 0 || slice % 4 != 0 || slice > MAX_PACKET) {
                return "slice size " + Long.toUnsignedString(slice);
            }
            if (count > ids || (bodyEnd - body - 12) % 16 != 0) {
                return "main packet lists " + count + " files in " + ids + " ids";
            }
            sawMain = true;
            sliceSize = slice;
            for (int i = 0; i < ids && i < MAX_FILES; i++) {
                String id = Par2Set.hex(b, body + 12 + 16 * i, 16);
                (i < count ? recoveryIds : otherIds).add(id);
            }
            return null;
        }

        private String fileDescription(int body, int bodyEnd) {
            if (bodyEnd - body < 56) {
                return "file description body of " + (bodyEnd - body) + " bytes";
            }
            long length = le64(body + 48);
            if (length < 0 || length > MAX_FILE_LENGTH) {
                return "file length " + Long.toUnsignedString(length) + " past 2^40";
            }
            String id = Par2Set.hex(b, body, 16);
            if (fileIds.contains(id)) {
                return null;
            }
            if (files.size() >= MAX_FILES) {
                note("more than " + MAX_FILES + " files");
                return null;
            }
            int nameEnd = body + 56;
            while (nameEnd < bodyEnd && b[nameEnd] != 0) {
                nameEnd++;
            }
            String name = HostileText.name(b, body + 56, Math.min(nameEnd, body + 56 + 4 * MAX_NAME), MAX_NAME);
            fileIds.add(id);
            files.add(new Par2File(id, name, length, Par2Set.hex(b, body + 16, 16), Par2Set.hex(b, body + 32, 16)));
            return null;
        }

        private String recovery(int body, int bodyEnd) {
            if (bodyEnd - body < 4) {
                return "recovery slice body of " + (bodyEnd - body) + " bytes";
            }
            recoveryBlocks++;
            if (exponents.size() < MAX_EXPONENTS) {
                exponents.add((int) le32(body));
            }
            return null;
        }

        private String creator(int body, int bodyEnd) {
            int textEnd = body;
            while (textEnd < bodyEnd && b[textEnd] != 0) {
                textEnd++;
            }
            if (creator.isEmpty()) {
                creator = HostileText.name(b, body, Math.min(textEnd, body + 4 * MAX_CREATOR), MAX_CREATOR);
            }
            return null;
        }

        /** Skips the packet at {@code pos}, whose length cannot be trusted, by searching for the next magic. */
        private void skip(String why) {
            skipped++;
            note(why);
            int next = nextMagic(pos + MAGIC.length);
            pos = next < 0 ? end : next;
        }

        private void trailing() {
            int tail = end - pos;
            for (int k = 1; k < MAGIC.length && k <= tail; k++) {
                if (magicPrefixAt(end - k, k)) {
                    stop("truncated: packet magic cut at offset " + (end - k));
                    return;
                }
            }
            note((read + skipped == 0 ? "no PAR2 packet in " : "no packet in the last ") + tail + " bytes");
        }

        private boolean magicPrefixAt(int at, int k) {
            for (int i = 0; i < k; i++) {
                if (b[at + i] != MAGIC[i]) {
                    return false;
                }
            }
            return true;
        }

        private int nextMagic(int from) {
            for (int i = Math.max(from, 0); i + MAGIC.length <= end; i++) {
                if (b[i] == 'P' && magicAt(b, i, end)) {
                    return i;
                }
            }
            return -1;
        }

        private void stop(String why) {
            reason = bounded(why);
            pos = end;
        }

        private void note(String why) {
            if (reason == null) {
                reason = bounded(why);
            }
        }

        private static String bounded(String why) {
            return why.length() <= MAX_REASON ? why : why.substring(0, MAX_REASON);
        }

        private long le64(int at) {
            long v = 0;
            for (int i = 7; i >= 0; i--) {
                v = (v << 8) | (b[at + i] & 0xffL);
            }
            return v;
        }

        private long le32(int at) {
            long v = 0;
            for (int i = 3; i >= 0; i--) {
                v = (v << 8) | (b[at + i] & 0xffL);
            }
            return v;
        }
    }
}
