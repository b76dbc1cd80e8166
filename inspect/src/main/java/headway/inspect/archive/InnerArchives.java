package headway.inspect.archive;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Whether an entry is itself an archive: by its name's extension (the list is the resource
 * {@code inner-archive-extensions.txt}) and, where its first bytes are at hand (stored, not
 * encrypted, data inside the bytes given), by its magic number: either is enough, because
 * obfuscated posts rename what they pack and a {@code .rar} name alone already says what the
 * poster wants the downloader to unpack. Magic numbers of two bytes (ARJ) are left to the name:
 * one stored file in 65,536 would start with them by chance.
 */
final class InnerArchives {

    private static final Set<String> EXTENSIONS = load();

    private static final byte[][] MAGIC = {
        Bytes.of(0x52, 0x61, 0x72, 0x21, 0x1A, 0x07), // RAR 4 and RAR 5: "Rar!" 1A 07
        Bytes.of(0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C), // 7z
        Bytes.of(0x50, 0x4B, 0x03, 0x04), // ZIP local header
        Bytes.of(0x50, 0x4B, 0x05, 0x06), // empty ZIP
        Bytes.of(0x50, 0x4B, 0x07, 0x08), // first volume of a split ZIP
        Bytes.of(0x1F, 0x8B, 0x08), // gzip, deflate
        Bytes.of(0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00), // xz
        Bytes.of(0x28, 0xB5, 0x2F, 0xFD), // zstd
        Bytes.of(0x4D, 0x53, 0x43, 0x46, 0, 0, 0, 0), // cab "MSCF"
    };

    /** bzip2: "BZh", a block size digit, then the first block's magic (the digits of pi). */
    private static final byte[] BZIP2 = Bytes.of(0x42, 0x5A, 0x68);

    private static final byte[] BZIP2_BLOCK = Bytes.of(0x31, 0x41, 0x59, 0x26, 0x53, 0x59);

    /** "ustar" at offset 257: a tar header, whose first 257 bytes are a name and fields. */
    private static final byte[] USTAR = Bytes.of(0x75, 0x73, 0x74, 0x61, 0x72);

    private static final int USTAR_AT = 257;

    /** ACE's "**ACE**" sits at offset 7, after its header's CRC and size. */
    private static final byte[] ACE = "**ACE**".getBytes(StandardCharsets.US_ASCII);

    private static final int ACE_AT = 7;

    private InnerArchives() {}

    /** Whether the name's extension (or the one before a 3-digit volume number) is an archive's. */
    static boolean byName(String name) {
        String base = name.substring(name.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        int dot = base.lastIndexOf('.');
        if (dot < 0) {
            return false;
        }
        String ext = base.substring(dot + 1);
        if (EXTENSIONS.contains(ext) || EXTENSIONS.contains(digitsAsZero(ext))) {
            return true;
        }
        if (ext.length() == 3 && digitsAsZero(ext).equals("000")) {
            int before = base.lastIndexOf('.', dot - 1);
            return before >= 0 && EXTENSIONS.contains(base.substring(before + 1, dot));
        }
        return false;
    }

    /** Whether the bytes {@code [at, limit)} of {@code b} start like an archive. */
    static boolean byMagic(byte[] b, int at, int limit) {
        for (byte[] magic : MAGIC) {
            if (Bytes.startsWith(b, at, limit, magic)) {
                return true;
            }
        }
        boolean bzip2 = Bytes.startsWith(b, at, limit, BZIP2)
                && limit - at > BZIP2.length
                && b[at + BZIP2.length] >= '1'
                && b[at + BZIP2.length] <= '9'
                && Bytes.startsWith(b, at + BZIP2.length + 1, limit, BZIP2_BLOCK);
        return bzip2
                || Bytes.startsWith(b, at + USTAR_AT, limit, USTAR)
                || Bytes.startsWith(b, at + ACE_AT, limit, ACE);
    }

    private static String digitsAsZero(String ext) {
        StringBuilder s = new StringBuilder(ext.length());
        for (int i = 0; i < ext.length(); i++) {
            char c = ext.charAt(i);
            s.append(c >= '0' && c <= '9' ? '0' : c);
        }
        return s.toString();
    }

    private static Set<String> load() {
        Set<String> set = new HashSet<>();
        try (InputStream in = InnerArchives.class.getResourceAsStream("inner-archive-extensions.txt")) {
            if (in == null) {
                throw new IllegalStateException("inner-archive-extensions.txt is missing from the classpath");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String ext = line.strip();
                if (!ext.isEmpty() && !ext.startsWith("#")) {
                    set.add(ext);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Set.copyOf(set);
    }
}
