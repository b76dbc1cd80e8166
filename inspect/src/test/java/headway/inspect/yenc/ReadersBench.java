package headway.inspect.yenc;

import headway.inspect.nfo.Nfo;
import headway.inspect.nfo.NfoReader;
import headway.inspect.par2.Par2Reader;
import headway.inspect.par2.Par2Set;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Prints the readers' throughput on this machine, for the deep index's budget (a few articles per
 * release): a 700 KB yEnc part decoded whole and with a 16 KiB cap, a buffer of 2,000 PAR2 index
 * files, and a 64 KiB NFO of dense release names. Not a test; run with the test classpath:
 * {@code java -cp inspect/target/classes:inspect/target/test-classes:<re2j jar> headway.inspect.yenc.ReadersBench}.
 */
public final class ReadersBench {

    private ReadersBench() {}

    public static void main(String[] args) throws IOException {
        byte[] file = new byte[700_000];
        new Random(1).nextBytes(file);
        byte[] part = YencEncoder.part(file, "a3f9c0e1.part01.rar", 1, 50, 0, file.length, 128);
        rate("yenc decode 700 KB part, all kept", part.length, () -> YencDecoder.decode(part, Integer.MAX_VALUE));
        rate("yenc decode 700 KB part, 16 KiB kept", part.length, () -> YencDecoder.decode(part, 16 * 1024));

        byte[] index;
        try (InputStream in = ReadersBench.class.getResourceAsStream("/par2/utf8-name.par2")) {
            index = in.readAllBytes();
        }
        ByteArrayOutputStream many = new ByteArrayOutputStream();
        for (int i = 0; i < 2000; i++) {
            many.writeBytes(index);
        }
        byte[] par2 = many.toByteArray();
        rate("par2 read 2000 index files (8000 packets)", par2.length, () -> {
            Par2Set s = Par2Reader.read(par2);
            if (s.packetsRead() != 8000) {
                throw new AssertionError(s);
            }
        });

        StringBuilder nfo = new StringBuilder();
        for (int i = 0; nfo.length() < NfoReader.MAX_BYTES; i++) {
            nfo.append("Some.Show.S01E").append(i % 100).append(".720p.HDTV.x264-GRP imdb.com/title/tt0944947\r\n");
        }
        byte[] text = nfo.toString().getBytes(StandardCharsets.US_ASCII);
        rate("nfo read 64 KiB of release names", Math.min(text.length, NfoReader.MAX_BYTES), () -> {
            Nfo n = NfoReader.read(text);
            if (n.releaseNames().isEmpty()) {
                throw new AssertionError("no names");
            }
        });
    }

    private static void rate(String what, int bytes, Runnable r) {
        for (int i = 0; i < 20; i++) {
            r.run();
        }
        int rounds = 50;
        long t0 = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            r.run();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(
                "bench: %s: %.2f ms each, %.0f MB/s%n",
                what, seconds * 1e3 / rounds, bytes * (double) rounds / seconds / 1e6);
    }
}
