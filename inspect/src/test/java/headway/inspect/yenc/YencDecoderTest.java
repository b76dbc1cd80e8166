package headway.inspect.yenc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

class YencDecoderTest {

    private static final int ALL = Integer.MAX_VALUE;

    @Test
    void singlePartRoundTripsWithItsCrcAndName() {
        byte[] file = random(50_000, 1);
        YencPart p = YencDecoder.decode(YencEncoder.single(file, "Some.Release.2019.part01.rar", 128), ALL);
        assertThat(p.reason()).isNull();
        assertThat(p.crc()).isEqualTo(YencPart.Crc.MATCHED);
        assertThat(p.data()).isEqualTo(file);
        assertThat(p.decoded()).isEqualTo(file.length);
        assertThat(p.name()).isEqualTo("Some.Release.2019.part01.rar");
        assertThat(p.size()).isEqualTo(file.length);
        assertThat(p.part()).isZero();
        assertThat(p.ok()).isTrue();
    }

    @Test
    void multipartPartsDecodeToTheirSlicesOfTheFile() {
        byte[] file = random(100_000, 2);
        int partSize = 30_000;
        int total = (file.length + partSize - 1) / partSize;
        for (int part = 1; part <= total; part++) {
            int from = (part - 1) * partSize;
            int to = Math.min(file.length, from + partSize);
            YencPart p = YencDecoder.decode(YencEncoder.part(file, "a3f9c0e1", part, total, from, to, 256), ALL);
            assertThat(p.reason()).as("part %d", part).isNull();
            assertThat(p.crc()).isEqualTo(YencPart.Crc.MATCHED);
            assertThat(p.data()).isEqualTo(Arrays.copyOfRange(file, from, to));
            assertThat(p.part()).isEqualTo(part);
            assertThat(p.total()).isEqualTo(total);
            assertThat(p.begin()).isEqualTo(from + 1L);
            assertThat(p.end()).isEqualTo(to);
            assertThat(p.size()).isEqualTo(file.length);
        }
    }

    @Test
    void aCapKeepsThePrefixAndStillChecksTheWholePart() {
        byte[] file = random(200_000, 3);
        YencPart p = YencDecoder.decode(YencEncoder.part(file, "x.bin", 1, 2, 0, 150_000, 128), 1024);
        assertThat(p.data()).isEqualTo(Arrays.copyOf(file, 1024));
        assertThat(p.decoded()).isEqualTo(150_000);
        assertThat(p.crc()).isEqualTo(YencPart.Crc.MATCHED);
        assertThat(p.reason()).isNull();
    }

    @Test
    void everyCriticalByteIsEscapedAndNoLineStartsWithADot() {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int rep = 0; rep < 300; rep++) {
            for (int v = 0; v < 256; v++) {
                all.write(v);
            }
        }
        byte[] file = all.toByteArray();
        for (int line : new int[] {1, 2, 7, 64, 128, 255, 997}) {
            byte[] body = YencEncoder.single(file, "all-bytes", line);
            String text = new String(body, StandardCharsets.ISO_8859_1);
            for (String l : text.split("\r\n")) {
                assertThat(l).doesNotContain("\0", "\r", "\n").doesNotStartWith(".");
                assertThat(l)
                        .doesNotStartWith(" ")
                        .doesNotStartWith("\t")
                        .doesNotEndWith(" ")
                        .doesNotEndWith("\t");
                assertThat(l.endsWith("=")).as("a line never ends in an escape").isFalse();
            }
            YencPart p = YencDecoder.decode(body, ALL);
            assertThat(p.data()).as("line length %d", line).isEqualTo(file);
            assertThat(p.crc()).isEqualTo(YencPart.Crc.MATCHED);
        }
    }

    @Test
    void aLineStartingWithTwoDotsIsDataBecauseLinesComeUnstuffed() {
        byte[] data = {'.', '.', 'X'};
        byte[] decoded = {(byte) ('.' - 42), (byte) ('.' - 42), (byte) ('X' - 42)};
        String body = "=ybegin line=128 size=3 name=dots\r\n" + new String(data, StandardCharsets.ISO_8859_1)
                + "\r\n=yend size=3 crc32=" + crc(decoded) + "\r\n";
        YencPart p = YencDecoder.decode(body.getBytes(StandardCharsets.ISO_8859_1), ALL);
        assertThat(p.data()).isEqualTo(decoded);
        assertThat(p.crc()).isEqualTo(YencPart.Crc.MATCHED);
        assertThat(p.reason()).isNull();
    }

    @Test
    void textAroundThePartAndADiscussionOfYencAreIgnored() {
        byte[] file = random(3000, 4);
        byte[] part = YencEncoder.single(file, "f.bin", 128);
        byte[] body = concat(
                ascii("Hello, this post is about =ybegin lines.\r\n=ybegin is how it starts\r\n\r\n"),
                part,
                ascii("-- \r\nsignature =ybegin line=1 size=5 name=after\r\n"));
        YencPart p = YencDecoder.decode(body, ALL);
        assertThat(p.data()).isEqualTo(file);
        assertThat(p.name()).isEqualTo("f.bin");
        assertThat(p.reason()).isNull();
    }

    @Test
    void bareLfLinesAndAnEscapeEndingALineDecode() {
        byte[] decoded = {(byte) ('A' - 64 - 42), (byte) ('B' - 42)};
        String body = "=ybegin line=128 size=2 name=lf\n=\nAB\n=yend size=2 crc32=" + crc(decoded) + "\n";
        YencPart p = YencDecoder.decode(body.getBytes(StandardCharsets.ISO_8859_1), ALL);
        assertThat(p.data()).isEqualTo(decoded);
        assertThat(p.crc()).isEqualTo(YencPart.Crc.MATCHED);
    }

    @Test
    void aPartWithoutYendIsTruncatedAndKeepsWhatItDecoded() {
        byte[] file = random(10_000, 5);
        String body = new String(YencEncoder.single(file, "t.bin", 128), StandardCharsets.ISO_8859_1);
        String cut = body.substring(0, body.indexOf("=yend"));
        YencPart p = YencDecoder.decode(cut.getBytes(StandardCharsets.ISO_8859_1), ALL);
        assertThat(p.reason()).startsWith("truncated: no =yend");
        assertThat(p.data()).isEqualTo(file);
        assertThat(p.ok()).isFalse();
    }

    @Test
    void aLyingSizeIsAReasonAndAllocatesNothingFromIt() {
        String body = "=ybegin part=1 total=1 line=128 size=1152921504606846976 name=big\r\n=ypart begin=1 end="
                + "1152921504606846976\r\nabc\r\n=yend size=3\r\n";
        YencDecoder.decode(body.getBytes(StandardCharsets.ISO_8859_1), ALL);
        long before = FuzzSeed.allocated();
        YencPart p = YencDecoder.decode(body.getBytes(StandardCharsets.ISO_8859_1), ALL);
        long used = FuzzSeed.allocated() - before;
        assertThat(p.reason()).startsWith("lying: size=1152921504606846976");
        assertThat(p.data()).isEmpty();
        assertThat(used).as("bytes allocated").isLessThan(256 * 1024);
    }

    @Test
    void aYpartRangeThatDisagreesWithTheBytesIsInconsistent() {
        byte[] file = random(5000, 6);
        String body = new String(YencEncoder.part(file, "p", 1, 2, 0, 3000, 128), StandardCharsets.ISO_8859_1)
                .replace("end=3000", "end=2999");
        YencPart p = YencDecoder.decode(body.getBytes(StandardCharsets.ISO_8859_1), ALL);
        assertThat(p.reason()).startsWith("inconsistent: =ypart 1-2999 holds 2999 bytes, decoded 3000");
        String badEnd = new String(YencEncoder.part(file, "p", 1, 2, 0, 3000, 128), StandardCharsets.ISO_8859_1)
                .replace("=yend size=3000", "=yend size=3001");
        assertThat(YencDecoder.decode(badEnd.getBytes(StandardCharsets.ISO_8859_1), ALL)
                        .reason())
                .startsWith("inconsistent: =yend size=3001");
        String pastSize = new String(YencEncoder.part(file, "p", 1, 2, 0, 3000, 128), StandardCharsets.ISO_8859_1)
                .replace("end=3000", "end=9000");
        assertThat(YencDecoder.decode(pastSize.getBytes(StandardCharsets.ISO_8859_1), ALL)
                        .reason())
                .startsWith("inconsistent: =ypart begin=1 end=9000 for size 5000");
    }

    @Test
    void aWrongOrMissingCrcIsSaid() {
        byte[] file = random(4000, 7);
        String good = new String(YencEncoder.part(file, "c", 1, 2, 0, 2000, 128), StandardCharsets.ISO_8859_1);
        int at = good.indexOf("pcrc32=") + "pcrc32=".length();
        char flipped = good.charAt(at) == '0' ? '1' : '0';
        String wrong = good.substring(0, at) + flipped + good.substring(at + 1);
        YencPart bad = YencDecoder.decode(wrong.getBytes(StandardCharsets.ISO_8859_1), ALL);
        assertThat(bad.crc()).isEqualTo(YencPart.Crc.MISMATCHED);
        assertThat(bad.ok()).isFalse();
        String none = good.substring(0, good.indexOf(" pcrc32=")) + "\r\n";
        assertThat(YencDecoder.decode(none.getBytes(StandardCharsets.ISO_8859_1), ALL)
                        .crc())
                .isEqualTo(YencPart.Crc.ABSENT);
    }

    @Test
    void theWholeFilesCrcOfAMiddlePartIsNotThePartsCrc() {
        byte[] file = random(4000, 8);
        String body = new String(YencEncoder.part(file, "m", 2, 2, 2000, 4000, 128), StandardCharsets.ISO_8859_1);
        String onlyWhole = body.replaceAll(" pcrc32=[0-9a-f]{8}", "");
        assertThat(YencDecoder.decode(onlyWhole.getBytes(StandardCharsets.ISO_8859_1), ALL)
                        .crc())
                .isEqualTo(YencPart.Crc.ABSENT);
    }

    @Test
    void aLineLongerThanTheBoundIsAReasonNotAnAllocation() throws Exception {
        byte[] body = concat(ascii("=ybegin line=128 size=100000 name=long\r\n"), filled(200_000, (byte) 'a'));
        YencDecoder.decode(new ByteArrayInputStreamNoCopy(body), 1024);
        long before = FuzzSeed.allocated();
        YencPart p = YencDecoder.decode(new ByteArrayInputStreamNoCopy(body), 1024);
        long used = FuzzSeed.allocated() - before;
        assertThat(p.reason()).isEqualTo("line longer than " + YencDecoder.MAX_LINE + " bytes");
        assertThat(used).as("bytes allocated").isLessThan(3L * YencDecoder.MAX_LINE + 64 * 1024);
    }

    @Test
    void namesAreDecodedTotallyFromUtf8OrLatin1WithoutControls() {
        byte[] utf8 = concat(
                ascii("=ybegin line=128 size=0 name= Caf"),
                new byte[] {(byte) 0xC3, (byte) 0xA9},
                ascii("\u0007.nfo  \r\n=yend size=0\r\n"));
        assertThat(YencDecoder.decode(utf8, ALL).name()).isEqualTo("Café.nfo");
        byte[] latin1 = concat(
                ascii("=ybegin line=128 size=0 name=Caf"),
                new byte[] {(byte) 0xE9, (byte) 0x80},
                ascii(".nfo\r\n=yend size=0\r\n"));
        assertThat(YencDecoder.decode(latin1, ALL).name()).isEqualTo("Café€.nfo");
        assertThat(YencDecoder.decode(latin1, ALL).reason()).isNull();
    }

    @Test
    void theStreamIsReadNoFurtherThanYendAndMatchesTheArrayDecoder() throws Exception {
        byte[] file = random(20_000, 9);
        byte[] part = YencEncoder.single(file, "s.bin", 200);
        byte[] rest = filled(100_000, (byte) 'z');
        ByteArrayInputStream in = new ByteArrayInputStream(concat(part, rest));
        YencPart p = YencDecoder.decode(in, ALL);
        assertThat(p.data()).isEqualTo(file);
        assertThat(p.crc()).isEqualTo(YencPart.Crc.MATCHED);
        assertThat(in.available()).as("bytes left unread").isGreaterThan(rest.length - 8192);
        YencPart q = YencDecoder.decode(part, 100);
        YencPart r = YencDecoder.decode(new ByteArrayInputStream(part), 100);
        assertThat(YencFuzzTest.same(r, q)).isTrue();
    }

    @Test
    void aBodyWithoutHeaderSaysSo() {
        YencPart p = YencDecoder.decode(ascii("just text\r\nno yEnc here\r\n"), ALL);
        assertThat(p.found()).isFalse();
        assertThat(p.reason()).isEqualTo("no =ybegin line");
    }

    static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    static String crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return String.format("%08x", c.getValue());
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    static byte[] filled(int n, byte v) {
        byte[] b = new byte[n];
        Arrays.fill(b, v);
        return b;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** A stream over an array the test already holds, so its reads allocate nothing. */
    private static final class ByteArrayInputStreamNoCopy extends ByteArrayInputStream {
        ByteArrayInputStreamNoCopy(byte[] b) {
            super(b);
        }
    }
}
