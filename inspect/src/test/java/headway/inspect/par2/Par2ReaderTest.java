package headway.inspect.par2;

import static org.assertj.core.api.Assertions.assertThat;

import headway.inspect.yenc.FuzzSeed;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Par2ReaderTest {

    /** Sizes around the 16 KiB hash's edge and several slices of 16 KiB. */
    private static final int[] SIZES = {1, 1000, 16383, 16384, 16385, 100_000, 300_000};

    @TempDir
    Path dir;

    @Test
    void readsEveryFileOfASetMadeByPar2Create() throws Exception {
        Map<String, byte[]> files = files();
        run("-s16384", "-r10", "set.par2");
        Par2Set set = Par2Reader.read(Files.readAllBytes(dir.resolve("set.par2")));
        assertThat(set.reason()).isNull();
        assertThat(set.packetsSkipped()).isZero();
        assertThat(set.sliceSize()).isEqualTo(16384);
        assertThat(set.creator()).startsWith("Created by par2cmdline");
        assertThat(set.recoveryFileIds()).hasSize(files.size());
        assertThat(set.files()).hasSize(files.size());
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
            byte[] content = e.getValue();
            Par2File f = set.files().stream()
                    .filter(p -> p.name().equals(e.getKey()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no description of " + e.getKey() + " in " + set.files()));
            assertThat(f.length()).isEqualTo(content.length);
            assertThat(f.md5()).isEqualTo(Par2Set.md5Hex(content, 0, content.length));
            assertThat(f.md5Of16k()).isEqualTo(Par2Set.md5Hex(content, 0, Math.min(16384, content.length)));
            assertThat(set.recoveryFileIds()).contains(f.id());
            byte[] head = Arrays.copyOf(content, Math.min(content.length, 16384 + 5000));
            assertThat(set.fileFor(head, content.length)).as(e.getKey()).contains(f);
            assertThat(set.fileFor(head, content.length + 1L)).isEmpty();
        }
    }

    @Test
    void countsTheRecoveryBlocksOfVolumesAndFindsTheirCopiesOfTheFiles() throws Exception {
        Map<String, byte[]> files = files();
        run("-s16384", "-c12", "-n3", "vols.par2");
        List<Path> volumes;
        try (Stream<Path> s = Files.list(dir)) {
            volumes = s.filter(p -> p.getFileName().toString().startsWith("vols.vol"))
                    .sorted()
                    .toList();
        }
        assertThat(volumes).hasSize(3);
        int blocks = 0;
        List<Integer> exponents = new ArrayList<>();
        for (Path v : volumes) {
            byte[] b = Files.readAllBytes(v);
            assertThat(Par2Reader.recognizes(b)).isTrue();
            Par2Set set = Par2Reader.read(b);
            assertThat(set.reason()).as(v.toString()).isNull();
            assertThat(set.files()).hasSize(files.size());
            blocks += set.recoveryBlocks();
            exponents.addAll(set.exponents());
        }
        assertThat(blocks).isEqualTo(12);
        assertThat(exponents).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
    }

    @Test
    void aPrefixCountsTheCompletePacketsAndNamesTheCut() throws Exception {
        files();
        run("-s16384", "-c4", "-n1", "cut.par2");
        byte[] index = Files.readAllBytes(dir.resolve("cut.par2"));
        Par2Set whole = Par2Reader.read(index);
        Par2Set half = Par2Reader.read(Arrays.copyOf(index, index.length / 2));
        assertThat(half.reason()).startsWith("truncated: packet at offset");
        assertThat(half.packetsRead()).isLessThan(whole.packetsRead()).isPositive();
        assertThat(whole.files()).containsAll(half.files());
    }

    @Test
    void bytesStartingMidFileResynchroniseOnTheNextMagic() throws Exception {
        byte[] index = fixture();
        Par2Set set = Par2Reader.read(index, 20, index.length);
        assertThat(set.reason()).startsWith("no packet at offset 20: resynchronised at 92");
        assertThat(set.files()).extracting(Par2File::name).containsExactly("Café ß 日本.bin");
    }

    @Test
    void theCommittedFixtureHoldsAUtf8Name() throws Exception {
        byte[] content = new byte[100];
        for (int i = 0; i < 100; i++) {
            content[i] = (byte) i;
        }
        Par2Set set = Par2Reader.read(fixture());
        assertThat(set.reason()).isNull();
        assertThat(set.sliceSize()).isEqualTo(100);
        assertThat(set.creator()).isEqualTo("Created by par2cmdline version 0.8.1.");
        assertThat(set.files()).hasSize(1);
        Par2File f = set.files().get(0);
        assertThat(f.name()).isEqualTo("Café ß 日本.bin");
        assertThat(f.length()).isEqualTo(100);
        assertThat(f.md5()).isEqualTo(Par2Set.md5Hex(content, 0, 100));
        assertThat(f.md5Of16k()).isEqualTo(f.md5());
        assertThat(set.fileFor(content, 100)).contains(f);
        assertThat(set.fileFor(Arrays.copyOf(content, 99), 100))
                .as("fewer bytes than the hash covers")
                .isEmpty();
        assertThat(set.recoveryFileIds()).containsExactly(f.id());
        assertThat(set.setId()).hasSize(32);
    }

    @Test
    void aPacketWhoseHashFailsIsSkippedAndTheRestRead() throws Exception {
        byte[] index = fixture();
        int name = indexOf(index, "Caf".getBytes(StandardCharsets.US_ASCII));
        index[name] ^= 1;
        Par2Set set = Par2Reader.read(index);
        assertThat(set.files()).isEmpty();
        assertThat(set.packetsSkipped()).isEqualTo(1);
        assertThat(set.reason()).contains("fails its MD5");
        assertThat(set.sliceSize()).isEqualTo(100);
        assertThat(set.creator()).startsWith("Created by");
    }

    @Test
    void lyingLengthsAreReasonsAndAllocateNothing() throws Exception {
        for (long lie : new long[] {1L << 60, 1L << 31, -1L, 0, 63, 66, 1L << 30 | 4}) {
            byte[] index = fixture();
            Packets.putLong(index, 8, lie);
            Par2Reader.read(index);
            long before = FuzzSeed.allocated();
            Par2Set set = Par2Reader.read(index);
            long used = FuzzSeed.allocated() - before;
            assertThat(set.packetsSkipped()).as("length %d", lie).isEqualTo(1);
            assertThat(set.reason()).as("length %d", lie).contains("claims");
            assertThat(set.files()).as("the packets after it are read").hasSize(1);
            assertThat(used).as("bytes allocated for length %d", lie).isLessThan(64 * 1024);
        }
    }

    @Test
    void aWindows1252NameDecodesAndOtherSetsAndShortBodiesAreSkipped() {
        byte[] name = {'C', 'a', 'f', (byte) 0xE9, (byte) 0x80, '.', 'b', 'i', 'n', 0, 0, 0};
        byte[] id = Packets.md5("id".getBytes(StandardCharsets.US_ASCII));
        byte[] main = Packets.mainBody(1024, new byte[][] {id}, new byte[0][]);
        byte[] set = Packets.md5(main);
        byte[] other = Packets.md5("other".getBytes(StandardCharsets.US_ASCII));
        byte[] md5 = Packets.md5(new byte[] {1});
        byte[] buf = Packets.concat(
                Packets.packet(Packets.MAIN, set, main),
                Packets.packet(Packets.FILE_DESC, set, Packets.fileDescBody(id, md5, md5, 1, name)),
                Packets.packet(Packets.FILE_DESC, other, Packets.fileDescBody(other, md5, md5, 2, name)),
                Packets.packet(Packets.FILE_DESC, set, new byte[12]),
                Packets.packet(Packets.RECOVERY, set, Packets.recoveryBody(7, 1024)),
                Packets.packet("PAR 2.0\0UniFileN", set, new byte[20]));
        Par2Set s = Par2Reader.read(buf);
        assertThat(s.files()).extracting(Par2File::name).containsExactly("Café€.bin");
        assertThat(s.packetsSkipped()).isEqualTo(2);
        assertThat(s.packetsRead()).isEqualTo(4);
        assertThat(s.recoveryBlocks()).isEqualTo(1);
        assertThat(s.exponents()).containsExactly(7);
        assertThat(s.reason()).contains("another recovery set");
    }

    @Test
    void aMainPacketThatListsMoreFilesThanItHoldsOrDoesNotHashToItsSetIsSkipped() {
        byte[] id = Packets.md5("id".getBytes(StandardCharsets.US_ASCII));
        byte[] main = Packets.mainBody(1024, new byte[][] {id}, new byte[0][]);
        Packets.putLong(main, 8, 5L);
        byte[] lying = Packets.packet(Packets.MAIN, Packets.md5(main), main);
        Par2Set s = Par2Reader.read(lying);
        assertThat(s.sliceSize()).isZero();
        assertThat(s.reason()).contains("main packet lists");
        byte[] honest = Packets.mainBody(1024, new byte[][] {id}, new byte[0][]);
        Par2Set wrongSet = Par2Reader.read(Packets.packet(Packets.MAIN, id, honest));
        assertThat(wrongSet.reason()).contains("does not hash to its set id");
    }

    @Test
    void recognizesPar2ByItsMagicOnly() throws Exception {
        assertThat(Par2Reader.recognizes(fixture())).isTrue();
        assertThat(Par2Reader.recognizes("PAR2\0PK".getBytes(StandardCharsets.ISO_8859_1)))
                .isFalse();
        assertThat(Par2Reader.recognizes("Rar!\u001a\u0007\0".getBytes(StandardCharsets.ISO_8859_1)))
                .isFalse();
        assertThat(Par2Reader.recognizes(new byte[0])).isFalse();
        assertThat(Par2Reader.read(new byte[1000]).reason()).isEqualTo("no PAR2 packet in 1000 bytes");
    }

    private Map<String, byte[]> files() throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>();
        Random r = new Random(SIZES.length);
        String[] names = {"a.bin", "Ünïcödé 名前.bin", "exact16k.bin", "b c.bin", "d.rar", "e.r00", "f.mkv"};
        for (int i = 0; i < SIZES.length; i++) {
            byte[] b = new byte[SIZES[i]];
            r.nextBytes(b);
            files.put(names[i], b);
            Files.write(dir.resolve(names[i]), b);
        }
        return files;
    }

    /** Runs Debian's par2 over every file in the directory. */
    private void run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(par2(), "create", "-q", "-q"));
        cmd.addAll(Arrays.asList(args));
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> !p.toString().endsWith(".par2"))
                    .forEach(p -> cmd.add(p.getFileName().toString()));
        }
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("par2 finished").isTrue();
        assertThat(p.exitValue()).as("par2 create: %s", out).isZero();
    }

    private static String par2() {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (Files.isExecutable(Path.of(d, "par2"))) {
                return Path.of(d, "par2").toString();
            }
        }
        throw new AssertionError("par2 (par2cmdline) is not installed: run bin/install-test-tools");
    }

    static byte[] fixture() throws IOException {
        try (InputStream in = Par2ReaderTest.class.getResourceAsStream("/par2/utf8-name.par2")) {
            if (in == null) {
                throw new AssertionError("fixture par2/utf8-name.par2 is missing");
            }
            return in.readAllBytes();
        }
    }

    private static int indexOf(byte[] b, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= b.length; i++) {
            for (int k = 0; k < needle.length; k++) {
                if (b[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }
}
