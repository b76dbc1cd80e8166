package headway.inspect.archive;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A tree of files for the real tools to pack: random data (so sizes are what the test wrote, and the archive is larger than a head and a tail of 64 KiB), a
 * non-ASCII name, a file named like an archive that is not one, a real ZIP under a random name (an
 * archive by its magic only), an empty file and an empty directory.
 */
final class Samples {

    static final String UNICODE = "Ünïcødé 名前.txt";
    static final String NAMED_LIKE_ARCHIVE = "sub/inner.rar";
    static final String ARCHIVE_BY_MAGIC = "sub/obfuscated.dat";
    static final List<String> DIRECTORIES = List.of("emptydir", "sub");

    /** Every file's name and size, in no particular order. */
    final Map<String, Long> files = new LinkedHashMap<>();

    private Samples() {}

    /** Writes the tree under {@code dir}, with data from {@code seed}. */
    static Samples write(Path dir, long seed) {
        Random random = new Random(seed);
        Samples s = new Samples();
        try {
            Files.createDirectories(dir.resolve("sub"));
            Files.createDirectories(dir.resolve("emptydir"));
            s.put(dir, "a.bin", bytes(random, 200_000));
            s.put(dir, UNICODE, bytes(random, 3_000));
            s.put(dir, NAMED_LIKE_ARCHIVE, bytes(random, 5_000));
            s.put(dir, ARCHIVE_BY_MAGIC, storedZip(random));
            s.put(dir, "empty.txt", new byte[0]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return s;
    }

    private void put(Path dir, String name, byte[] data) throws IOException {
        Files.write(dir.resolve(name), data);
        files.put(name, (long) data.length);
    }

    static byte[] bytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** A ZIP of two stored random files, made by Java's ZipOutputStream. */
    static byte[] storedZip(Random random) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            for (String name : List.of("one.txt", "two.bin")) {
                byte[] data = bytes(random, 700);
                ZipEntry e = new ZipEntry(name);
                e.setMethod(ZipEntry.STORED);
                e.setSize(data.length);
                CRC32 crc = new CRC32();
                crc.update(data);
                e.setCrc(crc.getValue());
                zip.putNextEntry(e);
                zip.write(data);
                zip.closeEntry();
            }
        }
        return out.toByteArray();
    }
}
