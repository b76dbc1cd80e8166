package headway.nntp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;

/** Both framings of an XFEATURE COMPRESS GZIP reply, read as the plain reply's lines, and what breaks them. */
class GzipReplyTest {

    private static final String LINES = "1\tsubject one\r\n..2\tdot-stuffed\r\n3\tsubject three\r\n";

    @Test
    void terminatorAfterTheStream() throws IOException {
        byte[] wire = concat(zlib(LINES), ".\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(readAll(wire, 7)).containsExactly("1\tsubject one", "..2\tdot-stuffed", "3\tsubject three", ".");
    }

    @Test
    void terminatorInsideTheStream() throws IOException {
        byte[] wire = zlib(LINES + ".\r\n");
        assertThat(readAll(wire, 7)).containsExactly("1\tsubject one", "..2\tdot-stuffed", "3\tsubject three", ".");
    }

    @Test
    void textInsideTheStreamAfterTheTerminatorIsNotClean() throws IOException {
        byte[] wire = zlib(LINES + ".\r\nmore\r\n");
        GzipReply block = new GzipReply(new byte[0], new ByteArrayInputStream(wire));
        LineReader lines = new LineReader(block, 64);
        while (lines.readLine() != 1 || lines.line()[0] != '.') {}
        assertThat(block.endsCleanly(lines.buffered())).isFalse();
    }

    @Test
    void plainBytesAfterTheStreamAreHandedBackForTheNextReply() throws IOException {
        String next = "224 overview follows\r\n";
        byte[] wire = concat(zlib(LINES + ".\r\n"), next.getBytes(StandardCharsets.US_ASCII));
        GzipReply block = new GzipReply(new byte[0], new ByteArrayInputStream(wire));
        LineReader lines = new LineReader(block, 64);
        while (lines.readLine() != 1 || lines.line()[0] != '.') {}
        assertThat(block.endsCleanly(lines.buffered())).isTrue();
        byte[] rest = concat(lines.takeBuffered(), block.plainLeft());
        assertThat(new String(rest, StandardCharsets.US_ASCII)).isEqualTo(next);
    }

    @Test
    void aCorruptStreamNamesTheSettingThatTurnsItOff() {
        byte[] wire = zlib(LINES);
        wire[wire.length / 2] ^= 0x55;
        wire[2] ^= 0x7f;
        assertThatThrownBy(() -> readAll(wire, 0))
                .isInstanceOf(ZipException.class)
                .hasMessageContaining("HEADWAY_NNTP_COMPRESS=false");
    }

    /** Reads lines up to the terminator, the first {@code head} bytes handed over as already buffered. */
    private static List<String> readAll(byte[] wire, int head) throws IOException {
        GzipReply block = new GzipReply(
                Arrays.copyOf(wire, head), new ByteArrayInputStream(Arrays.copyOfRange(wire, head, wire.length)));
        LineReader lines = new LineReader(block, 16);
        List<String> out = new ArrayList<>();
        while (true) {
            int len = lines.readLine();
            String line = new String(lines.line(), 0, len, StandardCharsets.US_ASCII);
            out.add(line);
            if (line.equals(".")) {
                break;
            }
        }
        assertThat(lines.buffered()).isZero();
        assertThat(block.endsCleanly(0)).isTrue();
        return out;
    }

    private static byte[] zlib(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DeflaterOutputStream z = new DeflaterOutputStream(bytes)) {
            z.write(text.getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
